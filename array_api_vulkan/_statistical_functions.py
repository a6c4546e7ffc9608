"""Statistical functions (reductions): native through the kernels layer's reduce family,
numpy on the host (counted) where it has no kernel for the case."""
import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import Array
from ._manipulation_functions import _axes

__all__ = ["cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"]


def _check(x, fname, allowed):
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array, got {type(x).__name__}")
    if x.dtype not in allowed:
        raise TypeError(f"{fname}() does not accept {x.dtype.name} input")


def _axis_arg(axis, ndim):
    return None if axis is None else _axes(axis, ndim)


def _reduced_axes(axis, ndim):
    """axis as the kernels layer takes it: a sorted tuple of distinct non-negative axes."""
    return tuple(range(ndim)) if axis is None else tuple(sorted(_axes(axis, ndim)))


def _accumulator_dtype(x, dtype):
    """The dtype of sum/prod/cumulative_*/trace: dtype= if given, else _dtypes' rule."""
    if dtype is not None:
        dtype = _dtypes.check_dtype(dtype)
        _dtypes.check_supported(dtype, x.device)  # (the host result would be narrowed silently)
        return dtype
    return _dtypes.accumulator_dtype(x.dtype, x.device)


# A reduction's call as given (function, x's dtype, shape and device, the device's features and
# subgroup switch, axis, keepdims, dtype=, correction) -> (op, axes, keepdims, result dtype)
# where it ran natively: a repeated call skips validation, resolution and supports_reduce, which
# depend only on these (and on the element count's 32-bit bound, checked again). Scans keep
# theirs here too: include_initial in keepdims' place, -> (axis, accumulator dtype).
_RESOLVED = {}
_MAX_RESOLVED = 1024


def _call_key(fname, x, axis, keepdims, dtype, correction):
    """The _RESOLVED key of a call on the Array x (unhashable where axis is a list)."""
    return (fname, x._dtype, x._shape, _kernels.reduce_state(x._alloc.device), axis, keepdims, dtype,
            correction)


def _resolution(key, x):
    """What _RESOLVED keeps for key, or None: also for an unhashable key (an axis given as a
    list: the general path, every time) and past the 32-bit element bound (supports_reduce's and
    supports_scan's one answer the key does not fix)."""
    try:
        r = _RESOLVED.get(key)
    except TypeError:
        return None
    return r if r is not None and _kernels.reduce_indexable(x) else None


def _resolved(fname, x, axis=None, keepdims=False, dtype=None, correction=0.0):
    """The result of a reduction call resolved before (see _RESOLVED), or None."""
    if x.__class__ is not Array:
        return None
    r = _resolution(_call_key(fname, x, axis, keepdims, dtype, correction), x)
    return None if r is None else _kernels.reduce(r[0], x, *r[1:])  # (argmin/argmax: no correction)


def _remember(key, *resolution):
    if len(_RESOLVED) >= _MAX_RESOLVED:
        _RESOLVED.clear()
    try:
        _RESOLVED[key] = resolution
    except TypeError:  # (an axis given as a list)
        pass


def _reduce(fname, npfn, x, axis, keepdims, dtype, op=None, correction=0.0, key=None, **kw):
    """op (default fname) over axis natively, else fname through numpy's npfn on the host.
    key: the call's _call_key, remembered where it runs natively (None: not remembered)."""
    axes = _reduced_axes(axis, x.ndim)
    keepdims = bool(keepdims)
    if _kernels.supports_reduce(op or fname, x, dtype):
        if key is not None:
            _remember(key, op or fname, axes, keepdims, dtype, correction)
        return _kernels.reduce(op or fname, x, axes, keepdims, dtype, correction)
    ax = _axis_arg(axis, x.ndim)
    return _fallback.call(
        fname, lambda a: np.asarray(npfn(a.astype(dtype._np, copy=False), axis=ax,
                                         keepdims=keepdims, **kw)), x, dtype=dtype)


def _check_nonempty(fname, x, axis):
    for k in _reduced_axes(axis, x.ndim):
        if x.shape[k] == 0:
            raise ValueError(f"{fname}() of an empty reduction (no identity)")


