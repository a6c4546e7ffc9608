// The Vulkan instance, device features (with the capability mask), the Vulkan device and its
// buffers. Devices come from kp::Manager and memory from kp::Tensor (patched for device
// addresses and 64-bit sizes: scripts/kompute-patches/).
#pragma once

#include "common.hpp"

namespace avk {

class Submitter;
class PipelineCache;

struct Features
{
    bool float64 = false, int64 = false, int16 = false, int8 = false;
    bool storage8 = false, storage16 = false;
    bool device_address = false;
};

// The device's features; with `masked`, less those named in ARRAY_API_VULKAN_DISABLE_FEATURES
// (a capability profile: the device then behaves as if it lacked them, and they are not
// enabled). enumerate_devices() reports the hardware's; the Python layer applies the mask there.
Features
query_features(const vk::PhysicalDevice& pd, bool masked);

std::shared_ptr<vk::Instance>
instance();

py::list
enumerate_devices();

// A Kompute tensor used as raw memory: an arena of device-local storage, or host-visible
// staging memory mapped for the lifetime of the buffer. address: its device address.
struct Buffer
{
    std::shared_ptr<kp::Tensor> tensor;
    uint64_t nbytes = 0;
    bool host = false;
    uint64_t address = 0;
    vk::Buffer buffer; // the tensor's VkBuffer
    vk::Buffer handle() const { return buffer; }
};

class Device
{
  public:
    explicit Device(uint32_t index);
    // The VkDevice is deliberately never destroyed: Python may release arrays (and so Kompute
    // tensors) in any order at interpreter exit, and each needs a live device to free itself.

    // host: host-visible staging; cached: cached system memory (else write-combined where the
    // device has it, which it reads faster: upload staging).
    std::shared_ptr<Buffer> create_buffer(uint64_t nbytes, bool host, bool cached = true);
    const std::shared_ptr<Submitter>& submitter() const { return mSub; }
    PipelineCache& pipelines() { return *mPipelines; }
    const std::shared_ptr<vk::Device>& device() const { return mDevice; }
    const vk::PhysicalDevice& physical() const { return *mPhysical; }
    bool timestamps() const;
    // Turns per-batch GPU timestamps on or off (where the queue has them); returns whether on.
    bool set_timestamps(bool on);
    // Whether batches signal a timeline semaphore rather than fences (ARRAY_API_VULKAN_TIMELINE).
    bool timeline() const;
    py::dict features() const;
    const Features& feature_set() const { return mFeatures; }
    uint64_t max_buffer_bytes() const { return mMaxBuffer; }
    uint32_t queue_family() const { return mFamily; }

  private:
    std::shared_ptr<vk::PhysicalDevice> mPhysical;
    std::shared_ptr<vk::Device> mDevice;
    std::shared_ptr<vk::Queue> mQueue;
    uint32_t mFamily = 0;
    Features mFeatures;
    uint64_t mMaxBuffer = 0;
    std::unique_ptr<kp::Manager> mManager;
    std::shared_ptr<Submitter> mSub;
    std::unique_ptr<PipelineCache> mPipelines;
};

} // namespace avk
