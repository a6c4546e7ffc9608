#include "device.hpp"

#include "batch.hpp"
#include "pipelines.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <sstream>

namespace avk {

namespace {

std::shared_ptr<vk::Instance> g_instance;
std::mutex g_instance_mutex;

bool
has_extension(const std::vector<vk::ExtensionProperties>& exts, const char* name)
{
    for (const auto& e : exts)
        if (std::strcmp(e.extensionName, name) == 0)
            return true;
    return false;
}

// Names in ARRAY_API_VULKAN_DISABLE_FEATURES (the Python layer validates them).
bool
masked(const char* name)
{
    const char* env = std::getenv("ARRAY_API_VULKAN_DISABLE_FEATURES");
    if (!env)
        return false;
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ',')) {
        item.erase(std::remove_if(item.begin(), item.end(), ::isspace), item.end());
        std::transform(item.begin(), item.end(), item.begin(), ::tolower);
        if (item == name)
            return true;
    }
    return false;
}

void
put_features(py::dict& d, const Features& f)
{
    d["float64"] = f.float64;
    d["int64"] = f.int64;
    d["int16"] = f.int16;
    d["int8"] = f.int8;
    d["storage8"] = f.storage8;
    d["storage16"] = f.storage16;
    d["device_address"] = f.device_address;
}

} // namespace

std::shared_ptr<vk::Instance>
instance()
{
    std::lock_guard<std::mutex> lock(g_instance_mutex);
    if (!g_instance) {
        // 1.2: buffer device addresses, 8/16-bit storage and float16/int8 feature structs are
        // core there; the loader clamps for older devices.
        vk::ApplicationInfo app("array_api_vulkan", 1, "kompute", 1, VK_API_VERSION_1_2);
        vk::InstanceCreateInfo info({}, &app);
        // Layers come from VK_INSTANCE_LAYERS through the loader, so tests can switch on
        // validation without a rebuild.
        g_instance = std::make_shared<vk::Instance>(vk::createInstance(info));
    }
    return g_instance;
}

Features
query_features(const vk::PhysicalDevice& pd, bool mask)
{
    Features f;
    auto chain = pd.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDevice8BitStorageFeatures,
                                 vk::PhysicalDevice16BitStorageFeatures, vk::PhysicalDeviceShaderFloat16Int8Features,
                                 vk::PhysicalDeviceBufferDeviceAddressFeatures>();
    const auto& core = chain.get<vk::PhysicalDeviceFeatures2>().features;
    f.float64 = core.shaderFloat64 && !(mask && masked("float64"));
    f.int64 = core.shaderInt64 && !(mask && masked("int64"));
    f.int16 = core.shaderInt16 && !(mask && masked("int16"));
    f.int8 = chain.get<vk::PhysicalDeviceShaderFloat16Int8Features>().shaderInt8 && !(mask && masked("int8"));
    f.storage8 = chain.get<vk::PhysicalDevice8BitStorageFeatures>().storageBuffer8BitAccess && !(mask && masked("storage8"));
    f.storage16 =
      chain.get<vk::PhysicalDevice16BitStorageFeatures>().storageBuffer16BitAccess && !(mask && masked("storage16"));
    f.device_address = chain.get<vk::PhysicalDeviceBufferDeviceAddressFeatures>().bufferDeviceAddress;
    return f;
}

