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
from ._searching_functions import count_nonzero

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


# A repeated call: its arguments' layouts -> the kernels layer's compiled gather plan, kept once
# the call ran natively (the call's checks depend only on what the key holds)
_take_plans = {}
_getitem_plans = {}
MAX_PLANS = 256
_SMALL = 1 << 31  # (the gather kernel's element offsets are 32-bit: smaller allocations only)


def _keep(plans, key, value):
    if len(plans) >= MAX_PLANS:
        plans.clear()
    plans[key] = value


def take(x, indices, /, *, axis=None):
    """Elements of x at `indices` (a one-dimensional integer array) along axis."""
    key = None
    if x.__class__ is Array and indices.__class__ is Array:
        key = (x._dtype, x._shape, x._strides, x._alloc.device, indices._dtype, indices._shape,
               indices._strides, indices._alloc.device, axis)
        try:
            plan = _take_plans.get(key)
        except TypeError:
            plan = key = None
        if plan is not None and x._alloc.nbytes < _SMALL and indices._alloc.nbytes < _SMALL:
            out = plan(x, indices, x._offset)
            if out is not None:
                return out
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
        idx = [(indices, ist, sh[axis], st[axis])]
        if _kernels.supports_gather(x, out_shape, xs, idx):
            out = _kernels.gather(x, out_shape, xs, x._offset, idx)
            if key is not None:
                _keep(_take_plans, key, _kernels.gather_plan(x, out_shape, xs, idx))
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
            idx = [(indices, ist, x._shape[axis], x._strides[axis])]
            if _kernels.supports_gather(x, out_shape, xs, idx):
                return _kernels.gather(x, out_shape, xs, x._offset, idx)
    return _fallback.call("take_along_axis",
                          lambda a, i: np.take_along_axis(a, i, axis=axis), x, indices,
                          dtype=x.dtype)


# --- __getitem__ / __setitem__ ------------------------------------------------------------
# A key with integer or boolean arrays is parsed into entries over x's dimensions (_parse),
# then asked of the kernels layer as a whole (every pass: the masks' compaction, conversions of
# the index arrays, their folding, the gather / scatter) before any is recorded: a key is wholly
# native or one counted fallback. numpy's rules: a boolean mask of k dimensions stands for the k
# integer arrays of its coordinates (nonzero); integers, integer arrays and masks are the
# advanced indices, broadcast together; their dimensions replace the indexed ones where they
# are adjacent in the key, else they come first.
_BIG = (1 << 31) - 1


def _index_dtype(x):
    return _dtypes.defaults(x.device)["indexing"]


def _parse(x, key):
    """The key's entries over x's dimensions, Ellipsis expanded: ("b", length, stride, offset)
    for a slice or None (a new axis), ("i", offset) for an integer, ("a", Array, n, stride) for
    an integer array, ("m", mask Array, [(n, stride)] of the dimensions it covers) for a
    boolean mask. None for what the kernels do not take (Python bools, 0-d masks beside integers
    or integer arrays, a mask whose shape differs from the dimensions it indexes: the fallback
    serves them, or raises as numpy does). Raises IndexError where numpy does (too many
    indices, an integer out of bounds)."""
    if sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = 0
    for k in key:
        if isinstance(k, (bool, np.bool_)):
            return None
        if isinstance(k, Array) and k._dtype == _dtypes.bool:
            if k.ndim == 0 and sum(isinstance(j, Array) or _is_int_key(j) for j in key) > 1:
                return None  # (numpy broadcasts it with the other advanced indices)
            consumed += k.ndim
        elif k is not None and k is not Ellipsis:
            consumed += 1
    if consumed > x.ndim:
        raise IndexError(f"too many indices: {consumed} for a {x.ndim}-d array")
    if not any(k is Ellipsis for k in key):
        key = tuple(key) + (Ellipsis,)
    entries, d = [], 0
    for k in key:
        if k is Ellipsis:
            for _ in range(x.ndim - consumed):
                entries.append(("b", x._shape[d], x._strides[d], 0))
                d += 1
        elif k is None:
            entries.append(("b", 1, 0, 0))
        elif isinstance(k, slice):
            n, s = x._shape[d], x._strides[d]
            start, stop, step = k.indices(n)
            m = len(range(start, stop, step))
            entries.append(("b", m, s * step, start * s if m > 0 else 0))
            d += 1
        elif isinstance(k, Array) and k._dtype == _dtypes.bool and k.ndim == 0:
            # a 0-d mask, the key's only advanced index: a new axis of one, kept where it is True
            entries.append(("m", k._view([1], [0], k._offset), [(1, 0)]))
        elif isinstance(k, Array) and k._dtype == _dtypes.bool:
            dims = list(zip(x._shape[d:d + k.ndim], x._strides[d:d + k.ndim]))
            if k._shape != x._shape[d:d + k.ndim]:
                return None  # numpy raises, or (an empty mask on an axis of one) selects nothing
            entries.append(("m", k, dims))
            d += k.ndim
        elif isinstance(k, Array):
            entries.append(("a", k, x._shape[d], x._strides[d]))
            d += 1
        else:
            n, i = x._shape[d], operator.index(k)
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {d} with size {n}")
            entries.append(("i", (i % n) * x._strides[d]))
            d += 1
    return entries


