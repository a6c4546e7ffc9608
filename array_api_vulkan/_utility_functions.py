"""Utility functions."""
import numpy as np

from . import _dtypes, _fallback, _kernels
from . import _elementwise_functions as _ew
from ._array_object import Array
from ._manipulation_functions import _axes, _axis, concat

__all__ = ["all", "any", "diff"]


def _logical_reduce(fname, npfn, x, axis, keepdims):
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array")
    ax = None if axis is None else _axes(axis, x.ndim)
    if _kernels.supports_reduce(fname, x, _dtypes.bool):
        return _kernels.reduce(fname, x, tuple(range(x.ndim)) if ax is None else tuple(sorted(ax)),
                               bool(keepdims), _dtypes.bool)
    return _fallback.call(fname, lambda a: np.asarray(npfn(a, axis=ax, keepdims=keepdims)), x,
                          dtype=_dtypes.bool)


def all(x, /, *, axis=None, keepdims=False):
    return _logical_reduce("all", np.all, x, axis, keepdims)


def any(x, /, *, axis=None, keepdims=False):
    return _logical_reduce("any", np.any, x, axis, keepdims)


# n and axis may also come positionally, in numpy's order (the standard makes them keyword-only):
# scikit-learn's roc_curve calls xp.diff(fps, 2)
def diff(x, /, n=1, axis=-1, prepend=None, append=None):
    """n-th discrete difference along axis."""
    if not isinstance(x, Array):
        raise TypeError("diff() expects an array")
    if x.ndim == 0:
        raise ValueError("diff() needs an array of at least one dimension")
    axis = _axis(axis, x.ndim)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError("diff(): n must be a non-negative integer")
    for extra in (prepend, append):
        if extra is not None and not isinstance(extra, Array):
            raise TypeError("diff(): prepend/append must be arrays")
    if n == 0:  # (numpy's: the input itself, prepend and append ignored)
        return x
    a = x
    if prepend is not None or append is not None:
        # prepend/append of another dtype promote, as numpy's concatenation does
        a = concat([p for p in (prepend, x, append) if p is not None], axis=axis)
    # out[i] = a[i + 1] - a[i] through views and one elementwise op a step (not_equal for bool,
    # as numpy): each step a native kernel, fused where the engine fuses
    later = tuple(slice(1, None) if i == axis else slice(None) for i in range(a.ndim))
    earlier = tuple(slice(None, -1) if i == axis else slice(None) for i in range(a.ndim))
    op = _ew.not_equal if a.dtype == _dtypes.bool else _ew.subtract
    for _ in range(n):
        a = op(a[later], a[earlier])
    return a
