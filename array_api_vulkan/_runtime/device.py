"""A Vulkan device: its Kompute manager, memory pools, pipelines and lazy command recording."""
import atexit
import os
import threading

import numpy as np

from . import stats
from .pool import FIRST_ARENA

_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ARRAY_API_VULKAN_SPV_DIR, if set, is searched first (to compare shader builds side by side).
SPV_DIRS = tuple(d for d in (os.environ.get("ARRAY_API_VULKAN_SPV_DIR"),
                             os.path.join(os.path.dirname(_PKG), "spv"), os.path.join(_PKG, "spv")) if d)

LOCAL_SIZE = 256
MAX_GROUPS_X = 65535
# Pending work is submitted (without waiting) past these, so that the GPU starts early on long
# op chains and pending memory stays bounded. Not lower: on an H200 a 32 MiB threshold (a submit
# and, past MAX_INFLIGHT, a fence wait per large op) made a 16M-element add 6x slower.
MAX_PENDING_DISPATCHES = 4096
MAX_PENDING_BYTES = 1 << 30
# Submitted batches we let run ahead of the host before waiting for the oldest.
MAX_INFLIGHT = 2
# Past these, pending work is also submitted whenever the GPU has finished everything submitted
# before, so that it runs while the host records the next ops instead of after (a poll of the
# last batch's fence per op until then). On the H100 (benchmarks/diag_latency.py, 2026-11-23
# run 8) a dependent chain of 1000 small ops took 7.8 us an op at 64 dispatches, 8.1 at 128,
# 8.6 at 256 and 11.6 at 1024 (torch: 12.5): the GPU starts on the chain sooner.
EARLY_SUBMIT_DISPATCHES = 64
EARLY_SUBMIT_BYTES = 16 << 20  # read and written
# Whether that early submit is made by the recording thread itself rather than the submit
# thread (ARRAY_API_VULKAN_EARLY_INLINE=0 hands it to the thread). Inline, with fusion on, an
# a + b of 16M float32 with a synchronize took 135 us against 169, and the 5-op chain 264
# against 315 (run 8).
EARLY_SUBMIT_INLINE = os.environ.get("ARRAY_API_VULKAN_EARLY_INLINE", "1") == "1"
# The first op after a host wait is submitted as soon as it is recorded (Recorder.kick_after_wait),
# so that a caller synchronizing after every call has the GPU start while it returns to Python
# and calls synchronize (ARRAY_API_VULKAN_KICK_AFTER_WAIT=0: at the synchronize).
KICK_AFTER_WAIT = os.environ.get("ARRAY_API_VULKAN_KICK_AFTER_WAIT", "1") == "1"
# A host wait begins the next batch (its command buffer, and the barrier ordering it after the
# wait) before it waits, while the GPU runs, instead of the first op after it
# (Recorder.prestart; ARRAY_API_VULKAN_PRESTART=0: the op does). The fence of a finished batch
# is reset when its slot is taken again, not on the wait's return. lavapipe: a synchronised
# small add's host time 16.7 -> 15.4 us.
PRESTART = os.environ.get("ARRAY_API_VULKAN_PRESTART", "1") == "1"
# GPU timestamps at each batch's start and end (runtime_stats()["gpu_seconds"]): off unless
# asked for (set_gpu_timing, ARRAY_API_VULKAN_GPU_TIMING=1). On the H100 they added 6-10 us to
# every synchronised call: the query reset and the end-of-pipe timestamp are GPU commands.
GPU_TIMING = os.environ.get("ARRAY_API_VULKAN_GPU_TIMING", "0") == "1"

# Hazards are tracked per memory block: a barrier goes only between ops that share memory
# (a block freed and reused keeps its key, so reuse is ordered like any other dependency).
# Khronos synchronization validation cannot see which part of a bound buffer a shader touches,
# so it takes every dispatch as reading/writing its whole arena and reports independent ops in
# one arena as races. ARRAY_API_VULKAN_HAZARDS=buffer tracks per arena instead, for runs under
# that layer (every hazard per allocation is also one per arena, so this only adds barriers).
HAZARDS_PER_BUFFER = os.environ.get("ARRAY_API_VULKAN_HAZARDS", "allocation") == "buffer"

