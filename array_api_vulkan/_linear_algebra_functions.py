"""Linear algebra functions of the main namespace."""
import operator

import numpy as np

from . import _dtypes, _fallback
from ._array_object import Array
from ._elementwise_functions import _broadcast_shapes

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]


def _pair(fname, x1, x2):
    """Validate two numeric arrays on one device; their promoted dtype."""
    if not isinstance(x1, Array) or not isinstance(x2, Array):
        raise TypeError(f"{fname}() expects arrays")
    for a in (x1, x2):
        if a.dtype not in _dtypes._numeric_dtypes:
            raise TypeError(f"{fname}() does not accept {a.dtype.name} input")
    if x1.device != x2.device:
        raise ValueError(f"{fname}(): arrays are on different devices")
    return _dtypes.promote(x1.dtype, x2.dtype)


def matmul(x1, x2, /):
    """Matrix product with broadcasting over leading dimensions."""
    dt = _pair("matmul", x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("matmul() does not accept zero-dimensional arrays")
    k1 = x1.shape[-1]
    k2 = x2.shape[0] if x2.ndim == 1 else x2.shape[-2]
    if k1 != k2:
        raise ValueError(f"matmul(): contracted dimensions differ ({k1} and {k2})")
    return _fallback.call(
        "matmul", lambda a, b: np.asarray(np.matmul(a.astype(dt._np), b.astype(dt._np))),
        x1, x2, dtype=dt)


def matrix_transpose(x, /):
    """View of x with its last two axes swapped."""
    if not isinstance(x, Array):
        raise TypeError("matrix_transpose() expects an array")
    return x.mT


def tensordot(x1, x2, /, *, axes=2):
    """Sum of products over the given axes."""
    dt = _pair("tensordot", x1, x2)
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError("tensordot(): axes must be non-negative")
        if axes > min(x1.ndim, x2.ndim):
            raise ValueError("tensordot(): axes exceeds the arrays' dimensions")
    else:
        a1, a2 = (tuple(operator.index(a) for a in ax) for ax in axes)
        if len(a1) != len(a2):
            raise ValueError("tensordot(): axes sequences must have equal length")
        for i, j in zip(a1, a2):
            if x1.shape[i] != x2.shape[j]:
                raise ValueError("tensordot(): contracted dimensions differ")
        axes = (a1, a2)
    return _fallback.call(
        "tensordot",
        lambda a, b: np.asarray(np.tensordot(a.astype(dt._np), b.astype(dt._np), axes=axes)),
        x1, x2, dtype=dt)


def vecdot(x1, x2, /, *, axis=-1):
    """Dot product of vectors along axis (conjugating x1), broadcasting the others."""
    dt = _pair("vecdot", x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("vecdot() does not accept zero-dimensional arrays")
    shape = _broadcast_shapes(x1.shape, x2.shape)
    nd = len(shape)
    if not -nd <= axis < nd:
        raise ValueError(f"vecdot(): axis {axis} is out of bounds")
    if axis >= 0:
        # the standard counts axis from the end of each input's own shape
        if x1.ndim != x2.ndim:
            raise ValueError("vecdot(): a non-negative axis needs arrays of equal rank")
    ax = axis - nd if axis >= 0 else axis
    if -ax > min(x1.ndim, x2.ndim) or x1.shape[ax] != x2.shape[ax]:
        raise ValueError("vecdot(): the reduced dimensions differ")

    def host(a, b):
        a, b = np.broadcast_arrays(a.astype(dt._np), b.astype(dt._np))
        return np.asarray(np.sum(np.conj(a) * b, axis=ax))

    return _fallback.call("vecdot", host, x1, x2, dtype=dt)
