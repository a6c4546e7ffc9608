"""Data type functions."""
from dataclasses import dataclass

import numpy as np

from . import _dtypes, _fallback, _kernels, _runtime
from ._array_object import _SCALARS, Array
from ._dtypes import DType
from ._elementwise_functions import LayoutPlans

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


# per layout (x's dtype, shape and strides, and the target dtype), for astype(x, dtype) with
# copy=True and no device=: compiled plans and functions holding such calls for fusion, as the
# elementwise functions keep
_astype_plans = LayoutPlans()
_kernels._fuse.listeners.append(_astype_plans._drop_plans)


def astype(x, dtype, /, *, copy=True, device=None):
    """Cast x to dtype (a copy unless copy=False and nothing changes)."""
    if dtype.__class__ is not DType:
        dtype = _dtypes.check_dtype(dtype)
    if copy is True and device is None and x.__class__ is Array:
        try:
            out = _astype_plans._replay((x._dtype, x._shape, x._strides, dtype), (x,))
        except TypeError:  # an unhashable dtype argument: the checks below say what is wrong
            out = None
        if out is not None:
            return out
    if not isinstance(x, Array):
        raise TypeError("astype() expects an array")
    if x._dtype.kind == "c" and dtype.kind not in "cb":
        raise TypeError(f"astype(): casting {x._dtype.name} to {dtype.name} would drop the "
                        "imaginary part, which the standard does not permit; cast real(x) or "
                        "imag(x) instead")
    if device is not None:
        dev = _runtime.get_device(device)
        if dev != x.device:
            x = x.to_device(dev)
            copy = False  # the transfer made a copy already
    if dtype == x.dtype and not copy:
        return x
    _dtypes.check_supported(dtype, x.device)
    if _kernels.supports_cast(x.dtype, dtype, x.device):
        mark = _kernels.mark()
        out = _kernels.astype(x, dtype)
        if copy is True and device is None and x.__class__ is Array:
            _astype_plans._compile((x._dtype, x._shape, x._strides, dtype), mark, (x,), out)
        return out
    return _fallback.call("astype", lambda a: a.astype(dtype._np), x, dtype=dtype)


def _dtype_of(v):
    if isinstance(v, Array):
        return v.dtype
    try:
        return _dtypes.check_dtype(v)
    except TypeError:
        raise TypeError(f"expected an array or a dtype, got {v!r}") from None


def can_cast(from_, to, /):
    """Whether promotion of from_ with `to` gives `to` (the standard's promotion graph)."""
    f = _dtype_of(from_)
    to = _dtypes.check_dtype(to)
    if isinstance(from_, Array) and to not in _dtypes.supported(from_.device):
        return False
    return _dtypes.is_promotable(f, to) and _dtypes.promote(f, to) == to


@dataclass(frozen=True)
class finfo_object:
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


@dataclass(frozen=True)
class iinfo_object:
    bits: int
    max: int
    min: int
    dtype: DType


def finfo(type, /):
    """Machine limits of a floating-point dtype (of its real counterpart for complex)."""
    dt = _dtype_of(type)
    if dt.kind not in "fc":
        raise ValueError(f"finfo() needs a floating-point dtype, got {dt.name}")
    real = _dtypes._real_of.get(dt, dt)
    fi = np.finfo(real._np)
    return finfo_object(fi.bits, float(fi.eps), float(fi.max), float(fi.min),
                        float(fi.smallest_normal), real)


def iinfo(type, /):
    """Machine limits of an integer dtype."""
    dt = _dtype_of(type)
    if dt.kind not in "iu":
        raise ValueError(f"iinfo() needs an integer dtype, got {dt.name}")
    ii = np.iinfo(dt._np)
    return iinfo_object(ii.bits, int(ii.max), int(ii.min), dt)


def isdtype(dtype, kind):
    """Whether dtype is of `kind`: a dtype, a kind name, or a tuple of those."""
    try:
        dtype = _dtypes.check_dtype(dtype)
    except TypeError:
        raise TypeError(f"isdtype() expects a dtype, got {dtype!r}") from None
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, (DType, np.dtype, type)):
        return dtype == _dtypes.check_dtype(kind)
    if isinstance(kind, str):
        try:
            return dtype in _dtypes._kinds[kind]
        except KeyError:
            raise ValueError(f"unknown dtype kind {kind!r}") from None
    raise TypeError(f"isdtype(): kind must be a dtype, a string or a tuple, got {kind!r}")


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on the given arrays, dtypes and Python scalars."""
    typed = [a for a in arrays_and_dtypes if not isinstance(a, _SCALARS)]
    scalars = [a for a in arrays_and_dtypes if isinstance(a, _SCALARS)]
    if not typed:
        raise TypeError("result_type() needs at least one array or dtype")
    dts = [_dtype_of(a) for a in typed]
    out = dts[0]
    for d in dts[1:]:
        out = _dtypes.promote(out, d)
    for s in scalars:
        out = _dtypes.scalar_dtype(out, s)
    return out
