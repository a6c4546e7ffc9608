"""FFTs through VkFFT (the runtime's _vkcore.FFTPlan; docs/kernels.md, "fft").

transform(kind, x, axes, sizes, inverse) is the one entry point: kind "c2c" (complex ->
complex, either direction), "r2c" (real -> complex, forward, the last of `axes` halved) or
"c2r" (complex -> real, inverse, the last of `axes` of length sizes[-1]). Results are
unnormalised (the spec layer scales for norm=). It returns None where the case is not native
(no VkFFT in the build, a dtype the device lacks, data past what VkFFT's descriptors can
reach), and the spec layer falls back.

How a call runs:
- the transformed axes are moved innermost (in the order given) and each is cut or zero-padded
  to its length, into a new C-contiguous array of the input dtype (strided copies through the
  cast family: the input is never written); a contiguous real input of the right lengths is
  read in place;
- VkFFT transforms up to 3 innermost dimensions, batched over the rest; more axes are done as
  several transforms (c2c is separable; r2c does its last 3 axes first, c2r its others first);
- the result is allocated contiguous in that order and returned as a view with the axes back
  where they were.
VkFFT applications are expensive (glslang compiles at plan time) and bind their buffers through
descriptor sets, so a plan is made per (layout, direction, input arena, output arena): its
descriptors never change, and allocations anywhere in those arenas reach it by offset. The
compiled kernels of a layout are kept, so a plan for the same layout on other arenas skips the
compile, and are saved beside the pipeline cache (device.cache_dir()/vkfft/), so a later process
skips it too. At most MAX_PLANS plans are kept (least recently used first out; evicting one waits for
the work that used it), and all are destroyed at exit.
"""
import atexit
import collections
import math
import threading

from .. import _dtypes
from . import _launch
from ._launch import table

MAX_PLANS = 64
MAX_BINARIES = 256

# table.FFT: kind -> {input code: result code}
_SIGS = table.FFT

_plans = collections.OrderedDict()  # key -> _vkcore.FFTPlan
_binaries = collections.OrderedDict()  # layout key -> compiled kernels (bytes)
_failed = set()  # layout keys VkFFT could not make a plan for
_lock = threading.RLock()


def _vkcore():
    from .._runtime import _vkcore as m

    return m


def available():
    return bool(getattr(_vkcore(), "has_vkfft", False))


def _range(dev, buf):
    """Bytes from a buffer's start that VkFFT's descriptors may cover."""
    return min(buf.nbytes, dev.limits["max_storage_buffer_range"]) // 16 * 16


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