py::list
enumerate_devices()
{
    py::list out;
    auto inst = instance();
    auto pds = inst->enumeratePhysicalDevices();
    for (size_t i = 0; i < pds.size(); i++) {
        const auto& pd = pds[i];
        auto props2 = pd.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceFloatControlsProperties,
                                        vk::PhysicalDeviceIDProperties, vk::PhysicalDeviceSubgroupProperties>();
        const auto& props = props2.get<vk::PhysicalDeviceProperties2>().properties;
        auto f = query_features(pd, false);
        auto mem = pd.getMemoryProperties();
        uint64_t device_local = 0;
        for (uint32_t h = 0; h < mem.memoryHeapCount; h++)
            if (mem.memoryHeaps[h].flags & vk::MemoryHeapFlagBits::eDeviceLocal)
                device_local = std::max<uint64_t>(device_local, mem.memoryHeaps[h].size);
        bool compute = false;
        for (const auto& q : pd.getQueueFamilyProperties())
            compute = compute || bool(q.queueFlags & vk::QueueFlagBits::eCompute);
        py::dict d;
        d["index"] = i;
        d["name"] = std::string(props.deviceName.data());
        d["type"] = vk::to_string(props.deviceType);
        d["vendor_id"] = props.vendorID;
        d["api_version"] = py::make_tuple(VK_VERSION_MAJOR(props.apiVersion), VK_VERSION_MINOR(props.apiVersion),
                                          VK_VERSION_PATCH(props.apiVersion));
        d["driver_version"] = props.driverVersion;
        const auto& ids = props2.get<vk::PhysicalDeviceIDProperties>();
        d["uuid"] = py::bytes(reinterpret_cast<const char*>(ids.deviceUUID.data()), VK_UUID_SIZE);
        d["pipeline_cache_uuid"] =
          py::bytes(reinterpret_cast<const char*>(props.pipelineCacheUUID.data()), VK_UUID_SIZE);
        d["compute"] = compute;
        put_features(d, f);
        d["max_storage_buffer_range"] = props.limits.maxStorageBufferRange;
        d["max_push_constants_size"] = props.limits.maxPushConstantsSize;
        d["max_compute_shared_memory_size"] = props.limits.maxComputeSharedMemorySize;
        d["max_workgroup_count"] =
          py::make_tuple(props.limits.maxComputeWorkGroupCount[0], props.limits.maxComputeWorkGroupCount[1],
                         props.limits.maxComputeWorkGroupCount[2]);
        d["max_workgroup_invocations"] = props.limits.maxComputeWorkGroupInvocations;
        const auto& sg = props2.get<vk::PhysicalDeviceSubgroupProperties>();
        d["subgroup_size"] = sg.subgroupSize;
        // The subgroup operations compute shaders may use (empty where the compute stage has none):
        // names of VkSubgroupFeatureFlagBits without the prefix, e.g. "arithmetic", "ballot".
        py::list sg_ops;
        if (sg.supportedStages & vk::ShaderStageFlagBits::eCompute) {
            const std::pair<vk::SubgroupFeatureFlagBits, const char*> names[] = {
              {vk::SubgroupFeatureFlagBits::eBasic, "basic"},
              {vk::SubgroupFeatureFlagBits::eVote, "vote"},
              {vk::SubgroupFeatureFlagBits::eArithmetic, "arithmetic"},
              {vk::SubgroupFeatureFlagBits::eBallot, "ballot"},
              {vk::SubgroupFeatureFlagBits::eShuffle, "shuffle"},
              {vk::SubgroupFeatureFlagBits::eShuffleRelative, "shuffle_relative"},
              {vk::SubgroupFeatureFlagBits::eClustered, "clustered"},
              {vk::SubgroupFeatureFlagBits::eQuad, "quad"},
              // VK_NV_shader_subgroup_partitioned (enabled where present): the radix sort's
              // digit matching in one instruction
              {vk::SubgroupFeatureFlagBits::ePartitionedNV, "partitioned_nv"}};
            for (const auto& [bit, name] : names)
                if (sg.supportedOperations & bit)
                    sg_ops.append(name);
        }
        d["subgroup_operations"] = sg_ops;
        d["device_local_bytes"] = device_local;
        // Float controls decide whether shaders can ask for denormals and signed zeros/inf/NaN
        // to be preserved (SPIR-V DenormPreserve / SignedZeroInfNanPreserve execution modes).
        const auto& fc = props2.get<vk::PhysicalDeviceFloatControlsProperties>();
        py::dict fcd;
        fcd["denorm_preserve_f32"] = bool(fc.shaderDenormPreserveFloat32);
        fcd["denorm_preserve_f64"] = bool(fc.shaderDenormPreserveFloat64);
        fcd["denorm_flush_f32"] = bool(fc.shaderDenormFlushToZeroFloat32);
        fcd["signed_zero_inf_nan_preserve_f32"] = bool(fc.shaderSignedZeroInfNanPreserveFloat32);
        fcd["signed_zero_inf_nan_preserve_f64"] = bool(fc.shaderSignedZeroInfNanPreserveFloat64);
        fcd["rounding_rte_f32"] = bool(fc.shaderRoundingModeRTEFloat32);
        fcd["rounding_rte_f64"] = bool(fc.shaderRoundingModeRTEFloat64);
        fcd["denorm_independence"] = vk::to_string(fc.denormBehaviorIndependence);
        d["float_controls"] = fcd;
        out.append(d);
    }
    return out;
}

