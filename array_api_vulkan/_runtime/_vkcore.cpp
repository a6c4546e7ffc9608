// The project's binding of Kompute's C++ API: the only code that touches Kompute or Vulkan.
//
// kp 0.9.0's own Python bindings cannot order dependent dispatches, enable no device features,
// hold the GIL while waiting and mis-type push constants (docs/kompute.md). Instead of patching
// them we create the Vulkan device ourselves (with the features the shaders use), hand it to a
// kp::Manager for buffers and pipelines (kp::Tensor, kp::Algorithm), and record batches into
// command buffers of our own, recycled with their fences: dispatches of cached kp::Algorithms
// with per-dispatch push constants and workgroups, and global memory barriers placed by the
// recorder only where one op depends on an earlier one.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sys/mman.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <thread>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <kompute/Algorithm.hpp>
#include <kompute/Manager.hpp>
#include <kompute/Tensor.hpp>

namespace py = pybind11;

namespace {

std::shared_ptr<vk::Instance> g_instance;
std::mutex g_instance_mutex;

std::shared_ptr<vk::Instance>
instance()
{
    std::lock_guard<std::mutex> lock(g_instance_mutex);
    if (!g_instance) {
        // 1.2 so that 8/16-bit storage and float16/int8 feature structs are core where the
        // device has them; the loader clamps for older devices.
        vk::ApplicationInfo app("array_api_vulkan", 1, "kompute", 1, VK_API_VERSION_1_2);
        vk::InstanceCreateInfo info({}, &app);
        // Layers come from VK_INSTANCE_LAYERS through the loader, so tests can switch on
        // validation without a rebuild.
        g_instance = std::make_shared<vk::Instance>(vk::createInstance(info));
    }
    return g_instance;
}

bool
has_extension(const std::vector<vk::ExtensionProperties>& exts, const char* name)
{
    for (const auto& e : exts)
        if (std::strcmp(e.extensionName, name) == 0)
            return true;
    return false;
}

struct Features
{
    bool float64 = false, int64 = false, int16 = false, int8 = false;
    bool storage8 = false, storage16 = false;
};

Features
query_features(const vk::PhysicalDevice& pd)
{
    Features f;
    auto chain = pd.getFeatures2<vk::PhysicalDeviceFeatures2,
                                 vk::PhysicalDevice8BitStorageFeatures,
                                 vk::PhysicalDevice16BitStorageFeatures,
                                 vk::PhysicalDeviceShaderFloat16Int8Features>();
    const auto& core = chain.get<vk::PhysicalDeviceFeatures2>().features;
    f.float64 = core.shaderFloat64;
    f.int64 = core.shaderInt64;
    f.int16 = core.shaderInt16;
    f.int8 = chain.get<vk::PhysicalDeviceShaderFloat16Int8Features>().shaderInt8;
    f.storage8 = chain.get<vk::PhysicalDevice8BitStorageFeatures>().storageBuffer8BitAccess;
    f.storage16 = chain.get<vk::PhysicalDevice16BitStorageFeatures>().storageBuffer16BitAccess;
    return f;
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
}

py::list
enumerate_devices()
{
    py::list out;
    auto inst = instance();
    auto pds = inst->enumeratePhysicalDevices();
    for (size_t i = 0; i < pds.size(); i++) {
        const auto& pd = pds[i];
        auto props = pd.getProperties();
        auto f = query_features(pd);
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
        d["api_version"] = py::make_tuple(VK_VERSION_MAJOR(props.apiVersion),
                                          VK_VERSION_MINOR(props.apiVersion),
                                          VK_VERSION_PATCH(props.apiVersion));
        d["driver_version"] = props.driverVersion;
        d["compute"] = compute;
        put_features(d, f);
        d["max_storage_buffer_range"] = props.limits.maxStorageBufferRange;
        d["max_push_constants_size"] = props.limits.maxPushConstantsSize;
        d["max_compute_shared_memory_size"] = props.limits.maxComputeSharedMemorySize;
        d["max_workgroup_count"] = py::make_tuple(props.limits.maxComputeWorkGroupCount[0],
                                                  props.limits.maxComputeWorkGroupCount[1],
                                                  props.limits.maxComputeWorkGroupCount[2]);
        d["max_workgroup_invocations"] = props.limits.maxComputeWorkGroupInvocations;
        d["device_local_bytes"] = device_local;
        // Float controls decide whether shaders can ask for denormals and signed zeros/inf/NaN
        // to be preserved (SPIR-V DenormPreserve / SignedZeroInfNanPreserve execution modes).
        auto props2 = pd.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceFloatControlsProperties>();
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

// A Kompute tensor used as raw memory: an arena of device-local storage, or host-visible
// staging memory mapped for the lifetime of the buffer.
struct Buffer
{
    std::shared_ptr<kp::Tensor> tensor;
    uint64_t nbytes;
    bool host;
};

// A kp::Algorithm: one pipeline for one SPIR-V module, one set of specialisation constants and
// one set of bound buffers. Push constants and the workgroup count change per dispatch.
struct Pipeline
{
    std::shared_ptr<kp::Algorithm> algorithm;
    uint32_t push_words;
};

// Command buffers, fences and timestamp queries are recycled across batches: a kp::Sequence per
// batch made a command pool, a buffer and a fence every time, and its pool cannot reset buffers.
struct Slot
{
    vk::CommandBuffer cb;
    vk::Fence fence;
    vk::QueryPool queries; // two timestamps (batch start, end), or null
    // Submission through the worker thread: queued, then submitted or failed (with error).
    bool queued = false, submitted = false;
    std::string error;
};

// What batches share with their device. Outlives every batch (held by shared_ptr).
struct Submitter
{
    std::shared_ptr<vk::Device> device;
    std::shared_ptr<vk::Queue> queue;
    vk::CommandPool pool;
    std::vector<std::unique_ptr<Slot>> slots;
    std::vector<Slot*> free;
    bool timestamps = false;
    double timestamp_ns = 1.0; // nanoseconds per timestamp tick
    uint64_t timestamp_mask = ~0ull;
    // How long a wait polls the fence before blocking in vkWaitForFences: a blocking wait
    // wakes on an interrupt, which on the H200 host cost hundreds of microseconds.
    uint64_t spin_ns = 1000000;
    std::mutex lock; // the free list: batches finish with the GIL released

    // Submissions the recorder does not wait for go through a worker thread, so that the
    // host records the next batch while the driver takes the submit (hundreds of
    // microseconds on the H200 host). The queue is only ever used by one thread at a time.
    std::mutex queue_lock, submit_lock; // always taken in this order
    std::condition_variable queue_cv, submitted_cv;
    std::deque<Slot*> pending;
    std::thread worker;
    bool stopping = false;

    ~Submitter()
    {
        if (worker.joinable()) {
            {
                std::lock_guard<std::mutex> guard(queue_lock);
                stopping = true;
            }
            queue_cv.notify_all();
            worker.join();
        }
    }
    static void queue_submit(vk::Queue& q, Slot* s)
    {
        vk::SubmitInfo info(0, nullptr, nullptr, 1, &s->cb);
        try {
            q.submit(1, &info, s->fence);
        } catch (const std::exception& e) {
            s->error = e.what();
        }
    }
    // Submits s now, after whatever the worker still holds (queue order is dependency order).
    void submit_now(Slot* s)
    {
        std::unique_lock<std::mutex> lk(queue_lock);
        std::deque<Slot*> earlier;
        earlier.swap(pending);
        // Taken while holding queue_lock, as the worker does: waits for its submit in progress.
        std::unique_lock<std::mutex> sl(submit_lock);
        lk.unlock();
        for (Slot* e : earlier)
            queue_submit(*queue, e);
        queue_submit(*queue, s);
        sl.unlock();
        lk.lock();
        for (Slot* e : earlier)
            e->submitted = true;
        s->submitted = true;
        submitted_cv.notify_all();
        if (!s->error.empty())
            throw std::runtime_error("vkQueueSubmit failed: " + s->error);
    }
    void submit_later(Slot* s)
    {
        std::lock_guard<std::mutex> guard(queue_lock);
        if (!worker.joinable())
            worker = std::thread([this] { run(); });
        s->queued = true;
        pending.push_back(s);
        queue_cv.notify_one();
    }
    void run()
    {
        std::unique_lock<std::mutex> lk(queue_lock);
        for (;;) {
            queue_cv.wait(lk, [this] { return stopping || !pending.empty(); });
            if (pending.empty())
                return;
            Slot* s = pending.front();
            pending.pop_front();
            std::unique_lock<std::mutex> sl(submit_lock);
            lk.unlock();
            queue_submit(*queue, s);
            sl.unlock();
            lk.lock();
            s->submitted = true;
            submitted_cv.notify_all();
        }
    }
    // Blocks until a slot queued for the worker has been submitted (or failed to be).
    void await_submitted(Slot* s)
    {
        std::unique_lock<std::mutex> lk(queue_lock);
        submitted_cv.wait(lk, [s] { return s->submitted; });
        if (!s->error.empty())
            throw std::runtime_error("vkQueueSubmit failed: " + s->error);
    }

    Slot* acquire()
    {
        std::lock_guard<std::mutex> guard(lock);
        if (!free.empty()) {
            Slot* s = free.back();
            free.pop_back();
            return s;
        }
        auto s = std::make_unique<Slot>();
        vk::CommandBufferAllocateInfo info(pool, vk::CommandBufferLevel::ePrimary, 1);
        s->cb = device->allocateCommandBuffers(info)[0];
        s->fence = device->createFence(vk::FenceCreateInfo());
        if (timestamps)
            s->queries = device->createQueryPool(vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2));
        slots.push_back(std::move(s));
        return slots.back().get();
    }
};

// One command buffer: recorded op by op, submitted once, waited on once, then recycled.
class Batch
{
  public:
    explicit Batch(std::shared_ptr<Submitter> sub)
      : mSub(std::move(sub))
    {
        mSlot = mSub->acquire();
        // The pool has the reset flag: begin resets a recycled buffer.
        mSlot->cb.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
        if (mSlot->queries) {
            mSlot->cb.resetQueryPool(mSlot->queries, 0, 2);
            mSlot->cb.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, mSlot->queries, 0);
        }
    }
    ~Batch()
    {
        if (!mSlot)
            return;
        try {
            if (mSubmitted)
                finish();
            else {
                mSlot->cb.end();
                recycle();
            }
        } catch (...) {
            // A lost device: the slot is not reused.
        }
    }
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;

    void check_open() const
    {
        if (!mSlot)
            throw std::runtime_error("this batch was already submitted and finished");
        if (mSubmitted)
            throw std::runtime_error("this batch was already submitted");
    }
    void record_dispatch(kp::Algorithm* a, const uint32_t* push, uint32_t words, uint32_t gx, uint32_t gy,
                         uint32_t gz)
    {
        if (words)
            a->setPushConstants((void*)push, words, sizeof(uint32_t));
        a->setWorkgroup(kp::Workgroup{ gx, gy, gz });
        // The same pipeline and descriptor set as the previous dispatch stay bound.
        if (a != mLastBound)
            a->recordBindCore(mSlot->cb);
        if (words)
            a->recordBindPush(mSlot->cb);
        a->recordDispatch(mSlot->cb);
        mLastBound = a;
        mDispatches++;
    }
    void dispatch(const Pipeline& p, py::buffer push, uint32_t gx, uint32_t gy, uint32_t gz)
    {
        check_open();
        auto info = push.request();
        uint32_t n = (uint32_t)(info.size * info.itemsize / sizeof(uint32_t));
        if (n != p.push_words)
            throw std::invalid_argument("push constants: expected " + std::to_string(p.push_words) +
                                        " words, got " + std::to_string(n));
        record_dispatch(p.algorithm.get(), static_cast<const uint32_t*>(info.ptr), n, gx, gy, gz);
    }
    // A global memory barrier: a compute-to-compute dependency needs no per-buffer ones.
    void barrier()
    {
        check_open();
        vk::MemoryBarrier b(vk::AccessFlagBits::eShaderWrite,
                            vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite);
        mSlot->cb.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader,
                                  vk::PipelineStageFlagBits::eComputeShader, {}, b, nullptr, nullptr);
    }
    // Makes shader writes to host-visible memory visible to host reads after the fence.
    void host_barrier()
    {
        check_open();
        vk::MemoryBarrier b(vk::AccessFlagBits::eShaderWrite, vk::AccessFlagBits::eHostRead);
        mSlot->cb.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eHost,
                                  {}, b, nullptr, nullptr);
    }
    // background: through the worker thread, for submissions nobody waits on at once.
    void submit(bool background)
    {
        check_open();
        if (mSlot->queries)
            mSlot->cb.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, mSlot->queries, 1);
        mSlot->cb.end();
        mSlot->queued = mSlot->submitted = false;
        mSlot->error.clear();
        if (background)
            mSub->submit_later(mSlot);
        else {
            py::gil_scoped_release release;
            mSub->submit_now(mSlot);
        }
        mSubmitted = true;
    }
    // Whether a submitted batch has finished (without waiting).
    bool done() const
    {
        if (!mSlot)
            return true;
        if (!mSubmitted)
            return false;
        {
            std::lock_guard<std::mutex> guard(mSub->queue_lock);
            if (!mSlot->submitted)
                return false;
        }
        return mSub->device->getFenceStatus(mSlot->fence) == vk::Result::eSuccess;
    }
    void wait()
    {
        if (!mSlot || !mSubmitted)
            return;
        py::gil_scoped_release release;
        finish();
    }
    uint32_t dispatches() const { return mDispatches; }
    // GPU time from the batch's first command to its last, in seconds (0 without timestamps).
    double gpu_seconds() const { return mGpuNs * 1e-9; }

  private:
    void finish()
    {
        if (mSlot->queued)
            mSub->await_submitted(mSlot);
        const vk::Device& dev = *mSub->device;
        VkDevice vkdev = (VkDevice)dev;
        VkFence fence = (VkFence)mSlot->fence;
        auto t0 = std::chrono::steady_clock::now();
        VkResult r = vkGetFenceStatus(vkdev, fence);
        while (r == VK_NOT_READY &&
               (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
                   .count() < mSub->spin_ns)
            r = vkGetFenceStatus(vkdev, fence);
        if (r == VK_NOT_READY)
            r = vkWaitForFences(vkdev, 1, &fence, VK_TRUE, UINT64_MAX);
        if (r != VK_SUCCESS)
            vk::throwResultException(vk::Result(r), "waiting for a batch");
        if (mSlot->queries) {
            uint64_t ts[2] = { 0, 0 };
            if (vkGetQueryPoolResults(vkdev, (VkQueryPool)mSlot->queries, 0, 2, sizeof(ts), ts, sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
                mGpuNs = (double)((ts[1] - ts[0]) & mSub->timestamp_mask) * mSub->timestamp_ns;
        }
        mSubmitted = false;
        recycle();
    }
    void recycle()
    {
        mSub->device->resetFences(1, &mSlot->fence);
        std::lock_guard<std::mutex> guard(mSub->lock);
        mSub->free.push_back(mSlot);
        mSlot = nullptr;
    }

    std::shared_ptr<Submitter> mSub;
    Slot* mSlot = nullptr;
    const kp::Algorithm* mLastBound = nullptr;
    bool mSubmitted = false;
    uint32_t mDispatches = 0;
    double mGpuNs = 0;
};

class Device
{
  public:
    explicit Device(uint32_t index)
    {
        auto inst = instance();
        auto pds = inst->enumeratePhysicalDevices();
        if (index >= pds.size())
            throw std::out_of_range("no Vulkan device " + std::to_string(index));
        mPhysical = std::make_shared<vk::PhysicalDevice>(pds[index]);
        mFeatures = query_features(*mPhysical);

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

        // Enable every feature the shaders use that the device has.
        auto exts = mPhysical->enumerateDeviceExtensionProperties();
        std::vector<const char*> enabled_exts;
        for (const char* e : { VK_KHR_8BIT_STORAGE_EXTENSION_NAME, VK_KHR_16BIT_STORAGE_EXTENSION_NAME,
                               VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME,
                               VK_KHR_STORAGE_BUFFER_STORAGE_CLASS_EXTENSION_NAME })
            if (has_extension(exts, e))
                enabled_exts.push_back(e);
        if (has_extension(exts, "VK_KHR_portability_subset"))
            enabled_exts.push_back("VK_KHR_portability_subset");

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
        f16i8.pNext = &s8;
        s8.pNext = &s16;

        vk::DeviceCreateInfo info({}, 1, &queue_info, 0, nullptr, (uint32_t)enabled_exts.size(),
                                  enabled_exts.data(), &core);
        info.pNext = &f16i8;
        mDevice = std::make_shared<vk::Device>(mPhysical->createDevice(info));
        mQueue = std::make_shared<vk::Queue>(mDevice->getQueue(mFamily, 0));
        // An externally created device makes the manager keep no bookkeeping of its own.
        mManager = std::make_unique<kp::Manager>(inst, mPhysical, mDevice);

        mSub = std::make_shared<Submitter>();
        mSub->device = mDevice;
        mSub->queue = mQueue;
        mSub->pool = mDevice->createCommandPool(
          vk::CommandPoolCreateInfo(vk::CommandPoolCreateFlagBits::eResetCommandBuffer, mFamily));
        auto props = mPhysical->getProperties();
        uint32_t bits = families[mFamily].timestampValidBits;
        mSub->timestamps = bits > 0 && props.limits.timestampPeriod > 0;
        mSub->timestamp_ns = props.limits.timestampPeriod;
        mSub->timestamp_mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
        // A CPU implementation (lavapipe) runs the work on the host's cores: no spinning there.
        if (props.deviceType == vk::PhysicalDeviceType::eCpu)
            mSub->spin_ns = 0;
        if (const char* spin = std::getenv("ARRAY_API_VULKAN_SPIN_US"))
            mSub->spin_ns = std::strtoull(spin, nullptr, 10) * 1000;
    }
    // The VkDevice is deliberately never destroyed: Python may release arrays (and so Kompute
    // tensors) in any order at interpreter exit, and each needs a live device to free itself.

    std::shared_ptr<Buffer> create_buffer(uint64_t nbytes, bool host)
    {
        if (nbytes == 0 || nbytes % 16 != 0)
            throw std::invalid_argument("buffer size must be a positive multiple of 16");
        if (nbytes > UINT32_MAX)
            throw std::invalid_argument("buffer larger than 4 GiB");
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
                buf->tensor = mManager->tensor(zeros, count, 4, kp::Tensor::TensorDataTypes::eUnsignedInt,
                                               kp::Tensor::TensorTypes::eHost);
            } catch (...) {
                munmap(zeros, nbytes);
                throw;
            }
            munmap(zeros, nbytes);
        } else {
            buf->tensor = mManager->tensor(nullptr, count, 4, kp::Tensor::TensorDataTypes::eUnsignedInt,
                                           kp::Tensor::TensorTypes::eStorage);
        }
        return buf;
    }

    Pipeline create_pipeline(py::bytes spirv, std::vector<uint32_t> spec, uint32_t push_words,
                             std::vector<std::shared_ptr<Buffer>> buffers)
    {
        Pipeline p;
        p.push_words = push_words;
        p.algorithm = create_algorithm(spirv, spec, push_words, buffers);
        return p;
    }

    std::shared_ptr<kp::Algorithm> create_algorithm(py::bytes spirv, const std::vector<uint32_t>& spec,
                                                    uint32_t push_words,
                                                    const std::vector<std::shared_ptr<Buffer>>& buffers)
    {
        std::string code = spirv;
        if (code.size() % 4 != 0)
            throw std::invalid_argument("SPIR-V size is not a multiple of 4");
        std::vector<uint32_t> words(code.size() / 4);
        std::memcpy(words.data(), code.data(), code.size());
        std::vector<std::shared_ptr<kp::Tensor>> tensors;
        for (const auto& b : buffers)
            tensors.push_back(b->tensor);
        std::vector<uint32_t> push(push_words, 0);
        py::gil_scoped_release release;
        return mManager->algorithm<uint32_t, uint32_t>(tensors, words, kp::Workgroup{ 1, 1, 1 }, spec, push);
    }

    std::shared_ptr<Batch> new_batch() { return std::make_shared<Batch>(mSub); }
    bool timestamps() const { return mSub->timestamps; }
    const std::shared_ptr<Submitter>& submitter() const { return mSub; }

    py::dict features() const
    {
        py::dict d;
        put_features(d, mFeatures);
        return d;
    }

  private:
    std::shared_ptr<vk::PhysicalDevice> mPhysical;
    std::shared_ptr<vk::Device> mDevice;
    std::shared_ptr<vk::Queue> mQueue;
    uint32_t mFamily = 0;
    Features mFeatures;
    std::unique_ptr<kp::Manager> mManager;
    std::shared_ptr<Submitter> mSub;
};


