#include "pipelines.hpp"

#include <chrono>
#include <cstring>

namespace avk {

namespace {

// Specialisation constants 0..n-1, one uint32 word each, as every shader declares them.
struct Specialization
{
    std::vector<vk::SpecializationMapEntry> entries;
    vk::SpecializationInfo info;
    Specialization(const uint32_t* spec, size_t n)
    {
        for (uint32_t i = 0; i < n; i++)
            entries.emplace_back(i, i * sizeof(uint32_t), sizeof(uint32_t));
        info = vk::SpecializationInfo((uint32_t)n, entries.data(), n * sizeof(uint32_t), spec);
    }
    Specialization(const Specialization&) = delete; // (info points into entries)
};

} // namespace

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
    Specialization si(spec, nspec);
    vk::PipelineShaderStageCreateInfo stage({}, vk::ShaderStageFlagBits::eCompute, mit->second, "main", &si.info);
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

size_t
PipelineCache::remake(const std::string& source)
{
    vk::PipelineCache cache = nullptr;
    bool own = false;
    if (source == "same") {
        cache = mCache;
    } else if (source == "fresh") {
        cache = mDevice->createPipelineCache(vk::PipelineCacheCreateInfo());
        own = true;
    } else if (source == "blob") {
        auto blob = mDevice->getPipelineCacheData(mCache);
        cache = mDevice->createPipelineCache(vk::PipelineCacheCreateInfo({}, blob.size(), blob.data()));
        own = true;
    } else if (source != "null") {
        throw std::invalid_argument("remake: source is same, fresh, blob or null, not " + source);
    }
    size_t n = 0;
    for (auto& [k, p] : mPipelines) {
        size_t z = k.find('\0');
        auto mit = mModules.find(k.substr(0, z));
        if (mit == mModules.end())
            continue;
        std::vector<uint32_t> spec((k.size() - z - 1) / sizeof(uint32_t));
        std::memcpy(spec.data(), k.data() + z + 1, spec.size() * sizeof(uint32_t));
        Specialization si(spec.data(), spec.size());
        vk::PipelineShaderStageCreateInfo stage({}, vk::ShaderStageFlagBits::eCompute, mit->second, "main", &si.info);
        vk::ComputePipelineCreateInfo info({}, stage, mLayout);
        auto r = mDevice->createComputePipeline(cache, info);
        if (r.result != vk::Result::eSuccess)
            vk::throwResultException(r.result, "vkCreateComputePipelines");
        p->pipeline = r.value; // (the old one is left alive: recorded work may still name it)
        n++;
    }
    if (own)
        mDevice->destroyPipelineCache(cache);
    return n;
}

py::list
PipelineCache::statistics(const std::string& key, const std::vector<uint32_t>& spec, const py::object& load_spirv)
{
    py::list out;
    if (!exec_stats)
        return out;
    VkDevice dev = static_cast<VkDevice>(*mDevice);
    auto props_fn = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(dev, "vkGetPipelineExecutablePropertiesKHR"));
    auto stats_fn = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(dev, "vkGetPipelineExecutableStatisticsKHR"));
    if (!props_fn || !stats_fn)
        return out;
    std::string code = py::bytes(load_spirv(key));
    vk::ShaderModule module =
      mDevice->createShaderModule(vk::ShaderModuleCreateInfo({}, code.size(), reinterpret_cast<const uint32_t*>(code.data())));
    Specialization si(spec.data(), spec.size());
    vk::PipelineShaderStageCreateInfo stage({}, vk::ShaderStageFlagBits::eCompute, module, "main", &si.info);
    vk::ComputePipelineCreateInfo info(vk::PipelineCreateFlagBits::eCaptureStatisticsKHR, stage, mLayout);
    auto r = mDevice->createComputePipeline(nullptr, info);
    mDevice->destroyShaderModule(module);
    if (r.result != vk::Result::eSuccess)
        vk::throwResultException(r.result, "vkCreateComputePipelines");
    VkPipeline pipe = static_cast<VkPipeline>(r.value);
    VkPipelineInfoKHR pinfo{ VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipe };
    uint32_t n = 0;
    props_fn(dev, &pinfo, &n, nullptr);
    std::vector<VkPipelineExecutablePropertiesKHR> props(n, { VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR });
    props_fn(dev, &pinfo, &n, props.data());
    for (uint32_t e = 0; e < n; e++) {
        VkPipelineExecutableInfoKHR einfo{ VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipe, e };
        uint32_t m = 0;
        stats_fn(dev, &einfo, &m, nullptr);
        std::vector<VkPipelineExecutableStatisticKHR> st(m, { VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR });
        stats_fn(dev, &einfo, &m, st.data());
        py::dict d;
        for (const auto& x : st) {
            switch (x.format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: d[x.name] = bool(x.value.b32); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: d[x.name] = x.value.i64; break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: d[x.name] = x.value.u64; break;
            default: d[x.name] = x.value.f64;
            }
        }
        out.append(py::make_tuple(std::string(props[e].name), d));
    }
    mDevice->destroyPipeline(r.value);
    return out;
}

} // namespace avk