def _runs(dims):
    """Dimensions [(n, stride)] (C order) merged into runs that walk as one strided dimension:
    [(length, stride)], so that a mask's flat order within each run is kept."""
    runs = []
    for n, s in dims:
        if n == 1 and runs:
            continue
        if runs and runs[-1][0] == 1:
            runs[-1] = (n, s)
        elif runs and runs[-1][1] == s * n:
            runs[-1] = (runs[-1][0] * n, s)
        else:
            runs.append((n, s))
    return runs


def _mask_ready(m, x, dev):
    """Whether mask m can be handed to the compaction kernels (C-contiguous, not x's memory),
    after a native copy where needed."""
    return ((m._is_c_contiguous() and m._alloc is not x._alloc)
            or _kernels.supports_cast(m._dtype, m._dtype, dev))


def _prepare_mask(m, x):
    if not m._is_c_contiguous() or m._alloc is x._alloc:
        m = _kernels.copy(m)
    return m


# Rows of at most this many elements are moved by compaction itself (an invocation per mask
# element copies its row); longer ones through the coordinates and a gather / scatter.
MASK_ROW_MAX = 16


def _mask_run(x, entries):
    """For a key of one mask, slices and Nones after it and integers before it (x[mask],
    x[mask, 1:3], x[0, mask], x[mask, ..., None]): (n, x offset, stride, mask, row shape, d,
    row stride) where the mask's dimensions walk as one strided run and the rest (rows of
    d <= MASK_ROW_MAX elements) as another, so that compaction moves x's rows themselves with
    no index arrays. None otherwise."""
    j = next((i for i, e in enumerate(entries) if e[0] != "i"), None)
    if j is None or entries[j][0] != "m" or any(e[0] not in "b" for e in entries[j + 1:]):
        return None
    m = entries[j][1]
    runs = _runs(entries[j][2])
    if len(runs) != 1:
        return None
    off = x._offset + sum(e[1] for e in entries[:j]) + sum(e[3] for e in entries[j + 1:])
    row = tuple(e[1] for e in entries[j + 1:])
    d = math.prod(row)
    rs = 0
    if row:
        dims = [(e[1], e[2]) for e in entries[j + 1:] if e[1] != 1]
        if d > MASK_ROW_MAX or any(a[1] != b[1] * b[0] for a, b in zip(dims, dims[1:])):
            return None
        rs = dims[-1][1] if dims else 0
    n, st = runs[0]
    if not (_mask_ready(m, x, x.device)
            and _kernels.supports_compact_values(x, n, off, st, d, rs)):
        return None
    return n, off, st, m, row, d, rs