Device::Device(uint32_t index)
{
    auto inst = instance();
    auto pds = inst->enumeratePhysicalDevices();
    if (index >= pds.size())
        throw std::out_of_range("no Vulkan device " + std::to_string(index));
    mPhysical = std::make_shared<vk::PhysicalDevice>(pds[index]);
    mFeatures = query_features(*mPhysical, true);
    if (!mFeatures.device_address)
        throw std::runtime_error("Vulkan device " + std::to_string(index) +
                                 " lacks bufferDeviceAddress, which array_api_vulkan's kernels need");

    auto families = mPhysical->getQueueFamilyProperties();
    mFamily = UINT32_MAX;
    // Prefer a compute queue without graphics: on discrete GPUs it is the async one.
    for (uint32_t i = 0; i < families.size(); i++)
        if ((families[i].queueFlags & vk::QueueFlagBits::eCompute) &&
            !(families[i].queueFlags & vk::QueueFlagBits::eGraphics)) {
            mFamily = i;
            break;
        }
    if (mFamily == UINT32_MAX)
        for (uint32_t i = 0; i < families.size(); i++)
            if (families[i].queueFlags & vk::QueueFlagBits::eCompute) {
                mFamily = i;
                break;
            }
    if (mFamily == UINT32_MAX)
        throw std::runtime_error("Vulkan device " + std::to_string(index) + " has no compute queue");

    float priority = 1.0f;
    vk::DeviceQueueCreateInfo queue_info({}, mFamily, 1, &priority);

    // Enable every feature the shaders use that the device has (and the mask leaves).
    auto exts = mPhysical->enumerateDeviceExtensionProperties();
    std::vector<const char*> enabled_exts;
    for (const char* e :
         { VK_KHR_8BIT_STORAGE_EXTENSION_NAME, VK_KHR_16BIT_STORAGE_EXTENSION_NAME,
           VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME, VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME,
           VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME,
           VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME })
        if (has_extension(exts, e))
            enabled_exts.push_back(e);
    if (has_extension(exts, "VK_KHR_portability_subset"))
        enabled_exts.push_back("VK_KHR_portability_subset");
    bool feedback = has_extension(exts, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
    // The compiler's statistics of a pipeline (registers, spills: PipelineCache::statistics), a
    // diagnostic; off unless ARRAY_API_VULKAN_PIPELINE_STATS is set.
    bool exec_stats = std::getenv("ARRAY_API_VULKAN_PIPELINE_STATS") &&
                      has_extension(exts, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (exec_stats)
        enabled_exts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);

    vk::PhysicalDeviceFeatures core;
    core.shaderFloat64 = mFeatures.float64;
    core.shaderInt64 = mFeatures.int64;
    core.shaderInt16 = mFeatures.int16;
    vk::PhysicalDeviceShaderFloat16Int8Features f16i8;
    f16i8.shaderInt8 = mFeatures.int8;
    vk::PhysicalDevice8BitStorageFeatures s8;
    s8.storageBuffer8BitAccess = mFeatures.storage8;
    vk::PhysicalDevice16BitStorageFeatures s16;
    s16.storageBuffer16BitAccess = mFeatures.storage16;
    vk::PhysicalDeviceBufferDeviceAddressFeatures bda;
    bda.bufferDeviceAddress = true;
    f16i8.pNext = &s8;
    s8.pNext = &s16;
    s16.pNext = &bda;
    vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR pexec;
    pexec.pipelineExecutableInfo = true;
    if (exec_stats)
        bda.pNext = &pexec;
    // Batches signal a timeline semaphore and waits poll its counter, with
    // ARRAY_API_VULKAN_TIMELINE=1 (else a fence each; docs/design.md, batching).
    bool timeline = false;
    if (const char* tl = std::getenv("ARRAY_API_VULKAN_TIMELINE"))
        timeline = std::string(tl) == "1" &&
                   mPhysical->getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceTimelineSemaphoreFeatures>()
                     .get<vk::PhysicalDeviceTimelineSemaphoreFeatures>()
                     .timelineSemaphore;
    vk::PhysicalDeviceTimelineSemaphoreFeatures tsem;
    tsem.timelineSemaphore = true;
    if (timeline) {
        tsem.pNext = bda.pNext;
        bda.pNext = &tsem;
    }

    vk::DeviceCreateInfo info({}, 1, &queue_info, 0, nullptr, (uint32_t)enabled_exts.size(), enabled_exts.data(),
                              &core);
    info.pNext = &f16i8;
    mDevice = std::make_shared<vk::Device>(mPhysical->createDevice(info));
    mQueue = std::make_shared<vk::Queue>(mDevice->getQueue(mFamily, 0));
    // An externally created device makes the manager keep no bookkeeping of its own.
    mManager = std::make_unique<kp::Manager>(inst, mPhysical, mDevice);

    auto props = mPhysical->getProperties();
    // One buffer: Kompute counts 4-byte elements in 32 bits (16 GiB), and the device has its
    // own limits on one buffer and one allocation.
    auto props3 = mPhysical->getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceMaintenance3Properties>();
    uint64_t max_alloc = props3.get<vk::PhysicalDeviceMaintenance3Properties>().maxMemoryAllocationSize;
    mMaxBuffer = std::min<uint64_t>(max_alloc, (uint64_t)UINT32_MAX * 4);
    mMaxBuffer -= mMaxBuffer % 16;

    mSub = std::make_shared<Submitter>();
    mSub->device = mDevice;
    mSub->queue = mQueue;
    mSub->pool =
      mDevice->createCommandPool(vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer, mFamily));
    if (timeline) {
        vk::SemaphoreTypeCreateInfo type(vk::SemaphoreType::eTimeline, 0);
        mSub->timeline = mDevice->createSemaphore(vk::SemaphoreCreateInfo({}, &type));
    }
    uint32_t bits = families[mFamily].timestampValidBits;
    mSub->timestamps_supported = bits > 0 && props.limits.timestampPeriod > 0;
    // Off unless asked for (Device.set_timestamps): on the H100 a batch's two timestamps and
    // its query reset added 6-10 us to every synchronised call (docs/benchmarks.md, run 14).
    mSub->timestamps = false;
    mSub->timestamp_ns = props.limits.timestampPeriod;
    mSub->timestamp_mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    // A CPU implementation (lavapipe) runs the work on the host's cores: no spinning there.
    if (props.deviceType == vk::PhysicalDeviceType::eCpu)
        mSub->spin_ns = mSub->yield_ns = 0;
    if (const char* spin = std::getenv("ARRAY_API_VULKAN_SPIN_US"))
        mSub->spin_ns = std::strtoull(spin, nullptr, 10) * 1000;
    if (const char* yield = std::getenv("ARRAY_API_VULKAN_YIELD_US"))
        mSub->yield_ns = std::strtoull(yield, nullptr, 10) * 1000;

    mPipelines = std::make_unique<PipelineCache>(mDevice, props.limits.maxPushConstantsSize, feedback);
    mPipelines->exec_stats = exec_stats;
}

