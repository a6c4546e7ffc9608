// The memory pool (see pool.py for the design): arenas, allocations and their free lists.
#pragma once

#include "device.hpp"

#include <algorithm>
#include <unordered_map>

namespace avk {


constexpr uint64_t kAlign = 16;

// Size classes: 16-byte steps up to 256 bytes, then four per power of two (at most 25% waste).
inline uint64_t
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
    // The device address of the first byte (0 for an empty allocation).
    uint64_t address() const { return arena ? arena->buffer->address + offset : 0; }
    ~Allocation();
};

class Pool : public std::enable_shared_from_this<Pool>
{
  public:
    Pool(Device& core, py::object device, uint64_t max_arena, bool host, bool stream_ordered, uint64_t first_arena,
         bool cached = true)
      : cached(cached)
      , mCore(core)
      , device(std::move(device))
      , max_arena(std::min(max_arena - max_arena % kAlign, core.max_buffer_bytes()))
      , host(host)
      , stream_ordered(stream_ordered)
      , next_arena(std::min(first_arena, this->max_arena))
    {
    }

    bool cached; // host pools: cached system memory, else write-combined (see Device::create_buffer)
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
        if (block > mCore.max_buffer_bytes()) {
            block = (nbytes + kAlign - 1) / kAlign * kAlign; // one buffer of its own, unrounded
            if (block > mCore.max_buffer_bytes())
                throw_memory_error("cannot allocate " + std::to_string(nbytes) + " bytes on " + name() +
                                   ": one array may be at most " + std::to_string(mCore.max_buffer_bytes()) +
                                   " bytes on this device (its largest buffer)");
        }
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

    // A new arena, its first block for this request. A block larger than the arenas grow to
    // gets an arena of its own size (device addresses reach any buffer whole).
    std::pair<std::shared_ptr<Arena>, uint64_t> grow(uint64_t block)
    {
        uint64_t size = std::max(next_arena, block);
        size = std::max(std::min((size + kAlign - 1) / kAlign * kAlign, max_arena), block);
        std::shared_ptr<Buffer> buffer;
        try {
            buffer = mCore.create_buffer(size, host, cached);
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

inline Allocation::~Allocation()
{
    if (pool && block)
        pool->release(arena, offset, block, last_batch);
}

// The Allocation behind a Python object, or null if it is not one.
inline Allocation*
as_allocation(py::handle h)
{
    py::detail::type_caster<Allocation> caster;
    if (!caster.load(h, false))
        return nullptr;
    return static_cast<Allocation*>(caster);
}


} // namespace avk
