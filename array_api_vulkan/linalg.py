"""The linalg extension (host fallbacks through numpy.linalg)."""
import operator
from typing import NamedTuple

import numpy as np

from . import _dtypes, _fallback
from ._array_object import Array
from ._linear_algebra_functions import _pair, matmul, matrix_transpose, tensordot, vecdot
from ._manipulation_functions import _axes
from ._statistical_functions import _accumulator_dtype

__all__ = ["cholesky", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
           "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "outer",
           "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "trace", "vecdot",
           "vector_norm"]


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


def _float(x, fname, square=False, min_ndim=2):
    """Validate a floating-point stack of matrices; its dtype."""
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array")
    if x.dtype not in _dtypes._floating_dtypes:
        raise TypeError(f"{fname}() needs a floating-point array, not {x.dtype.name}")
    if x.ndim < min_ndim:
        raise ValueError(f"{fname}() needs at least {min_ndim} dimensions")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{fname}() needs square matrices")
    return x.dtype


def _real(dt):
    return _dtypes._real_of.get(dt, dt)


def _complex(dt):
    return _dtypes._complex_of.get(dt, dt)


def _host(fname, fn, *args, dtype=None):
    return _fallback.call(fname, lambda *h: fn(*h), *args, dtype=dtype)


def cholesky(x, /, *, upper=False):
    dt = _float(x, "cholesky", square=True)

    def host(a):
        L = np.linalg.cholesky(a)
        return np.conj(np.swapaxes(L, -1, -2)) if upper else L

    return _host("cholesky", host, x, dtype=dt)


def cross(x1, x2, /, *, axis=-1):
    dt = _pair("cross", x1, x2)
    nd = min(x1.ndim, x2.ndim)
    if not -nd <= axis < nd:
        raise ValueError("cross(): axis out of bounds")
    if axis >= 0 and x1.ndim != x2.ndim:
        raise ValueError("cross(): a non-negative axis needs arrays of equal rank")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("cross(): the axis must have size 3")
    return _host("cross", lambda a, b: np.asarray(np.cross(a.astype(dt._np), b.astype(dt._np),
                                                           axis=axis)), x1, x2, dtype=dt)


def det(x, /):
    dt = _float(x, "det", square=True)
    return _host("det", lambda a: np.asarray(np.linalg.det(a)), x, dtype=dt)


def diagonal(x, /, *, offset=0):
    """View of the offset-th diagonal of each matrix in x."""
    if not isinstance(x, Array):
        raise TypeError("diagonal() expects an array")
    if x.ndim < 2:
        raise ValueError("diagonal() needs at least two dimensions")
    offset = operator.index(offset)
    n, m = x.shape[-2:]
    sr, sc = x._strides[-2:]
    if offset >= 0:
        length, start = max(0, min(n, m - offset)), offset * sc
    else:
        length, start = max(0, min(n + offset, m)), -offset * sr
    return x._view(x.shape[:-2] + (length,), x._strides[:-2] + (sr + sc,),
                   x._offset + (start if length else 0))


def eigh(x, /):
    dt = _float(x, "eigh", square=True)
    w, v = _host("eigh", lambda a: tuple(np.linalg.eigh(a)), x)
    from ._data_type_functions import astype
    return EighResult(astype(w, _real(dt), copy=False), astype(v, dt, copy=False))


def eigvalsh(x, /):
    dt = _float(x, "eigvalsh", square=True)
    return _host("eigvalsh", np.linalg.eigvalsh, x, dtype=_real(dt))


def eig(x, /):
    dt = _float(x, "eig", square=True)
    c = _complex(dt)
    w, v = _host("eig", lambda a: tuple(np.linalg.eig(a)), x, dtype=c)
    return EigResult(w, v)


def eigvals(x, /):
    dt = _float(x, "eigvals", square=True)
    return _host("eigvals", np.linalg.eigvals, x, dtype=_complex(dt))


def inv(x, /):
    dt = _float(x, "inv", square=True)
    return _host("inv", np.linalg.inv, x, dtype=dt)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    dt = _float(x, "matrix_norm")
    return _host("matrix_norm",
                 lambda a: np.asarray(np.linalg.matrix_norm(a, keepdims=keepdims, ord=ord)),
                 x, dtype=_real(dt))