class _Advanced:
    """The gather / scatter of a key of integer arrays, masks, integers, slices and Nones:
    asked of the kernels layer at construction (`native`), made by `geometry()`."""

    def __init__(self, x, entries):
        self.x, self.entries = x, entries
        self.native = self._plan()

    def _plan(self):
        x, entries = self.x, self.entries
        dev = x.device
        self.it = it = _index_dtype(x)
        adv = [j for j, e in enumerate(entries) if e[0] in "iam"]
        arrays = [e for e in entries if e[0] in "am"]
        if not arrays:
            return False
        masks = [e for e in entries if e[0] == "m"]
        for e in masks:
            size = math.prod(n for n, _ in e[2])
            if not (_mask_ready(e[1], x, dev)
                    and _kernels.supports_compact(size, len(_runs(e[2])), it, dev)
                    and len(_runs(e[2])) * size < _BIG):
                return False
        for e in entries:
            if e[0] == "a" and e[1]._alloc is x._alloc:
                return False  # (an index array in x's own memory: scatter would race with it)
        # the broadcast shape, a mask's count standing as its size (or the length it must have)
        known = _bshape(*(e[1]._shape for e in entries if e[0] == "a"))
        if known is None:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                             f"with shapes {[e[1]._shape for e in entries if e[0] == 'a']}")
        c = (known[-1] if known and known[-1] != 1 else
             max([math.prod(n for n, _ in e[2]) for e in masks] + [1]))
        b = _bshape(known, *((c,) for _ in masks))
        if b is None:
            return False
        self.adjacent = adv == list(range(adv[0], adv[-1] + 1))
        # one index dtype: the arrays' own where they share it (and masks' coordinates are
        # `it`), else every one converted to `it`; `it` too where more than two are folded
        nidx = sum(1 for e in entries if e[0] == "a") + sum(len(_runs(e[2])) for e in masks)
        dts = {e[1]._dtype for e in entries if e[0] == "a"} | ({it} if masks else set())
        self.conv = len(dts) > 1 or nidx > 2
        if self.conv and not all(_kernels.supports_cast(e[1]._dtype, it, dev)
                                 for e in entries if e[0] == "a"):
            return False
        icode = it if self.conv else dts.pop()
        if nidx > 2 and not _combine_supported(dev, it):
            return False
        out_shape, xs, _, idx = self._layout(b, [icode] * nidx if nidx <= 2 else [it],
                                             [None] * nidx)
        return _kernels.supports_gather(x, out_shape, xs, idx)

    def _layout(self, b, icodes, shapes):
        """(out_shape, xs, offset, idx) for broadcast shape b, the index arrays' dtypes (or
        Arrays) and their shapes (None: b)."""
        x, entries = self.x, self.entries
        off = x._offset + sum(e[1] for e in entries if e[0] == "i") + sum(
            e[3] for e in entries if e[0] == "b")
        first = next(j for j, e in enumerate(entries) if e[0] in "iam")
        before = [e for j, e in enumerate(entries) if e[0] == "b" and self.adjacent and j < first]
        after = [e for j, e in enumerate(entries)
                 if e[0] == "b" and not (self.adjacent and j < first)]
        out_shape = tuple(e[1] for e in before) + tuple(b) + tuple(e[1] for e in after)
        xs = [e[2] for e in before] + [0] * len(b) + [e[2] for e in after]
        idx, nb = [], len(before)
        terms = [t for e in entries if e[0] in "am" for t in
                 ([(e[2], e[3])] if e[0] == "a" else _runs(e[2]))]
        if len(icodes) == 1 and len(terms) > 2:
            terms = [(_BIG, 1)]
        for a, shape, (n, s) in zip(icodes, shapes, terms):
            st = [0] * len(out_shape)
            if hasattr(a, "_alloc"):
                st[nb:nb + len(b)] = _bstrides(a, b)
            else:
                st[nb:nb + len(b)] = _placeholder_strides(b)
            idx.append((a, st, n, s))
        return out_shape, xs, off, idx

    def geometry(self):
        """(out_shape, xs, x offset, index list) for gather / scatter: the masks compacted, the
        index arrays converted to one dtype, more than two folded into one."""
        x, it = self.x, self.it
        arrays, terms = [], []
        for e in self.entries:
            if e[0] == "a":
                arrays.append(e[1])
                terms.append((e[2], e[3]))
            elif e[0] == "m":
                runs = _runs(e[2])
                m = _prepare_mask(e[1], x)
                c, count = _kernels.compact(m, tuple(n for n, _ in runs), it)
                for d, run in enumerate(runs):
                    arrays.append(Array._new(c._alloc, it, (count,), (1,), c._offset + d * count))
                    terms.append(run)
        b = _bshape(*(a._shape for a in arrays))
        if b is None:
            raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                             f"with shapes {[a._shape for a in arrays]}")
        if self.conv:
            arrays = [a if a._dtype == it else _kernels.astype(a, it) for a in arrays]
        off_extra = 0
        if len(arrays) > 2:
            if math.prod(b) == 0 or any(n == 0 for n, _ in terms):
                arrays, off_extra = [], 0
            else:
                p, lo = _combine([(a, n, s) for a, (n, s) in zip(arrays, terms)], b, it)
                arrays, off_extra = [p], lo
        out_shape, xs, off, idx = self._layout(b, arrays, [a._shape for a in arrays])
        return out_shape, xs, off + off_extra, idx


