#include "recorder.hpp"

namespace avk {

Recorder::Recorder(Device& core, py::object load_spirv, bool per_buffer)
  : mCore(core)
  , mLoadSpirv(std::move(load_spirv))
  , mPerBuffer(per_buffer)
{
}

// The Allocations of buffers (at most kMaxBuffers, checked by the caller) into out; `who` names
// the entry in the error for anything else or an empty one.
static void
allocations_of(py::sequence buffers, Allocation** out, const char* who)
{
    for (size_t i = 0, n = buffers.size(); i < n; i++) {
        out[i] = as_allocation(buffers[i]);
        if (!out[i] || !out[i]->arena)
            throw std::invalid_argument(std::string(who) + ": buffers must be non-empty Allocations");
    }
}

void
Recorder::launch(const std::string& shader, const std::vector<uint32_t>& spec, py::sequence buffers,
                 py::sequence writes, py::buffer push, uint64_t count, uint32_t local_size,
                 std::vector<uint32_t> groups, bool host_read)
{
    auto info = push.request();
    uint32_t nwords = (uint32_t)(info.size * info.itemsize / sizeof(uint32_t));
    size_t n = buffers.size();
    if (n > kMaxBuffers || (size_t)writes.size() != n)
        throw std::invalid_argument("launch: bad buffer or writes list");
    if (nwords * 4 > mCore.pipelines().push_bytes())
        throw std::invalid_argument("launch: " + std::to_string(nwords) + " push words, the device takes " +
                                    std::to_string(mCore.pipelines().push_bytes() / 4));
    Allocation* bufs[kMaxBuffers];
    bool w[kMaxBuffers];
    allocations_of(buffers, bufs, "launch");
    for (size_t i = 0; i < n; i++)
        w[i] = PyObject_IsTrue(writes[i].ptr()) == 1;
    uint32_t gx, gy = 1, gz = 1;
    if (!groups.empty()) {
        if (groups.size() > 3)
            throw std::invalid_argument("launch: groups has at most 3 dimensions");
        gx = groups[0];
        gy = groups.size() > 1 ? groups[1] : 1;
        gz = groups.size() > 2 ? groups[2] : 1;
        if (gx > kMaxGroups || gy > kMaxGroups || gz > kMaxGroups)
            throw std::invalid_argument("launch: at most 65535 workgroups per dimension");
    } else {
        if (!count)
            return;
        grid_1d(count, local_size, gx, gy);
    }
    if (!gx || !gy || !gz)
        return;
    record(shader, spec.data(), spec.size(), bufs, w, n, static_cast<const uint32_t*>(info.ptr), nwords, gx, gy, gz,
           host_read);
}

void
Recorder::launch_addressed(const std::string& shader, py::sequence buffers, py::sequence byte_offsets,
                           size_t nreads, uint32_t head, py::sequence tail, uint64_t count)
{
    size_t n = buffers.size(), nt = tail.size();
    if (n > kMaxBuffers || (size_t)byte_offsets.size() != n || nreads > n)
        throw std::invalid_argument("launch_addressed: bad buffer or offset list");
    size_t nwords = 1 + 2 * n + nt;
    if (nwords > kMaxPushWords || nwords * 4 > mCore.pipelines().push_bytes())
        throw std::invalid_argument("launch_addressed: " + std::to_string(nwords) + " push words, the device takes " +
                                    std::to_string(mCore.pipelines().push_bytes() / 4));
    Allocation* bufs[kMaxBuffers];
    bool w[kMaxBuffers];
    uint32_t push[kMaxPushWords];
    push[0] = head;
    allocations_of(buffers, bufs, "launch_addressed");
    for (size_t i = 0; i < n; i++) {
        w[i] = i >= nreads;
        uint64_t a = bufs[i]->address() + byte_offsets[i].cast<uint64_t>();
        push[1 + 2 * i] = (uint32_t)a;
        push[2 + 2 * i] = (uint32_t)(a >> 32);
    }
    for (size_t i = 0; i < nt; i++)
        push[1 + 2 * n + i] = tail[i].cast<uint32_t>();
    if (!count)
        return;
    uint32_t gx, gy = 1;
    grid_1d(count, 256, gx, gy);
    record(shader, nullptr, 0, bufs, w, n, push, (uint32_t)nwords, gx, gy, 1, false);
}

void
Recorder::grid_1d(uint64_t count, uint32_t local_size, uint32_t& gx, uint32_t& gy)
{
    uint64_t groups = (count + local_size - 1) / local_size;
    if (groups <= kMaxGroups) {
        gx = (uint32_t)groups;
        gy = 1;
        return;
    }
    // Rows of nearly equal length: a short last row would launch tens of thousands of empty
    // groups (64M elements: 65535 + 65535 groups for 65537 of work).
    uint64_t rows = (groups + kMaxGroups - 1) / kMaxGroups;
    if (rows > kMaxGroups)
        throw std::invalid_argument("launch: too many invocations for a 2-D grid");
    gy = (uint32_t)rows;
    gx = (uint32_t)((groups + rows - 1) / rows);
}

void
Recorder::touch(Allocation* const* allocs, const bool* writes, size_t n)
{
    if (mPrestarted) {
        mPrestarted = false;
        if (mBatch->timed() != mCore.submitter()->timestamps) {
            // begun before set_gpu_timing changed: begin it again as it now says
            mBatch.reset();
            mOrderAfterWait = mOrderAfterWait || mAheadOrdered;
        } else if (mAheadOrdered)
            barriers++; // (counted with the op it orders: start_batch(true) did not)
    }
    if (!mBatch)
        start_batch();
    uint64_t keys[kMaxBuffers];
    for (size_t i = 0; i < n; i++)
        keys[i] = mPerBuffer ? (uint64_t)(uintptr_t)allocs[i]->arena->buffer.get() : allocs[i]->key;
    for (size_t i = 0; i < n; i++)
        if (mWritten.contains(keys[i]) || (writes[i] && mRead.contains(keys[i]))) {
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
        } else {
            mRead.insert(keys[i]);
            mPendingReadBytes += allocs[i]->nbytes;
        }
    }
}

