"""The linalg extension.

Native (kernels layer, asked first through _kernels._linalg.supports): cholesky, det, slogdet,
solve, inv, qr (_kernels/_linalg.py: one dispatch each for small matrices, one compiled plan of
blocked steps for large ones), matmul, tensordot, vecdot, matrix_power (repeated squaring on
matmul), trace, diagonal (a view), outer, cross, vector_norm and matrix_norm (1, -1, inf,
-inf, 'fro') through elementwise ops and reductions, eigh and eigvalsh up to 256 x 256
(cyclic Jacobi, one workgroup a matrix), svd, svdvals, pinv, matrix_rank and matrix_norm's
'nuc', 2 and -2 up to min(M, N) = 256 (a QR, then one-sided Jacobi of R; _svd_native), on GPUs
where that is expected to beat numpy's round trip (stacks and tall matrices: _kernels._linalg.
svd_pays; always in strict mode); lower limits on CPU devices (lavapipe's loop limit,
docs/kernels.md). Larger ones, single large svd-class matrices on GPUs, eig and eigvals
go through numpy.linalg on the host (counted fallbacks), except on empty input, whose results
(zeros, or empty) are made here.
"""
import math
import operator
from typing import NamedTuple

import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import Array
from ._linear_algebra_functions import _as, _pair, matmul, matrix_transpose, tensordot, vecdot
from ._manipulation_functions import _axes
from ._statistical_functions import _accumulator_dtype
from ._kernels import _linalg as _klinalg

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


def _zeros(shape, dtype, x):
    """Zeros on x's device: what the functions below give for empty matrices, as numpy does."""
    from ._creation_functions import zeros

    return zeros(shape, dtype=dtype, device=x.device)


def _mh(a):
    """The conjugate transpose of a stack of matrices (a view for real dtypes)."""
    from ._elementwise_functions import conj

    t = matrix_transpose(a)
    return conj(t) if a.dtype.kind == "c" else t


def _svd_native(x, vectors, full_matrices=False, scaled=False):
    """(U, S, Vh), or S without vectors, of x on the device: a QR first where x is not square
    (its R is square; U = Q U_R), the conjugate transpose's where x is wide; one-sided Jacobi of
    the square matrices (_kernels._linalg.svd). None where that is not native here."""
    m, n = x.shape[-2:]
    if not scaled and x.size and not _klinalg.svd_pays(x):
        return None
    if not scaled and m != n and x.size and min(m, n) <= _klinalg.SVD_MAX:
        # each matrix scaled by about a power of two first, so that the QR's squares neither
        # overflow nor underflow (LAPACK's gesvd scales too; the Jacobi kernel scales square
        # ones itself); S scaled back
        from ._elementwise_functions import abs as _abs, clip, divide, floor, log2, maximum, multiply, pow
        from ._statistical_functions import max as _max

        info = np.finfo(_real(x.dtype)._np)
        big = 1000.0 if info.maxexp > 200 else 120.0
        amax = _max(_abs(x), axis=(-2, -1), keepdims=True)
        sc = pow(2.0, clip(-floor(log2(maximum(amax, float(info.tiny)))), -big, big))
        try:
            out = _svd_native(multiply(x, sc), vectors, full_matrices, scaled=True)
        except np.linalg.LinAlgError:
            # an inf without a NaN: numpy's NaN results (the QR, or a complex scaling, made
            # NaNs of it; here for the whole stack); a NaN or no convergence: numpy's error
            from ._elementwise_functions import isinf, isnan
            from ._utility_functions import any as _any

            if bool(_any(isnan(x))) or not bool(_any(isinf(x))):
                raise
            return _svd_nan(x, vectors, full_matrices)
        if out is None:
            return None
        from ._manipulation_functions import squeeze

        sc = squeeze(sc, axis=-1)
        if not vectors:
            return divide(out, sc)
        return out[0], divide(out[1], sc), out[2]
    if m < n:
        out = _svd_native(_mh(x), vectors, full_matrices, scaled)
        if out is None or not vectors:
            return out
        u, s, vh = out
        return _mh(vh), s, _mh(u)
    if min(m, n) > _klinalg.SVD_MAX or not x.size:
        return None
    q = None
    r = x
    if m > n:
        if not _klinalg.supports("qr", x):
            return None
        if vectors and full_matrices:
            q, r = _klinalg.qr(x, True)
        else:
            q, r = _qr_tall(x)
        r = r[..., :n, :]
    if not _klinalg.supports("svd", r):
        return None
    s, ur, vh, st = _klinalg.svd(r, bool(vectors))
    if (st == 1).any():  # (a NaN, or no convergence; an inf alone gives NaNs, as numpy)
        raise np.linalg.LinAlgError("SVD did not converge")
    if not vectors:
        return s
    if q is None:
        return ur, s, vh
    u = matmul(q[..., :, :n], ur)
    if q.shape[-1] > n:
        from ._manipulation_functions import concat

        u = concat([u, q[..., :, n:]], axis=-1)
    return u, s, vh