// A mutex for state that several Python threads share, where some calls release the GIL
// (submits, waits, buffer and pipeline creation). Waiting for it releases the GIL, so that the
// thread holding it can take the GIL back and finish. Recursive: a pool's before_grow hook
// synchronizes the recorder from inside an allocation.
class GilSafeLock
{
  public:
    explicit GilSafeLock(std::recursive_mutex& m)
      : mM(m)
    {
        if (!mM.try_lock()) {
            if (PyGILState_Check()) {
                py::gil_scoped_release release;
                mM.lock();
            } else
                mM.lock();
        }
    }
    ~GilSafeLock() { mM.unlock(); }
    GilSafeLock(const GilSafeLock&) = delete;
    GilSafeLock& operator=(const GilSafeLock&) = delete;

  private:
    std::recursive_mutex& mM;
};

// ---- Memory pool (see pool.py for the design) -------------------------------------------------

constexpr uint64_t kAlign = 16;

// Size classes: 16-byte steps up to 256 bytes, then four per power of two (at most 25% waste).
uint64_t
size_class(uint64_t nbytes)
{
    if (nbytes <= 256)
        return std::max<uint64_t>(kAlign, (nbytes + kAlign - 1) / kAlign * kAlign);
    int bits = 64 - __builtin_clzll(nbytes);
    uint64_t step = 1ull << (bits - 3);
    return (nbytes + step - 1) / step * step;
}