def _placeholder_strides(b):
    """Strides over b of an index array standing for one made later (a mask's coordinates,
    a converted array): the worst case for the push block, no two dimensions merging."""
    return [1 if n != 1 else 0 for n in b]


_COMBINE_OPS = (("clip", 3), ("remainder", 2), ("multiply", 2), ("add", 2))


def _combine_supported(dev, it):
    return all(_kernels.supports_elementwise(op, [it] + [None] * (k - 1), it, dev)
               for op, k in _COMBINE_OPS) and _kernels.supports_elementwise("add", [it, it], it,
                                                                             dev)


def _combine(terms, shape, it):
    """More index arrays than the gather kernel takes (two) folded into one, on the device:
    terms [(index Array of dtype it, axis length n, x stride s)] -> (P, lo), P of `shape`
    (broadcast) with P = sum_k wrapclamp(I_k) * s_k - lo >= 0, lo the sum's least value
    (negative strides). Indices wrap once and clamp as the gather kernel does: remainder(clip(I,
    -n, n - 1), n). After _combine_supported."""
    ew = _kernels.elementwise
    acc, lo = None, 0
    for a, n, s in terms:
        a = ew("clip", [a, -n, n - 1], it, a._shape)
        a = ew("remainder", [a, n], it, a._shape)
        if s < 0:
            lo += (n - 1) * s
        t = ew("multiply", [a, s], it, a._shape)
        acc = t if acc is None else ew("add", [acc, t], it, _bshape(acc._shape, t._shape))
    if acc._shape != tuple(shape) or lo:
        acc = ew("add", [acc, -lo], it, tuple(shape))
    return acc, lo


def _getitem_key(x, key):
    """A _getitem_plans key for x[key] with integer index arrays, slices, integers, None and
    Ellipsis (None for anything else: masks, numpy integers, bools)."""
    sig = []
    for k in key:
        c = k.__class__
        if c is Array:
            if k._dtype.kind not in "iu":
                return None
            sig.append((k._dtype, k._shape, k._strides, k._alloc.device))
        elif c is slice:
            sig.append((slice, k.start, k.stop, k.step))
        elif c is int or k is None or k is Ellipsis:
            sig.append(k)
        else:
            return None
    return (x._dtype, x._shape, x._strides, x._alloc.device, tuple(sig))


def _empty_selection(x, key):
    """The shape of x[key] where it selects nothing: x is empty, or an integer index array is
    (the result is empty whatever the other entries are); None otherwise. numpy places the
    indexed axes and raises IndexError for a bad key, from stand-ins of the key's arrays: a
    mask's first count_nonzero(mask) entries True (read from the device where the mask is
    not empty: the count is the shape), integer arrays of zeros. Nothing else is read."""
    if x.size != 0 and not any(k.__class__ is Array and k._dtype.kind in "iu" and k.size == 0 for k in key):
        return None
    proxy = []
    for k in key:
        if k.__class__ is Array:
            if k._dtype == _dtypes.bool:
                m = np.zeros(k._shape, bool)
                if k.size:
                    m.reshape(-1)[:int(count_nonzero(k))] = True
                proxy.append(m)
            else:
                proxy.append(np.zeros(k._shape, np.intp))
        else:
            proxy.append(k)
    return np.empty(x._shape, bool)[tuple(proxy)].shape


