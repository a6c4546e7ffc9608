// DLPack export of device memory (kDLVulkan) and host views of mapped staging buffers.
#include "dlpack.hpp"

namespace avk {

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

namespace {

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
    t.data = ctx->buffer ? (void*)(uintptr_t)(VkBuffer)ctx->buffer->handle()
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

} // namespace

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

} // namespace avk