// One large buffer that allocations are carved from.
struct Arena
{
    std::shared_ptr<Buffer> buffer;
    uint64_t size = 0, top = 0, serial = 0; // serial: a stable key for caches
};

class Pool;

// A region of an arena, returned to its pool when the last reference goes.
struct Allocation
{
    py::object device;
    std::shared_ptr<Pool> pool; // null for an empty allocation
    std::shared_ptr<Arena> arena;
    uint64_t offset = 0, nbytes = 0, block = 0;
    uint64_t last_batch = 0; // serial of the last batch that used it (staging lifetimes)
    py::object host;         // a host copy of the bytes (Device.host_bytes), dropped by writes
    uint64_t key = 0;        // the block's identity for hazard tracking: kept when reused
    ~Allocation();
};

class Pool : public std::enable_shared_from_this<Pool>
{
  public:
    Pool(Device& core, py::object device, uint64_t max_arena, bool host, bool stream_ordered, uint64_t first_arena)
      : mCore(core)
      , device(std::move(device))
      , max_arena(max_arena - max_arena % kAlign)
      , host(host)
      , stream_ordered(stream_ordered)
      , next_arena(std::min(first_arena, this->max_arena))
    {
    }

    py::object device;
    uint64_t max_arena;
    bool host, stream_ordered;
    uint64_t next_arena;
    uint64_t bytes_reserved = 0, bytes_in_use = 0, deferred_bytes = 0;
    // Called (outside the pool's lock) before a new arena is made while freed blocks still wait
    // for pending work; the allocation is then retried once.
    py::object before_grow = py::none();
    // The serial of the last finished batch, from the device's recorder.
    const uint64_t* completed = nullptr;
    std::vector<std::shared_ptr<Arena>> arenas;
    struct Deferred
    {
        uint64_t serial;
        std::shared_ptr<Arena> arena;
        uint64_t offset, block;
    };
    std::vector<Deferred> deferred;

