"""FFTs through VkFFT (the runtime's _vkcore.FFTPlan; docs/kernels.md, "fft").

supports(kind, x, axes, sizes) is asked first (the spec layer's ask-first protocol; shift and
freq have supports_shift and supports_freq): whether
VkFFT is in the build, the device has the dtypes, and every array the transform makes fits what
VkFFT's descriptors reach. transform(kind, x, axes, sizes, inverse, normalize) then runs it: kind
"c2c" (complex -> complex, either direction), "r2c" (real -> complex, forward, the last of
`axes` halved) or "c2r" (complex -> real, inverse, the last of `axes` of length sizes[-1]).
Results are unnormalised, or (normalize, inverses) times 1/prod(sizes) by VkFFT in its last
pass; the spec layer scales the other norms. A plan VkFFT refuses raises NotNative, remembered so
that supports() answers False for that call after.

How a call runs:
- an input already laid out as VkFFT reads it is read in place, never written: a c2c of a
  C-contiguous array (within the descriptors' reach, lengths unchanged) whose axes make at most 3
  VkFFT dimensions (_strided: axes outside the first transformed one a batch, untransformed
  inner ones omitted dimensions) out of place into a fresh result of its shape (VkFFT's
  formatted input buffer); an r2c with the transformed axes innermost in order, at their
  lengths, straight into the fresh result;
- otherwise (other axes or strides, n= padding/truncation, and every c2r, which overwrites its
  input) the transformed axes are moved innermost (in the order given) and each cut or
  zero-padded to its length, into a new C-contiguous array of the input dtype (strided copies
  through the cast family: the user's input is never written), which a c2c then transforms in
  place;
- VkFFT transforms up to 3 innermost dimensions, batched over the rest; more axes are done as
  several transforms (c2c is separable; r2c does its last 3 axes first, c2r its others first);
- the result is allocated contiguous in that order and returned as a view with the axes back
  where they were.
VkFFT applications are expensive (glslang compiles at plan time) and bind their buffers through
descriptor sets, so a plan is made per (layout, direction, input arena, output arena): its
descriptors never change, and allocations anywhere in those arenas reach it by offset. The
compiled kernels of a layout are kept, so a plan for the same layout on other arenas skips the
compile, and are saved beside the pipeline cache (device.cache_dir()/vkfft/), so a later process
skips it too. VkFFT's performance settings (settings(): ARRAY_API_VULKAN_VKFFT_CONFIG where set,
else the device's own per layout) are part of both keys. At most MAX_PLANS plans are kept (least
recently used first out; evicting one waits for the work that used it), and all are destroyed at
exit.
"""
import atexit
import collections
import math
import os
import threading

from .. import _dtypes
from . import _launch
from ._launch import table
from ._launch import NotNative

MAX_PLANS = 64
# Whether an input already laid out as VkFFT reads it is read in place (no copy); False makes
# every c2c/r2c copy its input first, as before (benchmarks/tune_fft.py measures the difference).
READ_IN_PLACE = True
MAX_BINARIES = 256

# table.FFT: kind -> {input code: result code}
_SIGS = table.FFT

_plans = collections.OrderedDict()  # key -> _vkcore.FFTPlan
_binaries = collections.OrderedDict()  # layout key -> compiled kernels (bytes)
_failed = set()  # layout keys VkFFT could not make a plan for
_refused = set()  # transform calls (_call_key) that met a refused plan: supports() says False
_lock = threading.RLock()


def _vkcore():
    from .._runtime import _vkcore as m

    return m


def available():
    return bool(getattr(_vkcore(), "has_vkfft", False))


def _reach(dev):
    """Bytes from a buffer's start that VkFFT's descriptors may cover on dev."""
    return dev.limits["max_storage_buffer_range"] // 16 * 16


def _range(dev, buf):
    """Bytes from a buffer's start that VkFFT's descriptors may cover."""
    return min(buf.nbytes, _reach(dev)) // 16 * 16


def _clear():
    with _lock:
        devs = {p[0] for p in _plans}
        for d in devs:
            d.synchronize()
        _plans.clear()