def _qr_tall(x):
    """Reduced (Q, R) of a stack of tall matrices by TSQR: chunks of TSQR_CHUNK rows QR'd as one
    stack, their R's stacked and QR'd again (the same way where still tall), Q multiplied back.
    R's row signs differ from LAPACK's, so only callers that do not expose Q and R (the svd
    class) take it. H200, run 31: float64 4096 x 64 0.77 ms against 2.6 by the blocked QR (CuPy
    0.55), 131072 x 16 0.47 ms against 11.8 (CuPy 2.1)."""
    from ._manipulation_functions import concat, reshape

    m, n = x.shape[-2:]
    ch = TSQR_CHUNK
    c = m // ch
    b = x.shape[:-2]
    rem = m - c * ch
    main = reshape(x[..., :c * ch, :], b + (c, ch, n)) if c >= 2 and 2 * n <= ch else None
    tail = x[..., c * ch:, :] if rem else None
    if (main is None or not _klinalg.supports("qr", main)
            or (tail is not None and not _klinalg.supports("qr", tail))):
        return _klinalg.qr(x, False)
    q1, r1 = _klinalg.qr(main, False)
    stack = reshape(r1, b + (c * n, n))
    if rem:
        qt, rt = _klinalg.qr(tail, False)
        stack = concat([stack, rt], axis=-2)
    q2, r = _qr_tall(stack)
    q = reshape(matmul(q1, reshape(q2[..., :c * n, :], b + (c, n, n))), b + (c * ch, n))
    if rem:
        q = concat([q, matmul(qt, q2[..., c * n:, :])], axis=-2)
    return q, r


# rows a TSQR chunk has (_qr_tall): of 128, 256 and 512, 512 was the fastest for 16 to 256
# columns on the H200 (run 31, benchmarks/diag_qr_tall.py)
TSQR_CHUNK = 512


def _svd_nan(x, vectors, full_matrices):
    """svd's results of the shapes numpy's would have, every element NaN."""
    from ._creation_functions import full

    m, n = x.shape[-2:]
    k = min(m, n)
    b = x.shape[:-2]
    s = full(b + (k,), math.nan, dtype=_real(x.dtype), device=x.device)
    if not vectors:
        return s
    u = full(b + (m, m if full_matrices else k), math.nan, dtype=x.dtype, device=x.device)
    vh = full(b + (n if full_matrices else k, n), math.nan, dtype=x.dtype, device=x.device)
    return u, s, vh


def _cutoff(s, rtol, mn):
    """rtol (default max(M, N) eps) times each stack's largest singular value, as (..., 1)."""
    from ._statistical_functions import max as _max

    if rtol is None:
        rtol = mn * float(np.finfo(s.dtype._np).eps)
    elif isinstance(rtol, Array):
        from ._manipulation_functions import expand_dims

        rtol = expand_dims(rtol, axis=-1)
    return _max(s, axis=-1, keepdims=True) * rtol