def getitem_native(x, key):
    """x[key] on the device for integer-array and boolean-mask keys, or None where the kernels
    layer answers that it is not native (nothing was recorded then). A key of integer arrays
    (at most two, of one dtype), slices and integers seen before on x's layout replays the
    compiled gather plan kept for it."""
    pkey = _getitem_key(x, key)
    if pkey is not None:
        try:
            kept = _getitem_plans.get(pkey)
        except TypeError:  # (an unhashable slice bound: the general path deals with it)
            kept = pkey = None
        if kept is not None:
            plan, const, where = kept
            arrays = [key[j] for j in where]
            if x._alloc.nbytes < _SMALL and all(a._alloc.nbytes < _SMALL for a in arrays):
                out = plan(x, *arrays, x._offset + const)
                if out is not None:
                    return out
    shape = _empty_selection(x, key)
    if shape is not None:
        return Array._new(x.device.alloc(0), x._dtype, shape)
    entries = _parse(x, key)
    if entries is None:
        return None
    run = _mask_run(x, entries)
    if run is not None:
        n, off, st, m, row, d, rs = run
        return _kernels.compact_values(x, n, off, st, _prepare_mask(m, x), row, d, rs)
    adv = _Advanced(x, entries)
    if not adv.native:
        return None
    out_shape, xs, off, idx = geometry = adv.geometry()
    out = _kernels.gather(x, *geometry)
    where = [j for j, k in enumerate(key) if k.__class__ is Array]
    if (pkey is not None and not adv.conv and len(idx) == len(where)
            and all(i[0] is key[j] for i, j in zip(idx, where))):
        plan = _kernels.gather_plan(x, out_shape, xs, idx)
        _keep(_getitem_plans, pkey, None if plan is None else (plan, off - x._offset, where))
    return out


def _source_supported(x, value):
    if isinstance(value, Array):
        return (_kernels.supports_cast(value._dtype, x._dtype, x.device)
                and _kernels.supports_cast(x._dtype, x._dtype, x.device))
    return _kernels.supports_fill("full", x._dtype, x.device)


def _check_fits(value, shape):
    """ValueError where value (an Array) does not broadcast to the indexed shape."""
    if _bshape(value._shape, shape) != tuple(shape):
        raise ValueError(f"cannot assign a value of shape {value._shape} to the "
                         f"{tuple(shape)} elements indexed")


def _source(x, value, shape):
    """value (an Array whose dtype promotes to x's, or a Python scalar) as a new C-contiguous
    array of x's dtype and `shape`. After _source_supported. ValueError where the value does
    not broadcast to the indexed shape."""
    if isinstance(value, Array):
        _check_fits(value, shape)
        v = value if value._dtype == x._dtype else _kernels.astype(value, x._dtype)
        return _kernels.contiguous(v, shape)
    return _kernels.full(tuple(shape), _dtypes.scalar_value(value, x._dtype), x._dtype,
                                x.device)


def _value_words(x, value):
    """A Python scalar as x's dtype stores it, as uint32 words; None where it does not fit."""
    try:
        with np.errstate(all="ignore"):
            v = np.array([_dtypes.scalar_value(value, x._dtype)], dtype=x._dtype._np)
    except (OverflowError, ValueError):
        return None
    b = v.view(np.uint8)
    words = np.zeros(4, np.uint32)
    words.view(np.uint8)[:b.size] = b
    return [int(w) for w in words[:max(1, -(-b.size // 4))]]


def setitem_native(x, key, value):
    """x[key] = value on the device for integer-array and boolean-mask keys; False where the
    kernels layer answers that it is not native (nothing was written then)."""
    shape = _empty_selection(x, key)
    if shape is not None:
        # nothing to write; the value must still broadcast to the (empty) selection
        if isinstance(value, Array):
            _check_fits(value, shape)
        return True
    entries = _parse(x, key)
    if entries is None:
        return False
    if not isinstance(value, Array):
        words = _value_words(x, value)
        if words is None:
            return False  # an integer outside the dtype: the fallback raises as numpy does
    run = _mask_run(x, entries)
    if run is not None:
        n, off, st, m, row, d, rs = run
        if not isinstance(value, Array):
            _kernels.mask_fill(x, n, off, st, _prepare_mask(m, x), words, d, rs)
            return True
        if _source_supported(x, value):
            mc = _prepare_mask(m, x)
            counted = _kernels.mask_count(x, mc, n)
            src = _source(x, value, (counted[-1],) + tuple(row))
            _kernels.mask_scatter(x, n, off, st, mc, src, counted, d, rs)
            return True
    adv = _Advanced(x, entries)
    if not (adv.native and _source_supported(x, value)):
        return False
    out_shape, xs, off, idx = adv.geometry()
    src = _source(x, value, out_shape)
    if math.prod(out_shape) == 0:
        return True
    _kernels.scatter(x, src, out_shape, xs, off, idx)
    return True