    std::shared_ptr<Allocation> alloc(uint64_t nbytes)
    {
        auto a = std::make_shared<Allocation>();
        a->device = device;
        a->host = py::none();
        if (nbytes == 0)
            return a;
        uint64_t block = size_class(nbytes);
        if (block > max_arena)
            throw_memory_error("cannot allocate " + std::to_string(nbytes) + " bytes on " + name() +
                               ": one array may be at most " + std::to_string(max_arena) +
                               " bytes (the device's maxStorageBufferRange)");
        std::pair<std::shared_ptr<Arena>, uint64_t> spot;
        bool waited = false;
        for (;;) {
            {
                GilSafeLock guard(mLock);
                reclaim();
                if (take(block, spot)) {
                    bytes_in_use += block;
                    break;
                }
                // Memory freed by work still pending comes back when it finishes: waiting for
                // it is cheaper than growing the pool without bound on a long stream of
                // temporaries. The hook runs outside the lock (it takes the recorder's).
                if (waited || deferred_bytes < block || before_grow.is_none()) {
                    spot = grow(block);
                    bytes_in_use += block;
                    break;
                }
            }
            waited = true;
            before_grow(block);
        }
        a->pool = shared_from_this();
        a->arena = std::move(spot.first);
        a->offset = spot.second;
        a->nbytes = nbytes;
        a->block = block;
        a->key = (a->arena->serial << 40) | a->offset;
        return a;
    }

    void release(const std::shared_ptr<Arena>& arena, uint64_t offset, uint64_t block, uint64_t last_batch)
    {
        GilSafeLock guard(mLock);
        if (stream_ordered) {
            // Reusable at once: the recorder orders the next write after the work using it.
            mFree[block].emplace_back(arena, offset);
            bytes_in_use -= block;
            return;
        }
        deferred.push_back(Deferred{ last_batch, arena, offset, block });
        deferred_bytes += block;
    }

    void reclaim()
    {
        GilSafeLock guard(mLock);
        if (deferred.empty())
            return;
        uint64_t done = completed ? *completed : 0;
        size_t keep = 0;
        for (size_t i = 0; i < deferred.size(); i++) {
            Deferred& d = deferred[i];
            if (d.serial <= done) {
                mFree[d.block].emplace_back(std::move(d.arena), d.offset);
                bytes_in_use -= d.block;
                deferred_bytes -= d.block;
            } else
                deferred[keep++] = std::move(d);
        }
        deferred.resize(keep);
    }

  private:
    std::string name() const { return py::str(device); }

    [[noreturn]] static void throw_memory_error(const std::string& msg)
    {
        PyErr_SetString(PyExc_MemoryError, msg.c_str());
        throw py::error_already_set();
    }

    // A free block of this class, or room at the top of one of the last arenas.
    bool take(uint64_t block, std::pair<std::shared_ptr<Arena>, uint64_t>& spot)
    {
        auto it = mFree.find(block);
        if (it != mFree.end() && !it->second.empty()) {
            spot = std::move(it->second.back());
            it->second.pop_back();
            return true;
        }
        size_t n = arenas.size();
        for (size_t k = 0; k < std::min<size_t>(4, n); k++) {
            auto& arena = arenas[n - 1 - k];
            if (arena->size - arena->top >= block) {
                spot = { arena, arena->top };
                arena->top += block;
                return true;
            }
        }
        return false;
    }

    // A new arena, its first block for this request.
    std::pair<std::shared_ptr<Arena>, uint64_t> grow(uint64_t block)
    {
        uint64_t size = std::max(next_arena, block);
        size = std::min((size + kAlign - 1) / kAlign * kAlign, max_arena);
        std::shared_ptr<Buffer> buffer;
        try {
            buffer = mCore.create_buffer(size, host);
        } catch (const vk::OutOfDeviceMemoryError&) {
            memory_exhausted(block);
        } catch (const vk::OutOfHostMemoryError&) {
            memory_exhausted(block);
        }
        auto arena = std::make_shared<Arena>();
        arena->buffer = std::move(buffer);
        arena->size = size;
        arena->top = block;
        arena->serial = ++sArenaSerial;
        arenas.push_back(arena);
        bytes_reserved += size;
        next_arena = std::min(next_arena * 2, max_arena);
        return { arena, 0 };
    }

    [[noreturn]] void memory_exhausted(uint64_t block)
    {
        // The driver's message names no device or sizes: say what this pool holds.
        throw_memory_error("device memory exhausted on " + name() + " allocating " + std::to_string(block) +
                           " bytes (" + std::to_string(bytes_in_use) + " in use, " +
                           std::to_string(bytes_reserved) + " reserved)");
    }

    Device& mCore;
    std::recursive_mutex mLock;
    std::unordered_map<uint64_t, std::vector<std::pair<std::shared_ptr<Arena>, uint64_t>>> mFree;
    static inline uint64_t sArenaSerial = 0;
};

Allocation::~Allocation()
{
    if (pool && block)
        pool->release(arena, offset, block, last_batch);
}

// The Allocation behind a Python object, or null if it is not one.
Allocation*
as_allocation(py::handle h)
{
    py::detail::type_caster<Allocation> caster;
    if (!caster.load(h, false))
        return nullptr;
    return static_cast<Allocation*>(caster);
}


// Interned attribute names of the spec layer's Array, which compiled plans read and build.
struct Names
{
    py::str alloc_, offset_, dtype_, shape_, strides_;
    Names()
      : alloc_("_alloc"), offset_("_offset"), dtype_("_dtype"), shape_("_shape"), strides_("_strides")
    {
        for (py::str* n : { &alloc_, &offset_, &dtype_, &shape_, &strides_ }) {
            PyObject* o = n->release().ptr();
            PyUnicode_InternInPlace(&o);
            *n = py::reinterpret_steal<py::str>(o);
        }
    }
};

Names&
names()
{
    static Names* n = new Names(); // never freed: outlives interpreter teardown order
    return *n;
}

uint64_t
attr_u64(py::handle o, const py::str& name)
{
    PyObject* v = PyObject_GetAttr(o.ptr(), name.ptr());
    if (!v)
        throw py::error_already_set();
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    if (x == (unsigned long long)-1 && PyErr_Occurred())
        throw py::error_already_set();
    return x;
}

// Lazy command recording for one device (docs/design.md): the hot path of every op.
//
// Ops are recorded into the current batch; a barrier goes in only where an op touches memory an
// op since the last barrier wrote (read/write after write), or writes memory such an op read
// (write after read). Hazards are keyed per allocation block (Allocation.key), or per buffer for
// runs under synchronization validation, which sees a dispatch as touching its whole buffer.
// The written/read sets carry over submits: a barrier's first scope covers earlier submissions.
// Thread-safe: every entry point takes the recorder's GilSafeLock.
class Recorder
{
  public:
    Recorder(Device& core, py::object load_spirv, bool per_buffer)
      : mCore(core)
      , mLoadSpirv(std::move(load_spirv))
      , mPerBuffer(per_buffer)
    {
    }