def cholesky(x, /, *, upper=False):
    dt = _float(x, "cholesky", square=True)
    if _klinalg.supports("cholesky", x):
        r = _klinalg.cholesky(x, bool(upper))
        if r[1].any():
            raise np.linalg.LinAlgError("Matrix is not positive definite")
        return r[0]

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
    from ._elementwise_functions import _broadcast_shapes

    _broadcast_shapes(x1.shape, x2.shape)
    a, b = _as(x1, dt), _as(x2, dt)
    if a is not None and b is not None:
        from ._creation_functions import empty
        from ._elementwise_functions import _broadcast_shapes, multiply, subtract

        def index(k):
            if axis < 0:
                return (Ellipsis, k) + (slice(None),) * (-axis - 1)
            return (slice(None),) * axis + (k,)

        a0, a1, a2 = (a[index(k)] for k in range(3))
        b0, b1, b2 = (b[index(k)] for k in range(3))
        out = empty(_broadcast_shapes(a.shape, b.shape), dtype=dt, device=a.device)
        # each component written into its slice of the result (native assignments)
        out[index(0)] = subtract(multiply(a1, b2), multiply(a2, b1))
        out[index(1)] = subtract(multiply(a2, b0), multiply(a0, b2))
        out[index(2)] = subtract(multiply(a0, b1), multiply(a1, b0))
        return out
    return _host("cross", lambda a, b: np.asarray(np.cross(a.astype(dt._np), b.astype(dt._np),
                                                           axis=axis)), x1, x2, dtype=dt)


def det(x, /):
    dt = _float(x, "det", square=True)
    if _klinalg.supports("det", x):
        return _klinalg.det(x)
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
    if _klinalg.supports("eigh", x):
        return EighResult(*_klinalg.eigh(x, True))
    w, v = _host("eigh", lambda a: tuple(np.linalg.eigh(a)), x)
    from ._data_type_functions import astype
    return EighResult(astype(w, _real(dt), copy=False), astype(v, dt, copy=False))


def eigvalsh(x, /):
    dt = _float(x, "eigvalsh", square=True)
    if _klinalg.supports("eigh", x):
        return _klinalg.eigh(x, False)[0]
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
    if _klinalg.supports("inv", x):
        r = _klinalg.solve(x, None, inv=True)
        if r[1].any():
            raise np.linalg.LinAlgError("Singular matrix")
        return r[0]
    return _host("inv", np.linalg.inv, x, dtype=dt)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    dt = _float(x, "matrix_norm")
    if ord is None:
        ord = "fro"  # (numpy's default for None)
    if not (ord in ("fro", "nuc") if isinstance(ord, str)
            else isinstance(ord, (int, float)) and ord in (1, -1, 2, -2, math.inf, -math.inf)):
        raise ValueError(f"matrix_norm(): invalid ord {ord!r} (1, -1, 2, -2, inf, -inf, 'fro' "
                         "or 'nuc')")
    native = ord not in ("nuc", 2, -2)  # (those from the singular values)
    m, n = x.shape[-2:]
    if not x.size:
        # empty matrices: numpy's norms are 0, except where a minimum is taken over nothing (an
        # empty stack of matrices gives an empty result)
        if not (m and n) and (ord == -2 or (ord == -1 and not n) or (ord == -math.inf and not m)):
            raise ValueError(f"matrix_norm(): ord={ord} of empty matrices (a minimum over nothing)")
        return _zeros(x.shape[:-2] + ((1, 1) if keepdims else ()), _real(dt), x)
    if native:
        from ._elementwise_functions import abs as _abs, multiply, sqrt
        from ._manipulation_functions import reshape
        from ._statistical_functions import max as _max, min as _min, sum as _sum

        a = _abs(x)
        if ord == "fro":
            r = sqrt(_sum(multiply(a, a), axis=(-2, -1), keepdims=True))
        else:
            inner, outer = (-2, -1) if ord in (1, -1) else (-1, -2)
            red = _max if ord > 0 else _min
            r = red(_sum(a, axis=inner, keepdims=True), axis=outer, keepdims=True)
        return r if keepdims else reshape(r, x.shape[:-2])
    sv = _svd_native(x, False)
    if sv is not None:
        from ._manipulation_functions import expand_dims
        from ._statistical_functions import max as _max, min as _min, sum as _sum

        r = (_sum if ord == "nuc" else _max if ord == 2 else _min)(sv, axis=-1)
        return expand_dims(r, axis=(-2, -1)) if keepdims else r
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
    if x.dtype in _dtypes._numeric_dtypes:
        from ._data_type_functions import astype

        if n == 0:
            from ._creation_functions import eye, zeros

            return zeros(x.shape, dtype=x.dtype, device=x.device) + eye(
                x.shape[-1], dtype=x.dtype, device=x.device)
        if n < 0:
            x, n = inv(x), -n
        if n == 1:
            return astype(x, x.dtype, copy=True)
        z = result = None
        while n > 0:
            z = x if z is None else matmul(z, z)
            n, bit = divmod(n, 2)
            if bit:
                result = z if result is None else matmul(result, z)
        return result
    return _host("matrix_power", lambda a: np.linalg.matrix_power(a, n), x, dtype=x.dtype)


