// Lazy command recording for one device (docs/design.md): the hot path of every op.
//
// Ops are recorded into the current batch; a barrier goes in only where an op touches memory an
// op since the last barrier wrote (read/write after write), or writes memory such an op read
// (write after read). Hazards are keyed per allocation block (Allocation.key), or per buffer
// (ARRAY_API_VULKAN_HAZARDS=buffer). The written/read sets carry over submits: a barrier's first
// scope covers earlier submissions. Thread-safe: every entry point takes the recorder's lock.
#pragma once

#include "batch.hpp"
#include "pipelines.hpp"
#include "pool.hpp"

#include <deque>
#include <functional>
#include <unordered_set>

namespace avk {

// The hazard keys an open batch's ops read or wrote since its last barrier. A dependent chain
// holds one or two between barriers, so they sit in a flat array (no hashing, no node
// allocations, and a clear that touches only them); past kFlat keys (many independent ops in
// one batch) a hash set takes over until the next clear.
class KeySet
{
  public:
    bool contains(uint64_t k) const
    {
        if (!mSpilled) {
            for (uint32_t i = 0; i < mN; i++)
                if (mFlat[i] == k)
                    return true;
            return false;
        }
        return mBig.count(k) != 0;
    }
    void insert(uint64_t k)
    {
        if (!mSpilled) {
            for (uint32_t i = 0; i < mN; i++)
                if (mFlat[i] == k)
                    return;
            if (mN < kFlat) {
                mFlat[mN++] = k;
                return;
            }
            mBig.insert(mFlat, mFlat + mN);
            mSpilled = true;
        }
        mBig.insert(k);
    }
    void clear()
    {
        mN = 0;
        if (mSpilled) {
            mBig.clear();
            mSpilled = false;
        }
    }
    bool empty() const { return mSpilled ? mBig.empty() : mN == 0; }

  private:
    static constexpr uint32_t kFlat = 32;
    uint64_t mFlat[kFlat];
    uint32_t mN = 0;
    bool mSpilled = false;
    std::unordered_set<uint64_t> mBig;
};

class Recorder
{
  public:
    Recorder(Device& core, py::object load_spirv, bool per_buffer);

    // Submit (without waiting) past these; early past the early ones when the GPU is idle
    // (early_bytes weighs the bytes the batch reads and writes, max_pending_bytes those it writes).
    uint32_t max_pending_dispatches = 4096;
    uint64_t max_pending_bytes = 1ull << 30;
    uint32_t max_inflight = 2;
    uint32_t early_dispatches = 1024;
    uint64_t early_bytes = 16ull << 20;
    // An early submit (GPU idle) goes through the submit thread (false), or is made by the
    // recording thread itself (true), which saves the thread's wake-up before the GPU starts.
    bool early_inline = false;
    // The first op recorded after a host wait is submitted at once (as early_inline says), so
    // that a caller synchronizing after every call has the GPU start while it returns, and not
    // only at its synchronize. An op of several dispatches (a compiled plan, or hold_kick())
    // is submitted after its last.
    bool kick_after_wait = false;
    // A host wait (synchronize, wait_serial) first begins the next batch, so that its begin and
    // the barrier after the wait are recorded while the GPU runs, not by the next call.
    bool prestart = true;

