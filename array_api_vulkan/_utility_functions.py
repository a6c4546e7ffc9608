"""Utility functions."""
import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import Array
from ._manipulation_functions import _axes, _axis

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


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    """n-th discrete difference along axis."""
    if not isinstance(x, Array):
        raise TypeError("diff() expects an array")
    if x.ndim == 0:
        raise ValueError("diff() needs an array of at least one dimension")
    axis = _axis(axis, x.ndim)
    if not isinstance(n, int) or n < 0:
        raise ValueError("diff(): n must be a non-negative integer")
    dt = x.dtype
    for extra in (prepend, append):
        if extra is not None:
            if not isinstance(extra, Array):
                raise TypeError("diff(): prepend/append must be arrays")
            dt = _dtypes.promote(dt, extra.dtype)
    kw = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return _fallback.call("diff", lambda a, **k: np.diff(a, n=n, axis=axis, **k), x, dtype=dt,
                          **kw)
