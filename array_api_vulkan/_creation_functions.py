"""Creation functions."""
import math
import operator
import warnings

import numpy as np

from . import _dtypes, _fallback, _kernels, _runtime
from ._array_object import _SCALARS, Array
from ._data_type_functions import astype as _astype

__all__ = ["arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
           "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like"]


def _device(device):
    if device is None:
        return _runtime.default_device()
    try:
        return _runtime.get_device(device)
    except (ValueError, IndexError, TypeError):
        raise ValueError(f"unknown device {device!r}") from None


def _dtype_for(dtype, device):
    if dtype is None:
        return None
    dtype = _dtypes.check_dtype(dtype)
    _dtypes.check_supported(dtype, device)
    return dtype


def _shape(shape):
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    try:
        shape = tuple(operator.index(n) for n in shape)
    except TypeError:
        raise TypeError(f"invalid shape {shape!r}") from None
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


_copied = {}  # (dtype, shape, strides) -> ONCE, or True from _copy's second call of that layout


def _copy(x):
    """A new C-contiguous array with the values of x on x's device."""
    if x.__class__ is Array:
        # From a layout's second call on, astype's path, which replays a compiled plan per layout
        # (made there on its first call): a synchronised copy of 16M float32 took 82 us on the
        # H100 through the general path against torch's 64 (run 26). Not on the first: making a
        # plan costs about as much as the call, which one-off layouts would pay for nothing.
        if _kernels.keep_on_second_call(_copied, (x._dtype, x._shape, x._strides), lambda: True,
                                        4096):
            return _astype(x, x._dtype)
    if _kernels.supports_cast(x.dtype, x.dtype, x.device):
        return _kernels.copy(x)
    return _fallback.call("copy", np.array, x, dtype=x.dtype)


def _from_python(obj, dtype, device):
    """Host conversion of Python scalars, nested sequences and buffer/array-likes."""
    if isinstance(obj, _SCALARS):
        dt = dtype or _dtypes.default_scalar_dtype(obj, device)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.array(obj, dtype=dt._np), dt
    # np.asarray, not np.array: a numpy array already of the dtype is uploaded from where it
    # is, not first copied into fresh host memory (a 256 MB upload spent most of its time there).
    # The upload copies it into staging before returning, so later changes to it don't reach us.
    if dtype is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            host = np.asarray(obj, dtype=dtype._np)
        return host, dtype
    host = np.asarray(obj)
    if host.dtype == object:
        raise TypeError("cannot convert the object to an array (ragged or out-of-range values?)")
    dt = _dtypes.from_np(host.dtype)
    if not isinstance(obj, np.ndarray) and _is_nested_python(obj):
        # Python scalars: the device's default dtypes, not numpy's
        kind = {"b": "bool", "i": "integral", "u": "integral", "f": "real floating",
                "c": "complex floating"}[dt.kind]
        if kind != "bool":
            dt = _dtypes.defaults(device)[kind]
            if dt.kind in "iu" and host.size:
                info = np.iinfo(dt._np)
                if host.min() < info.min or host.max() > info.max:
                    raise OverflowError("Python int out of bounds for the default integer dtype")
    return host, dt  # (from_host stores it as the nearest dtype the device has)


def _is_nested_python(obj):
    if isinstance(obj, (list, tuple)):
        return all(_is_nested_python(o) for o in obj)
    return isinstance(obj, _SCALARS)


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """Convert obj (array, Python scalar, nested sequence, buffer) to an Array."""
    if dtype is not None:
        dtype = _dtypes.check_dtype(dtype)
    if isinstance(obj, Array):
        dev = obj.device if device is None else _device(device)
        dt = obj.dtype if dtype is None else dtype
        if dev == obj.device and dt == obj.dtype:
            return _copy(obj) if copy else obj
        if copy is False:
            raise ValueError("asarray(copy=False) would need a copy (dtype or device change)")
        _dtypes.check_supported(dt, dev)
        if dev != obj.device:
            obj = obj.to_device(dev)
        return _astype(obj, dt, copy=False)
    dev = _device(device)
    if dtype is not None:
        _dtypes.check_supported(dtype, dev)
    if copy is False:
        raise ValueError("asarray(copy=False): host data must be copied into device memory")
    if hasattr(obj, "__dlpack__") and not isinstance(obj, np.ndarray) and \
            not hasattr(obj, "__array__"):
        obj = np.from_dlpack(obj)
    host, dt = _from_python(obj, dtype, dev)
    # host data has to be uploaded: that is the function, not a fallback, so it is not counted
    return _fallback.from_host(host, dev, dt)