    // Submit (without waiting) past these; early past the early ones when the GPU is idle.
    uint32_t max_pending_dispatches = 4096;
    uint64_t max_pending_bytes = 1ull << 30;
    uint32_t max_inflight = 2;
    uint32_t early_dispatches = 1024;
    uint64_t early_bytes = 16ull << 20;

    uint64_t submits = 0, dispatches = 0, barriers = 0, pipelines_created = 0;
    double gpu_seconds = 0;
    // For the validation tests' negative control only: record no hazard barriers.
    bool omit_barriers = false;
    uint64_t serial = 1;    // serial of the batch being recorded
    uint64_t completed = 0; // serial of the last batch known finished

    // One dispatch of spv/<shader>.spv over count invocations. buffers: pool Allocations bound
    // in order; writes: which of them the shader writes; push: uint32 words.
    void launch(const std::string& shader, const std::vector<uint32_t>& spec, py::sequence buffers,
                py::sequence writes, py::buffer push, uint64_t count, bool host_read)
    {
        auto info = push.request();
        uint32_t nwords = (uint32_t)(info.size * info.itemsize / sizeof(uint32_t));
        size_t n = buffers.size();
        if (n > kMaxBindings || (size_t)writes.size() != n)
            throw std::invalid_argument("launch: bad buffer or writes list");
        Allocation* bufs[kMaxBindings];
        bool w[kMaxBindings];
        for (size_t i = 0; i < n; i++) {
            bufs[i] = as_allocation(buffers[i]);
            if (!bufs[i] || !bufs[i]->arena)
                throw std::invalid_argument("launch: buffers must be non-empty Allocations");
            w[i] = PyObject_IsTrue(writes[i].ptr()) == 1;
        }
        record(shader, spec.data(), spec.size(), bufs, w, n, static_cast<const uint32_t*>(info.ptr), nwords,
               count, host_read);
    }

    static constexpr size_t kMaxBindings = 8;

    void record(const std::string& shader, const uint32_t* spec, size_t nspec, Allocation* const* allocs,
                const bool* writes, size_t n, const uint32_t* push, uint32_t nwords, uint64_t count,
                bool host_read)
    {
        if (!count)
            return;
        GilSafeLock guard(mLock);
        Buffer* bufs[kMaxBindings];
        uint64_t keys[kMaxBindings];
        for (size_t i = 0; i < n; i++) {
            bufs[i] = allocs[i]->arena->buffer.get();
            keys[i] = mPerBuffer ? (uint64_t)(uintptr_t)bufs[i] : allocs[i]->key;
        }
        kp::Algorithm* algo = pipeline(shader, spec, nspec, allocs, bufs, n, nwords);
        if (!mBatch)
            start_batch();
        for (size_t i = 0; i < n; i++)
            if (mWritten.count(keys[i]) || (writes[i] && mRead.count(keys[i]))) {
                if (!omit_barriers)
                    mBatch->barrier();
                barriers++;
                mWritten.clear();
                mRead.clear();
                break;
            }
        for (size_t i = 0; i < n; i++) {
            // Host-visible staging goes back to its pool only once this batch finishes.
            allocs[i]->last_batch = serial;
            if (writes[i]) {
                // A recorded write drops the allocation's cached host copy.
                if (!allocs[i]->host.is_none())
                    allocs[i]->host = py::none();
                mWritten.insert(keys[i]);
                mPendingBytes += allocs[i]->nbytes;
            } else
                mRead.insert(keys[i]);
        }
        const uint64_t local = 256, max_x = 65535;
        uint64_t groups = (count + local - 1) / local;
        if (groups <= max_x)
            mBatch->record_dispatch(algo, push, nwords, (uint32_t)groups, 1, 1);
        else {
            // Rows of nearly equal length: a short last row would launch tens of thousands of
            // empty groups (64M elements: 65535 + 65535 groups for 65537 of work).
            uint64_t gy = (groups + max_x - 1) / max_x;
            mBatch->record_dispatch(algo, push, nwords, (uint32_t)((groups + gy - 1) / gy), (uint32_t)gy, 1);
        }
        if (host_read)
            mBatch->host_barrier();
        dispatches++;
        mPending++;
        if (mPending >= max_pending_dispatches || mPendingBytes >= max_pending_bytes)
            submit(true);
        else if ((mPending >= early_dispatches || mPendingBytes >= early_bytes) && gpu_idle())
            submit(true);
    }

    // Whether every submitted batch has finished (retiring those that have).
    bool gpu_idle()
    {
        GilSafeLock guard(mLock);
        while (!mInflight.empty() && mInflight.front().second->done())
            retire_oldest();
        return mInflight.empty();
    }

    void submit(bool background)
    {
        GilSafeLock guard(mLock);
        if (!mBatch)
            return;
        mBatch->submit(background);
        submits++;
        mInflight.emplace_back(serial, std::move(mBatch));
        mBatch.reset();
        serial++;
        mPending = 0;
        mPendingBytes = 0;
        while (mInflight.size() > max_inflight)
            retire_oldest();
    }

    // Submits pending work and waits for all of it.
    void synchronize()
    {
        GilSafeLock guard(mLock);
        submit(false);
        while (!mInflight.empty())
            retire_oldest();
        // Work from before a host wait is ordered against once, at the start of the next batch.
        if (!mWritten.empty())
            mOrderAfterWait = true;
        mWritten.clear();
        mRead.clear();
    }

    bool idle() const { return !mBatch && mInflight.empty(); }
    size_t inflight() const { return mInflight.size(); }
    uint32_t pending() const { return mPending; }
    std::shared_ptr<Batch> batch() const { return mBatch; }
    size_t pipelines() const { return mPipelines.size(); }

  private:
    void start_batch()
    {
        mBatch = mCore.new_batch();
        if (mOrderAfterWait) {
            mOrderAfterWait = false;
            mBatch->barrier();
            barriers++;
        }
    }

    void retire_oldest()
    {
        auto item = std::move(mInflight.front());
        mInflight.pop_front();
        item.second->wait();
        gpu_seconds += item.second->gpu_seconds();
        completed = item.first;
    }

    // One kp::Algorithm per (shader, spec constants, bound buffers, push size).
    kp::Algorithm* pipeline(const std::string& shader, const uint32_t* spec, size_t nspec, Allocation* const* allocs,
                            Buffer* const* bufs, size_t n, uint32_t nwords)
    {
        std::string& key = mKey;
        key.assign(shader);
        key.push_back('\0');
        key.append(reinterpret_cast<const char*>(spec), nspec * sizeof(uint32_t));
        key.push_back('\0');
        key.append(reinterpret_cast<const char*>(bufs), n * sizeof(Buffer*));
        key.append(reinterpret_cast<const char*>(&nwords), sizeof(nwords));
        auto it = mPipelines.find(key);
        if (it != mPipelines.end())
            return it->second.get();
        py::bytes code = mLoadSpirv(shader);
        std::vector<std::shared_ptr<Buffer>> owned;
        for (size_t i = 0; i < n; i++)
            owned.push_back(allocs[i]->arena->buffer);
        auto algo = mCore.create_algorithm(code, std::vector<uint32_t>(spec, spec + nspec), nwords, owned);
        pipelines_created++;
        kp::Algorithm* raw = algo.get();
        mPipelines.emplace(key, std::move(algo));
        return raw;
    }

