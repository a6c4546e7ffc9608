// Uploads and downloads through host-visible staging: the device's queue copies between a
// staging chunk and the array (vkCmdCopyBuffer), and the host copies between the chunk and the
// user's memory. A ring of chunks lets the two overlap; host copies of large chunks are split
// over threads (one thread's memcpy from pageable memory is well short of what the bus takes).
#include "recorder.hpp"

#include <chrono>
#include <sys/mman.h>
#include <thread>

namespace avk {

namespace {

void
parallel_copy(uint8_t* dst, const uint8_t* src, uint64_t n, uint32_t threads)
{
    const uint64_t min_part = 4ull << 20;
    uint32_t parts = (uint32_t)std::max<uint64_t>(1, std::min<uint64_t>(threads, n / min_part));
    if (parts <= 1) {
        std::memcpy(dst, src, n);
        return;
    }
    std::vector<std::thread> pool;
    uint64_t step = (n + parts - 1) / parts;
    for (uint32_t k = 1; k < parts; k++) {
        uint64_t lo = k * step, hi = std::min(n, lo + step);
        if (lo < hi)
            pool.emplace_back([=] { std::memcpy(dst + lo, src + lo, hi - lo); });
    }
    std::memcpy(dst, src, std::min(n, step));
    for (auto& t : pool)
        t.join();
}

uint8_t*
mapped(Allocation& a)
{
    return static_cast<uint8_t*>(a.arena->buffer->tensor->rawData()) + a.offset;
}

} // namespace

void
Recorder::wait_serial(uint64_t s)
{
    GilSafeLock guard(mLock);
    if (mBatch && s >= serial)
        submit(true);
    if (!mInflight.empty() && mInflight.front().first <= s)
        start_ahead();
    while (!mInflight.empty() && mInflight.front().first <= s)
        retire_oldest();
}

void
Recorder::upload(Pool& staging, py::buffer src, Allocation& dst, uint64_t dst_offset)
{
    auto info = src.request();
    if (info.ndim != 1 || info.itemsize != 1 || info.strides[0] != 1)
        throw std::invalid_argument("upload: src must be contiguous bytes");
    uint64_t n = (uint64_t)info.size;
    if (!n)
        return;
    if (!dst.arena || dst_offset + n > dst.nbytes)
        throw std::invalid_argument("upload: range outside the allocation");
    {
        Allocation* a = &dst;
        bool w = true;
        run_hook(&a, &w, 1);
    }
    const uint8_t* host = static_cast<const uint8_t*>(info.ptr);
    uint64_t chunk = std::min(n, transfer_chunk);
    uint64_t nchunks = (n + chunk - 1) / chunk;
    uint32_t ring = (uint32_t)std::min<uint64_t>(nchunks, transfer_ring);
    std::vector<std::shared_ptr<Allocation>> slots;
    std::vector<uint64_t> used(ring, 0); // serial of the batch that last read each slot
    for (uint32_t r = 0; r < ring; r++)
        slots.push_back(staging.alloc(chunk));
    for (uint64_t k = 0; k < nchunks; k++) {
        uint64_t lo = k * chunk, len = std::min(chunk, n - lo);
        Allocation& slot = *slots[k % ring];
        auto t0 = std::chrono::steady_clock::now();
        if (used[k % ring])
            wait_serial(used[k % ring]);
        auto t1 = std::chrono::steady_clock::now();
        {
            py::gil_scoped_release release;
            parallel_copy(mapped(slot), host + lo, len, transfer_threads);
        }
        transfer_wait_seconds += std::chrono::duration<double>(t1 - t0).count();
        transfer_host_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        copy(slot, 0, dst, dst_offset + lo, len, false);
        used[k % ring] = serial;
        // A large upload starts the device's copy at once; a small write stays lazy.
        if (nchunks > 1)
            submit(true);
    }
}

void
Recorder::download(Pool& staging, Allocation& src, uint64_t src_offset, py::buffer dst)
{
    auto info = dst.request(true);
    if (info.ndim != 1 || info.itemsize != 1 || info.strides[0] != 1 || info.readonly)
        throw std::invalid_argument("download: dst must be writable contiguous bytes");
    uint64_t n = (uint64_t)info.size;
    if (!n)
        return;
    if (!src.arena || src_offset + n > src.nbytes)
        throw std::invalid_argument("download: range outside the allocation");
    {
        Allocation* a = &src;
        bool w = false;
        run_hook(&a, &w, 1);
    }
    uint8_t* host = static_cast<uint8_t*>(info.ptr);
    // A large destination is usually fresh memory that faults in page by page during the drain:
    // ask for huge pages there (512x fewer faults; a no-op where transparent huge pages are off).
    if (n >= (32ull << 20)) {
        const uintptr_t huge = 2ull << 20;
        uintptr_t lo = ((uintptr_t)host + huge - 1) & ~(huge - 1), hi = ((uintptr_t)host + n) & ~(huge - 1);
        if (hi > lo)
            (void)madvise((void*)lo, hi - lo, MADV_HUGEPAGE);
    }
    uint64_t chunk = std::min(n, transfer_chunk);
    uint64_t nchunks = (n + chunk - 1) / chunk;
    uint32_t ring = (uint32_t)std::min<uint64_t>(nchunks, transfer_ring);
    std::vector<std::shared_ptr<Allocation>> slots;
    for (uint32_t r = 0; r < ring; r++)
        slots.push_back(staging.alloc(chunk));
    std::vector<uint64_t> serials(nchunks, 0);
    auto drain = [&](uint64_t k) {
        uint64_t lo = k * chunk, len = std::min(chunk, n - lo);
        py::gil_scoped_release release;
        auto t0 = std::chrono::steady_clock::now();
        parallel_copy(host + lo, mapped(*slots[k % ring]), len, transfer_threads);
        transfer_host_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    // Chunk k is copied into slot k % ring once chunk k - ring has been drained from it.
    uint64_t drained = 0;
    for (uint64_t k = 0; k < nchunks; k++) {
        while (drained + ring <= k) {
            wait_serial(serials[drained]);
            drain(drained++);
        }
        uint64_t lo = k * chunk, len = std::min(chunk, n - lo);
        copy(src, src_offset + lo, *slots[k % ring], 0, len, true);
        serials[k] = serial;
        submit(true);
    }
    synchronize();
    while (drained < nchunks)
        drain(drained++);
}

} // namespace avk
