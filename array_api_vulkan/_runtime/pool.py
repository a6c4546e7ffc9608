"""Device memory pool: arrays are sub-allocations of a few large Kompute buffers (arenas).

Sizes are rounded to size classes (four per power of two) and freed blocks go to a free list per
class, so steady workloads reuse memory without fragmentation growing.

Device memory is stream-ordered, as in CuPy's pool: a freed block is reusable at once, because
the recorder keys hazards by block (Allocation.key), so the next op writing a reused block gets a
barrier after every recorded op that used it, in this batch or an earlier one still running.
Host-visible staging memory is written by the host directly, which no barrier orders, so a
staging block goes back only once every batch that used it has finished. Either way,
use-after-free cannot happen, whatever order Python frees arrays in.
"""
import threading

ALIGN = 16
# Arenas start at 32 MiB and double up to the device limit: few arenas mean few combinations
# of bound buffers, and so few pipelines (one per shader, spec constants and arena set).
FIRST_ARENA = 32 << 20


def size_class(nbytes):
    if nbytes <= 256:
        return max(ALIGN, (nbytes + ALIGN - 1) // ALIGN * ALIGN)
    # Four classes per power of two: at most 25% waste.
    step = 1 << (nbytes.bit_length() - 3)
    return (nbytes + step - 1) // step * step


class Arena:
    __slots__ = ("buffer", "size", "top", "serial")
    _next = 0

    def __init__(self, buffer, size):
        self.buffer = buffer
        self.size = size
        self.top = 0
        Arena._next += 1
        self.serial = Arena._next  # a stable key for pipeline caches

    def __repr__(self):
        return f"<Arena {self.serial} {self.size >> 10} KiB>"


class Allocation:
    """A region of an arena. Returned to its pool when the last reference goes."""

    __slots__ = ("device", "pool", "arena", "buffer", "offset", "nbytes", "block", "last_batch", "host",
                 "key", "__weakref__")

    def __init__(self, device, pool, arena, offset, nbytes, block):
        self.device = device
        self.pool = pool
        self.arena = arena
        self.buffer = arena.buffer if arena is not None else None  # what the recorder binds
        self.offset = offset
        self.nbytes = nbytes
        self.block = block
        self.last_batch = 0  # serial of the last batch that used it; 0: none
        # A host copy of the bytes (Device.host_bytes), dropped by any recorded write.
        self.host = None
        # The block's identity for hazard tracking: a reused block keeps its key.
        self.key = (arena.serial << 40 | offset) if arena is not None else 0

    def __del__(self):
        pool = self.pool
        if pool is not None and self.block:
            pool.release(self.arena, self.offset, self.block, self.last_batch)

    def __repr__(self):
        return f"<Allocation {self.nbytes} B at {self.arena}+{self.offset}>"


class MemoryPool:
    def __init__(self, device, create_buffer, max_arena, host, stream_ordered):
        self.device = device
        self._create_buffer = create_buffer
        self.max_arena = max_arena - max_arena % ALIGN
        self.host = host
        self.stream_ordered = stream_ordered
        self.arenas = []
        self.free = {}  # block size -> [(arena, offset)]
        self.deferred = []  # (batch serial, arena, offset, block) awaiting that batch
        self.next_arena = min(FIRST_ARENA, self.max_arena)
        self.bytes_reserved = 0
        self.bytes_in_use = 0
        self.deferred_bytes = 0
        # Reentrant: the device's before_grow hook synchronizes, which reclaims.
        self._lock = threading.RLock()
        self.completed = lambda: 0  # set by the device: serial of the last finished batch
        # Called before a new arena is made; True if it freed something worth retrying for.
        self.before_grow = lambda block: False

    def alloc(self, nbytes):
        if nbytes == 0:
            return Allocation(self.device, None, None, 0, 0, 0)
        block = size_class(nbytes)
        if block > self.max_arena:
            raise MemoryError(
                f"cannot allocate {nbytes} bytes on {self.device}: one array may be at most "
                f"{self.max_arena} bytes (the device's maxStorageBufferRange)")
        with self._lock:
            self._reclaim()
            spot = self.free.get(block)
            if spot:
                arena, offset = spot.pop()
            else:
                arena, offset = self._carve(block)
            self.bytes_in_use += block
        return Allocation(self.device, self, arena, offset, nbytes, block)

    def _carve(self, block):
        for arena in reversed(self.arenas[-4:]):
            if arena.size - arena.top >= block:
                offset = arena.top
                arena.top += block
                return arena, offset
        # Memory freed by work still pending comes back when it finishes: waiting for it is
        # cheaper than growing the pool without bound on a long stream of temporaries.
        if self.deferred_bytes >= block and self.before_grow(block):
            self._reclaim()
            spot = self.free.get(block)
            if spot:
                return spot.pop()
        size = max(self.next_arena, block)
        size = min((size + ALIGN - 1) // ALIGN * ALIGN, self.max_arena)
        try:
            buffer = self._create_buffer(size, self.host)
        except MemoryError:
            # The driver's message names no device or sizes: say what this pool holds.
            raise MemoryError(f"device memory exhausted on {self.device} allocating {block} bytes "
                              f"({self.bytes_in_use} in use, {self.bytes_reserved} reserved)") from None
        arena = Arena(buffer, size)
        self.arenas.append(arena)
        self.bytes_reserved += size
        self.next_arena = min(self.next_arena * 2, self.max_arena)
        arena.top = block
        return arena, 0

    def release(self, arena, offset, block, last_batch):
        # Runs from __del__, possibly inside another pool call: only append here (a list append
        # is atomic; _reclaim swaps the deferred list out before it iterates).
        if self.stream_ordered:
            # Reusable at once: the recorder orders the next write after the work using it.
            self.free.setdefault(block, []).append((arena, offset))
            self.bytes_in_use -= block
            return
        self.deferred.append((last_batch, arena, offset, block))
        self.deferred_bytes += block

    def _reclaim(self):
        if not self.deferred:
            return
        done = self.completed()
        # Swap the list out first: a __del__ may append to it while we loop.
        items, self.deferred = self.deferred, []
        keep = []
        for item in items:
            if item[0] <= done:
                self.free.setdefault(item[3], []).append((item[1], item[2]))
                self.bytes_in_use -= item[3]
                self.deferred_bytes -= item[3]
            else:
                keep.append(item)
        self.deferred.extend(keep)

    def reclaim(self):
        with self._lock:
            self._reclaim()