def from_dlpack(x, /, *, device=None, copy=None):
    """Import an object with __dlpack__ (always through host memory for foreign objects)."""
    if isinstance(x, Array):
        return asarray(x, device=device, copy=copy)
    if not hasattr(x, "__dlpack__"):
        raise AttributeError("from_dlpack() needs an object with __dlpack__")
    if copy is False:
        raise ValueError("from_dlpack(copy=False): foreign memory must be copied to the device")
    dev = _device(device)
    try:
        host = np.from_dlpack(x, device="cpu")
    except TypeError:
        host = np.from_dlpack(x)
    return _fallback.from_host(host, dev)


# A repeated zeros/ones/full(_like) call: (the function's name, shape or the like-array's
# layout, dtype, device, the value's type, value and sign) -> the kernels layer's compiled plan
# of the call, kept once the call ran natively (arguments as given: a call seen before skips
# their checks)
_fill_plans = {}
MAX_FILL_PLANS = 256
_FAST_SHAPES = (int, tuple)


def _value_key(v):
    """The value's part of a _fill_plans key (-0.0 apart from 0.0), or None: not kept (NaN,
    complex, numpy scalars)."""
    c = v.__class__
    if c is int or c is bool:
        return (c, v)
    if c is float and v == v:
        return (c, v, math.copysign(1.0, v))
    return None


def _keep(key, plan):
    """Keeps plan (None: nothing to keep) for _replay(key)."""
    if plan is not None:
        if len(_fill_plans) >= MAX_FILL_PLANS:
            _fill_plans.clear()
        _fill_plans[key] = plan


def _replay(key):
    """The array of a kept call, or None (general path)."""
    try:
        plan = _fill_plans.get(key)
    except TypeError:  # (an unhashable argument: the general path checks it)
        return None
    return plan() if plan is not None else None


def _fill(fname, shape, fill_value, dtype, device, key=None):
    if isinstance(fill_value, (complex, np.complexfloating)) and dtype.kind not in "cb":
        raise TypeError(f"{fname}(): a complex fill_value ({fill_value!r}) for a {dtype.name} "
                        "array")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = np.array(fill_value, dtype=dtype._np).item()
    if _kernels.supports_fill("full", dtype, device):
        out = _kernels.full(shape, value, dtype, device)
        if key is not None:
            _keep(key, _kernels.full_plan(shape, value, dtype, device))
        return out
    return _fallback.call(fname, lambda: np.full(shape, value, dtype=dtype._np),
                          device=device, dtype=dtype)


def full(shape, fill_value, *, dtype=None, device=None):
    """An array of `shape` filled with fill_value."""
    key = None
    if shape.__class__ in _FAST_SHAPES:
        vk = _value_key(fill_value)
        if vk is not None:
            key = ("full", shape, dtype, device, vk)
            out = _replay(key)
            if out is not None:
                return out
    dev = _device(device)
    dt = _dtype_for(dtype, dev)
    if isinstance(fill_value, Array) and fill_value.ndim == 0:
        fill_value = fill_value._host().item()
    if not isinstance(fill_value, _SCALARS + (np.generic,)):
        raise TypeError(f"full(): fill_value must be a Python scalar, not {type(fill_value)}")
    if dt is None:
        dt = _dtypes.default_scalar_dtype(
            fill_value.item() if isinstance(fill_value, np.generic) else fill_value, dev)
    return _fill("full", _shape(shape), fill_value, dt, dev, key)


def _constant(fname, value, shape, dtype, device):
    """zeros / ones: `shape` filled with value, in dtype (default: the real floating one)."""
    key = None
    if shape.__class__ in _FAST_SHAPES:
        key = (fname, shape, dtype, device)
        out = _replay(key)
        if out is not None:
            return out
    dev = _device(device)
    dt = _dtype_for(dtype, dev) or _dtypes.defaults(dev)["real floating"]
    return _fill(fname, _shape(shape), value, dt, dev, key)


