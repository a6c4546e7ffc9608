"""Indexing functions, and the native paths of integer-array and boolean-mask indexing.

take, take_along_axis, __getitem__ / __setitem__ with integer index arrays (numpy's rules:
index arrays and integers broadcast together; their dimensions replace the indexed ones where
the advanced indices are adjacent, else they come first) and with a boolean mask of the leading
dimensions run on the gather / scatter / compaction kernels (_kernels/_index.py). Out-of-bounds
integer array indices (unspecified by the standard) are clamped: negative indices wrap once,
then every index is clamped into [0, n - 1]. A scatter with duplicate positions stores one of
the values written there (unspecified which: the invocations race). What no kernel covers
falls back to numpy, counted.
"""
import math
import operator

import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import Array, _is_int_key
from ._manipulation_functions import _axis

__all__ = ["take", "take_along_axis"]


def _bstrides(a, shape):
    """a's strides seen broadcast to `shape` (0 on broadcast axes)."""
    nd = len(shape)
    return [0] * (nd - a.ndim) + [s if n != 1 else 0 for n, s in zip(a._shape, a._strides)]


def _bshape(*shapes):
    from ._elementwise_functions import _broadcast_shapes

    try:
        return tuple(_broadcast_shapes(*shapes))
    except ValueError:
        return None


def _common_index(arrays):
    """The index arrays converted to one integer dtype (the default index dtype where they
    differ), or None."""
    dts = {a._dtype for a in arrays}
    if len(dts) <= 1:
        return list(arrays)
    it = _dtypes.defaults(arrays[0].device)["indexing"]
    out = [a if a._dtype == it else _kernels.astype(a, it) for a in arrays]
    return None if any(a is None for a in out) else out


_BIG = (1 << 31) - 1


def _combine(terms, shape, wrap):
    """More index arrays than the gather kernel takes (two) folded into one, on the device:
    terms [(index Array, axis length n, x stride s)] -> (P, lo), P of `shape` (broadcast) in the
    default index dtype with P = sum_k wrapclamp(I_k) * s_k - lo >= 0, lo the sum's least value
    (negative strides); or None. wrap: negative indices wrap and all clamp (as the kernel)."""
    it = _dtypes.defaults(terms[0][0].device)["indexing"]
    ew = _kernels.elementwise
    acc, lo = None, 0
    for a, n, s in terms:
        if a._dtype != it:
            a = _kernels.astype(a, it)
            if a is None:
                return None
        if wrap:
            neg = ew("less", [a, 0], _dtypes.bool, a._shape)
            up = None if neg is None else ew("add", [a, n], it, a._shape)
            a = None if up is None else ew("where", [neg, up, a], it, a._shape)
            a = None if a is None else ew("clip", [a, 0, n - 1], it, a._shape)
            if a is None:
                return None
        if s < 0:
            lo += (n - 1) * s
        t = ew("multiply", [a, s], it, a._shape)
        if t is not None and acc is not None:
            t = ew("add", [acc, t], it, _bshape(acc._shape, t._shape))
        if t is None:
            return None
        acc = t
    if acc._shape != tuple(shape) or lo:
        acc = ew("add", [acc, -lo], it, tuple(shape))
    return None if acc is None else (acc, lo)


def take(x, indices, /, *, axis=None):
    """Elements of x at `indices` (a one-dimensional integer array) along axis."""
    if not isinstance(x, Array) or not isinstance(indices, Array):
        raise TypeError("take() expects arrays")
    if indices.dtype.kind not in "iu":
        raise TypeError("take(): indices must have an integer dtype")
    if indices.ndim != 1:
        raise ValueError("take(): indices must be one-dimensional")
    if axis is None:
        if x.ndim != 1:
            raise ValueError("take(): axis is required for arrays of more than one dimension")
        axis = 0
    axis = _axis(axis, max(x.ndim, 1))
    if x.ndim >= 1 and indices.device == x.device:
        sh, st = x._shape, x._strides
        out_shape = sh[:axis] + indices._shape + sh[axis + 1:]
        xs = list(st[:axis]) + [0] * indices.ndim + list(st[axis + 1:])
        ist = [0] * axis + _bstrides(indices, indices._shape) + [0] * (x.ndim - axis - 1)
        out = _kernels.gather(x, out_shape, xs, x._offset, [(indices, ist, sh[axis], st[axis])])
        if out is not None:
            return out
    return _fallback.call("take", lambda a, i: np.take(a, i, axis=axis), x, indices,
                          dtype=x.dtype)