void
Recorder::after_op(bool host_read)
{
    if (host_read)
        mBatch->host_barrier();
    mPending++;
    if (mAfterWait) {
        if (host_read) // (its caller waits at once)
            mAfterWait = false;
        else if (mHoldKick) {
            mKickDue = true;
            return; // (submitted at the release: not early after the call's first dispatch)
        } else {
            mAfterWait = false;
            submit(!early_inline);
            return;
        }
    }
    if (mPending >= max_pending_dispatches || mPendingBytes >= max_pending_bytes)
        submit(true);
    else if ((mPending >= early_dispatches || mPendingBytes + mPendingReadBytes >= early_bytes) && gpu_idle())
        submit(!early_inline);
}

void
Recorder::record(const std::string& shader, const uint32_t* spec, size_t nspec, Allocation* const* allocs,
                 const bool* writes, size_t n, const uint32_t* push, uint32_t nwords, uint32_t gx, uint32_t gy,
                 uint32_t gz, bool host_read)
{
    HostTick tick;
    run_hook(allocs, writes, n);
    GilSafeLock guard(mLock);
    tick.lap(HostProfile::kRecHook);
    PipelineCache& pc = mCore.pipelines();
    Pipeline* p = pc.get(shader, spec, nspec, mLoadSpirv);
    tick.lap(HostProfile::kRecPipeline);
    touch(allocs, writes, n);
    tick.lap(HostProfile::kRecTouch);
    mBatch->dispatch(p->pipeline, pc.layout(), push, nwords * 4, gx, gy, gz);
    dispatches++;
    tick.lap(HostProfile::kRecDispatch);
    after_op(host_read);
    tick.lap(HostProfile::kRecAfterOp);
}

