#include "pipelines.hpp"

#include <chrono>

namespace avk {

PipelineCache::PipelineCache(std::shared_ptr<vk::Device> device, uint32_t max_push_bytes, bool feedback)
  : mDevice(std::move(device))
  , mFeedback(feedback)
{
    // Shaders declare at most 128 bytes (the minimum every device has); the layout's range may
    // be larger where the device allows, for kernels that ask for more there.
    mPushBytes = std::min<uint32_t>(max_push_bytes, 256);
    vk::PushConstantRange range(vk::ShaderStageFlagBits::eCompute, 0, mPushBytes);
    mLayout = mDevice->createPipelineLayout(vk::PipelineLayoutCreateInfo({}, 0, nullptr, 1, &range));
    mCache = mDevice->createPipelineCache(vk::PipelineCacheCreateInfo());
}

void
PipelineCache::load(const std::string& blob)
{
    if (blob.empty())
        return;
    // The driver checks the header (vendor, device, cache UUID) and ignores a blob not its own.
    vk::PipelineCache loaded;
    vk::PipelineCacheCreateInfo info({}, blob.size(), blob.data());
    if (mDevice->createPipelineCache(&info, nullptr, &loaded) != vk::Result::eSuccess)
        return;
    mDevice->destroyPipelineCache(mCache);
    mCache = loaded;
}

py::bytes
PipelineCache::data() const
{
    auto blob = mDevice->getPipelineCacheData(mCache);
    return py::bytes(reinterpret_cast<const char*>(blob.data()), blob.size());
}

Pipeline*
PipelineCache::get(const std::string& key, const uint32_t* spec, size_t nspec, const py::object& load_spirv)
{
    std::string& k = mKey;
    k.assign(key);
    k.push_back('\0');
    k.append(reinterpret_cast<const char*>(spec), nspec * sizeof(uint32_t));
    auto it = mPipelines.find(k);
    if (it != mPipelines.end())
        return it->second.get();

    auto mit = mModules.find(key);
    if (mit == mModules.end()) {
        std::string code = py::bytes(load_spirv(key));
        if (code.size() % 4 != 0)
            throw std::invalid_argument("SPIR-V size of " + key + " is not a multiple of 4");
        vk::ShaderModuleCreateInfo info({}, code.size(), reinterpret_cast<const uint32_t*>(code.data()));
        mit = mModules.emplace(key, mDevice->createShaderModule(info)).first;
    }
    std::vector<vk::SpecializationMapEntry> entries;
    for (uint32_t i = 0; i < nspec; i++)
        entries.emplace_back(i, i * sizeof(uint32_t), sizeof(uint32_t));
    vk::SpecializationInfo si((uint32_t)entries.size(), entries.data(), nspec * sizeof(uint32_t), spec);
    vk::PipelineShaderStageCreateInfo stage({}, vk::ShaderStageFlagBits::eCompute, mit->second, "main", &si);
    vk::ComputePipelineCreateInfo info({}, stage, mLayout);
    vk::PipelineCreationFeedbackEXT whole{}, stages{};
    vk::PipelineCreationFeedbackCreateInfoEXT fb(&whole, 1, &stages);
    if (mFeedback)
        info.pNext = &fb;
    auto p = std::make_unique<Pipeline>();
    auto t0 = std::chrono::steady_clock::now();
    {
        py::gil_scoped_release release;
        auto r = mDevice->createComputePipeline(mCache, info);
        if (r.result != vk::Result::eSuccess)
            vk::throwResultException(r.result, "vkCreateComputePipelines");
        p->pipeline = r.value;
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    created++;
    if (mFeedback && (whole.flags & vk::PipelineCreationFeedbackFlagBitsEXT::eValid) &&
        (whole.flags & vk::PipelineCreationFeedbackFlagBitsEXT::eApplicationPipelineCacheHit))
        cache_hits++;
    Pipeline* raw = p.get();
    mPipelines.emplace(k, std::move(p));
    return raw;
}

} // namespace avk
