// Batches: recycled command buffers, fences and timestamp queries, and the submit thread.
#pragma once

#include "common.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <thread>

namespace avk {

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
    uint64_t submit_ns = 0; // how long its vkQueueSubmit took
    uint64_t value = 0;     // the timeline value its submission signals (with a timeline)
    bool fence_signaled = false; // reset when the slot is next taken, not when it finishes
};

// What batches share with their device. Outlives every batch (held by shared_ptr).
struct Submitter
{
    std::shared_ptr<vk::Device> device;
    std::shared_ptr<vk::Queue> queue;
    vk::CommandPool pool;
    std::vector<std::unique_ptr<Slot>> slots;
    std::vector<Slot*> free;
    bool timestamps = false, timestamps_supported = false;
    double timestamp_ns = 1.0; // nanoseconds per timestamp tick
    uint64_t timestamp_mask = ~0ull;
    // How long a wait polls the fence before blocking in vkWaitForFences: a blocking wait
    // wakes on an interrupt, which on the H200 host cost hundreds of microseconds. It polls
    // flat out for spin_ns, then for up to yield_ns more with the core yielded between polls
    // (as CUDA's default synchronisation does), so waits of a few milliseconds (a 16M sort,
    // a 1024^2 QR) do not pay the wake-up either.
    uint64_t spin_ns = 1000000;
    uint64_t yield_ns = 100000000;
    // With ARRAY_API_VULKAN_TIMELINE=1: every submission signals the next value of this
    // timeline semaphore instead of its slot's fence, and waits poll the counter.
    vk::Semaphore timeline;
    uint64_t timeline_next = 0; // (under queue_lock: values are taken in submission order)
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
        if (timeline)
            device->destroySemaphore(timeline);
    }
    void queue_submit(vk::Queue& q, Slot* s)
    {
        vk::SubmitInfo info(0, nullptr, nullptr, 1, &s->cb);
        vk::TimelineSemaphoreSubmitInfo values(0, nullptr, 1, &s->value);
        if (timeline) {
            info.signalSemaphoreCount = 1;
            info.pSignalSemaphores = &timeline;
            info.pNext = &values;
        }
        auto t0 = std::chrono::steady_clock::now();
        try {
            q.submit(1, &info, timeline ? vk::Fence() : s->fence);
        } catch (const std::exception& e) {
            s->error = e.what();
        }
        s->submit_ns = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - t0)
                         .count();
    }
    // Submits s now, after whatever the worker still holds (queue order is dependency order).
    void submit_now(Slot* s)
    {
        std::unique_lock<std::mutex> lk(queue_lock);
        s->value = ++timeline_next;
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
        s->value = ++timeline_next;
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

    // A free slot (or a new one), and whether its batch takes timestamps (its query pool made
    // on first use).
    Slot* acquire(bool& timed)
    {
        std::lock_guard<std::mutex> guard(lock);
        timed = timestamps;
        Slot* s;
        if (free.empty())
            s = make_slot();
        else {
            s = free.back();
            free.pop_back();
        }
        if (timed && !s->queries)
            s->queries = device->createQueryPool(vk::QueryPoolCreateInfo({}, vk::QueryType::eTimestamp, 2));
        // Reset here rather than when its batch finished: a slot is taken for the next batch
        // while the GPU still runs the last one (Recorder::prestart), off a synchronised call's path.
        if (s->fence_signaled) {
            device->resetFences(1, &s->fence);
            s->fence_signaled = false;
        }
        return s;
    }
    Slot* make_slot()
    {
        auto s = std::make_unique<Slot>();
        vk::CommandBufferAllocateInfo info(pool, vk::CommandBufferLevel::ePrimary, 1);
        s->cb = device->allocateCommandBuffers(info)[0];
        s->fence = device->createFence(vk::FenceCreateInfo());
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
        mSlot = mSub->acquire(mTimed);
        // The pool has the reset flag: begin resets a recycled buffer.
        mSlot->cb.begin(vk::CommandBufferBeginInfo(vk::CommandBufferUsageFlagBits::eOneTimeSubmit));
        if (mTimed) {
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
    // One dispatch of a runtime pipeline (no descriptor sets: memory is reached through device
    // addresses in the push constants). push: nbytes of push constants from offset 0.
    void dispatch(vk::Pipeline pipeline, vk::PipelineLayout layout, const void* push, uint32_t nbytes, uint32_t gx,
                  uint32_t gy, uint32_t gz)
    {
        if (pipeline != mLastBound) {
            mSlot->cb.bindPipeline(vk::PipelineBindPoint::eCompute, pipeline);
            mLastBound = pipeline;
        }
        if (nbytes)
            mSlot->cb.pushConstants(layout, vk::ShaderStageFlagBits::eCompute, 0, nbytes, push);
        mSlot->cb.dispatch(gx, gy, gz);
        mDispatches++;
    }
    // The open command buffer, for commands recorded by others (Recorder::record_external).
    // Forgets the last bound pipeline: the caller may bind its own.
    vk::CommandBuffer external()
    {
        check_open();
        mLastBound = vk::Pipeline();
        mDispatches++;
        return mSlot->cb;
    }
    // A buffer-to-buffer copy on the queue's copy engine path (uploads, downloads, copies).
    void copy(vk::Buffer src, uint64_t src_offset, vk::Buffer dst, uint64_t dst_offset, uint64_t nbytes)
    {
        vk::BufferCopy region(src_offset, dst_offset, nbytes);
        mSlot->cb.copyBuffer(src, dst, 1, &region);
    }
    // A global memory barrier between compute and transfer work: a dependency on the same
    // queue needs no per-buffer ones.
    void barrier()
    {
        check_open();
        auto stages = vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer;
        vk::MemoryBarrier b(vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite,
                            vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite |
                              vk::AccessFlagBits::eTransferRead | vk::AccessFlagBits::eTransferWrite);
        mSlot->cb.pipelineBarrier(stages, stages, {}, b, nullptr, nullptr);
    }
    // Makes device writes to host-visible memory visible to host reads after the fence.
    void host_barrier()
    {
        check_open();
        vk::MemoryBarrier b(vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite,
                            vk::AccessFlagBits::eHostRead);
        mSlot->cb.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
                                  vk::PipelineStageFlagBits::eHost, {}, b, nullptr, nullptr);
    }
    // background: through the worker thread, for submissions nobody waits on at once.
    void submit(bool background)
    {
        check_open();
        HostTick tick;
        if (mTimed)
            mSlot->cb.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, mSlot->queries, 1);
        mSlot->cb.end();
        tick.lap(HostProfile::kSubmitEnd);
        mSlot->queued = mSlot->submitted = false;
        mSlot->error.clear();
        if (background)
            mSub->submit_later(mSlot);
        else {
            py::gil_scoped_release release;
            mSub->submit_now(mSlot);
        }
        mSubmitted = true;
        tick.lap(HostProfile::kSubmitQueue);
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
        if (mSub->timeline)
            return mSub->device->getSemaphoreCounterValue(mSub->timeline) >= mSlot->value;
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
    bool timed() const { return mTimed; }
    // GPU time from the batch's first command to its last, in seconds (0 without timestamps).
    double gpu_seconds() const { return mGpuNs * 1e-9; }
    // Host seconds in its vkQueueSubmit, and waiting for its fence (spinning or blocked).
    double submit_seconds() const { return mSubmitNs * 1e-9; }
    double wait_seconds() const { return mWaitNs * 1e-9; }

  private:
    void finish()
    {
        if (mSlot->queued)
            mSub->await_submitted(mSlot);
        const vk::Device& dev = *mSub->device;
        VkDevice vkdev = (VkDevice)dev;
        VkFence fence = (VkFence)mSlot->fence;
        auto t0 = std::chrono::steady_clock::now();
        // true while the wait should poll again (yielding the core once past spin_ns)
        auto poll_on = [&] {
            auto ns = (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - t0)
                        .count();
            if (ns < mSub->spin_ns)
                return true;
            if (ns >= mSub->spin_ns + mSub->yield_ns)
                return false;
            std::this_thread::yield();
            return true;
        };
        VkResult r;
        if (mSub->timeline) {
            VkSemaphore sem = (VkSemaphore)mSub->timeline;
            uint64_t v = 0;
            r = vkGetSemaphoreCounterValue(vkdev, sem, &v);
            while (r == VK_SUCCESS && v < mSlot->value && poll_on())
                r = vkGetSemaphoreCounterValue(vkdev, sem, &v);
            if (r == VK_SUCCESS && v < mSlot->value) {
                VkSemaphoreWaitInfo wi{ VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &sem, &mSlot->value };
                r = vkWaitSemaphores(vkdev, &wi, UINT64_MAX);
            }
        } else {
            r = vkGetFenceStatus(vkdev, fence);
            while (r == VK_NOT_READY && poll_on())
                r = vkGetFenceStatus(vkdev, fence);
            if (r == VK_NOT_READY)
                r = vkWaitForFences(vkdev, 1, &fence, VK_TRUE, UINT64_MAX);
        }
        if (r != VK_SUCCESS)
            vk::throwResultException(vk::Result(r), "waiting for a batch");
        mWaitNs = (double)std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
                    .count();
        mSubmitNs = (double)mSlot->submit_ns;
        if (mTimed) {
            uint64_t ts[2] = { 0, 0 };
            if (vkGetQueryPoolResults(vkdev, (VkQueryPool)mSlot->queries, 0, 2, sizeof(ts), ts, sizeof(uint64_t),
                                      VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
                mGpuNs = (double)((ts[1] - ts[0]) & mSub->timestamp_mask) * mSub->timestamp_ns;
        }
        mSubmitted = false;
        mSlot->fence_signaled = !mSub->timeline;
        recycle();
    }
    void recycle()
    {
        std::lock_guard<std::mutex> guard(mSub->lock);
        mSub->free.push_back(mSlot);
        mSlot = nullptr;
    }

    std::shared_ptr<Submitter> mSub;
    Slot* mSlot = nullptr;
    vk::Pipeline mLastBound;
    bool mSubmitted = false;
    bool mTimed = false; // timestamps at its start and end
    uint32_t mDispatches = 0;
    double mGpuNs = 0, mSubmitNs = 0, mWaitNs = 0;
};

} // namespace avk