void
Recorder::record_external(Allocation* const* allocs, const bool* writes, size_t n,
                          const std::function<void(vk::CommandBuffer)>& fn, bool host_read)
{
    if (n > kMaxBuffers)
        throw std::invalid_argument("record_external: too many buffers");
    HostTick tick;
    run_hook(allocs, writes, n); // held (fused) ops it depends on are recorded first
    GilSafeLock guard(mLock);
    tick.lap(HostProfile::kRecHook);
    touch(allocs, writes, n);
    tick.lap(HostProfile::kRecTouch);
    fn(mBatch->external());
    dispatches++;
    tick.lap(HostProfile::kRecExternal);
    after_op(host_read);
    tick.lap(HostProfile::kRecAfterOp);
}

void
Recorder::copy(Allocation& src, uint64_t src_offset, Allocation& dst, uint64_t dst_offset, uint64_t nbytes,
               bool host_read)
{
    if (!nbytes)
        return;
    if (!src.arena || !dst.arena || src_offset + nbytes > src.nbytes || dst_offset + nbytes > dst.nbytes)
        throw std::invalid_argument("copy: range outside the allocations");
    {
        Allocation* a[2] = { &dst, &src };
        bool w[2] = { true, false };
        run_hook(a, w, 2);
    }
    GilSafeLock guard(mLock);
    Allocation* allocs[2] = { &dst, &src };
    bool writes[2] = { true, false };
    touch(allocs, writes, 2);
    mBatch->copy(src.arena->buffer->handle(), src.offset + src_offset, dst.arena->buffer->handle(),
                 dst.offset + dst_offset, nbytes);
    copies++;
    after_op(host_read);
}

bool
Recorder::gpu_idle()
{
    GilSafeLock guard(mLock);
    while (!mInflight.empty() && mInflight.front().second->done())
        retire_oldest();
    return mInflight.empty();
}

void
Recorder::kick()
{
    GilSafeLock guard(mLock);
    if (open() && gpu_idle())
        submit(!early_inline);
}

void
Recorder::submit(bool background)
{
    GilSafeLock guard(mLock);
    if (!mBatch || mPrestarted)
        return;
    mBatch->submit(background);
    submits++;
    mInflight.emplace_back(serial, std::move(mBatch));
    mBatch.reset();
    serial++;
    mPending = 0;
    mPendingBytes = 0;
    mPendingReadBytes = 0;
    while (mInflight.size() > max_inflight)
        retire_oldest();
}

void
Recorder::hold_kick()
{
    GilSafeLock guard(mLock);
    mHoldKick++;
}

void
Recorder::release_kick()
{
    GilSafeLock guard(mLock);
    if (mHoldKick && --mHoldKick == 0 && mKickDue) {
        mKickDue = false;
        mAfterWait = false;
        if (mBatch)
            submit(!early_inline);
    }
}

void
Recorder::synchronize()
{
    HostTick tick;
    GilSafeLock guard(mLock);
    submit(false);
    // Work from before a host wait is ordered against once, at the start of the next batch.
    if (!mWritten.empty())
        mOrderAfterWait = true;
    mWritten.clear();
    mRead.clear();
    if (!mInflight.empty())
        start_ahead();
    tick.lap(HostProfile::kSyncSubmit);
    while (!mInflight.empty())
        retire_oldest();
    tick.lap(HostProfile::kSyncWait);
    mAfterWait = kick_after_wait;
    mKickDue = false;
}

void
Recorder::start_ahead()
{
    if (!prestart || mBatch)
        return;
    mAheadOrdered = mOrderAfterWait;
    start_batch(true);
    mPrestarted = true;
}

void
Recorder::start_batch(bool ahead)
{
    HostTick tick;
    mBatch = std::make_shared<Batch>(mCore.submitter());
    tick.lap(HostProfile::kBatchStart);
    if (mOrderAfterWait) {
        mOrderAfterWait = false;
        mBatch->barrier();
        if (!ahead) // (begun ahead: counted by touch, with the op it orders)
            barriers++;
    }
}

void
Recorder::retire_oldest()
{
    auto item = std::move(mInflight.front());
    mInflight.pop_front();
    item.second->wait();
    gpu_seconds += item.second->gpu_seconds();
    submit_seconds += item.second->submit_seconds();
    wait_seconds += item.second->wait_seconds();
    completed = item.first;
}

} // namespace avk