def sum(x, /, *, axis=None, dtype=None, keepdims=False):
    out = _resolved("sum", x, axis, keepdims, dtype)
    if out is not None:
        return out
    _check(x, "sum", _dtypes._numeric_dtypes + (_dtypes.bool,))
    return _reduce("sum", np.sum, x, axis, keepdims, _accumulator_dtype(x, dtype),
                   key=_call_key("sum", x, axis, keepdims, dtype, 0.0))


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    out = _resolved("prod", x, axis, keepdims, dtype)
    if out is not None:
        return out
    _check(x, "prod", _dtypes._numeric_dtypes + (_dtypes.bool,))
    return _reduce("prod", np.prod, x, axis, keepdims, _accumulator_dtype(x, dtype),
                   key=_call_key("prod", x, axis, keepdims, dtype, 0.0))


def max(x, /, *, axis=None, keepdims=False):
    out = _resolved("max", x, axis, keepdims)
    if out is not None:
        return out
    _check(x, "max", _dtypes._real_numeric_dtypes + (_dtypes.bool,))
    _check_nonempty("max", x, axis)
    return _reduce("max", np.max, x, axis, keepdims, x.dtype, key=_call_key("max", x, axis, keepdims, None, 0.0))


def min(x, /, *, axis=None, keepdims=False):
    out = _resolved("min", x, axis, keepdims)
    if out is not None:
        return out
    _check(x, "min", _dtypes._real_numeric_dtypes + (_dtypes.bool,))
    _check_nonempty("min", x, axis)
    return _reduce("min", np.min, x, axis, keepdims, x.dtype, key=_call_key("min", x, axis, keepdims, None, 0.0))


def _float_dtype(x):
    return x.dtype if x.dtype.kind in "fc" else _dtypes.defaults(x.device)["real floating"]


def mean(x, /, *, axis=None, keepdims=False):
    out = _resolved("mean", x, axis, keepdims)
    if out is not None:
        return out
    _check(x, "mean", _dtypes._numeric_dtypes)
    return _reduce("mean", np.mean, x, axis, keepdims, _float_dtype(x),
                   key=_call_key("mean", x, axis, keepdims, None, 0.0))


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    out = _resolved("std", x, axis, keepdims, None, correction)
    if out is not None:
        return out
    _check(x, "std", _dtypes._real_numeric_dtypes)
    return _reduce("std", np.std, x, axis, keepdims, _float_dtype(x), correction=float(correction),
                   ddof=correction, key=_call_key("std", x, axis, keepdims, None, correction))


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    out = _resolved("var", x, axis, keepdims, None, correction)
    if out is not None:
        return out
    _check(x, "var", _dtypes._real_numeric_dtypes)
    return _reduce("var", np.var, x, axis, keepdims, _float_dtype(x), correction=float(correction),
                   ddof=correction, key=_call_key("var", x, axis, keepdims, None, correction))


def _cumulative(fname, npfn, identity, x, axis, dtype, include_initial):
    include_initial = bool(include_initial)
    key = None
    if x.__class__ is Array:
        key = _call_key(fname, x, axis, include_initial, dtype, 0.0)
        r = _resolution(key, x)
        if r is not None:
            return _kernels.scan(fname, x, r[0], r[1], include_initial)
    _check(x, fname, _dtypes._numeric_dtypes + (_dtypes.bool,))
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{fname}(): axis is required for arrays of more than one dimension")
        axis = 0
    if x.ndim == 0:
        # the standard asks for one or more dimensions; numpy takes a 0-d array as one element
        from ._manipulation_functions import reshape
        x = reshape(x, (1,))
    (axis,) = _axes(axis, x.ndim)
    dt = _accumulator_dtype(x, dtype)
    if _kernels.supports_scan(fname, x, dt):
        if key is not None and x.ndim == len(key[2]):  # (not a 0-d input, reshaped above)
            _remember(key, axis, dt)
        return _kernels.scan(fname, x, axis, dt, include_initial)

    def host(a):
        out = npfn(a.astype(dt._np, copy=False), axis=axis, dtype=dt._np)
        if include_initial:
            shape = list(out.shape)
            shape[axis] = 1
            out = np.concatenate([np.full(shape, identity, dt._np), out], axis=axis)
        return out

    return _fallback.call(fname, host, x, dtype=dt)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("cumulative_sum", np.cumsum, 0, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("cumulative_prod", np.cumprod, 1, x, axis, dtype, include_initial)