atexit.register(_clear)


def _disk_file(layout):
    """Where a layout's compiled VkFFT kernels are kept between processes (beside the pipeline
    cache: device.cache_dir()), or None. Keyed by the layout, the device (UUID, driver version)
    and the extension's build (which holds VkFFT), so a rebuild or another driver never loads
    stale kernels."""
    import hashlib
    import os

    from .._runtime.device import cache_dir

    root = cache_dir()
    if not root:
        return None
    dev = layout[0]
    so = _vkcore().__file__
    try:
        st = os.stat(so)
    except OSError:
        return None
    ident = repr((layout[1:], dev.info.get("uuid", b"").hex(), dev.info.get("driver_version", 0),
                  dev.info.get("disabled_features", ()), st.st_size, st.st_mtime_ns))
    return os.path.join(root, "vkfft", hashlib.sha256(ident.encode()).hexdigest()[:40] + ".bin")


def _disk_load(layout):
    path = _disk_file(layout)
    if path:
        try:
            with open(path, "rb") as f:
                return f.read() or None
        except OSError:
            pass
    return None


def _disk_save(layout, binary):
    import os

    path = _disk_file(layout)
    if not path or not binary:
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(binary)
        os.replace(tmp, path)  # atomic: concurrent processes never see half a file
    except OSError:
        pass  # a read-only or full cache directory costs compile time, nothing else


def knobs():
    """VkFFT's performance settings from ARRAY_API_VULKAN_VKFFT_CONFIG ("name=value,..."; the
    names: fft.cpp's apply_knobs), normalised; "" for VkFFT's own choice for the device. Read when
    a plan is made, so plans and saved kernels are keyed by it."""
    raw = os.environ.get("ARRAY_API_VULKAN_VKFFT_CONFIG", "")
    if raw != _knobs_seen[0]:
        _knobs_seen[:] = [raw, ",".join(sorted(p.strip() for p in raw.split(",") if p.strip()))]
    return _knobs_seen[1]


_knobs_seen = [None, ""]  # (the variable as last read, normalised): asked on every transform

# VkFFT's settings on NVIDIA devices where ARRAY_API_VULKAN_VKFFT_CONFIG is unset: single-precision
# transforms of one dimension (batched or not, none omitted) read their strided passes (a length
# past one pass of shared memory is cut into 2-3 passes over memory) 128 bytes wide (VkFFT's
# coalescedMemory; it chooses 32). H100, synchronised: fft of complex64 2^24 337 against 344 us
# (run 26; GPU time 314 against 327), ifft 335 against 348 (run 23: 337 / 374 and 333 / 348); the
# batched 4096 x 4096 and an fft of 256 unchanged. Not where more dimensions are transformed
# (fftn of 4096^2 315 against 306 in run 26, equal in run 23), nor along an outer axis (an omitted
# dimension: 218 against 207 in run 23). 256 or 512 made the 2^24 fft 5.5 ms. float64 not
# measured: left to VkFFT.
NVIDIA_SETTINGS = "coalescedMemory=128"


# Real transforms (r2c, c2r) never merge two sequences into one complex transform: VkFFT's
# merging made each sequence's error relative to its partner's magnitude, so a batch whose rows or
# columns differ in scale lost precision in the smaller ones (float32: 2-9 % relative error
# in a column beside one 1e6 times larger; float64 7e-11; numpy's are 1e-7 and 1e-16). Found by
# scripts/fuzz_strict.py (session 35); ARRAY_API_VULKAN_VKFFT_CONFIG may still set it.
# Where every dimension is transformed and there is no batch (rfftn/irfftn over all of x's axes),
# each output mixes every sequence, so a partner's magnitude is already in every output's error
# and merging keeps numpy's error class (lavapipe, rows or columns scaled by 1e6, constant and
# cosine rows, spikes: the same max and median errors merged or not); there VkFFT may merge
# (H200: rfftn of 4096^2 float32 133 us against 154-158).
REAL_SETTINGS = "disableMergeSequencesR2C=1"