def zeros(shape, *, dtype=None, device=None):
    return _constant("zeros", 0, shape, dtype, device)


def ones(shape, *, dtype=None, device=None):
    return _constant("ones", 1, shape, dtype, device)


def empty(shape, *, dtype=None, device=None):
    """Uninitialised array: a bare allocation, no fill."""
    dev = _device(device)
    dt = _dtype_for(dtype, dev) or _dtypes.defaults(dev)["real floating"]
    shape = _shape(shape)
    return Array._new(dev.alloc(math.prod(shape) * dt.itemsize), dt, shape)


def _like(x, dtype, device):
    if not isinstance(x, Array):
        raise TypeError("expected an array")
    dev = x.device if device is None else _device(device)
    dt = x.dtype if dtype is None else _dtype_for(dtype, dev)
    return x.shape, dt, dev


def empty_like(x, /, *, dtype=None, device=None):
    shape, dt, dev = _like(x, dtype, device)
    return empty(shape, dtype=dt, device=dev)


def _like_key(fname, x, dtype, device, vk=0):
    """A _fill_plans key of a *_like call on an Array x (None for anything else)."""
    if x.__class__ is not Array:
        return None
    return (fname, x._shape, x._dtype, x._alloc.device, dtype, device, vk)


def _constant_like(fname, value, x, dtype, device):
    """zeros_like / ones_like: x's shape filled with value."""
    key = _like_key(fname, x, dtype, device)
    out = _replay(key) if key is not None else None
    if out is not None:
        return out
    shape, dt, dev = _like(x, dtype, device)
    return _fill(fname, shape, value, dt, dev, key)


def zeros_like(x, /, *, dtype=None, device=None):
    return _constant_like("zeros_like", 0, x, dtype, device)