bool
Device::timestamps() const
{
    return mSub->timestamps;
}

bool
Device::set_timestamps(bool on)
{
    // (batches started from now on; under the free list's lock: slots are taken from it)
    std::lock_guard<std::mutex> guard(mSub->lock);
    mSub->timestamps = on && mSub->timestamps_supported;
    return mSub->timestamps;
}

bool
Device::timeline() const
{
    return bool(mSub->timeline);
}

std::shared_ptr<Buffer>
Device::create_buffer(uint64_t nbytes, bool host, bool cached)
{
    if (nbytes == 0 || nbytes % 16 != 0)
        throw std::invalid_argument("buffer size must be a positive multiple of 16");
    if (nbytes > mMaxBuffer)
        throw std::invalid_argument("buffer of " + std::to_string(nbytes) + " bytes: the device's limit is " +
                                    std::to_string(mMaxBuffer));
    auto buf = std::make_shared<Buffer>();
    buf->nbytes = nbytes;
    buf->host = host;
    py::gil_scoped_release release;
    uint32_t count = (uint32_t)(nbytes / 4);
    if (host) {
        // kp copies initial contents from a pointer: give it zero pages, not a heap buffer.
        void* zeros = mmap(nullptr, nbytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (zeros == MAP_FAILED)
            throw std::bad_alloc();
        try {
            // (a static of the patched Kompute: one buffer is made at a time)
            static std::mutex lock;
            std::lock_guard<std::mutex> guard(lock);
            kp::Tensor::preferHostCached = cached;
            buf->tensor = mManager->tensor(zeros, count, 4, kp::Tensor::TensorDataTypes::eUnsignedInt,
                                           kp::Tensor::TensorTypes::eHost);
            kp::Tensor::preferHostCached = true;
        } catch (...) {
            kp::Tensor::preferHostCached = true;
            munmap(zeros, nbytes);
            throw;
        }
        munmap(zeros, nbytes);
    } else {
        buf->tensor = mManager->tensor(nullptr, count, 4, kp::Tensor::TensorDataTypes::eUnsignedInt,
                                       kp::Tensor::TensorTypes::eStorage);
    }
    buf->buffer = buf->tensor->constructDescriptorBufferInfo().buffer;
    vk::BufferDeviceAddressInfo ai(buf->buffer);
    buf->address = mDevice->getBufferAddress(ai);
    return buf;
}

py::dict
Device::features() const
{
    py::dict d;
    put_features(d, mFeatures);
    return d;
}

} // namespace avk
