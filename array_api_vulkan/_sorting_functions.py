"""Sorting functions."""
import operator

import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import Array
from ._manipulation_functions import AxisError, _axis

__all__ = ["argsort", "sort"]


def _prep(fname, x, axis):
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array")
    if x.dtype.kind == "c":
        raise TypeError(f"{fname}() does not accept complex input")
    if x.ndim == 0 and operator.index(axis) not in (0, -1):
        raise AxisError(f"axis {axis} is out of bounds for a 0-d array (0 and -1 sort its value)")
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


# A call seen before that the kernels layer repeats as it is (an input read where it lies),
# keyed by everything its checks depend on: (indices, array type, dtype, shape, strides, device,
# axis, descending, as given) -> the kernels layer's Repeat. A repeated call then skips the
# checks and the plan's look-up.
_resolved = {}


def _repeat(indices, x, axis, descending):
    """(this call's _resolved key, or None where it has none; the repeated result, or None)."""
    try:
        key = (indices, type(x), x._dtype, x._shape, x._strides, x._alloc.device, axis, descending)
        hit = _resolved.get(key)
    except (AttributeError, TypeError):  # not an array of ours, or an unhashable argument
        return None, None
    return key, (hit(x) if hit is not None else None)


def _native(key, indices, x, axis, descending):
    """The kernels layer's sort or argsort of x along the normalised axis, or None where it is
    not native; a call it can repeat is kept under key."""
    index_dtype = _dtypes.defaults(x.device)["indexing"]
    if not _kernels.supports_sort(x, indices, index_dtype):
        return None
    y = _kernels.sort(x, axis, bool(descending), indices, index_dtype)
    repeat = _kernels.sort_repeat(x, axis, descending, indices, index_dtype) if key else None
    if repeat is not None:
        if len(_resolved) >= 1024:
            _resolved.clear()
        _resolved[key] = repeat
    return y


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    key, y = _repeat(True, x, axis, descending)
    if y is not None:
        return y
    axis = _prep("argsort", x, axis)
    y = _native(key, True, x, axis, descending)
    if y is not None:
        return y
    return _fallback.call("argsort", lambda a: _argsort_host(a, axis, descending, stable), x,
                          dtype=_dtypes.defaults(x.device)["indexing"])


def sort(x, /, *, axis=-1, descending=False, stable=True):
    key, y = _repeat(False, x, axis, descending)
    if y is not None:
        return y
    axis = _prep("sort", x, axis)
    y = _native(key, False, x, axis, descending)
    if y is not None:
        return y

    def host(a):
        if a.ndim == 0:
            return a.copy()
        return np.take_along_axis(a, _argsort_host(a, axis, descending, stable), axis=axis)

    return _fallback.call("sort", host, x, dtype=x.dtype)