    Device& mCore;
    py::object mLoadSpirv;
    bool mPerBuffer;
    std::recursive_mutex mLock; // one thread records at a time
    std::shared_ptr<Batch> mBatch;
    std::deque<std::pair<uint64_t, std::shared_ptr<Batch>>> mInflight;
    uint32_t mPending = 0;
    uint64_t mPendingBytes = 0;
    std::unordered_set<uint64_t> mWritten, mRead;
    bool mOrderAfterWait = false;
    std::unordered_map<std::string, std::shared_ptr<kp::Algorithm>> mPipelines;
    std::string mKey;
};

// float64 -> float32 as IEEE round-to-nearest, overflowing to infinity (a plain cast of an
// out-of-range double is undefined behaviour in C++).
float
to_f32(double d)
{
    // Halfway between FLT_MAX and 2^128: from there on, round-to-nearest gives infinity.
    const double limit = 340282356779733661637539395458142568448.0;
    if (d >= limit)
        return std::numeric_limits<float>::infinity();
    if (d <= -limit)
        return -std::numeric_limits<float>::infinity();
    return (float)d;
}

// A resolved elementwise call for one layout (operand dtypes, shapes and strides, scalar
// types): re-running it only allocates the result, patches offsets and scalars into the push
// words and records the dispatch. Built by the kernels layer after a call took the general path.
class ElementwisePlan
{
  public:
    struct Arg
    {
        bool scalar;
        uint32_t itemsize; // array: element size of the input
        uint32_t slot;     // scalar: first push word
        char code;         // scalar: the computation dtype's type code
        bool has_range;
        int64_t lo;
        uint64_t hi;
    };

    ElementwisePlan(std::shared_ptr<Recorder> rec, py::object device, std::shared_ptr<Pool> pool, py::object array_type,
                    std::string shader, std::vector<uint32_t> spec, std::vector<uint32_t> words, uint64_t count,
                    uint64_t out_nbytes, uint32_t out_itemsize, py::object dtype, py::tuple shape, py::tuple strides,
                    std::vector<py::tuple> args)
      : mRec(std::move(rec))
      , mDevice(std::move(device))
      , mPool(std::move(pool))
      , mArrayType(std::move(array_type))
      , mShader(std::move(shader))
      , mSpec(std::move(spec))
      , mWords(std::move(words))
      , mCount(count)
      , mOutNbytes(out_nbytes)
      , mOutItemsize(out_itemsize)
      , mDtype(std::move(dtype))
      , mShape(std::move(shape))
      , mStrides(std::move(strides))
    {
        if (mWords.size() > 64 || args.size() + 1 > Recorder::kMaxBindings)
            throw std::invalid_argument("plan: too many push words or operands");
        for (const auto& t : args) {
            Arg a{};
            a.scalar = t[0].cast<bool>();
            if (a.scalar) {
                a.slot = t[1].cast<uint32_t>();
                a.code = t[2].cast<std::string>()[0];
                a.has_range = !t[3].is_none();
                if (a.has_range) {
                    a.lo = t[3].cast<int64_t>();
                    a.hi = t[4].cast<uint64_t>();
                }
            } else
                a.itemsize = t[1].cast<uint32_t>();
            mArgs.push_back(a);
        }
        mFirstArray = -1;
        for (size_t j = 0; j < mArgs.size(); j++)
            if (!mArgs[j].scalar) {
                mFirstArray = (int)j;
                break;
            }
        if (mFirstArray < 0)
            throw std::invalid_argument("plan: no array operand");
    }

    // The result Array, or None where this call must take the general path (another device,
    // an integer scalar out of range, a scalar of the wrong type).
    py::object call(py::args args)
    {
        if (args.size() != mArgs.size())
            return py::none();
        Names& nm = names();
        uint32_t w[64];
        std::memcpy(w, mWords.data(), mWords.size() * sizeof(uint32_t));
        py::object keep[Recorder::kMaxBindings]; // the operands' Allocations, alive while recording
        Allocation* allocs[Recorder::kMaxBindings];
        for (size_t j = 0; j < mArgs.size(); j++) {
            const Arg& a = mArgs[j];
            py::handle v = args[j];
            if (a.scalar) {
                if (!scalar_words(v, a, w + a.slot))
                    return py::none();
                continue;
            }
            py::object al = py::reinterpret_steal<py::object>(PyObject_GetAttr(v.ptr(), nm.alloc_.ptr()));
            if (!al)
                throw py::error_already_set();
            Allocation* p = as_allocation(al);
            if (!p || !p->arena || p->device.ptr() != mDevice.ptr())
                return py::none();
            w[3 + j] = (uint32_t)(p->offset / a.itemsize + attr_u64(v, nm.offset_));
            allocs[j + 1] = p;
            keep[j + 1] = std::move(al);
        }
        for (size_t j = 0; j < mArgs.size(); j++)
            if (mArgs[j].scalar)
                allocs[j + 1] = allocs[mFirstArray + 1]; // bound but unread: any buffer will do
        std::shared_ptr<Allocation> out_alloc = mPool->alloc(mOutNbytes);
        w[1] = (uint32_t)(out_alloc->offset / mOutItemsize);
        allocs[0] = out_alloc.get();
        bool writes[Recorder::kMaxBindings] = { true };
        size_t n = mArgs.size() + 1;
        for (size_t i = 1; i < n; i++)
            writes[i] = false;
        mRec->record(mShader, mSpec.data(), mSpec.size(), allocs, writes, n, w, (uint32_t)mWords.size(), mCount,
                     false);
        py::object out = py::cast(out_alloc);
        return make_array(out);
    }

  private:
    py::object make_array(const py::object& alloc)
    {
        // As Array._new does: the class refuses __init__, so fill its slots on a bare instance.
        PyTypeObject* t = (PyTypeObject*)mArrayType.ptr();
        py::object a = py::reinterpret_steal<py::object>(t->tp_alloc(t, 0));
        if (!a)
            throw py::error_already_set();
        Names& nm = names();
        py::int_ zero(0); // (not static: no Python object may outlive the interpreter)
        if (PyObject_SetAttr(a.ptr(), nm.alloc_.ptr(), alloc.ptr()) < 0 ||
            PyObject_SetAttr(a.ptr(), nm.dtype_.ptr(), mDtype.ptr()) < 0 ||
            PyObject_SetAttr(a.ptr(), nm.shape_.ptr(), mShape.ptr()) < 0 ||
            PyObject_SetAttr(a.ptr(), nm.strides_.ptr(), mStrides.ptr()) < 0 ||
            PyObject_SetAttr(a.ptr(), nm.offset_.ptr(), zero.ptr()) < 0)
            throw py::error_already_set();
        return a;
    }