def settings(dev, dims, dbl, omit, kind="c2c", batch=None):
    """The VkFFT settings a plan of this layout is made with: ARRAY_API_VULKAN_VKFFT_CONFIG's
    (knobs()) where set, else the device's (NVIDIA_SETTINGS where they apply), else "" (VkFFT's
    own choice); real transforms add REAL_SETTINGS unless the variable names that setting or the
    transform covers two or more dimensions with no batch and nothing omitted."""
    env = knobs()
    if env or dbl or omit or len(dims) != 1:
        out = env
    elif (getattr(dev, "info", None) or {}).get("vendor_id") == _launch.NVIDIA_VENDOR_ID:
        out = NVIDIA_SETTINGS
    else:
        out = ""
    whole = batch == 1 and not omit and len(dims) >= 2
    if kind in ("r2c", "c2r") and "disableMergeSequencesR2C" not in out and not whole:
        out = ",".join(sorted(p for p in (out, REAL_SETTINGS) if p))
    return out


_KIND = {"c2c": 0, "r2c": 1, "c2r": 2, "c2c_out": 3}
_NORMALIZE = 16
_OMIT = (32, 64)  # dims[0] / dims[1] laid out, not transformed (VkFFT's omitDimension)


def _layout(dev, dims, batch, dbl, kind, inverse, normalize=False, omit=0):
    """A plan's layout key: kind "c2c" runs in place, "c2c_out" from src into dst; normalize
    (inverse only): VkFFT scales by the transformed lengths' product; omit: _OMIT flags."""
    return (dev, tuple(dims), batch, dbl, kind, inverse, bool(normalize),
            settings(dev, dims, dbl, omit, kind, batch), omit)


def _plan(layout, src, dst):
    """The cached plan for `layout` (_layout) on src's and dst's arena buffers, or None."""
    key = layout + (src.arena.serial, dst.arena.serial)
    plan = _plans.get(key)
    if plan is not None:
        try:
            _plans.move_to_end(key)
        except KeyError:  # (another thread's new plan evicted it just now)
            pass
        return plan
    return _make_plan(layout, key, src, dst)


def _make_plan(layout, key, src, dst):
    if layout in _failed:
        return None
    with _lock:
        plan = _plans.get(key)
        if plan is not None:
            return plan
        dev, dims, batch, dbl, kind, inverse, normalize, vkfft_settings, omit = layout
        binary = _binaries.get(layout)
        from_disk = False
        if binary is None:
            binary = _disk_load(layout)
            from_disk = binary is not None
        vk = _vkcore()
        kcode = _KIND[kind] | (_NORMALIZE if normalize else 0) | omit

        def make(binary):
            return vk.FFTPlan(dev._rec, list(dims), batch, dbl, kcode, inverse, src.buffer,
                              _range(dev, src.buffer), dst.buffer, _range(dev, dst.buffer), binary,
                              vkfft_settings)
        try:
            try:
                plan = make(binary)
            except RuntimeError:
                if not from_disk:
                    raise
                from_disk = False
                plan = make(None)  # an unusable file: compile
        except RuntimeError:
            _failed.add(layout)  # e.g. a length this VkFFT does not support for r2c
            return None
        if layout not in _binaries:
            _binaries[layout] = plan.binary
            if not from_disk:
                _disk_save(layout, plan.binary)
            while len(_binaries) > MAX_BINARIES:
                _binaries.popitem(last=False)
        _plans[key] = plan
        while len(_plans) > MAX_PLANS:
            old_key, old = _plans.popitem(last=False)
            # its commands may still be pending or running: wait before it is destroyed
            old_key[0].synchronize()
            del old
        return plan