def ones_like(x, /, *, dtype=None, device=None):
    return _constant_like("ones_like", 1, x, dtype, device)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    vk = _value_key(fill_value)
    key = _like_key("full_like", x, dtype, device, vk) if vk is not None else None
    out = _replay(key) if key is not None else None
    if out is not None:
        return out
    shape, dt, dev = _like(x, dtype, device)
    if not isinstance(fill_value, _SCALARS):
        raise TypeError("full_like(): fill_value must be a Python scalar")
    return _fill("full_like", shape, fill_value, dt, dev, key)


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """Evenly spaced values in [start, stop)."""
    dev = _device(device)
    if stop is None:
        start, stop = 0, start
    for v in (start, stop, step):
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise TypeError("arange() arguments must be real Python scalars")
    if step == 0:
        # (numpy's and array-api-strict's type for it)
        raise ZeroDivisionError("arange(): step must not be zero")
    all_int = all(isinstance(v, int) for v in (start, stop, step))
    dt = _dtype_for(dtype, dev) or _dtypes.defaults(dev)["integral" if all_int else
                                                       "real floating"]
    if all_int:
        n = max(0, -((start - stop) // step))
    else:
        n = max(0, math.ceil((stop - start) / step))
    if _kernels.supports_fill("arange", dt, dev):
        return _kernels.arange(start, stop, step, n, dt, dev)

    def host():
        if dt.kind in "iu" or all_int:
            return (start + step * np.arange(n, dtype=np.int64)).astype(dt._np)
        return (start + step * np.arange(n, dtype=np.float64)).astype(dt._np)
    return _fallback.call("arange", host, device=dev, dtype=dt)


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """Ones on the k-th diagonal, zeros elsewhere."""
    dev = _device(device)
    dt = _dtype_for(dtype, dev) or _dtypes.defaults(dev)["real floating"]
    n_cols = n_rows if n_cols is None else n_cols
    for v in (n_rows, n_cols, k):
        operator.index(v)
    if n_rows < 0 or n_cols < 0:
        raise ValueError(f"negative dimensions are not allowed: eye({n_rows}, {n_cols})")
    if _kernels.supports_fill("eye", dt, dev):
        return _kernels.eye(n_rows, n_cols, k, dt, dev)
    return _fallback.call("eye", lambda: np.eye(n_rows, n_cols, k=k, dtype=dt._np),
                          device=dev, dtype=dt)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """num evenly spaced values from start to stop."""
    # A repeated linspace: its arguments as given -> the kernels layer's compiled plan for them
    # (the spec checks, dtype defaults and support questions are skipped; H100 host, run 26:
    # 14.4 us a call against torch's 10.1)
    key = _kernels.linspace_bounds_key(start, stop) if num.__class__ is int else None
    if key is not None:
        key = ("linspace", num, dtype, device, endpoint) + key
        out = _replay(key)
        if out is not None:
            return out
    dev = _device(device)
    for v in (start, stop):
        if not isinstance(v, (int, float, complex)) or isinstance(v, bool):
            raise TypeError("linspace(): start and stop must be Python numbers")
    cplx = isinstance(start, complex) or isinstance(stop, complex)
    dt = _dtype_for(dtype, dev) or _dtypes.defaults(dev)[
        "complex floating" if cplx else "real floating"]
    if cplx and dt.kind != "c":
        raise TypeError("linspace(): complex bounds need a complex dtype")
    num = operator.index(num)
    if num < 0:
        raise ValueError("linspace(): num must be non-negative")
    # numpy computes in float64, or complex128 for complex bounds, then casts
    # (float32 / complex64 on a device without float64)
    cdt = _dtypes.defaults(dev)["complex floating" if cplx else "real floating"]
    if _kernels.supports_linspace(dt, cdt, dev):
        out = _kernels.linspace(start, stop, num, endpoint, dt, cdt, dev)
        if key is not None:
            _keep(key, _kernels.linspace_plan(start, stop, num, endpoint, dt, cdt, dev))
        return out
    return _fallback.call(
        "linspace", lambda: np.linspace(start, stop, num, endpoint=endpoint).astype(dt._np),
        device=dev, dtype=dt)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate grids as zero-copy broadcast views of the one-dimensional inputs."""
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid(): indexing must be 'xy' or 'ij'")
    for a in arrays:
        if not isinstance(a, Array) or a.ndim != 1:
            raise ValueError("meshgrid() takes one-dimensional arrays")
    if len({a.dtype for a in arrays}) > 1:
        raise ValueError("meshgrid(): arrays must have the same dtype")
    if len({a.device for a in arrays}) > 1:
        raise ValueError("meshgrid(): arrays must be on the same device")
    n = len(arrays)
    pos = list(range(n))
    if indexing == "xy" and n >= 2:
        pos[0], pos[1] = 1, 0
    shape = [0] * n
    for a, p in zip(arrays, pos):
        shape[p] = a.shape[0]
    out = []
    for a, p in zip(arrays, pos):
        strides = [0] * n
        strides[p] = a._strides[0]
        out.append(a._view(shape, strides, a._offset))
    return tuple(out)


# A repeated tril / triu: the function, x's layout and k -> the compiled plan of its one map
# dispatch (plan(x)), kept once the call ran natively
_tri_plans = {}


def _tri(fname, npfn, x, k):
    key = None
    if x.__class__ is Array and k.__class__ is int:
        key = (fname, x._dtype, x._shape, x._strides, x._alloc.device, k)
        plan = _tri_plans.get(key)
        if plan:
            out = plan(x)
            if out is not None:
                return out
    if not isinstance(x, Array):
        raise TypeError(f"{fname}() expects an array")
    if x.ndim < 2:
        raise ValueError(f"{fname}() needs an array of at least two dimensions")
    k = operator.index(k)
    if _kernels.supports_cast(x.dtype, x.dtype, x.device):
        mark = _kernels.mark()
        out = _kernels.tri(x, k, fname == "triu")
        if key is not None:
            _kernels.keep_on_second_call(_tri_plans, key,
                                         lambda: _kernels.compile_since(mark, [x], out),
                                         MAX_FILL_PLANS)
        return out
    return _fallback.call(fname, lambda a: npfn(a, k=k), x, dtype=x.dtype)


def tril(x, /, *, k=0):
    return _tri("tril", np.tril, x, k)


def triu(x, /, *, k=0):
    return _tri("triu", np.triu, x, k)