    // The push words of a Python scalar as the computation dtype stores it (see
    // _launch.scalar_words); false where the general path must handle it.
    static bool scalar_words(py::handle v, const Arg& a, uint32_t* w)
    {
        PyObject* o = v.ptr();
        bool is_bool = PyBool_Check(o), is_int = PyLong_CheckExact(o) || is_bool;
        bool is_float = PyFloat_CheckExact(o), is_complex = PyComplex_CheckExact(o);
        switch (a.code) {
            case '?':
                if (!is_bool)
                    return false;
                w[0] = o == Py_True;
                return true;
            case 'b': case 'B': case 'h': case 'H': case 'i': case 'I': case 'l': case 'L': {
                if (!is_int)
                    return false;
                int overflow = 0;
                long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
                uint64_t bits;
                if (overflow > 0) {
                    unsigned long long u = PyLong_AsUnsignedLongLong(o);
                    if (u == (unsigned long long)-1 && PyErr_Occurred()) {
                        PyErr_Clear();
                        return false;
                    }
                    if (a.has_range && u > a.hi)
                        return false;
                    bits = u;
                } else if (overflow < 0)
                    return false;
                else {
                    if (x == -1 && PyErr_Occurred()) {
                        PyErr_Clear();
                        return false;
                    }
                    if (a.has_range && (x < a.lo || (x >= 0 && (uint64_t)x > a.hi)))
                        return false;
                    bits = (uint64_t)x;
                }
                w[0] = (uint32_t)bits;
                if (a.code == 'l' || a.code == 'L')
                    w[1] = (uint32_t)(bits >> 32);
                return true;
            }
            case 'f': case 'd': {
                if (!(is_int || is_float))
                    return false;
                double d = PyFloat_AsDouble(o);
                if (d == -1.0 && PyErr_Occurred()) {
                    PyErr_Clear(); // an int too large for a double
                    return false;
                }
                if (a.code == 'f') {
                    float f = to_f32(d);
                    std::memcpy(w, &f, 4);
                } else
                    std::memcpy(w, &d, 8);
                return true;
            }
            case 'F': case 'D': {
                if (!(is_int || is_float || is_complex))
                    return false;
                double re, im = 0;
                if (is_complex) {
                    re = PyComplex_RealAsDouble(o);
                    im = PyComplex_ImagAsDouble(o);
                } else {
                    re = PyFloat_AsDouble(o);
                    if (re == -1.0 && PyErr_Occurred()) {
                        PyErr_Clear();
                        return false;
                    }
                }
                if (a.code == 'F') {
                    float f[2] = { to_f32(re), to_f32(im) };
                    std::memcpy(w, f, 8);
                } else {
                    double d[2] = { re, im };
                    std::memcpy(w, d, 16);
                }
                return true;
            }
        }
        return false;
    }

    std::shared_ptr<Recorder> mRec;
    py::object mDevice;
    std::shared_ptr<Pool> mPool;
    py::object mArrayType;
    std::string mShader;
    std::vector<uint32_t> mSpec, mWords;
    uint64_t mCount, mOutNbytes;
    uint32_t mOutItemsize;
    py::object mDtype;
    py::tuple mShape, mStrides;
    std::vector<Arg> mArgs;
    int mFirstArray;
};

py::array
host_view(std::shared_ptr<Buffer> buf)
{
    if (!buf->host)
        throw std::invalid_argument("only host-visible buffers can be mapped");
    auto* ptr = static_cast<uint8_t*>(buf->tensor->rawData());
    // The capsule keeps the buffer (and so the mapping) alive as long as the view.
    auto* keep = new std::shared_ptr<Buffer>(buf);
    py::capsule owner(keep, [](void* p) { delete static_cast<std::shared_ptr<Buffer>*>(p); });
    return py::array_t<uint8_t>({ (py::ssize_t)buf->nbytes }, { (py::ssize_t)1 }, ptr, owner);
}

// DLPack (ABI 1.x), declared here from the published ABI: a Vulkan (kDLVulkan = 7) export of
// device memory, whose data pointer is the VkBuffer handle and byte_offset the position in it.
struct DLDevice
{
    int32_t device_type;
    int32_t device_id;
};
struct DLDataType
{
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
};
struct DLTensor
{
    void* data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t* shape;
    int64_t* strides;
    uint64_t byte_offset;
};
struct DLManagedTensor
{
    DLTensor dl_tensor;
    void* manager_ctx;
    void (*deleter)(DLManagedTensor*);
};
struct DLPackVersion
{
    uint32_t major;
    uint32_t minor;
};
struct DLManagedTensorVersioned
{
    DLPackVersion version;
    void* manager_ctx;
    void (*deleter)(DLManagedTensorVersioned*);
    uint64_t flags;
    DLTensor dl_tensor;
};

// Owns the shape/strides storage and keeps the buffer alive for the consumer.
struct DLContext
{
    std::shared_ptr<Buffer> buffer;
    std::vector<int64_t> shape, strides;
};

template<typename M>
void
dl_delete(M* m)
{
    delete static_cast<DLContext*>(m->manager_ctx);
    delete m;
}

template<typename M>
void
dl_fill(M* m, DLContext* ctx, uint64_t byte_offset, uint8_t code, uint8_t bits, int32_t device_id)
{
    DLTensor& t = m->dl_tensor;
    // An empty array has no memory: a null data pointer, as DLPack allows for size 0.
    t.data = ctx->buffer ? (void*)(uintptr_t)(VkBuffer)ctx->buffer->tensor->constructDescriptorBufferInfo().buffer
                         : nullptr;
    t.device = DLDevice{ 7, device_id };
    t.ndim = (int32_t)ctx->shape.size();
    t.dtype = DLDataType{ code, bits, 1 };
    t.shape = ctx->shape.data();
    t.strides = ctx->strides.data();
    t.byte_offset = byte_offset;
    m->manager_ctx = ctx;
    m->deleter = dl_delete<M>;
}

py::capsule
dlpack_export(std::shared_ptr<Buffer> buffer, uint64_t byte_offset, std::vector<int64_t> shape,
              std::vector<int64_t> strides, uint8_t code, uint8_t bits, int32_t device_id, bool versioned,
              bool read_only)
{
    auto* ctx = new DLContext{ std::move(buffer), std::move(shape), std::move(strides) };
    if (versioned) {
        auto* m = new DLManagedTensorVersioned();
        m->version = DLPackVersion{ 1, 0 };
        m->flags = read_only ? 1 : 0; // DLPACK_FLAG_BITMASK_READ_ONLY
        dl_fill(m, ctx, byte_offset, code, bits, device_id);
        return py::capsule(m, "dltensor_versioned", [](PyObject* cap) {
            // Only a capsule nobody consumed (renamed to "used_...") still owns its tensor.
            if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
                auto* mt = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap, "dltensor_versioned"));
                mt->deleter(mt);
            }
        });
    }
    auto* m = new DLManagedTensor();
    dl_fill(m, ctx, byte_offset, code, bits, device_id);
    return py::capsule(m, "dltensor", [](PyObject* cap) {
        if (PyCapsule_IsValid(cap, "dltensor")) {
            auto* mt = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
            mt->deleter(mt);
        }
    });
}

py::tuple
dlpack_info(py::capsule cap)
{
    // For tests: read back what a capsule describes, without consuming it.
    const char* name = cap.name();
    DLTensor* t = nullptr;
    if (std::strcmp(name, "dltensor_versioned") == 0)
        t = &static_cast<DLManagedTensorVersioned*>(cap.get_pointer())->dl_tensor;
    else if (std::strcmp(name, "dltensor") == 0)
        t = &static_cast<DLManagedTensor*>(cap.get_pointer())->dl_tensor;
    else
        throw std::invalid_argument("not an unconsumed DLPack capsule");
    std::vector<int64_t> shape(t->shape, t->shape + t->ndim), strides(t->strides, t->strides + t->ndim);
    return py::make_tuple(t->device.device_type, t->device.device_id, shape, strides, t->byte_offset,
                          t->dtype.code, t->dtype.bits, (uintptr_t)t->data);
}

} // namespace