def take_along_axis(x, indices, /, *, axis=-1):
    """Elements of x at `indices` (same rank as x) along axis."""
    if not isinstance(x, Array) or not isinstance(indices, Array):
        raise TypeError("take_along_axis() expects arrays")
    if indices.dtype.kind not in "iu":
        raise TypeError("take_along_axis(): indices must have an integer dtype")
    if indices.ndim != x.ndim:
        raise ValueError("take_along_axis(): x and indices must have the same rank")
    axis = _axis(axis, x.ndim)
    if indices.device == x.device:
        others = _bshape(x._shape[:axis] + (1,) + x._shape[axis + 1:],
                         indices._shape[:axis] + (1,) + indices._shape[axis + 1:])
        if others is not None:
            out_shape = others[:axis] + (indices._shape[axis],) + others[axis + 1:]
            xs = _bstrides(x, others)
            xs[axis] = 0
            ist = _bstrides(indices, out_shape)
            out = _kernels.gather(x, out_shape, xs, x._offset,
                                  [(indices, ist, x._shape[axis], x._strides[axis])])
            if out is not None:
                return out
    return _fallback.call("take_along_axis",
                          lambda a, i: np.take_along_axis(a, i, axis=axis), x, indices,
                          dtype=x.dtype)


# --- __getitem__ / __setitem__ ------------------------------------------------------------
def _array_key_geometry(x, key):
    """(out_shape, xs, x offset, index list) of gather/scatter for a key of integer Arrays,
    integers, slices, None and one Ellipsis, with at least one integer Array; None otherwise."""
    if sum(k is Ellipsis for k in key) > 1:
        return None
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    if consumed > x.ndim:
        return None
    if not any(k is Ellipsis for k in key):
        key = tuple(key) + (Ellipsis,)
    exp = []
    for k in key:
        exp += [slice(None)] * (x.ndim - consumed) if k is Ellipsis else [k]
    off, d, entries = x._offset, 0, []
    for k in exp:
        if k is None:
            entries.append(("b", 1, 0))
        elif isinstance(k, slice):
            n, s = x._shape[d], x._strides[d]
            start, stop, step = k.indices(n)
            m = len(range(start, stop, step))
            if m > 0:
                off += start * s
            entries.append(("b", m, s * step))
            d += 1
        elif isinstance(k, Array):
            if k._dtype.kind not in "iu" or k.device != x.device:
                return None
            entries.append(("a", k, x._shape[d], x._strides[d]))
            d += 1
        elif _is_int_key(k):
            n, i = x._shape[d], operator.index(k)
            if not -n <= i < n:
                return None  # the fallback raises numpy's IndexError
            off += (i % n) * x._strides[d]
            entries.append(("a", None, n, 0))
            d += 1
        else:
            return None
    adv = [j for j, e in enumerate(entries) if e[0] == "a"]
    arrays = [e for e in entries if e[0] == "a" and e[1] is not None]
    if not arrays:
        return None
    b = _bshape(*(e[1]._shape for e in arrays))
    if b is None:
        return None
    adjacent = adv == list(range(adv[0], adv[-1] + 1))
    before = [e for j, e in enumerate(entries) if e[0] == "b" and adjacent and j < adv[0]]
    after = [e for j, e in enumerate(entries) if e[0] == "b" and not (adjacent and j < adv[0])]
    out_shape = tuple(e[1] for e in before) + b + tuple(e[1] for e in after)
    xs = [e[2] for e in before] + [0] * len(b) + [e[2] for e in after]
    if len(arrays) > 2:
        if any(e[2] == 0 for e in arrays) or math.prod(b) == 0:
            return None
        r = _combine([e[1:] for e in arrays], b, True)
        if r is None:
            return None
        off += r[1]
        ids, arrays = [r[0]], [("a", r[0], _BIG, 1)]
    else:
        ids = _common_index([e[1] for e in arrays])
    if ids is None:
        return None
    idx, nb = [], len(before)
    for a, (_, _, n, s) in zip(ids, arrays):
        st = [0] * len(out_shape)
        st[nb:nb + len(b)] = _bstrides(a, b)
        idx.append((a, st, n, s))
    return out_shape, xs, off, idx


def _mask_key(x, key):
    """The boolean mask Array of a key `mask` or `(mask, ...)` over x's leading dimensions."""
    if len(key) == 2 and key[1] is Ellipsis:
        key = key[:1]
    if len(key) != 1 or not isinstance(key[0], Array) or key[0]._dtype != _dtypes.bool:
        return None
    m = key[0]
    if m.ndim == 0 or m._shape != x._shape[:m.ndim] or m.device != x.device:
        return None
    return m


def _compact(m, shape):
    """compact() of bool Array m (made C-contiguous first where it is not)."""
    if not m._is_c_contiguous():
        m = _kernels.astype(m, m._dtype)
        if m is None:
            return None
    return _kernels.compact(m, shape, _dtypes.defaults(m.device)["indexing"])


def _groups(x, k):
    """x's leading k dimensions merged into runs that walk as one strided dimension:
    ([length], [stride]) (C order, so the mask's flat order within each run is kept)."""
    gs, gst = [x._shape[0]], [x._strides[0]]
    for d in range(1, k):
        n, s = x._shape[d], x._strides[d]
        if n == 1:
            continue
        if gs[-1] == 1:
            gs[-1], gst[-1] = n, s
        elif gst[-1] == s * n:
            gs[-1] *= n
            gst[-1] = s
        else:
            gs.append(n)
            gst.append(s)
    return gs, gst