    uint64_t submits = 0, dispatches = 0, barriers = 0, copies = 0;
    double gpu_seconds = 0;
    // Host time in vkQueueSubmit and in fence waits of finished batches (where a synchronised
    // call's time goes: benchmarks/diag_split.py).
    double submit_seconds = 0, wait_seconds = 0;
    // Where large transfers spend their time: host copies into or out of staging, and waits on
    // the device's copies (a diagnostic: benchmarks/diag_upload.py).
    double transfer_host_seconds = 0, transfer_wait_seconds = 0;
    // For the validation tests' negative control only: record no hazard barriers.
    bool omit_barriers = false;
    // Called (with the GIL, before the recorder's lock is taken) at the start of every entry
    // that records or transfers: hook(reads, writes) with the hazard keys (Allocation.key) of
    // the memory the op reads and writes; hook(None, None) from a Python call of synchronize.
    // The kernels layer sets it while it holds elementwise ops not yet recorded (fusion), so
    // that they are recorded before anything that touches their memory. Null when unset.
    py::object hook;
    void run_hook(Allocation* const* allocs, const bool* writes, size_t n)
    {
        if (!hook)
            return;
        py::object h = hook; // (kept alive if the hook unsets itself)
        if (!allocs) {
            h(py::none(), py::none());
            return;
        }
        py::list r, w;
        for (size_t i = 0; i < n; i++)
            (writes[i] ? w : r).append(py::int_(allocs[i]->key));
        h(r, w);
    }
    uint64_t serial = 1;    // serial of the batch being recorded
    uint64_t completed = 0; // serial of the last batch known finished

    static constexpr size_t kMaxBuffers = 16;
    static constexpr size_t kMaxPushWords = 64; // (256 bytes, the most any device offers us)
    // The largest workgroup count in x (and y, z) every device has.
    static constexpr uint64_t kMaxGroups = 65535;

    // One dispatch of spv/<shader>.spv: groups (gx, gy, gz) of workgroups, or, when gx is 0,
    // enough 1-D groups of local_size for count invocations (laid out over x and y past
    // 65535 groups). buffers: the Allocations it touches (for hazards); writes: which it writes;
    // push: the push-constant words (device addresses included by the caller).
    void launch(const std::string& shader, const std::vector<uint32_t>& spec, py::sequence buffers,
                py::sequence writes, py::buffer push, uint64_t count, uint32_t local_size,
                std::vector<uint32_t> groups, bool host_read);

    // One dispatch of a shader without specialisation constants over enough 256-wide 1-D groups
    // for count invocations, whose push words are `head`, then each buffer's device address plus
    // its byte offset (two words), then `tail`: the first nreads buffers are read, the others
    // written (fusion's generated kernels: the addresses are made here, not by the caller).
    void launch_addressed(const std::string& shader, py::sequence buffers, py::sequence byte_offsets,
                          size_t nreads, uint32_t head, py::sequence tail, uint64_t count);

    void record(const std::string& shader, const uint32_t* spec, size_t nspec, Allocation* const* allocs,
                const bool* writes, size_t n, const uint32_t* push, uint32_t nwords, uint32_t gx, uint32_t gy,
                uint32_t gz, bool host_read);
    // The (gx, gy, 1) grid for count invocations of local_size-wide groups.
    static void grid_1d(uint64_t count, uint32_t local_size, uint32_t& gx, uint32_t& gy);

    // Records commands made elsewhere (VkFFT's dispatches: fft.cpp) into the open batch, with
    // the same hazard tracking as record(): a barrier before if they touch memory an earlier op
    // wrote (or write memory one read); later ops touching `allocs` get one after. `fn` gets the
    // batch's command buffer; it must leave no pipeline state our dispatches rely on (they bind
    // and push their own), and must synchronize its own dispatches among themselves.
    void record_external(Allocation* const* allocs, const bool* writes, size_t n,
                         const std::function<void(vk::CommandBuffer)>& fn, bool host_read);

    // Copies nbytes from src (at src_offset) to dst (at dst_offset), in order with other work.
    void copy(Allocation& src, uint64_t src_offset, Allocation& dst, uint64_t dst_offset, uint64_t nbytes,
              bool host_read);

    // Host -> device: the bytes of `src` into dst at dst_offset; device -> host: nbytes of src
    // from src_offset into the writable buffer `dst`. Both go through a ring of staging chunks
    // from `staging` (transfer.cpp): the host fills or drains one chunk while the device copies
    // another, and each host copy is split over threads with the GIL released.
    void upload(Pool& staging, py::buffer src, Allocation& dst, uint64_t dst_offset);
    void download(Pool& staging, Allocation& src, uint64_t src_offset, py::buffer dst);
    uint64_t transfer_chunk = 32ull << 20; // bytes per staging chunk (H100: best of 8-64 MiB)
    uint32_t transfer_ring = 4;            // chunks in flight
    uint32_t transfer_threads = 8;         // host threads per chunk copy (H100: best of 1-8)

