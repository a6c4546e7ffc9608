"""Indexing functions."""
import numpy as np

from . import _fallback
from ._array_object import Array
from ._manipulation_functions import _axis

__all__ = ["take", "take_along_axis"]


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
    return _fallback.call("take_along_axis",
                          lambda a, i: np.take_along_axis(a, i, axis=axis), x, indices,
                          dtype=x.dtype)
