// Pipelines owned by the runtime: one per (SPIR-V module, specialisation constants), never per
// memory bound (kernels reach memory through device addresses in push constants, so no
// pipeline has a descriptor set). One VkPipelineCache per device, loaded from and saved to disk
// by the Python layer (per device UUID and driver version), so that a second process compiles
// no pipeline it compiled before.
#pragma once

#include "common.hpp"

#include <unordered_map>

namespace avk {

struct Pipeline
{
    vk::Pipeline pipeline;
};

class PipelineCache
{
  public:
    PipelineCache(std::shared_ptr<vk::Device> device, uint32_t max_push_bytes, bool feedback);

    // The pipeline for spirv/spec, made on first use. key: the caller's name for spirv
    // (shader name); spec: uint32 specialisation constants 0..n-1.
    Pipeline* get(const std::string& key, const uint32_t* spec, size_t nspec, const py::object& load_spirv);
    vk::PipelineLayout layout() const { return mLayout; }
    uint32_t push_bytes() const { return mPushBytes; }

    // The driver's cache blob (to save) and loading one (before the first pipeline).
    py::bytes data() const;
    void load(const std::string& blob);

    size_t size() const { return mPipelines.size(); }

    // The driver's statistics of each executable of a fresh pipeline of spirv/spec (register
    // count, spills, ... as the driver names them): [(executable name, {statistic: value})];
    // empty where the device was made without VK_KHR_pipeline_executable_properties.
    py::list statistics(const std::string& key, const std::vector<uint32_t>& spec, const py::object& load_spirv);
    // A diagnostic: every pipeline made again from `source` ("same": this cache, "fresh": a new
    // empty one, "blob": a new one holding this one's data, "null": none), the new handle
    // replacing the old (left alive) for later recording; returns how many.
    size_t remake(const std::string& source);
    bool exec_stats = false;
    uint64_t created = 0, cache_hits = 0;
    double seconds = 0; // time spent creating pipelines

  private:
    std::shared_ptr<vk::Device> mDevice;
    vk::PipelineLayout mLayout;
    vk::PipelineCache mCache;
    uint32_t mPushBytes;
    bool mFeedback;
    std::unordered_map<std::string, std::unique_ptr<Pipeline>> mPipelines;
    std::unordered_map<std::string, vk::ShaderModule> mModules;
    std::string mKey;
};

} // namespace avk