def _check_rtol(fname, rtol):
    if not (rtol is None or isinstance(rtol, Array) or
            (isinstance(rtol, (int, float)) and not isinstance(rtol, bool))):
        raise TypeError(f"{fname}(): rtol must be a float, an array or None, "
                        f"not {type(rtol).__name__}")


def matrix_rank(x, /, *, rtol=None):
    _float(x, "matrix_rank")
    _check_rtol("matrix_rank", rtol)
    if not x.size:
        return _zeros(x.shape[:-2], _dtypes.defaults(x.device)["integral"], x)
    s = _svd_native(x, False)
    if s is not None:
        from ._data_type_functions import astype
        from ._elementwise_functions import greater
        from ._searching_functions import count_nonzero

        return astype(count_nonzero(greater(s, _cutoff(s, rtol, max(x.shape[-2:]))), axis=-1),
                      _dtypes.defaults(x.device)["integral"], copy=False)
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
    _check_rtol("pinv", rtol)
    if not x.size:
        return _zeros(x.shape[:-2] + (x.shape[-1], x.shape[-2]), dt, x)
    usv = _svd_native(x, True)
    if usv is not None:
        from ._elementwise_functions import divide, greater, multiply
        from ._manipulation_functions import expand_dims
        from ._searching_functions import where

        u, sv, vh = usv
        # V diag(1 / s, where s > the cutoff, else 0) U^H
        inv = where(greater(sv, _cutoff(sv, rtol, max(x.shape[-2:]))), divide(1.0, sv), 0.0)
        return matmul(multiply(_mh(vh), expand_dims(inv, axis=-2)), _mh(u))

    def host(a, r):
        if r is None:
            r = max(a.shape[-2:]) * np.finfo(a.dtype).eps
        return np.linalg.pinv(a, rtol=r)

    return _host("pinv", host, x, rtol, dtype=dt)


def qr(x, /, *, mode="reduced"):
    dt = _float(x, "qr")
    if mode not in ("reduced", "complete"):
        raise ValueError("qr(): mode must be 'reduced' or 'complete'")
    if _klinalg.supports("qr", x):
        return QRResult(*_klinalg.qr(x, mode == "complete"))
    return QRResult(*_host("qr", lambda a: tuple(np.linalg.qr(a, mode=mode)), x, dtype=dt))


def slogdet(x, /):
    dt = _float(x, "slogdet", square=True)
    if _klinalg.supports("slogdet", x):
        r = _klinalg.det(x, want_slogdet=True)
        from ._data_type_functions import astype
        from ._elementwise_functions import add, log, multiply

        sign, mant, ex = r
        # logabsdet = log(mantissa) + exponent * log(2): the product of |pivots| kept as a
        # mantissa and a binary exponent, so that it neither overflows nor underflows
        logabs = add(log(mant), multiply(astype(ex, _real(dt)), math.log(2)))
        return SlogdetResult(sign, logabs)
    s, l = _host("slogdet", lambda a: tuple(np.asarray(v) for v in np.linalg.slogdet(a)), x)
    from ._data_type_functions import astype
    return SlogdetResult(astype(s, dt, copy=False), astype(l, _real(dt), copy=False))


