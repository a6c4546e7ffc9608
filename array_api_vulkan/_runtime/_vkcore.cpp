// The project's binding of Kompute's C++ API: the only code that touches Kompute or Vulkan.
//
// kp 0.9.0's own Python bindings cannot order dependent dispatches, enable no device features,
// hold the GIL while waiting and mis-type push constants (docs/kompute.md). Instead of patching
// them we create the Vulkan device ourselves (with the features the shaders use), hand it to a
// kp::Manager, and record two operations of our own into kp::Sequences: a dispatch that binds a
// cached kp::Algorithm with per-dispatch push constants and workgroups, and a global memory
// barrier placed by the Python recorder only where one op depends on an earlier one.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <sys/mman.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <kompute/Algorithm.hpp>
#include <kompute/Manager.hpp>
#include <kompute/Sequence.hpp>
#include <kompute/Tensor.hpp>
#include <kompute/operations/OpBase.hpp>

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

class OpDispatch : public kp::OpBase
{
  public:
    OpDispatch(std::shared_ptr<kp::Algorithm> a, const uint32_t* push, uint32_t n, kp::Workgroup wg,
               bool bind)
      : mAlgorithm(std::move(a))
      , mPush(push)
      , mPushWords(n)
      , mWorkgroup(wg)
      , mBind(bind)
    {
    }
    void record(const vk::CommandBuffer& cb) override
    {
        // Recorded at once by kp::Sequence::record, so the caller's push data is still alive.
        if (mPushWords)
            mAlgorithm->setPushConstants((void*)mPush, mPushWords, sizeof(uint32_t));
        mAlgorithm->setWorkgroup(mWorkgroup);
        // The same pipeline and descriptor set as the previous dispatch stay bound.
        if (mBind)
            mAlgorithm->recordBindCore(cb);
        mAlgorithm->recordBindPush(cb);
        mAlgorithm->recordDispatch(cb);
        mPush = nullptr;
    }
    void preEval(const vk::CommandBuffer&) override {}
    void postEval(const vk::CommandBuffer&) override {}

  private:
    std::shared_ptr<kp::Algorithm> mAlgorithm;
    const uint32_t* mPush;
    uint32_t mPushWords;
    kp::Workgroup mWorkgroup;
    bool mBind;
};

// One vkCmdPipelineBarrier with a global memory barrier. kp::OpMemoryBarrier would emit one
// buffer barrier per tensor; a global one is what a compute-to-compute dependency needs.
class OpGlobalBarrier : public kp::OpBase
{
  public:
    OpGlobalBarrier(vk::PipelineStageFlags src, vk::PipelineStageFlags dst, vk::AccessFlags sa,
                    vk::AccessFlags da)
      : mSrc(src)
      , mDst(dst)
      , mSrcAccess(sa)
      , mDstAccess(da)
    {
    }
    void record(const vk::CommandBuffer& cb) override
    {
        vk::MemoryBarrier barrier(mSrcAccess, mDstAccess);
        cb.pipelineBarrier(mSrc, mDst, {}, barrier, nullptr, nullptr);
    }
    void preEval(const vk::CommandBuffer&) override {}
    void postEval(const vk::CommandBuffer&) override {}

  private:
    vk::PipelineStageFlags mSrc, mDst;
    vk::AccessFlags mSrcAccess, mDstAccess;
};

class Device;

// One kp::Sequence: recorded op by op, submitted once, waited on once. kp's command pools
// cannot reset their buffers, so a batch is never re-recorded; the Python side makes a new one.
class Batch
{
  public:
    explicit Batch(std::shared_ptr<kp::Sequence> seq)
      : mSeq(std::move(seq))
    {
        mSeq->begin();
    }
    void check_open() const
    {
        if (mDone)
            throw std::runtime_error("this batch was already submitted and finished");
    }
    void dispatch(const Pipeline& p, py::buffer push, uint32_t gx, uint32_t gy, uint32_t gz)
    {
        check_open();
        auto info = push.request();
        uint32_t n = (uint32_t)(info.size * info.itemsize / sizeof(uint32_t));
        if (n != p.push_words)
            throw std::invalid_argument("push constants: expected " + std::to_string(p.push_words) +
                                        " words, got " + std::to_string(n));
        bool bind = p.algorithm.get() != mLastBound;
        mSeq->record(std::make_shared<OpDispatch>(
          p.algorithm, static_cast<const uint32_t*>(info.ptr), n, kp::Workgroup{ gx, gy, gz }, bind));
        mLastBound = p.algorithm.get();
        mDispatches++;
    }
    void barrier()
    {
        check_open();
        mSeq->record(std::make_shared<OpGlobalBarrier>(
          vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eComputeShader,
          vk::AccessFlagBits::eShaderWrite, vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite));
    }
    // Makes shader writes to host-visible memory visible to host reads after the fence.
    void host_barrier()
    {
        check_open();
        mSeq->record(std::make_shared<OpGlobalBarrier>(
          vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eHost,
          vk::AccessFlagBits::eShaderWrite, vk::AccessFlagBits::eHostRead));
    }
    void submit()
    {
        check_open();
        if (mSubmitted)
            throw std::runtime_error("this batch was already submitted");
        py::gil_scoped_release release;
        mSeq->evalAsync();
        mSubmitted = true;
    }
    void wait()
    {
        if (!mSubmitted)
            return;
        {
            py::gil_scoped_release release;
            // No timeout: kp destroys the fence even when a finite wait times out.
            mSeq->evalAwait(UINT64_MAX);
        }
        mSubmitted = false;
        mDone = true;
        mSeq->destroy();
    }
    uint32_t dispatches() const { return mDispatches; }

  private:
    std::shared_ptr<kp::Sequence> mSeq;
    const kp::Algorithm* mLastBound = nullptr;
    bool mSubmitted = false;
    bool mDone = false;
    uint32_t mDispatches = 0;
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
        std::string code = spirv;
        if (code.size() % 4 != 0)
            throw std::invalid_argument("SPIR-V size is not a multiple of 4");
        std::vector<uint32_t> words(code.size() / 4);
        std::memcpy(words.data(), code.data(), code.size());
        std::vector<std::shared_ptr<kp::Tensor>> tensors;
        for (const auto& b : buffers)
            tensors.push_back(b->tensor);
        std::vector<uint32_t> push(push_words, 0);
        Pipeline p;
        p.push_words = push_words;
        py::gil_scoped_release release;
        p.algorithm = mManager->algorithm<uint32_t, uint32_t>(tensors, words, kp::Workgroup{ 1, 1, 1 },
                                                              spec, push);
        return p;
    }

    Batch new_batch()
    {
        return Batch(std::make_shared<kp::Sequence>(mPhysical, mDevice, mQueue, mFamily));
    }

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

    py::class_<Batch>(m, "Batch")
      .def("dispatch", &Batch::dispatch, py::arg("pipeline"), py::arg("push"), py::arg("gx"),
           py::arg("gy") = 1, py::arg("gz") = 1)
      .def("barrier", &Batch::barrier)
      .def("host_barrier", &Batch::host_barrier)
      .def("submit", &Batch::submit)
      .def("wait", &Batch::wait)
      .def_property_readonly("dispatches", &Batch::dispatches);

    py::class_<Device>(m, "Device")
      .def(py::init<uint32_t>())
      .def("create_buffer", &Device::create_buffer, py::arg("nbytes"), py::arg("host") = false)
      .def("create_pipeline", &Device::create_pipeline, py::arg("spirv"), py::arg("spec"),
           py::arg("push_words"), py::arg("buffers"))
      .def("new_batch", &Device::new_batch)
      .def("features", &Device::features);
}
