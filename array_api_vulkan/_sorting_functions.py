"""Sorting functions."""
import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import Array
from ._manipulation_functions import _axis

__all__ = ["argsort", "sort"]


def _prep(fname, x, axis):
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array")
    if x.dtype.kind == "c":
        raise TypeError(f"{fname}() does not accept complex input")
    return _axis(axis, max(x.ndim, 1))


def _argsort_host(a, axis, descending, stable):
    if a.ndim == 0:
        return np.zeros((), np.int64)
    kind = "stable" if stable else None
    if not descending:
        return np.argsort(a, axis=axis, kind=kind)
    # a stable descending order: sort the reversed array and map the indices back
    n = a.shape[axis]
    rev = np.flip(np.argsort(np.flip(a, axis=axis), axis=axis, kind="stable"), axis=axis)
    return n - 1 - rev


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    axis = _prep("argsort", x, axis)
    if _kernels.supports_sort(x, True, _dtypes.defaults(x.device)["indexing"]):
        return _kernels.sort(x, axis, bool(descending), True, _dtypes.defaults(x.device)["indexing"])
    return _fallback.call("argsort", lambda a: _argsort_host(a, axis, descending, stable), x,
                          dtype=_dtypes.defaults(x.device)["indexing"])


def sort(x, /, *, axis=-1, descending=False, stable=True):
    axis = _prep("sort", x, axis)
    if _kernels.supports_sort(x, False, _dtypes.defaults(x.device)["indexing"]):
        return _kernels.sort(x, axis, bool(descending), False, _dtypes.defaults(x.device)["indexing"])

    def host(a):
        if a.ndim == 0:
            return a.copy()
        return np.take_along_axis(a, _argsort_host(a, axis, descending, stable), axis=axis)

    return _fallback.call("sort", host, x, dtype=x.dtype)