def solve(x1, x2, /):
    dt = _pair("solve", x1, x2)
    _float(x1, "solve", square=True)
    if x2.dtype not in _dtypes._floating_dtypes:
        raise TypeError("solve() needs floating-point arrays")
    n = x1.shape[-1]
    if x2.ndim == 0:
        raise ValueError("solve() needs x2 of at least one dimension")
    vector = x2.ndim == 1
    if (x2.shape[0] if vector else x2.shape[-2]) != n:
        raise ValueError("solve(): x1 and x2 have incompatible shapes")
    if not vector:
        from ._elementwise_functions import _broadcast_shapes

        _broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    a, b = _as(x1, dt), _as(x2, dt)
    if a is not None and b is not None:
        bv = b._view((n, 1), (b._strides[0], 1), b._offset) if vector else b
        if _klinalg.supports("solve", a, bv):
            r = _klinalg.solve(a, bv)
            if r[1].any():
                raise np.linalg.LinAlgError("Singular matrix")
            X = r[0]
            return X._view(X.shape[:-1], X._strides[:-1], X._offset) if vector else X
    return _host("solve", lambda a, b: np.linalg.solve(a.astype(dt._np), b.astype(dt._np)),
                 x1, x2, dtype=dt)


def svd(x, /, *, full_matrices=True):
    dt = _float(x, "svd")
    usv = _svd_native(x, True, full_matrices) if x.size else None
    if usv is not None:
        return SVDResult(*usv)
    u, s, vh = _host("svd", lambda a: tuple(np.linalg.svd(a, full_matrices=full_matrices)), x)
    from ._data_type_functions import astype
    return SVDResult(astype(u, dt, copy=False), astype(s, _real(dt), copy=False),
                     astype(vh, dt, copy=False))


def svdvals(x, /):
    dt = _float(x, "svdvals")
    if not x.size:
        return _zeros(x.shape[:-2] + (min(x.shape[-2:]),), _real(dt), x)
    sv = _svd_native(x, False)
    if sv is not None:
        return sv
    return _host("svdvals", np.linalg.svdvals, x, dtype=_real(dt))


def trace(x, /, *, offset=0, dtype=None):
    if not isinstance(x, Array):
        raise TypeError("trace() expects an array")
    if x.dtype not in _dtypes._numeric_dtypes:
        raise TypeError(f"trace() does not accept {x.dtype.name} input")
    if x.ndim < 2:
        raise ValueError("trace() needs at least two dimensions")
    dt = _accumulator_dtype(x, dtype)
    from ._statistical_functions import sum as _sum

    # the sum of the diagonal view (the reduce family)
    return _sum(diagonal(x, offset=offset), axis=-1, dtype=dt)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    dt = _float(x, "vector_norm", min_ndim=0)
    ax = None if axis is None else _axes(axis, x.ndim)
    if isinstance(ax, tuple) and len(ax) == 1:
        ax = ax[0]
    number = isinstance(ord, (int, float)) and not isinstance(ord, bool)
    axes = range(x.ndim) if ax is None else (ax if isinstance(ax, tuple) else (ax,))
    if number and ord in (math.inf, -math.inf) and not math.prod(x.shape[a] for a in axes):
        # over no elements: numpy's maximum of absolute values is 0, a minimum has no identity
        if ord < 0:
            raise ValueError("vector_norm(): ord=-inf over no elements (a minimum over nothing)")
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape)
                      if keepdims or i not in axes)
        return _zeros(shape, _real(dt), x)
    if number and not math.isnan(ord):
        from ._data_type_functions import astype
        from ._elementwise_functions import abs as _abs, multiply, pow as _pow, sqrt
        from ._searching_functions import count_nonzero
        from ._statistical_functions import max as _max, min as _min, sum as _sum

        rdt = _real(dt)
        kw = dict(axis=ax, keepdims=keepdims)
        if ord == 0:
            return astype(count_nonzero(x, **kw), rdt)
        a = _abs(x)
        if ord == 2:
            return sqrt(_sum(multiply(a, a), **kw))
        if ord == 1:
            return _sum(a, **kw)
        if ord == math.inf:
            return _max(a, **kw)
        if ord == -math.inf:
            return _min(a, **kw)
        return _pow(_sum(_pow(a, float(ord)), **kw), 1.0 / ord)

    def host(a):
        return np.asarray(np.linalg.vector_norm(a, axis=ax, keepdims=keepdims, ord=ord))

    return _host("vector_norm", host, x, dtype=_real(dt))
