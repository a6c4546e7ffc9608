"""Device memory pool: arrays are sub-allocations of a few large Kompute buffers (arenas).

The pool is implemented in C++ (`_vkcore.Pool`, `_vkcore.Allocation`, `_vkcore.Arena`), since
allocating and freeing are on every op's hot path; this module holds its design and constants.

Sizes are rounded to size classes (16-byte steps up to 256 bytes, then four per power of two)
and freed blocks go to a free list per class, so steady workloads reuse memory without
fragmentation growing. Arenas start at FIRST_ARENA bytes and double up to the device limit.

Device memory is stream-ordered, as in CuPy's pool: a freed block is reusable at once, because
the recorder keys hazards by block (Allocation.key: arena serial << 40 | offset), so the next
op writing a reused block gets a barrier after every recorded op that used it, in this batch or
an earlier one still running. Host-visible staging memory is written by the host directly, which
no barrier orders, so a staging block goes back only once every batch that used it has finished
(Allocation.last_batch against the recorder's completed serial). Either way, use-after-free
cannot happen, whatever order Python frees arrays in.

Before a pool makes a new arena while freed staging blocks still wait for pending work, it calls
its before_grow hook (the device synchronizes), since waiting is cheaper than growing the pool
without bound on a long stream of temporaries.
"""
ALIGN = 16
# Few arenas mean few combinations of bound buffers, and so few pipelines (one per shader,
# spec constants and arena set).
FIRST_ARENA = 32 << 20


def __getattr__(name):
    # The extension loads the Vulkan loader: import it only when its classes are asked for, so
    # that a machine without Vulkan gets runtime.NoVulkanDeviceError, not an ImportError here.
    if name in ("Allocation", "Arena", "Pool"):
        from . import _vkcore

        return getattr(_vkcore, name)
    raise AttributeError(name)