# A write of a whole allocation up to this size keeps a host copy of it (host_bytes), so that
# element reads after small writes cost no read-back; a larger one would be a second full-size
# host copy on every upload.
HOST_COPY_LIMIT = 1 << 22
# Arenas double from FIRST_ARENA (pool.py) up to this; a larger array gets a buffer of its own.
MAX_ARENA = 1 << 30
# ARRAY_API_VULKAN_ARENAS=own: every allocation a buffer of its own (a debugging aid: the
# validation layer's GPU-assisted checks then see any access past an array's end; tests/
# test_validation.py). Slow: each allocation is a driver allocation.
OWN_ARENAS = os.environ.get("ARRAY_API_VULKAN_ARENAS") == "own"


def cache_dir():
    """ARRAY_API_VULKAN_CACHE_DIR, else the user's cache directory; None (no disk cache) when
    ARRAY_API_VULKAN_CACHE_DIR is set and empty."""
    root = os.environ.get("ARRAY_API_VULKAN_CACHE_DIR")
    if root is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "array_api_vulkan")
    return root or None


def pipeline_cache_file(info):
    """Where the device's VkPipelineCache is kept: per device UUID and driver version, under
    cache_dir(); None when there is no disk cache."""
    root = cache_dir()
    if not root:
        return None
    uuid = info.get("uuid", b"").hex()
    return os.path.join(root, f"pipelines-{info.get('vendor_id', 0):04x}-{uuid}-{info.get('driver_version', 0)}.bin")


_KIND_RANK = {"discrete": 0, "integrated": 1, "virtual": 2, "other": 3, "cpu": 4}
_KINDS = {"DiscreteGpu": "discrete", "IntegratedGpu": "integrated", "VirtualGpu": "virtual", "Cpu": "cpu"}

# Capability profiles: ARRAY_API_VULKAN_DISABLE_FEATURES=float64,int64,... makes every device
# behave as if it lacked those features (to test the code paths of drivers without them, e.g.
# float64 on Apple, Intel and most mobile GPUs, on a device that has everything).
FEATURES = ("float64", "int64", "int16", "int8", "storage8", "storage16")
DISABLE_FEATURES_ENV = "ARRAY_API_VULKAN_DISABLE_FEATURES"


def disabled_features():
    """The feature names ARRAY_API_VULKAN_DISABLE_FEATURES lists (comma-separated, whitespace
    and case ignored); ValueError for a name that is not one of FEATURES."""
    text = os.environ.get(DISABLE_FEATURES_ENV, "")
    names = {n.strip().lower() for n in text.split(",")} - {""}
    unknown = sorted(names - set(FEATURES))
    if unknown:
        raise ValueError(f"{DISABLE_FEATURES_ENV}={text!r}: unknown feature "
                         f"{', '.join(map(repr, unknown))}; valid ones: {', '.join(FEATURES)}")
    return frozenset(names)


def mask_features(info):
    """A copy of enumerate_devices()' info dict with the disabled features turned off. The
    device's own flags stay in info["hardware_features"], the names turned off in
    info["disabled_features"]."""
    off = disabled_features()
    info = dict(info)
    info["hardware_features"] = {k: bool(info[k]) for k in FEATURES}
    info["disabled_features"] = tuple(k for k in FEATURES if k in off)
    for k in off:
        info[k] = False
    return info


_spirv_cache = {}  # shader name -> SPIR-V bytes; compiler.shader() adds run-time compiled ones


def load_spirv(shader):
    code = _spirv_cache.get(shader)
    if code is None:
        for d in SPV_DIRS:
            path = os.path.join(d, shader + ".spv")
            if os.path.exists(path):
                with open(path, "rb") as f:
                    code = _spirv_cache[shader] = f.read()
                break
        else:
            raise FileNotFoundError(f"no compiled shader {shader}.spv (run scripts/build_spv.py)")
    return code