def _mask_geometry(x, m):
    """gather/scatter geometry of x[m]: the coordinates of the set elements over x's leading
    dimensions merged into runs (_groups), as index arrays (more than two folded into one
    position array); None where no kernel."""
    k = m.ndim
    gs, gst = _groups(x, k)
    r = _compact(m, tuple(gs))
    if r is None:
        return None
    out, count = r
    out_shape = (count,) + x._shape[k:]
    xs = [0] + list(x._strides[k:])
    st = [1] + [0] * (x.ndim - k)
    idx = [(Array._new(out._alloc, out._dtype, (count,), (1,), out._offset + d * count), st, n, s)
           for d, (n, s) in enumerate(zip(gs, gst))]
    off = x._offset
    if len(idx) > 2 and count:
        # more than two runs: their coordinates folded into one position array
        c = _combine([(a, n, s) for a, _, n, s in idx], (count,), False)
        if c is None:
            return None
        idx = [(c[0], st, _BIG, 1)]
        off += c[1]
    elif len(idx) > 2:
        idx = []
    return out_shape, xs, off, idx


# Rows of at most this many elements are moved by compaction itself (an invocation per mask
# element copies its row); longer ones through the coordinates and a gather / scatter.
MASK_ROW_MAX = 16


def _mask_run(x, m):
    """(n, x offset, x stride, C-contiguous mask, row shape, d, row stride) where the mask m
    covers x's leading dimensions and they walk as one strided run (the mask's flat order), and
    the rest of x (rows of d <= MASK_ROW_MAX elements) as another: compaction moves x's rows
    themselves, with no index arrays. None otherwise."""
    k = m.ndim
    gs, gst = _groups(x, k)
    if len(gs) != 1:
        return None
    row = x._shape[k:]
    d = math.prod(row)
    rs = 0
    if row:
        dims = [(n, s) for n, s in zip(row, x._strides[k:]) if n != 1]
        if d > MASK_ROW_MAX or any(a[1] != b[1] * b[0] for a, b in zip(dims, dims[1:])):
            return None
        rs = dims[-1][1] if dims else 0
    if not m._is_c_contiguous():
        m = _kernels.astype(m, m._dtype)
        if m is None:
            return None
    return gs[0], x._offset, gst[0], m, row, d, rs


def getitem_native(x, key):
    """x[key] on the device for integer-array and boolean-mask keys, or None."""
    m = _mask_key(x, key)
    if m is not None:
        run = _mask_run(x, m)
        if run is not None:
            n, off, st, mc, row, d, rs = run
            out = _kernels.compact_values(x, n, off, st, mc, row, d, rs)
            if out is not None:
                return out
        g = _mask_geometry(x, m)
    else:
        g = _array_key_geometry(x, key)
    if g is None:
        return None
    return _kernels.gather(x, *g)


def _source(x, value, shape):
    """value (an Array whose dtype promotes to x's, or a Python scalar) as a C-contiguous
    array of x's dtype and `shape`; None where not broadcastable or no kernel."""
    if isinstance(value, Array):
        if _bshape(value._shape, shape) != tuple(shape):
            return None
        v = value if value._dtype == x._dtype else _kernels.astype(value, x._dtype)
        if v is None:
            return None
        return _kernels._launch.contiguous(v, shape)
    return _kernels.full(tuple(shape), _dtypes.scalar_value(value, x._dtype), x._dtype, x.device)


def _mask_setitem_run(x, m, value):
    """x[m] = value where m and the rows it selects walk x as strided runs (_mask_run): a
    scalar is one masked fill dispatch (no count), an array is scattered from its rank order.
    False: not done."""
    run = _mask_run(x, m)
    if run is None:
        return False
    n, off, st, mc, row, d, rs = run
    if not isinstance(value, Array):
        try:
            with np.errstate(all="ignore"):
                v = np.array([_dtypes.scalar_value(value, x._dtype)], dtype=x._dtype._np)
        except (OverflowError, ValueError):
            return False  # (an integer outside the dtype: the general path decides)
        b = v.view(np.uint8)
        words = np.zeros(4, np.uint32)
        words.view(np.uint8)[:b.size] = b
        return _kernels.mask_fill(x, n, off, st, mc, list(words[:max(1, -(-b.size // 4))]), d,
                                  rs)
    counted = _kernels.mask_count(x, mc, n)
    if counted is None:
        return False
    src = _source(x, value, (counted[-1],) + tuple(row))
    return src is not None and _kernels.mask_scatter(x, n, off, st, mc, src, counted, d, rs)


def setitem_native(x, key, value):
    """x[key] = value on the device for integer-array and boolean-mask keys; False where not
    done (nothing was written)."""
    m = _mask_key(x, key)
    if m is not None and _mask_setitem_run(x, m, value):
        return True
    g = _mask_geometry(x, m) if m is not None else _array_key_geometry(x, key)
    if g is None:
        return False
    out_shape, xs, off, idx = g
    if math.prod(out_shape) == 0:
        return True
    src = _source(x, value, out_shape)
    if src is None:
        return False
    return _kernels.scatter(x, src, out_shape, xs, off, idx)
