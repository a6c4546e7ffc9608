"""Host fallback: download inputs, compute with numpy, upload the result; counted once per call.

Every function of the spec layer that the kernels layer does not cover goes through `call`.
"""
import warnings

import numpy as np

from . import _dtypes, _runtime


def to_host(x):
    """A new numpy array with the values of Array `x`: from the runtime's cached host copy of
    the allocation when it is small, else one download of the view."""
    from ._array_object import _CACHE_LIMIT

    a = x._alloc
    if a.nbytes <= _CACHE_LIMIT:
        return np.array(x._strided(a.device.host_bytes(a)))
    return a.device.download(a, x._dtype._np, x._shape, x._strides, x._offset)


def from_host(a, device, dtype=None):
    """Upload numpy data as a new C-contiguous Array on `device`.

    The stored dtype is `dtype` if given, else numpy's, narrowed to what the device can hold.
    """
    from ._array_object import Array

    a = np.asarray(a)
    want = _dtypes.from_np(a.dtype) if dtype is None else dtype
    dt = _dtypes.nearest_supported(want, device)
    if dt.bits < want.bits and want.kind in "iu" and a.dtype.kind in "iub" and a.size:
        # e.g. int64 data (or an int32 + uint32 result) on a device without int64: stored
        # as int32 only where every value fits, never wrapped
        info = np.iinfo(dt._np)
        if a.min() < info.min or a.max() > info.max:
            raise OverflowError(f"{want.name} values out of range for {dt.name}, the widest "
                                f"{'signed' if dt.kind == 'i' else 'unsigned'} integer dtype "
                                f"of device {device}")
    if a.dtype != dt._np:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # complex -> real drops the imaginary part, as numpy
            a = a.astype(dt._np)
    if not a.flags.c_contiguous:
        a = a.copy()  # (not ascontiguousarray: it turns 0-d arrays into 1-d ones)
    return Array._new(device.upload(a), dt, a.shape)


def _is_array(x):
    from ._array_object import Array

    return isinstance(x, Array)


def _map(obj, fn, pred):
    if pred(obj):
        return fn(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_map(o, fn, pred) for o in obj)
    if isinstance(obj, dict):
        return {k: _map(v, fn, pred) for k, v in obj.items()}
    return obj


def _first_device(obj):
    if _is_array(obj):
        return obj.device
    if isinstance(obj, (list, tuple)):
        for o in obj:
            d = _first_device(o)
            if d is not None:
                return d
    return None


def call(name, fn, *args, device=None, dtype=None, **kwargs):
    """Run `fn` on the host: every Array in args/kwargs (also inside lists and tuples) becomes
    a numpy array; every numpy array or numpy scalar that `fn` returns (also inside a tuple or
    list) becomes an Array on `device` (default: the first input's device, else the default one),
    cast to `dtype` if given."""
    _runtime.count_fallback(name)
    if device is None:
        device = _first_device(args) or _first_device(list(kwargs.values()))
        if device is None:
            device = _runtime.default_device()
    hargs = _map(args, to_host, _is_array)
    hkw = _map(kwargs, to_host, _is_array)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = fn(*hargs, **hkw)
    return _map(out, lambda a: from_host(a, device, dtype),
                lambda o: isinstance(o, (np.ndarray, np.generic)))
