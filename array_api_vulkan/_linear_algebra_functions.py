"""Linear algebra functions of the main namespace."""
import math
import operator

import numpy as np

from . import _dtypes, _fallback, _kernels
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
    _broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    out = _native_matmul(x1, x2, dt)
    if out is not None:
        return out
    return _fallback.call(
        "matmul", lambda a, b: np.asarray(np.matmul(a.astype(dt._np), b.astype(dt._np))),
        x1, x2, dtype=dt)


# 1-D @ 1-D of at least this many elements: a multiply and a sum (no split-K kernel yet)
DOT_AS_SUM = 4096


def _as(x, dt):
    """x converted to dt natively (x itself if it has dt), or None where that is not native."""
    if x.dtype == dt:
        return x
    return _kernels.astype(x, dt) if _kernels.supports_cast(x.dtype, dt, x.device) else None


def _native_matmul(x1, x2, dt):
    """x1 @ x2 through the matmul kernels (operands converted to dt first), or None."""
    a, b = _as(x1, dt), _as(x2, dt)
    if a is None or b is None:
        return None
    if a.ndim == 1 and b.ndim == 1 and a.shape[0] >= DOT_AS_SUM:
        # a long vector dot: the matmul kernel's direct path would give it one invocation;
        # the reduce family's sum spreads it over the device (and compensates float sums)
        from ._elementwise_functions import multiply
        from ._statistical_functions import sum as _sum

        return _sum(multiply(a, b), dtype=dt)
    if not _kernels.supports_matmul(a, b):
        return None
    return _kernels.matmul(a, b)


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
    out = _native_tensordot(x1, x2, axes, dt)
    if out is not None:
        return out
    return _fallback.call(
        "tensordot",
        lambda a, b: np.asarray(np.tensordot(a.astype(dt._np), b.astype(dt._np), axes=axes)),
        x1, x2, dtype=dt)


def _native_tensordot(x1, x2, axes, dt):
    """tensordot as one matrix product: x1's free axes then its contracted ones, and x2's
    contracted axes then its free ones, reshaped (views where the strides allow) to matrices."""
    from ._manipulation_functions import permute_dims, reshape

    if isinstance(axes, int):
        a1 = list(range(x1.ndim - axes, x1.ndim))
        a2 = list(range(axes))
    else:
        a1 = [a % x1.ndim if x1.ndim else a for a in axes[0]]
        a2 = [a % x2.ndim if x2.ndim else a for a in axes[1]]
        if len(set(a1)) != len(a1) or len(set(a2)) != len(a2):
            return None
        if any(not 0 <= a < x1.ndim for a in a1) or any(not 0 <= a < x2.ndim for a in a2):
            return None
    f1 = [i for i in range(x1.ndim) if i not in a1]
    f2 = [i for i in range(x2.ndim) if i not in a2]
    if any(x1.shape[i] != x2.shape[j] for i, j in zip(a1, a2)):
        return None
    s1 = tuple(x1.shape[i] for i in f1)
    s2 = tuple(x2.shape[i] for i in f2)
    k = math.prod(x1.shape[i] for i in a1)
    a = reshape(permute_dims(x1, tuple(f1 + a1)), (math.prod(s1), k))
    b = reshape(permute_dims(x2, tuple(a2 + f2)), (k, math.prod(s2)))
    out = _native_matmul(a, b, dt)
    if out is None:
        return None
    return reshape(out, s1 + s2)


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

    from ._elementwise_functions import conj, multiply
    from ._statistical_functions import sum as _sum

    if dt.kind in "iufc":
        a, b = _as(x1, dt), _as(x2, dt)
        if a is not None and b is not None:
            # sum(conj(a) * b) natively: the product broadcasts, the sum is compensated
            return _sum(multiply(conj(a) if dt.kind == "c" else a, b), axis=ax, dtype=dt)

    def host(a, b):
        a, b = np.broadcast_arrays(a.astype(dt._np), b.astype(dt._np))
        return np.asarray(np.sum(np.conj(a) * b, axis=ax))

    return _fallback.call("vecdot", host, x1, x2, dtype=dt)