def _moved(x, axes, lengths, dtype):
    """x with `axes` moved innermost (in that order), each cut or zero-padded to `lengths`, as a
    new C-contiguous array of dtype (always a copy: x is never written). After supports()."""
    from . import assign, astype, full

    nd = len(x._shape)
    rest = [i for i in range(nd) if i not in axes]
    perm = rest + list(axes)
    shape = tuple(x._shape[i] for i in perm)
    strides = tuple(x._strides[i] for i in perm)
    want = tuple(shape[:len(rest)]) + tuple(lengths)
    cut = tuple(min(a, b) for a, b in zip(shape, want))
    view = _launch.result_type._new(x._alloc, x._dtype, cut, strides, x._offset)
    if cut == want:
        return astype(view, dtype)
    out = full(want, 0, dtype, x._alloc.device)
    if math.prod(cut):
        assign(_launch.result_type._new(out._alloc, dtype, cut, out._strides, 0), view)
    return out


def _c_contiguous(x):
    """Whether x's elements lie one after another in C order (strides of length-1 axes aside)."""
    acc = 1
    for n, st in zip(reversed(x._shape), reversed(x._strides)):
        if n != 1 and st != acc:
            return False
        acc *= n
    return True


def _strided(x, axes):
    """VkFFT's view of a c2c over `axes` of the C-contiguous x read where it lies: (dims
    innermost first, batch, omitted) with the axes outside the first transformed one a batch,
    consecutive untransformed axes merged into one untransformed dimension (omitted: VkFFT
    lays it out and transforms the others across it) and length-1 axes dropped; None where
    that needs more than 3 dimensions."""
    groups = []  # outermost first: [length, transformed]
    batch = 1
    for i, n in enumerate(x._shape):
        if n == 1:
            continue
        t = i in axes
        if not groups and not t:
            batch *= n
        elif groups and not t and not groups[-1][1]:
            groups[-1][0] *= n
        else:
            groups.append([n, t])
    if len(groups) > 3:
        return None
    groups.reverse()
    return [n for n, _ in groups], batch, [not t for _, t in groups]