def _plan(dev, dims, batch, dbl, kind, inverse, src, dst):
    """The cached plan for this layout on src's and dst's arena buffers, or None."""
    layout = (dev, tuple(dims), batch, dbl, kind, inverse)
    if layout in _failed:
        return None
    key = layout + (src.arena.serial, dst.arena.serial)
    with _lock:
        plan = _plans.get(key)
        if plan is not None:
            _plans.move_to_end(key)
            return plan
        binary = _binaries.get(layout)
        from_disk = False
        if binary is None:
            binary = _disk_load(layout)
            from_disk = binary is not None
        vk = _vkcore()
        kcode = {"c2c": 0, "r2c": 1, "c2r": 2}[kind]

        def make(binary):
            return vk.FFTPlan(dev._rec, list(dims), batch, dbl, kcode, inverse, src.buffer,
                              _range(dev, src.buffer), dst.buffer, _range(dev, dst.buffer), binary)
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
    new C-contiguous array of dtype (or x itself when it already is one and may be read as is:
    never for a c2c or c2r input, which VkFFT overwrites). None where not native."""
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
    if out is None:
        return None
    if math.prod(cut):
        dst = _launch.result_type._new(out._alloc, dtype, cut, out._strides, 0)
        if not assign(dst, view):
            return None
    return out


def _one(kind, x, axes, sizes, inverse):
    """One VkFFT transform over at most 3 axes."""
    dev = x._alloc.device
    tc = table.DTYPES[x._dtype.name][0]
    rc = _SIGS[kind].get(tc)
    if rc is None or not (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)):
        return None
    out_dt = _dtypes._NAME[table.CODE[rc]]
    if kind == "c2r":
        in_len = list(sizes[:-1]) + [sizes[-1] // 2 + 1]
        out_len = list(sizes)
    elif kind == "r2c":
        in_len = list(sizes)
        out_len = list(sizes[:-1]) + [sizes[-1] // 2 + 1]
    else:
        in_len = out_len = list(sizes)
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

        y = full(out_shape, 0, out_dt, dev)
        return None if y is None else back(y)
    if kind == "r2c" and perm == list(range(nd)) and tuple(x._shape[-len(axes):]) == tuple(in_len) \
            and x._strides == _launch._c_strides(x._shape) and x._offset == 0:
        src = x  # read in place
    else:
        src = _moved(x, axes, in_len, x._dtype)
        if src is None:
            return None
    if not _in_range(src):
        src = _bound_copy(src)  # (the arenas past max_storage_buffer_range: lavapipe)
        if src is None:
            return None
    dims = list(reversed(in_len if kind != "c2r" else out_len))  # innermost first, real lengths
    if kind == "c2r" and not _drop_imag(src, sizes[-1]):
        return None
    if dims[0] == 1 and kind != "c2c":
        # a halved axis of length 1 transforms as the identity: the rest is a c2c
        from . import astype, elementwise

        c = astype(src, out_dt) if kind == "r2c" else src
        if c is None or not _run("c2c", c, c, dims[1:], batch, inverse):
            return None
        y = c if kind == "r2c" else elementwise("real", [c], out_dt, out_shape)
        return None if y is None else back(y)
    if kind == "c2c":
        y = src  # in place in the fresh copy
    else:
        y = _launch.result_type._new(dev.alloc_bound(math.prod(out_shape) * out_dt.itemsize), out_dt, out_shape)
    if not _run(kind, src, y, dims, batch, inverse):
        return None
    return back(y)


def _in_range(a):
    """Whether VkFFT's descriptors, which bind a buffer from its start, reach all of a's
    allocation."""
    al = a._alloc
    return al.arena is not None and al.offset + al.nbytes <= _range(al.device, al.buffer)


def _bound_copy(a):
    """A C-contiguous copy of a in memory that descriptors reach (Device.alloc_bound), or None."""
    from . import assign

    dev = a._alloc.device
    b = _launch.result_type._new(dev.alloc_bound(math.prod(a._shape) * a._dtype.itemsize), a._dtype, a._shape)
    if not _in_range(b) or not assign(b, a):
        return None
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
        if math.prod(lead) and not assign(v, 0.0):
            return False
    return True


def _run(kind, src, y, dims, batch, inverse):
    """Records one VkFFT transform of src into y (the same array for c2c); False where not
    native. Length-1 dimensions past the first are dropped (identities)."""
    dims = dims[:1] + [d for d in dims[1:] if d != 1]
    if kind == "c2c":
        dims = [d for d in dims if d != 1]
        if not dims:
            return True  # the identity: y is already src
    dev = src._alloc.device
    sa, ya = src._alloc, y._alloc
    so, yo = src._offset * src._dtype.itemsize, y._offset * y._dtype.itemsize
    if sa.offset + sa.nbytes > _range(dev, sa.buffer) or ya.offset + ya.nbytes > _range(dev, ya.buffer):
        return False  # past what a descriptor can reach
    dbl = src._dtype.name in ("float64", "complex128")
    plan = _plan(dev, dims, batch, dbl, kind, bool(inverse), sa, ya)
    if plan is None:
        return False
    plan.exec(sa, so, ya, yo)
    return True


def transform(kind, x, axes, sizes, inverse=False):
    """The unnormalised transform of x over `axes` (distinct, normalised, in order) to lengths
    `sizes` (the real lengths for r2c/c2r); None where not native."""
    if not available():
        return None
    axes, sizes = list(axes), list(sizes)
    if kind == "c2r" and len(axes) > 1:
        # numpy's irfftn: the inverse c2c over the other axes, then a c2r of the last one, which
        # ignores the imaginary parts of its DC and Nyquist bins; VkFFT's multi-axis c2r would
        # not ignore them (the same for Hermitian input, not for any other)
        y = transform("c2c", x, axes[:-1], sizes[:-1], True)
        return None if y is None else _one("c2r", y, axes[-1:], sizes[-1:], True)
    if len(axes) <= 3:
        return _one(kind, x, axes, sizes, inverse)
    # more than 3 axes: separable, done 3 at a time (r2c/c2r: the halved axis with its group)
    first = _one(kind, x, axes[-3:], sizes[-3:], inverse)
    if first is None:
        return None
    return transform("c2c", first, axes[:-3], sizes[:-3], inverse)


def shift(x, axes, shifts):
    """x rolled by shifts[i] along axes[i] (fftshift/ifftshift), as a new C-contiguous array:
    one strided copy (the cast family) per block of the result. None where not native."""
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
        if not assign(dst, src):
            return None
    return out


def freq(n, d, dtype, dev, real):
    """fftfreq (real=False) or rfftfreq values of n points at spacing d, in dtype: an arange
    fill, times 1/(n*d) (numpy's order of operations); fftfreq's negative half moved first by
    shift(). None where not native."""
    from . import arange, elementwise

    if real:
        m = n // 2 + 1
        k = arange(0, m, 1, m, dtype, dev)
    else:
        lo = -(n // 2)
        k = arange(lo, lo + n, 1, n, dtype, dev)
        if k is not None:
            k = shift(k, (0,), (-(n // 2),))
    if k is None:
        return None
    return elementwise("multiply", [k, 1.0 / (n * d)], dtype, k._shape)