    // Whether every submitted batch has finished (retiring those that have).
    bool gpu_idle();
    void submit(bool background);
    // Submits the open batch (without waiting) if no submitted work is still running: the GPU
    // starts on it while the host goes on (fusion's first op from an idle GPU).
    void kick();
    // Submits pending work and waits for all of it.
    void synchronize();
    // Whether nothing was recorded since the last host wait that left the device idle.
    bool after_wait() const { return mAfterWait; }
    // Between hold_kick() and release_kick() (nested), the kick after a wait waits for the
    // release: the ops between are one call's dispatches.
    void hold_kick();
    void release_kick();

    // A bit that alternates from one call to the next (0, 1, 0, ...): the kernels layer gives
    // successive streaming dispatches opposite workgroup orders with it, so that each starts on
    // what the one before left in the L2. Compiled plans take it too (Plan::ALTERNATE).
    uint32_t alternate() { return mAlternate ^= 1u; }
    uint32_t alternate_state() const { return mAlternate; }

    bool idle() const { return open() == nullptr && mInflight.empty(); }
    size_t inflight() const { return mInflight.size(); }
    uint32_t pending() const { return mPending; }
    // The open batch holding recorded work (null where none, or only a prestarted empty one).
    std::shared_ptr<Batch> batch() const { return open(); }
    PipelineCache& pipelines() { return mCore.pipelines(); }
    Device& core() { return mCore; }

  private:
    // Retires submitted batches up to serial s (submitting the open batch if s is it).
    void wait_serial(uint64_t s);
    // ahead: begun by start_ahead, its barrier after a wait not yet counted
    void start_batch(bool ahead = false);
    // Begins the next batch ahead (see prestart), where none is open.
    void start_ahead();
    const std::shared_ptr<Batch>& open() const
    {
        static const std::shared_ptr<Batch> none;
        return mPrestarted ? none : mBatch;
    }
    void retire_oldest();
    // Hazard check, bookkeeping and the barrier for an op touching allocs.
    void touch(Allocation* const* allocs, const bool* writes, size_t n);
    void after_op(bool host_read);

    Device& mCore;
    py::object mLoadSpirv;
    bool mPerBuffer;
    std::recursive_mutex mLock; // one thread records at a time
    std::shared_ptr<Batch> mBatch;
    std::deque<std::pair<uint64_t, std::shared_ptr<Batch>>> mInflight;
    uint32_t mPending = 0;
    uint64_t mPendingBytes = 0;
    // Bytes the batch's ops read: with the written ones, what an early submit weighs (a
    // reduction of a large array writes little but is GPU work worth starting at once).
    uint64_t mPendingReadBytes = 0;
    KeySet mWritten, mRead;
    bool mOrderAfterWait = false;
    // mBatch was begun ahead and holds no op yet (only the barrier after a wait, if
    // mAheadOrdered): not submitted, and begun again if the timestamp setting changed.
    bool mPrestarted = false, mAheadOrdered = false;
    bool mAfterWait = false, mKickDue = false;
    uint32_t mAlternate = 0;
    uint32_t mHoldKick = 0;
};

// Holds the kick after a wait for a scope (a plan's steps).
struct KickHold
{
    Recorder& rec;
    explicit KickHold(Recorder& r) : rec(r) { rec.hold_kick(); }
    ~KickHold()
    {
        try {
            rec.release_kick();
        } catch (...) {
            // (not thrown from a destructor, which would end the process: a submit that failed
            // here fails again at the next submit or synchronize, which raise it)
        }
    }
};

} // namespace avk