def matrix_power(x, n, /):
    if not isinstance(x, Array):
        raise TypeError("matrix_power() expects an array")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError("matrix_power() needs square matrices")
    n = operator.index(n)
    if n < 0:
        _float(x, "matrix_power")
    return _host("matrix_power", lambda a: np.linalg.matrix_power(a, n), x, dtype=x.dtype)


def matrix_rank(x, /, *, rtol=None):
    _float(x, "matrix_rank")
    return _host("matrix_rank", lambda a, r: np.asarray(np.linalg.matrix_rank(a, rtol=r)), x,
                 rtol, dtype=_dtypes.defaults(x.device)["integral"])


def outer(x1, x2, /):
    dt = _pair("outer", x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError("outer() needs one-dimensional arrays")
    from ._elementwise_functions import multiply
    from ._manipulation_functions import expand_dims

    # a broadcast multiply: x1[:, None] * x2, promoted as multiply() does
    return multiply(expand_dims(x1, axis=1), x2)


def pinv(x, /, *, rtol=None):
    dt = _float(x, "pinv")

    def host(a, r):
        if r is None:
            r = max(a.shape[-2:]) * np.finfo(a.dtype).eps
        return np.linalg.pinv(a, rtol=r)

    return _host("pinv", host, x, rtol, dtype=dt)


def qr(x, /, *, mode="reduced"):
    dt = _float(x, "qr")
    if mode not in ("reduced", "complete"):
        raise ValueError("qr(): mode must be 'reduced' or 'complete'")
    return QRResult(*_host("qr", lambda a: tuple(np.linalg.qr(a, mode=mode)), x, dtype=dt))


def slogdet(x, /):
    dt = _float(x, "slogdet", square=True)
    s, l = _host("slogdet", lambda a: tuple(np.asarray(v) for v in np.linalg.slogdet(a)), x)
    from ._data_type_functions import astype
    return SlogdetResult(astype(s, dt, copy=False), astype(l, _real(dt), copy=False))


def solve(x1, x2, /):
    dt = _pair("solve", x1, x2)
    _float(x1, "solve", square=True)
    if x2.dtype not in _dtypes._floating_dtypes:
        raise TypeError("solve() needs floating-point arrays")
    return _host("solve", lambda a, b: np.linalg.solve(a.astype(dt._np), b.astype(dt._np)),
                 x1, x2, dtype=dt)


def svd(x, /, *, full_matrices=True):
    dt = _float(x, "svd")
    u, s, vh = _host("svd", lambda a: tuple(np.linalg.svd(a, full_matrices=full_matrices)), x)
    from ._data_type_functions import astype
    return SVDResult(astype(u, dt, copy=False), astype(s, _real(dt), copy=False),
                     astype(vh, dt, copy=False))


def svdvals(x, /):
    dt = _float(x, "svdvals")
    return _host("svdvals", np.linalg.svdvals, x, dtype=_real(dt))


def trace(x, /, *, offset=0, dtype=None):
    if not isinstance(x, Array):
        raise TypeError("trace() expects an array")
    if x.dtype not in _dtypes._numeric_dtypes:
        raise TypeError(f"trace() does not accept {x.dtype.name} input")
    if x.ndim < 2:
        raise ValueError("trace() needs at least two dimensions")
    dt = _accumulator_dtype(x, dtype)
    return _host("trace", lambda a: np.asarray(np.trace(a.astype(dt._np), offset=offset,
                                                        axis1=-2, axis2=-1)), x, dtype=dt)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    dt = _float(x, "vector_norm", min_ndim=0)
    ax = None if axis is None else _axes(axis, x.ndim)
    if isinstance(ax, tuple) and len(ax) == 1:
        ax = ax[0]

    def host(a):
        return np.asarray(np.linalg.vector_norm(a, axis=ax, keepdims=keepdims, ord=ord))

    return _host("vector_norm", host, x, dtype=_real(dt))