def _lengths(kind, sizes):
    """The input's and the result's lengths over the transformed axes."""
    if kind == "c2r":
        return list(sizes[:-1]) + [sizes[-1] // 2 + 1], list(sizes)
    if kind == "r2c":
        return list(sizes), list(sizes[:-1]) + [sizes[-1] // 2 + 1]
    return list(sizes), list(sizes)


def _one(kind, x, axes, sizes, inverse, normalize=False, owned=False):
    """One VkFFT transform over at most 3 axes (the caller checked supports()); raises NotNative
    where VkFFT cannot make a plan for the layout (remembered: supports() answers False after).
    owned: x is an intermediate of ours, which the transform may overwrite."""
    dev = x._alloc.device
    dkey = _direct_key(kind, x, axes, sizes, inverse, normalize, owned)
    known = _direct.get(dkey)
    if known is not None:
        y = known(x)
        if y is not None:
            return y
    tc = table.DTYPES[x._dtype.name][0]
    rc = _SIGS[kind][tc]
    out_dt = _dtypes._NAME[table.CODE[rc]]
    in_len, out_len = _lengths(kind, sizes)
    nd = len(x._shape)
    rest = [i for i in range(nd) if i not in axes]
    batch_shape = tuple(x._shape[i] for i in rest)
    batch = math.prod(batch_shape)
    out_shape = batch_shape + tuple(out_len)
    # the result laid out with the transformed axes innermost, viewed back in x's axis order
    perm = rest + list(axes)
    inv = [perm.index(i) for i in range(nd)]

    def back(y):
        if perm == list(range(nd)):
            return y
        return _launch.result_type._new(y._alloc, y._dtype, tuple(y._shape[i] for i in inv),
                                        tuple(y._strides[i] for i in inv), y._offset)

    if batch == 0:
        from . import full

        return back(full(out_shape, 0, out_dt, dev))
    if kind == "c2c" and READ_IN_PLACE and [x._shape[a] for a in axes] == list(sizes) and _c_contiguous(x):
        lay = _strided(x, axes)
        if lay is not None and not _in_range(x):
            # past the descriptors' reach (lavapipe's large arenas): one copy within it, ours
            x, owned = _bound_copy(x), True
        if lay is not None:
            # read where it lies (any axes of a C-contiguous array: strided ones are VkFFT's
            # outer dimensions), into a result of x's shape and layout (or in place in ours)
            in_reach = not owned
            dims, vbatch, omit = lay
            nbytes = math.prod(x._shape) * x._dtype.itemsize
            y = x if owned else _launch.result_type._new(dev.alloc_bound(nbytes), x._dtype, x._shape)
            done = _run("c2c" if owned else "c2c_out", x, y, dims, vbatch, inverse, normalize, omit)
            if in_reach and done is not None:
                _remember(dkey, Repeat(dev, "c2c_out", done, x, x._dtype, x._shape, inverse, normalize))
            return y
    # Read in place (no copy) where x already is laid out as VkFFT reads it: the transformed
    # axes innermost in order, at their lengths, C-contiguous, within the descriptors' reach.
    # A c2r overwrites its input (and clears its DC/Nyquist imaginary parts): only an input of
    # ours (`owned`: an intermediate result nobody else holds) is used so, as a c2c's is.
    as_is = (READ_IN_PLACE and (owned or kind != "c2r") and perm == list(range(nd))
             and tuple(x._shape[len(rest):]) == tuple(in_len) and _c_contiguous(x) and _in_range(x))
    if as_is:
        src = x
    else:
        src = _moved(x, axes, in_len, x._dtype)
        if not _in_range(src):
            src = _bound_copy(src)
        owned = True
    dims = list(reversed(in_len if kind != "c2r" else out_len))  # innermost first, real lengths
    if kind == "c2r":
        _drop_imag(src, sizes[-1])
    if dims[0] == 1 and kind != "c2c":
        # a halved axis of length 1 transforms as the identity: the rest is a c2c
        from . import astype, elementwise

        c = astype(src, out_dt) if kind == "r2c" else src
        _run("c2c", c, c, dims[1:], batch, inverse, normalize)  # (c is ours)
        y = c if kind == "r2c" else elementwise("real", [c], out_dt, out_shape)
        return back(y)
    if kind == "c2c" and owned:
        _run("c2c", src, src, dims, batch, inverse, normalize)  # in place in our array
        return back(src)
    y = _launch.result_type._new(dev.alloc_bound(math.prod(out_shape) * out_dt.itemsize), out_dt, out_shape)
    run_kind = "c2c_out" if kind == "c2c" else kind
    done = _run(run_kind, src, y, dims, batch, inverse, normalize)
    if as_is and kind != "c2r" and done is not None and perm == list(range(nd)):
        _remember(dkey, Repeat(dev, run_kind, done, x, out_dt, out_shape, inverse, normalize))
    return back(y)


_direct = {}  # _one's key -> Repeat, for a transform that read its input in place
_generation = [0]  # advanced where cached answers are dropped (a refused plan): older Repeats stop


def _direct_key(kind, x, axes, sizes, inverse, normalize, owned):
    return (kind, x._alloc.device, x._dtype, x._shape, x._strides, tuple(axes), tuple(sizes),
            bool(inverse), bool(normalize), owned)


def _remember(dkey, known):
    if len(_direct) >= 4096:
        _direct.clear()
    _direct[dkey] = known


class Repeat:
    """A transform seen before that reads its input where it lies into a fresh result (of
    out_dt and out_shape, C-contiguous), for inputs of the same dtype, shape and strides on the
    same device: calling it with such an input allocates the result, finds the plan for the two
    arenas and records VkFFT's dispatches, with no checks to redo (FFTPlan.exec checks the
    ranges). None where it cannot serve (past the descriptors' reach, a plan refused, other
    VkFFT settings, READ_IN_PLACE off, answers dropped since): the general path then runs."""

    __slots__ = ("dev", "layout", "itemsize", "out_dt", "out_shape", "nbytes", "generation", "env")

    def __init__(self, dev, kind, lay, x, out_dt, out_shape, inverse, normalize):
        dims, batch, flags = lay
        self.dev = dev
        self.layout = _layout(dev, dims, batch, _double(x), kind, bool(inverse), normalize and bool(inverse),
                              flags)
        self.itemsize = x._dtype.itemsize
        self.out_dt, self.out_shape = out_dt, out_shape
        self.nbytes = math.prod(out_shape) * out_dt.itemsize
        self.generation = _generation[0]
        self.env = knobs()

    def __call__(self, x):
        if self.generation != _generation[0] or not READ_IN_PLACE or knobs() != self.env:
            return None
        sa = x._alloc
        if sa.arena is None:
            return None
        ya = self.dev.alloc_bound(self.nbytes)
        plan = _plan(self.layout, sa, ya)
        if plan is None:
            return None
        try:
            plan.exec(sa, x._offset * self.itemsize, ya, 0)
        except ValueError:  # past what the plan's descriptors reach: the general path copies
            return None
        return _launch.result_type._new(ya, self.out_dt, self.out_shape)


def repeat(kind, x, axes, sizes, inverse=False, normalize=False):
    """The Repeat that serves this call again (after transform() ran it), or None: for callers
    that keep their own resolved calls (the spec layer)."""
    return _direct.get(_direct_key(kind, x, axes, sizes, inverse, normalize, False))


def _in_range(a):
    """Whether VkFFT's descriptors, which bind a buffer from its start, reach all of a's
    allocation."""
    al = a._alloc
    return al.arena is not None and al.offset + al.nbytes <= _range(al.device, al.buffer)


def _bound_copy(a):
    """A C-contiguous copy of a in memory that descriptors reach (Device.alloc_bound)."""
    from . import assign

    dev = a._alloc.device
    b = _launch.result_type._new(dev.alloc_bound(math.prod(a._shape) * a._dtype.itemsize), a._dtype, a._shape)
    if not _in_range(b):
        raise NotNative("fft: no memory within the descriptors' reach")  # (supports() said it fits)
    assign(b, a)
    return b


def _drop_imag(c, n):
    """Zeroes the imaginary parts of the DC bin (and the Nyquist bin for even n) along the last
    axis of the C-contiguous complex array c, which a c2r of length n ignores in numpy (VkFFT
    would use them): a scalar fill of a real view of those parts."""
    from . import assign

    rdt = _dtypes._real_of[c._dtype]
    m = c._shape[-1]
    lead = c._shape[:-1]
    strides = tuple(2 * st for st in c._strides[:-1])
    for k in ([0, m - 1] if n % 2 == 0 and m > 1 else [0]):
        v = _launch.result_type._new(c._alloc, rdt, lead, strides, 2 * (c._offset + k) + 1)
        if math.prod(lead):
            assign(v, 0.0)


def _run(kind, src, y, dims, batch, inverse, normalize=False, omit=None):
    """Records one VkFFT transform of src into y (the same array for an in-place "c2c");
    NotNative where VkFFT cannot make a plan. omit (c2c): per dimension, whether it is only laid
    out, not transformed. Length-1 dimensions past the first are dropped (identities). Returns
    VkFFT's layout (_vk_layout), None for the identity."""
    lay = _vk_layout(kind, dims, batch, omit)
    if lay is None:  # the identity (c2c)
        if kind == "c2c_out":
            from . import assign

            assign(y, src)
        return None
    _exec(kind, src, y, lay, inverse, normalize)
    return lay


def _vk_layout(kind, dims, batch, omit):
    """(dims, batch, omit flags) as VkFFT takes the transform, or None where it is the identity."""
    omit = list(omit) if omit else [False] * len(dims)
    keep = [i for i, d in enumerate(dims) if d != 1 or (i == 0 and kind in ("r2c", "c2r"))]
    dims, omit = [dims[i] for i in keep], [omit[i] for i in keep]
    while omit and omit[-1]:  # an untransformed outermost dimension is a batch
        batch *= dims.pop()
        omit.pop()
    if not dims:
        return None
    flags = (_OMIT[0] if omit[0] else 0) | (_OMIT[1] if len(omit) > 1 and omit[1] else 0)
    return dims, batch, flags


def _double(a):
    return a._dtype.name in ("float64", "complex128")


def _exec(kind, src, y, lay, inverse, normalize):
    """Records VkFFT's transform of src into y in layout lay (_vk_layout)."""
    dims, batch, flags = lay
    dev = src._alloc.device
    sa, ya = src._alloc, y._alloc
    so, yo = src._offset * src._dtype.itemsize, y._offset * y._dtype.itemsize
    if sa.offset + sa.nbytes > _range(dev, sa.buffer) or ya.offset + ya.nbytes > _range(dev, ya.buffer):
        raise NotNative("fft: data past what VkFFT's descriptors reach")  # (supports() said it fits)
    plan = _plan(_layout(dev, dims, batch, _double(src), kind, bool(inverse), normalize and bool(inverse),
                         flags), sa, ya)
    if plan is None:
        raise NotNative(f"fft: VkFFT made no plan for {kind} of lengths {dims} x {batch}")
    plan.exec(sa, so, ya, yo)


def supports(kind, x, axes, sizes):
    """Whether transform(kind, x, axes, sizes, ...) runs natively: VkFFT is in the build, the
    device has the input and result dtypes (and the copies' cast variants), every array the
    transform makes fits within what VkFFT's descriptors reach (max_storage_buffer_range), and
    no plan of it was refused before. The spec layer asks this first. The answer depends only
    on the call's key, so it is kept (dropped when a plan is refused)."""
    key = _call_key(kind, x, axes, sizes)
    known = _supported.get(key)
    if known is None:
        known = _supports(kind, x, axes, sizes)
        if len(_supported) >= 4096:
            _supported.clear()
        _supported[key] = known
    return known


def _supports(kind, x, axes, sizes):
    if not available() or not axes:
        return False
    dev = x._alloc.device
    tc = table.DTYPES[x._dtype.name][0]
    rc = _SIGS.get(kind, {}).get(tc)
    if rc is None or not (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)):
        return False
    for a, b in ((tc, tc), (rc, rc), (tc, rc)):
        if _launch.cast_variant(a, b, dev) is None:
            return False
    if not _steps_native(kind, tc, rc, dev):
        return False
    limit = _reach(dev)
    rest = math.prod(n for i, n in enumerate(x._shape) if i not in axes)
    in_len, out_len = _lengths(kind, sizes)
    out_size = {"r2c": 2 * x._dtype.itemsize, "c2r": x._dtype.itemsize // 2}.get(kind, x._dtype.itemsize)
    largest = rest * max(math.prod(in_len) * x._dtype.itemsize, math.prod(out_len) * out_size)
    if largest > limit:
        return False
    return _call_key(kind, x, axes, sizes) not in _refused


def _steps_native(kind, tc, rc, dev):
    """Whether the steps around VkFFT are native: the zero fills (padding in the input dtype,
    an empty result), and for c2r the clearing of the DC/Nyquist imaginary parts (a scalar
    assignment to a real view) and the real part of a length-1 halved axis."""
    from . import supports_elementwise, supports_fill

    def dt(code):
        return _dtypes._NAME[table.CODE[code]]

    if not (supports_fill("full", dt(tc), dev) and supports_fill("full", dt(rc), dev)):
        return False
    if kind == "c2r":
        real = {"F": "f", "D": "d"}[tc]
        return (_launch.cast_variant(real, real, dev) is not None
                and supports_elementwise("real", [dt(tc)], dt(rc), dev))
    return True


def _call_key(kind, x, axes, sizes):
    return (x._alloc.device, kind, x._dtype.name, tuple(x._shape), tuple(axes), tuple(sizes))


_supported = {}  # _call_key -> supports()' answer


def transform(kind, x, axes, sizes, inverse=False, normalize=False, owned=False):
    """The transform of x over `axes` (distinct, normalised, in order) to lengths `sizes` (the
    real lengths for r2c/c2r), unnormalised, or times 1/prod(sizes) with normalize (an inverse's
    "backward" norm, done by VkFFT in its last pass). The caller checked supports(); NotNative
    where VkFFT refused a plan (then supports() answers False for the same call). owned: x is
    the caller's own intermediate, which the transform may overwrite (hfft's conjugate)."""
    try:
        return _transform(kind, x, list(axes), list(sizes), inverse, normalize, owned)
    except NotNative:
        if len(_refused) >= 4096:
            _refused.clear()  # (a bound: a forgotten call only tries VkFFT again)
        _refused.add(_call_key(kind, x, axes, sizes))
        _supported.clear()
        _direct.clear()
        _generation[0] += 1
        raise


def _transform(kind, x, axes, sizes, inverse, normalize, owned=False):
    if kind == "c2r" and len(axes) > 1:
        # numpy's irfftn: the inverse c2c over the other axes, then a c2r of the last one, which
        # ignores the imaginary parts of its DC and Nyquist bins; VkFFT's multi-axis c2r would
        # not ignore them (the same for Hermitian input, not for any other). The c2c's result is
        # ours, so the c2r works in it.
        y = _transform("c2c", x, axes[:-1], sizes[:-1], True, normalize)
        return _one("c2r", y, axes[-1:], sizes[-1:], True, normalize, owned=True)
    if len(axes) <= 3:
        return _one(kind, x, axes, sizes, inverse, normalize, owned)
    # more than 3 axes: separable, done 3 at a time (r2c/c2r: the halved axis with its group)
    first = _one(kind, x, axes[-3:], sizes[-3:], inverse, normalize)
    return _transform("c2c", first, axes[:-3], sizes[:-3], inverse, normalize, owned=True)


def supports_shift(x):
    """Whether shift(x, ...) is native: strided copies of x's dtype (the cast family)."""
    code = table.DTYPES[x._dtype.name][0]
    return _launch.cast_variant(code, code, x._alloc.device) is not None


def shift(x, axes, shifts):
    """x rolled by shifts[i] along axes[i] (fftshift/ifftshift), as a new C-contiguous array:
    one strided copy (the cast family) per block of the result. After supports_shift(x)."""
    from . import assign, astype

    dev = x._alloc.device
    if not all(x._shape):
        return astype(x, x._dtype)
    out = _launch.result_type._new(dev.alloc(math.prod(x._shape) * x._dtype.itemsize), x._dtype, x._shape)
    # per axis, the two (source start, destination start, length) pieces of the roll
    pieces = {}
    for a, k in zip(axes, shifts):
        n = x._shape[a]
        k %= n
        pieces[a] = [(0, k, n - k), (n - k, 0, k)] if k else [(0, 0, n)]
    import itertools

    for combo in itertools.product(*(pieces[a] for a in axes)):
        shape, soff, doff = list(x._shape), x._offset, 0
        for a, (s0, d0, ln) in zip(axes, combo):
            shape[a] = ln
            soff += s0 * x._strides[a]
            doff += d0 * out._strides[a]
        if not all(ln for _, _, ln in combo):
            continue
        src = _launch.result_type._new(x._alloc, x._dtype, shape, x._strides, soff)
        dst = _launch.result_type._new(out._alloc, x._dtype, shape, out._strides, doff)
        assign(dst, src)
    return out


def supports_freq(dtype, dev):
    """Whether freq(n, d, dtype, dev, real) is native: an arange of dtype, its shift (a strided
    copy) and a multiplication by a Python float."""
    from . import supports_elementwise, supports_fill

    code = table.DTYPES[dtype.name][0]
    return (supports_fill("arange", dtype, dev) and _launch.cast_variant(code, code, dev) is not None
            and supports_elementwise("multiply", [dtype, None], dtype, dev))


def freq(n, d, dtype, dev, real):
    """fftfreq (real=False) or rfftfreq values of n points at spacing d, in dtype: an arange
    fill, times 1/(n*d) (numpy's order of operations); fftfreq's negative half moved first by
    shift(). After supports_freq(dtype, dev)."""
    from . import arange, elementwise

    if real:
        m = n // 2 + 1
        k = arange(0, m, 1, m, dtype, dev)
    else:
        lo = -(n // 2)
        k = shift(arange(lo, lo + n, 1, n, dtype, dev), (0,), (-(n // 2),))
    return elementwise("multiply", [k, 1.0 / (n * d)], dtype, k._shape)
