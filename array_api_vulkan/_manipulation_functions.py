"""Manipulation functions. Shape-only operations return strided views sharing x's allocation;
the others (concat, stack, repeat, roll, tile) allocate their result and fill views of it from
(views of) the inputs with the kernels' strided copy (_kernels.copy_into): one dispatch per
input or piece, converting where inputs are promoted. A dtype the device's kernels do not move
(bool without 8-bit storage) is a counted host fallback."""
import itertools
import math
import operator

import numpy as np

from . import _dtypes, _fallback
from . import _kernels
from ._array_object import Array, _c_strides
from ._creation_functions import _copy
from ._elementwise_functions import _broadcast_shapes

__all__ = ["broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims",
           "flip", "moveaxis", "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack",
           "tile", "unstack"]

AxisError = np.exceptions.AxisError  # both a ValueError and an IndexError, as numpy raises


def _check(x, fname):
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array, got {type(x).__name__}")


def _axis(axis, ndim):
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise AxisError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
    return a % ndim


def _axes(axis, ndim):
    """Normalise an int or a tuple of ints; duplicates are a ValueError."""
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    out = tuple(_axis(a, ndim) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {axis}")
    return out


def _result_dtype(arrays):
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = _dtypes.promote(dt, a.dtype)
    return dt


def broadcast_shapes(*shapes):
    """The shape that the given shapes broadcast to."""
    return _broadcast_shapes(*(tuple(s) for s in shapes))


def broadcast_to(x, /, shape):
    """A read-only-in-spirit view of x broadcast to shape (stride 0 along new axes)."""
    _check(x, "broadcast_to")
    shape = tuple(operator.index(n) for n in shape)
    if len(shape) < x.ndim:
        raise ValueError(f"cannot broadcast shape {x.shape} to {shape}")
    lead = len(shape) - x.ndim
    strides = [0] * lead
    for n, (m, st) in zip(shape[lead:], zip(x.shape, x._strides)):
        if m == n:
            strides.append(st)
        elif m == 1:
            strides.append(0)
        else:
            raise ValueError(f"cannot broadcast shape {x.shape} to {shape}")
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimension in {shape}")
    return x._view(shape, strides, x._offset)


def broadcast_arrays(*arrays):
    shape = _broadcast_shapes(*(a.shape for a in arrays))
    return tuple(broadcast_to(a, shape) for a in arrays)


# A repeated concat / stack: the function, axis and each array's layout -> the kernels
# layer's compiled join plan (plan(*arrays)), kept once the call ran natively
_join_plans = {}
MAX_JOIN_PLANS = 256


def _join_key(fname, arrays, axis):
    """A _join_plans key, or None (not every input an Array)."""
    key = [fname, axis]
    for a in arrays:
        if a.__class__ is not Array:
            return None
        key.append((a._dtype, a._shape, a._strides, a._alloc.device))
    return tuple(key)


def _kept_join(key, arrays):
    try:
        plan = _join_plans.get(key)
    except TypeError:  # (an unhashable axis: the general path checks it)
        return None
    return plan(*arrays) if plan is not None else None


def _join_start(fname, arrays, axis):
    """(key, result) of a concat / stack: the kept plan's result where one serves, else None
    after the checks both make first (at least one array, each an Array)."""
    key = _join_key(fname, arrays, axis)
    if key is not None:
        out = _kept_join(key, arrays)
        if out is not None:
            return key, out
    if not arrays:
        raise ValueError(f"{fname}() needs at least one array")
    for a in arrays:
        _check(a, fname)
    return key, None


def _join(key, dev, dt, shape, pieces):
    out = _kernels.join(dev, dt, shape, pieces)
    if key is not None:
        if len(_join_plans) >= MAX_JOIN_PLANS:
            _join_plans.clear()
        try:
            _join_plans[key] = _kernels.join_plan(dev, dt, shape, pieces)
        except TypeError:
            pass
    return out


def concat(arrays, /, *, axis=0):
    """Join arrays along an existing axis (flattened first when axis is None)."""
    arrays = tuple(arrays)
    key, out = _join_start("concat", arrays, axis)
    if out is not None:
        return out
    if len({a.device for a in arrays}) > 1:
        raise ValueError("concat(): arrays are on different devices")
    dt = _result_dtype(arrays)
    if axis is not None:
        nd = arrays[0].ndim
        if nd == 0 or any(a.ndim != nd for a in arrays):
            raise ValueError("concat(): arrays must have the same, nonzero, number of dimensions")
        axis = _axis(axis, nd)
        ref = arrays[0].shape
        for a in arrays[1:]:
            if any(m != n for i, (m, n) in enumerate(zip(a.shape, ref)) if i != axis):
                raise ValueError(f"concat(): all dimensions but axis {axis} must match, got "
                                 f"{ref} and {a.shape}")
    dev = arrays[0].device
    if all(_kernels.supports_cast(a.dtype, dt, dev) for a in arrays):
        pieces, off = [], 0
        if axis is None:
            for a in arrays:
                pieces.append((a.shape, _c_strides(a.shape), off, a))
                off += a.size
            return _join(key, dev, dt, (off,), pieces)
        shape = list(arrays[0].shape)
        shape[axis] = sum(a.shape[axis] for a in arrays)
        cs = _c_strides(shape)
        for a in arrays:
            pieces.append((a.shape, cs, off * cs[axis], a))
            off += a.shape[axis]
        return _join(key, dev, dt, tuple(shape), pieces)
    return _fallback.call(
        "concat", lambda *h: np.concatenate([a.astype(dt._np, copy=False) for a in h],
                                            axis=axis), *arrays, dtype=dt)


def _new(dev, dtype, shape):
    return Array._new(dev.alloc(math.prod(shape) * dtype.itemsize), dtype, tuple(shape))


def stack(arrays, /, *, axis=0):
    """Join arrays of equal shape along a new axis."""
    arrays = tuple(arrays)
    key, out = _join_start("stack", arrays, axis)
    if out is not None:
        return out
    if len({a.shape for a in arrays}) > 1:
        raise ValueError("stack(): arrays must have the same shape")
    if len({a.device for a in arrays}) > 1:
        raise ValueError("stack(): arrays are on different devices")
    dt = _result_dtype(arrays)
    axis = _axis(axis, arrays[0].ndim + 1)
    dev = arrays[0].device
    if all(_kernels.supports_cast(a.dtype, dt, dev) for a in arrays):
        shape = list(arrays[0].shape)
        shape.insert(axis, len(arrays))
        cs = list(_c_strides(shape))
        step = cs.pop(axis)
        cs = tuple(cs)
        return _join(key, dev, dt, tuple(shape),
                     [(a.shape, cs, i * step, a) for i, a in enumerate(arrays)])
    return _fallback.call(
        "stack", lambda *h: np.stack([a.astype(dt._np, copy=False) for a in h], axis=axis),
        *arrays, dtype=dt)


def expand_dims(x, /, axis):
    """View of x with new axes of size one at `axis` (an int or a tuple)."""
    _check(x, "expand_dims")
    nd = x.ndim + (len(axis) if isinstance(axis, (tuple, list)) else 1)
    axes = _axes(axis, nd)
    shape, strides, it = [], [], iter(zip(x.shape, x._strides))
    for i in range(nd):
        if i in axes:
            shape.append(1)
            strides.append(0)
        else:
            n, s = next(it)
            shape.append(n)
            strides.append(s)
    return x._view(shape, strides, x._offset)


def squeeze(x, /, axis):
    """View of x without the given axes of size one."""
    _check(x, "squeeze")
    axes = _axes(axis, x.ndim)
    for a in axes:
        if x.shape[a] != 1:
            raise ValueError(f"cannot squeeze axis {a} of size {x.shape[a]}")
    keep = [i for i in range(x.ndim) if i not in axes]
    return x._view([x.shape[i] for i in keep], [x._strides[i] for i in keep], x._offset)


def flip(x, /, *, axis=None):
    """View of x with the order of elements reversed along axis (negative strides)."""
    _check(x, "flip")
    axes = range(x.ndim) if axis is None else _axes(axis, x.ndim)
    strides, offset = list(x._strides), x._offset
    if x.size:
        for a in axes:
            offset += (x.shape[a] - 1) * strides[a]
            strides[a] = -strides[a]
    return x._view(x.shape, strides, offset)


def permute_dims(x, /, axes):
    """View of x with its axes permuted."""
    _check(x, "permute_dims")
    axes = tuple(_axis(a, x.ndim) for a in axes)
    if sorted(axes) != list(range(x.ndim)):
        raise ValueError(f"axes {axes} are not a permutation of {x.ndim} dimensions")
    return x._view([x.shape[a] for a in axes], [x._strides[a] for a in axes], x._offset)


def moveaxis(x, source, destination, /):
    _check(x, "moveaxis")
    src = _axes(source, x.ndim)
    dst = _axes(destination, x.ndim)
    if len(src) != len(dst):
        raise ValueError("moveaxis(): source and destination must have the same length")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute_dims(x, tuple(order))


def _nocopy_strides(oldshape, oldstrides, newshape):
    """Strides that present the same elements in `newshape` without a copy, or None
    (the algorithm of numpy's _attempt_nocopy_reshape, C order)."""
    old = [(n, s) for n, s in zip(oldshape, oldstrides) if n != 1]
    newstrides = [0] * len(newshape)
    oi, oj, ni, nj = 0, 1, 0, 1
    while ni < len(newshape) and oi < len(old):
        np_, op = newshape[ni], old[oi][0]
        while np_ != op:
            if np_ < op:
                np_ *= newshape[nj]
                nj += 1
            else:
                op *= old[oj][0]
                oj += 1
        for ok in range(oi, oj - 1):
            if old[ok][1] != old[ok + 1][0] * old[ok + 1][1]:
                return None
        newstrides[nj - 1] = old[oj - 1][1]
        for nk in range(nj - 1, ni, -1):
            newstrides[nk - 1] = newstrides[nk] * newshape[nk]
        ni, nj, oi, oj = nj, nj + 1, oj, oj + 1
    last = newstrides[ni - 1] if ni >= 1 else 1
    for nk in range(ni, len(newshape)):
        newstrides[nk] = last
    return newstrides


def reshape(x, /, shape, *, copy=None):
    """x with a new shape: a view when the strides allow it, else a copy (unless copy=False)."""
    if not copy and x.__class__ is Array and shape.__class__ is tuple:
        # a layout seen before: its view's (shape, strides), checks done (ints only: 2.0 == 2)
        view = _reshape_views.get((x._shape, x._strides, shape))
        if view is not None and all(n.__class__ is int for n in shape):
            return Array._new(x._alloc, x._dtype, view[0], view[1], x._offset)
    _check(x, "reshape")
    key = (x._shape, x._strides, shape) if shape.__class__ is tuple else None
    shape = [operator.index(n) for n in ((shape,) if isinstance(shape, int) else shape)]
    if shape.count(-1) > 1:
        raise ValueError("reshape(): only one dimension can be -1")
    if any(n < -1 for n in shape):
        raise ValueError(f"reshape(): invalid shape {tuple(shape)}")
    if -1 in shape:
        known = math.prod(n for n in shape if n != -1)
        if known == 0 or x.size % known:
            raise ValueError(f"cannot reshape array of size {x.size} into {tuple(shape)}")
        shape[shape.index(-1)] = x.size // known
    if math.prod(shape) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into {tuple(shape)}")
    strides = None
    if not copy:
        strides = _c_strides(shape) if x.size == 0 else \
            _nocopy_strides(x.shape, x._strides, shape)
    if strides is not None:
        if key is not None and x.__class__ is Array and all(n.__class__ is int for n in key[2]):
            if len(_reshape_views) >= 4096:
                _reshape_views.clear()
            _reshape_views[key] = (tuple(shape), tuple(strides))
        return x._view(shape, strides, x._offset)
    if copy is False:
        raise ValueError("reshape(copy=False): the strides of x do not allow a view")
    c = _copy(x)
    return c._view(shape, None, c._offset)


# (shape, strides, requested shape tuple) -> the view's (shape, strides), for reshapes that gave
# a view: the next such call skips the checks and the stride search (H100 host, run 25: 5.0 us a
# call against torch's 2.1)
_reshape_views = {}


def _shifts(shift, axis, ndim):
    """numpy's roll arguments as {axis: shift} (shifts of a repeated axis add up)."""
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    shifts = [operator.index(s) for s in shifts]
    axes = [_axis(a, ndim) for a in axes]
    if len(shifts) != len(axes):
        if len(shifts) == 1:
            shifts = shifts * len(axes)
        elif len(axes) == 1:
            axes = axes * len(shifts)
        else:
            raise ValueError("roll(): shift and axis must have the same length")
    out = {}
    for s, a in zip(shifts, axes):
        out[a] = out.get(a, 0) + s
    return out


# A repeated roll / tile / repeat (an int count): the function, x's layout and the other
# arguments -> (the kernels layer's compiled copies plan taking x, the result's shape where it is
# a view of the plan's). Kept once the call ran natively from views of x itself.
_copy_plans = {}
MAX_COPY_PLANS = 256


def _kept_copy(key, x):
    """The result of a kept call (see _copy_plans), or None (the general path runs)."""
    try:
        kept = _copy_plans.get(key)
    except TypeError:  # (an unhashable argument: the general path checks it)
        return None
    if not kept:
        return None
    out = kept[0](x)
    if out is None or kept[1] is None:
        return out
    return out._view(kept[1], None, 0)


def _copies(key, x, shape, pieces, view_shape=None):
    """A new array of `shape` filled from the pieces [(view shape, view strides, view offset,
    source view of x)], its plan kept under key (a view of view_shape returned, and replayed,
    where given)."""
    pieces = [p + (0,) for p in pieces]
    out = _kernels.copies(x.device, x.dtype, shape, pieces)

    def make():
        plan = _kernels.copies_plan(x.device, x.dtype, shape, pieces, [x])
        return plan and (plan, view_shape)

    if key is not None:
        try:
            _kernels.keep_on_second_call(_copy_plans, key, make, MAX_COPY_PLANS)
        except TypeError:  # (an unhashable argument)
            pass
    return out if view_shape is None else out._view(view_shape, None, 0)


def _layout_key(fname, x, *rest):
    return (fname, x._dtype, x._shape, x._strides, x._alloc.device) + rest


def roll(x, /, shift, *, axis=None):
    """x's elements shifted along axis (the flattened array where axis is None): a copy of the
    two pieces of each shifted axis, one dispatch per combination of pieces."""
    key = None
    if x.__class__ is Array:
        key = _layout_key("roll", x, shift, axis)
        out = _kept_copy(key, x)
        if out is not None:
            return out
    _check(x, "roll")
    if axis is None:
        if isinstance(shift, (tuple, list)):
            if len(shift) != 1:
                raise ValueError("roll(): axis=None takes one shift")
            shift = shift[0]
        shift = operator.index(shift)
        if not _kernels.supports_cast(x.dtype, x.dtype, x.device):
            return _fallback.call("roll", lambda a: np.roll(a, shift), x, dtype=x.dtype)
        flat = reshape(x, (-1,))
        if flat._alloc is not x._alloc or flat._offset != x._offset:
            key = None  # (a copy: a plan taking x would not read what it read)
        if x.size == 0:
            return _new(x.device, x.dtype, x.shape)
        return _copies(key, flat, flat.shape, _roll_pieces(flat, {0: shift}), x.shape)
    shifts = _shifts(shift, axis, x.ndim)
    if not _kernels.supports_cast(x.dtype, x.dtype, x.device):
        return _fallback.call("roll", lambda a: np.roll(a, shift, axis=axis), x, dtype=x.dtype)
    if x.size == 0:
        return _new(x.device, x.dtype, x.shape)
    return _copies(key, x, x.shape, _roll_pieces(x, shifts))


def _roll_pieces(x, shifts):
    """roll's copies: per combination of each axis' one or two pieces, (view shape, view strides,
    view offset, source view of x)."""
    # per axis: (source start, destination start, length) of its one or two pieces
    pieces = []
    for a in range(x.ndim):
        n = x.shape[a]
        s = shifts.get(a, 0) % n
        pieces.append([(0, 0, n)] if s == 0 else [(0, s, n - s), (n - s, 0, s)])
    cs = _c_strides(x.shape)
    out = []
    for combo in itertools.product(*pieces):
        shape = tuple(p[2] for p in combo)
        src = x._view(shape, x._strides,
                      x._offset + sum(p[0] * st for p, st in zip(combo, x._strides)))
        out.append((shape, cs, sum(p[1] * st for p, st in zip(combo, cs)), src))
    return out


def repeat(x, repeats, /, *, axis=None):
    """Each element of x repeated (along axis; of the flattened x where axis is None). An int
    (or one-element array) count is one broadcast copy into a view of the result with an extra
    axis; per-element counts find each result element's source by a search of their cumulative
    sum, then a take (the result's length is read back: it sizes the allocation)."""
    key = None
    if x.__class__ is Array and repeats.__class__ is int:
        key = _layout_key("repeat", x, repeats, axis)
        out = _kept_copy(key, x)
        if out is not None:
            return out
    _check(x, "repeat")
    if isinstance(repeats, Array):
        if repeats.dtype.kind not in "iu":
            raise TypeError("repeat(): repeats must have an integer dtype")
        if repeats.ndim > 1:
            raise ValueError("repeat(): repeats must be 0-d or one-dimensional")
    elif isinstance(repeats, bool) or not isinstance(repeats, int):
        raise TypeError("repeat(): repeats must be an int or an integer array")
    elif repeats < 0:
        raise ValueError("repeat(): repeats must be non-negative")
    if axis is not None:
        axis = _axis(axis, x.ndim)
    if not _kernels.supports_cast(x.dtype, x.dtype, x.device):
        return _fallback.call("repeat", lambda a, r: np.repeat(a, r, axis=axis), x, repeats,
                              dtype=x.dtype)
    if axis is None:
        flat = reshape(x, (-1,))
        if flat._alloc is not x._alloc or flat._offset != x._offset:
            key = None  # (a copy: a plan taking x would not read what it read)
        x, axis = flat, 0
    n = x.shape[axis]
    if isinstance(repeats, Array):
        if repeats.size == 1:
            repeats = int(repeats.__index__() if repeats.ndim == 0 else repeats[0].__index__())
            if repeats < 0:
                raise ValueError("repeat(): repeats must be non-negative")
        elif repeats.shape != (n,):
            raise ValueError(f"repeat(): {repeats.shape[0]} repeats for an axis of length {n}")
        else:
            return _repeat_counts(x, repeats, axis)
    shape = x.shape[:axis] + (n * repeats,) + x.shape[axis + 1:]
    if math.prod(shape) == 0:
        return _new(x.device, x.dtype, shape)
    wide = x.shape[:axis] + (n, repeats) + x.shape[axis + 1:]
    src = x._view(wide, x._strides[:axis + 1] + (0,) + x._strides[axis + 1:], x._offset)
    return _copies(key, x, shape, [(wide, _c_strides(wide), 0, src)])


def _repeat_counts(x, repeats, axis):
    from ._indexing_functions import take
    from ._searching_functions import searchsorted
    from ._statistical_functions import cumulative_sum
    from ._creation_functions import arange

    from ._statistical_functions import min as amin

    if repeats.size == 0:
        return _new(x.device, x.dtype, x.shape)  # (x's axis is empty too)
    if repeats.dtype.kind == "i" and int(amin(repeats)) < 0:
        raise ValueError("repeat(): repeats must be non-negative")
    ends = cumulative_sum(repeats)
    total = int(ends[-1].__index__()) if ends.size else 0
    if total == 0 or x.size == 0:
        shape = x.shape[:axis] + (total,) + x.shape[axis + 1:]
        return _new(x.device, x.dtype, shape)
    pos = arange(total, dtype=ends.dtype, device=x.device)
    idx = searchsorted(ends, pos, side="right")
    return take(x, idx, axis=axis)


def tile(x, repetitions, /):
    """x repeated along each axis: one broadcast copy into the result seen with each axis split
    in two (repetition, x's axis)."""
    key = None
    if x.__class__ is Array:
        key = _layout_key("tile", x, repetitions)
        out = _kept_copy(key, x)
        if out is not None:
            return out
    _check(x, "tile")
    reps = tuple(operator.index(r) for r in repetitions)
    if any(r < 0 for r in reps):
        raise ValueError("tile(): repetitions must be non-negative")
    if not _kernels.supports_cast(x.dtype, x.dtype, x.device):
        return _fallback.call("tile", lambda a: np.tile(a, reps), x, dtype=x.dtype)
    nd = max(len(reps), x.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    xshape = (1,) * (nd - x.ndim) + x.shape
    xstrides = (0,) * (nd - x.ndim) + x._strides
    shape = tuple(r * n for r, n in zip(reps, xshape))
    if math.prod(shape) == 0:
        return _new(x.device, x.dtype, shape)
    wide, sst = [], []
    for r, n, st in zip(reps, xshape, xstrides):
        wide += [r, n]
        sst += [0, st]
    wide = tuple(wide)
    return _copies(key, x, shape, [(wide, _c_strides(wide), 0, x._view(wide, sst, x._offset))])


def unstack(x, /, *, axis=0):
    """Views of x's slices along axis."""
    _check(x, "unstack")
    if x.ndim == 0:
        raise ValueError("unstack() needs an array of at least one dimension")
    axis = _axis(axis, x.ndim)
    key = (slice(None),) * axis
    return tuple(x[key + (i,)] for i in range(x.shape[axis]))