class Device:
    """One Vulkan physical device. Created cheaply from its properties; the Vulkan device, the
    Kompute manager and the pools are made on first use."""

    def __init__(self, info):
        info = mask_features(info)
        self.index = info["index"]
        self._hash = hash(("vulkan", self.index))  # (a dict key on every op's hot path)
        self.name = info["name"]
        self.kind = _KINDS.get(info["type"], "other")
        self.info = info
        self.supports_float64 = bool(info["float64"])
        self.supports_int64 = bool(info["int64"])
        # 8/16-bit arrays only need 8/16-bit storage: shaders compute on them in 32 bits.
        self.supports_int8 = bool(info["storage8"])
        self.supports_int16 = bool(info["storage16"])
        self.limits = {
            "max_storage_buffer_range": info["max_storage_buffer_range"],
            "max_push_constants_size": info["max_push_constants_size"],
            "max_compute_shared_memory_size": info["max_compute_shared_memory_size"],
            "max_workgroup_count": info["max_workgroup_count"],
            "device_local_bytes": info["device_local_bytes"],
        }
        self._core = None
        self.clock_hold = "off (device not yet used)"
        self._bound_pool = None
        self._init_lock = threading.Lock()

    # -- identity -------------------------------------------------------------------------
    def __repr__(self):
        return f"vulkan:{self.index}"

    def __str__(self):
        return f"vulkan:{self.index} ({self.name})"

    def __eq__(self, other):
        return isinstance(other, Device) and other.index == self.index

    def __hash__(self):
        return self._hash

    @property
    def rank(self):
        return _KIND_RANK[self.kind]

    # -- lazy set-up ----------------------------------------------------------------------
    def _ensure(self):
        if self._core is None:
            with self._init_lock:  # threads using a new device at once make it once
                if self._core is None:
                    self._create()
        return self._core

    def _create(self):
        from . import _vkcore, clocks

        core = _vkcore.Device(self.index)
        self.clock_hold = clocks.hold(self.info)
        # Kernels reach memory by device address, so an arena is not bounded by a descriptor's
        # range; arenas double up to MAX_ARENA and a larger array gets a buffer of its own.
        max_arena = min(MAX_ARENA, core.max_buffer_bytes)
        first = FIRST_ARENA
        if OWN_ARENAS:
            max_arena = first = 16  # (a block larger than the arenas gets a buffer of its own size)
        self.pool = _vkcore.Pool(core, self, max_arena, host=False, stream_ordered=True,
                                 first_arena=first)
        self.staging = _vkcore.Pool(core, self, max_arena, host=True, stream_ordered=False,
                                    first_arena=FIRST_ARENA)
        # Uploads stage in write-combined memory (the device reads it faster), downloads in
        # cached memory (the host reads it): ARRAY_API_VULKAN_UPLOAD_STAGING=cached uses the latter.
        self.staging_wc = _vkcore.Pool(core, self, max_arena, host=True, stream_ordered=False,
                                       first_arena=FIRST_ARENA, cached=False)
        self.upload_staging = (self.staging if os.environ.get("ARRAY_API_VULKAN_UPLOAD_STAGING") == "cached"
                               else self.staging_wc)
        self.pool.before_grow = self.staging.before_grow = self.staging_wc.before_grow = self._before_grow
        self._host_views = {}
        rec = self._rec = _vkcore.Recorder(core, load_spirv, HAZARDS_PER_BUFFER)
        self._configure(rec)
        self.pool.set_recorder(rec)
        self.staging.set_recorder(rec)
        self.staging_wc.set_recorder(rec)
        self._cache_file = pipeline_cache_file(self.info)
        if self._cache_file:
            try:
                with open(self._cache_file, "rb") as f:
                    core.load_pipeline_cache(f.read())
            except OSError:
                pass  # no cache yet, or unreadable: pipelines are compiled as usual
            atexit.register(self.save_pipeline_cache)
        core.set_timestamps(GPU_TIMING)
        self._core = core

    def set_gpu_timing(self, on):
        """Timestamps on this device's batches from the next one on (where its queue has them)."""
        if self._core is not None:
            self._core.set_timestamps(bool(on))

    def save_pipeline_cache(self):
        """Writes the device's pipeline cache to disk (done at exit; warmup() also calls it)."""
        if self._core is None or not self._cache_file:
            return
        try:
            os.makedirs(os.path.dirname(self._cache_file), exist_ok=True)
            tmp = f"{self._cache_file}.{os.getpid()}.tmp"
            with open(tmp, "wb") as f:
                f.write(self._core.pipeline_cache_data())
            os.replace(tmp, self._cache_file)  # atomic: concurrent processes never see half a file
        except OSError:
            pass  # a read-only or full cache directory costs compile time, nothing else

    # -- memory ---------------------------------------------------------------------------
    def alloc(self, nbytes):
        self._ensure()
        return self.pool.alloc(int(nbytes))

    def alloc_bound(self, nbytes):
        """Device memory that a descriptor can bind from its buffer's start: allocation offset +
        size within max_storage_buffer_range, for libraries that bind buffers through descriptor
        sets (VkFFT: _kernels/_fft.py). From a pool of its own whose arenas are at most that
        range (an array larger than it still gets a buffer of its own, out of reach)."""
        self._ensure()
        pool = self._bound_pool
        if pool is None:
            from . import _vkcore

            with self._init_lock:
                if self._bound_pool is None:
                    rng = self.limits["max_storage_buffer_range"] // 16 * 16
                    p = _vkcore.Pool(self._core, self, min(MAX_ARENA, self._core.max_buffer_bytes, rng),
                                     host=False, stream_ordered=True, first_arena=min(FIRST_ARENA, rng))
                    p.before_grow = self._before_grow
                    p.set_recorder(self._rec)
                    self._bound_pool = p
            pool = self._bound_pool
        return pool.alloc(int(nbytes))

    def _before_grow(self, block):
        # A pool about to make a new buffer first waits for pending work that holds freed
        # blocks (staging memory; device memory is reusable at once), then retries once.
        if not self._rec.idle:  # (idle: the deferred blocks are already reclaimable)
            # (no record hook: ops held for fusion hold no freed memory, and recording them
            # here would cut other threads' chains at a point that depends on timing)
            self._rec.synchronize(False)
            self.pool.reclaim()
            self.staging.reclaim()
            self.staging_wc.reclaim()

    def _stage(self, nbytes):
        return self.staging.alloc(nbytes)

    def _host_view(self, arena):
        view = self._host_views.get(arena.serial)
        if view is None:
            from . import _vkcore

            view = self._host_views[arena.serial] = _vkcore.host_view(arena.buffer)
        return view

    def upload(self, host):
        host = np.ascontiguousarray(host)
        alloc = self.alloc(host.nbytes)
        self.write(alloc, host)
        return alloc

    def write(self, alloc, host, byte_offset=0):
        """Overwrites alloc's bytes from byte_offset on with host's bytes, in order with
        recorded work. A cached host copy of alloc (host_bytes) is updated, not dropped, so
        element-by-element writes and reads of a small array cost no read-back."""
        data = np.ascontiguousarray(host).reshape(-1).view(np.uint8)
        n = data.nbytes
        if n == 0:
            return
        if byte_offset < 0 or byte_offset + n > alloc.nbytes:
            raise ValueError(f"writing {n} bytes at {byte_offset} into an allocation of {alloc.nbytes}")
        self._ensure()
        cached = alloc.host
        self._rec.upload(self.upload_staging, data, alloc, byte_offset)
        stats.counters["bytes_uploaded"] += n
        if cached is not None:
            # Copy on write: whoever holds the old copy keeps what they read.
            fresh = cached.copy()
            fresh[byte_offset:byte_offset + n] = data
            fresh.flags.writeable = False
            alloc.host = fresh
        elif byte_offset == 0 and n == alloc.nbytes and n <= HOST_COPY_LIMIT:
            fresh = data.copy()
            fresh.flags.writeable = False
            alloc.host = fresh

    def download_bytes(self, alloc, start, nbytes):
        """Bytes [start, start + nbytes) of alloc, as a new host array. Flushes."""
        self._ensure()
        out = np.empty(nbytes, np.uint8)
        self._rec.download(self.staging, alloc, start, out)
        self.pool.reclaim()
        self.staging.reclaim()
        self.staging_wc.reclaim()
        if self._bound_pool is not None:
            self._bound_pool.reclaim()
        stats.counters["bytes_downloaded"] += nbytes
        return out

    def host_bytes(self, alloc):
        """A read-only host copy of alloc's bytes, kept until a recorded op writes alloc.

        For element reads and other small host accesses: repeated reads of an unchanged array
        cost no further submit. Flushes when not cached."""
        host = alloc.host
        if host is None:
            host = self.download_bytes(alloc, 0, alloc.nbytes) if alloc.nbytes else np.empty(0, np.uint8)
            host.flags.writeable = False
            alloc.host = host
        return host

    _DL_CODES = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}

    def dlpack(self, alloc, dtype, shape, strides, offset, versioned=True):
        """A DLPack capsule on this device (kDLVulkan): data is the arena's VkBuffer handle and
        byte_offset the view's first element. Pending work is finished first, since a consumer
        has no way to wait for it."""
        from . import _vkcore

        dtype = np.dtype(dtype)
        self.synchronize()
        buffer = alloc.arena.buffer if alloc.nbytes else None
        return _vkcore.dlpack_export(buffer, alloc.offset + offset * dtype.itemsize if buffer else 0,
                                     list(shape), list(strides), self._DL_CODES[dtype.kind],
                                     dtype.itemsize * 8, self.index,
                                     versioned)

    def download(self, alloc, dtype, shape, strides, offset):
        """A host copy of the strided view (strides and offset in elements) of alloc."""
        dtype = np.dtype(dtype)
        shape = tuple(int(n) for n in shape)
        if 0 in shape:
            return np.empty(shape, dtype)
        item = dtype.itemsize
        lo = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
        hi = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s > 0) + 1
        raw = self.download_bytes(alloc, lo * item, (hi - lo) * item)
        view = np.ndarray(shape, dtype, buffer=raw, offset=(offset - lo) * item,
                          strides=tuple(s * item for s in strides))
        if view.flags.c_contiguous and view.nbytes == raw.nbytes:
            return view  # raw is a new array already: no second full-size copy
        return view.copy()

    # -- recording ------------------------------------------------------------------------
    # The recorder (_vkcore.Recorder) keeps the batch, hazard sets and pipelines; see
    # docs/design.md. The module's thresholds are read when a device is first used.
    def launch(self, shader, spec, buffers, writes, push, count=0, groups=(), local_size=LOCAL_SIZE,
               host_read=False):
        """Records one dispatch of spv/<shader>.spv: over `groups` (gx[, gy[, gz]]) workgroups,
        or enough local_size-wide 1-D groups for `count` invocations. buffers/writes: the
        Allocations the kernel touches and which it writes (for hazards); push: uint32 words,
        device addresses (Allocation.address) included."""
        if self._core is None:
            self._ensure()
        self._rec.launch(shader, spec, buffers, writes, push, count, local_size, list(groups), host_read)

    def launch_addressed(self, shader, buffers, byte_offsets, nreads, head, tail, count):
        """Records one dispatch of spv/<shader>.spv (or a run-time compiled one) over enough 1-D
        groups of LOCAL_SIZE for `count` invocations, whose push words are `head`, then each
        buffer's device address plus its byte offset (two words), then the words `tail`; the first
        `nreads` buffers are read, the rest written."""
        if self._core is None:
            self._ensure()
        self._rec.launch_addressed(shader, buffers, byte_offsets, nreads, head, tail, count)

    def alternate(self):
        """A bit that alternates call after call (1, 0, 1, ...), shared with compiled plans'
        ALTERNATE patches: the kernels layer gives successive streaming dispatches opposite
        workgroup orders with it."""
        if self._core is None:
            self._ensure()
        return self._rec.alternate()

    def set_record_hook(self, hook):
        """hook(reads, writes) is called before anything is recorded, copied or transferred on
        this device, with the hazard keys (Allocation.key) of the memory it reads and writes,
        and hook(None, None) before a synchronize (Recorder.hook, in C++, so compiled plans
        call it too), until it is set to None. The kernels layer sets it while it holds ops
        not yet recorded (fusion)."""
        self._ensure()
        self._rec.hook = hook

    def run_record_hook(self):
        """Calls the record hook if one is set (runtime_stats() does, so that its counts
        include ops held back for fusion)."""
        if self._core is not None:
            hook = self._rec.hook
            if hook is not None:
                hook(None, None)

    def copy(self, src, src_offset, dst, dst_offset, nbytes):
        """Records a copy of nbytes between allocations (byte offsets), in order with other work."""
        self._ensure()
        self._rec.copy(src, src_offset, dst, dst_offset, nbytes)

    def prepare_pipeline(self, shader, spec):
        """Makes the pipeline of shader with spec now, recording nothing (warmup)."""
        self._ensure()
        self._rec.pipeline(shader, list(spec), load_spirv)

    def remake_pipelines(self, source):
        """A diagnostic: waits for the device, then makes every pipeline again from `source`
        ("same": the device's VkPipelineCache, "fresh": a new empty one, "blob": a new one holding
        the device's cache data, "null": none); later recording uses the new ones. Returns how
        many (benchmarks/diag_remake.py)."""
        self._ensure()
        self.synchronize()
        return self._rec.remake_pipelines(source)

    def pipeline_statistics(self, shader, spec):
        """The driver's statistics of shader's pipeline with spec: [(executable, {name: value})]
        (registers, spills, ...), a diagnostic; empty unless ARRAY_API_VULKAN_PIPELINE_STATS was
        set before the device was first used and the driver has
        VK_KHR_pipeline_executable_properties."""
        self._ensure()
        return self._rec.pipeline_statistics(shader, list(spec), load_spirv)

    def compile_plan(self, array_type, args, outputs, temps, steps):
        """A compiled call (_vkcore.Plan, see docs/design.md): f(*operands) allocates the
        results (instances of array_type, a storage.Storage class) and temporaries, patches
        addresses, offsets and scalars into each step's push words and records every step; it
        returns None where the caller must take its general path instead."""
        from . import _vkcore

        self._ensure()
        return _vkcore.Plan(self._rec, self, self.pool, array_type, args, outputs, temps, steps)

    def _configure(self, rec):
        rec.max_pending_dispatches = MAX_PENDING_DISPATCHES
        rec.max_pending_bytes = MAX_PENDING_BYTES
        rec.max_inflight = MAX_INFLIGHT
        rec.early_dispatches = EARLY_SUBMIT_DISPATCHES
        rec.early_bytes = EARLY_SUBMIT_BYTES
        rec.early_inline = EARLY_SUBMIT_INLINE
        rec.kick_after_wait = KICK_AFTER_WAIT
        rec.prestart = PRESTART

    def gpu_idle(self):
        """Whether no submitted work is still running on the device (a fence poll)."""
        return self._core is None or self._rec.gpu_idle()

    def after_wait(self):
        """Whether nothing was recorded since the last host wait (see KICK_AFTER_WAIT)."""
        return self._core is not None and self._rec.after_wait

    def kick(self):
        """Submits recorded work without waiting, if no submitted work is still running."""
        if self._core is not None:
            self._rec.kick()

    def synchronize(self):
        """Submits pending work and waits for all of it."""
        if self._core is None:
            return
        self._rec.synchronize()
        # (the staging pools only: the device pools are stream-ordered, their freed blocks
        # reusable at once, so they have nothing to reclaim; each call is time after the wait)
        self.staging.reclaim()
        self.staging_wc.reclaim()