PYBIND11_MODULE(_vkcore, m)
{
    m.doc() = "array_api_vulkan's binding of Kompute's C++ API";

    static py::exception<std::runtime_error> vk_error(m, "VulkanError", PyExc_RuntimeError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p)
                std::rethrow_exception(p);
        } catch (const vk::OutOfDeviceMemoryError& e) {
            PyErr_SetString(PyExc_MemoryError, e.what());
        } catch (const vk::OutOfHostMemoryError& e) {
            PyErr_SetString(PyExc_MemoryError, e.what());
        } catch (const vk::SystemError& e) {
            PyErr_SetString(vk_error.ptr(), e.what());
        }
    });

    m.def("enumerate_devices", &enumerate_devices, "Properties and features of every Vulkan device.");
    m.def("host_view", &host_view, "A numpy uint8 view of a host-visible buffer's mapped memory.");
    m.def("dlpack_export", &dlpack_export, "A DLPack capsule (kDLVulkan) of a device buffer region.",
          py::arg("buffer"), py::arg("byte_offset"), py::arg("shape"), py::arg("strides"), py::arg("code"),
          py::arg("bits"), py::arg("device_id"), py::arg("versioned"), py::arg("read_only") = false);
    m.def("dlpack_info", &dlpack_info, "What an unconsumed DLPack capsule describes (for tests).");

    py::class_<Buffer, std::shared_ptr<Buffer>>(m, "Buffer")
      .def_readonly("nbytes", &Buffer::nbytes)
      .def_readonly("host", &Buffer::host);

    py::class_<Pipeline>(m, "Pipeline").def_readonly("push_words", &Pipeline::push_words);

    py::class_<Batch, std::shared_ptr<Batch>>(m, "Batch")
      .def("dispatch", &Batch::dispatch, py::arg("pipeline"), py::arg("push"), py::arg("gx"),
           py::arg("gy") = 1, py::arg("gz") = 1)
      .def("barrier", &Batch::barrier)
      .def("host_barrier", &Batch::host_barrier)
      .def("submit", &Batch::submit, py::arg("background") = false)
      .def("wait", &Batch::wait)
      .def("done", &Batch::done)
      .def_property_readonly("dispatches", &Batch::dispatches)
      .def_property_readonly("gpu_seconds", &Batch::gpu_seconds);

    py::class_<Recorder, std::shared_ptr<Recorder>>(m, "Recorder")
      .def(py::init([](Device& core, py::object load_spirv, bool per_buffer) {
               return std::make_shared<Recorder>(core, std::move(load_spirv), per_buffer);
           }),
           py::keep_alive<1, 2>())
      .def("launch", &Recorder::launch, py::arg("shader"), py::arg("spec"), py::arg("buffers"), py::arg("writes"),
           py::arg("push"), py::arg("count"), py::arg("host_read") = false)
      .def("submit", &Recorder::submit, py::arg("background") = false)
      .def("synchronize", &Recorder::synchronize)
      .def("gpu_idle", &Recorder::gpu_idle)
      .def_property_readonly("idle", &Recorder::idle)
      .def_property_readonly("inflight", &Recorder::inflight)
      .def_property_readonly("pending", &Recorder::pending)
      .def_property_readonly("batch", &Recorder::batch)
      .def_property_readonly("pipelines", &Recorder::pipelines)
      .def_readonly("serial", &Recorder::serial)
      .def_readonly("completed", &Recorder::completed)
      .def_readwrite("max_pending_dispatches", &Recorder::max_pending_dispatches)
      .def_readwrite("max_pending_bytes", &Recorder::max_pending_bytes)
      .def_readwrite("max_inflight", &Recorder::max_inflight)
      .def_readwrite("early_dispatches", &Recorder::early_dispatches)
      .def_readwrite("early_bytes", &Recorder::early_bytes)
      .def_readwrite("omit_barriers", &Recorder::omit_barriers)
      .def_property_readonly("counters", [](const Recorder& r) {
          py::dict d;
          d["submits"] = r.submits;
          d["dispatches"] = r.dispatches;
          d["barriers"] = r.barriers;
          d["pipelines_created"] = r.pipelines_created;
          d["gpu_seconds"] = r.gpu_seconds;
          return d;
      })
      .def("reset_counters", [](Recorder& r) {
          r.submits = r.dispatches = r.barriers = r.pipelines_created = 0;
          r.gpu_seconds = 0;
      });

    py::class_<Arena, std::shared_ptr<Arena>>(m, "Arena")
      .def_readonly("buffer", &Arena::buffer)
      .def_readonly("size", &Arena::size)
      .def_readonly("top", &Arena::top)
      .def_readonly("serial", &Arena::serial)
      .def("__eq__", [](const Arena& a, py::object o) {
          py::detail::type_caster<Arena> c;
          return c.load(o, false) && static_cast<Arena*>(c) == &a;
      })
      .def("__hash__", [](const Arena& a) { return (size_t)a.serial; })
      .def("__repr__", [](const Arena& a) {
          return "<Arena " + std::to_string(a.serial) + " " + std::to_string(a.size >> 10) + " KiB>";
      });

    py::class_<Allocation, std::shared_ptr<Allocation>>(m, "Allocation")
      .def_readonly("device", &Allocation::device)
      .def_readonly("pool", &Allocation::pool)
      .def_readonly("arena", &Allocation::arena)
      .def_property_readonly("buffer",
                             [](const Allocation& a) { return a.arena ? a.arena->buffer : std::shared_ptr<Buffer>(); })
      .def_readonly("offset", &Allocation::offset)
      .def_readonly("nbytes", &Allocation::nbytes)
      .def_readonly("block", &Allocation::block)
      .def_readwrite("last_batch", &Allocation::last_batch)
      .def_readwrite("host", &Allocation::host)
      .def_readonly("key", &Allocation::key)
      .def("__repr__", [](const Allocation& a) {
          std::string where = a.arena ? "<Arena " + std::to_string(a.arena->serial) + " " +
                                          std::to_string(a.arena->size >> 10) + " KiB>"
                                      : "None";
          return "<Allocation " + std::to_string(a.nbytes) + " B at " + where + "+" + std::to_string(a.offset) + ">";
      });

    py::class_<Pool, std::shared_ptr<Pool>>(m, "Pool")
      .def(py::init([](Device& core, py::object device, uint64_t max_arena, bool host, bool stream_ordered,
                       uint64_t first_arena) {
               return std::make_shared<Pool>(core, std::move(device), max_arena, host, stream_ordered, first_arena);
           }),
           py::arg("core"), py::arg("device"), py::arg("max_arena"), py::arg("host"), py::arg("stream_ordered"),
           py::arg("first_arena"), py::keep_alive<1, 2>())
      .def("alloc", &Pool::alloc)
      .def("reclaim", &Pool::reclaim)
      .def("set_recorder", [](Pool& p, std::shared_ptr<Recorder> rec) { p.completed = &rec->completed; },
           py::keep_alive<1, 2>())
      .def_readwrite("before_grow", &Pool::before_grow)
      .def_readonly("device", &Pool::device)
      .def_readonly("max_arena", &Pool::max_arena)
      .def_readonly("host", &Pool::host)
      .def_readonly("stream_ordered", &Pool::stream_ordered)
      .def_readonly("next_arena", &Pool::next_arena)
      .def_readonly("bytes_reserved", &Pool::bytes_reserved)
      .def_readonly("bytes_in_use", &Pool::bytes_in_use)
      .def_readonly("deferred_bytes", &Pool::deferred_bytes)
      .def_readonly("arenas", &Pool::arenas)
      .def_property_readonly("deferred", [](const Pool& p) {
          py::list out;
          for (const auto& d : p.deferred)
              out.append(py::make_tuple(d.serial, d.arena, d.offset, d.block));
          return out;
      });

    py::class_<ElementwisePlan, std::shared_ptr<ElementwisePlan>>(m, "ElementwisePlan")
      .def(py::init<std::shared_ptr<Recorder>, py::object, std::shared_ptr<Pool>, py::object, std::string, std::vector<uint32_t>,
                    std::vector<uint32_t>, uint64_t, uint64_t, uint32_t, py::object, py::tuple, py::tuple,
                    std::vector<py::tuple>>())
      .def("__call__", &ElementwisePlan::call);

    py::class_<Device>(m, "Device")
      .def(py::init<uint32_t>())
      .def("create_buffer", &Device::create_buffer, py::arg("nbytes"), py::arg("host") = false)
      .def("create_pipeline", &Device::create_pipeline, py::arg("spirv"), py::arg("spec"),
           py::arg("push_words"), py::arg("buffers"))
      .def("new_batch", &Device::new_batch)
      .def_property_readonly("timestamps", &Device::timestamps)
      .def("features", &Device::features);
}
