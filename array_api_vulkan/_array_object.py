"""The array object: a strided view of a runtime Allocation."""
import math
import operator
import sys

import numpy as np

from . import _dtypes, _fallback, _kernels, _runtime
from ._runtime.storage import Storage
from ._runtime.storage import c_strides as _c_strides

_SCALARS = (bool, int, float, complex)
_VULKAN_DLPACK = 7  # kDLVulkan
_CPU_DLPACK = 1


def _ew():
    return sys.modules["array_api_vulkan._elementwise_functions"]


def _indexing():
    return sys.modules["array_api_vulkan._indexing_functions"]


def _is_int_key(k):
    return isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_))


# Allocations up to this size are read through Device.host_bytes (a host copy the runtime keeps
# until a recorded op writes the allocation): the conformance suite and scikit-learn's Python
# loops make tens of thousands of element reads, and a cached copy makes each one free.
_CACHE_LIMIT = _runtime.device.HOST_COPY_LIMIT


class Array(Storage):
    """An n-dimensional array in Vulkan device memory: the runtime's Storage (a strided view of
    an Allocation, strides and offset in elements) with the standard's API."""

    __slots__ = ("__weakref__",)
    # numpy must hand mixed operations back to us rather than convert us element by element
    __array_ufunc__ = None

    def __init__(self, *args, **kwargs):
        raise TypeError("use array_api_vulkan.asarray() and friends to create arrays")

    def _view(self, shape, strides, offset):
        return Array._new(self._alloc, self._dtype, shape, strides, offset)

    def _host(self):
        return _fallback.to_host(self)

    def _strided(self, raw):
        isz = self._dtype.itemsize
        flat = raw[: (raw.nbytes // isz) * isz].view(self._dtype._np)
        return np.lib.stride_tricks.as_strided(
            flat[self._offset:], shape=self._shape, strides=[s * isz for s in self._strides])

    def _is_c_contiguous(self):
        return all(st == cs for n, st, cs in zip(self._shape, self._strides, _c_strides(self._shape))
                   if n != 1)

    # --- attributes ---------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return self._alloc.device

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def shape(self):
        return self._shape

    @property
    def size(self):
        return math.prod(self._shape)

    @property
    def T(self):
        if self.ndim != 2:
            raise ValueError("x.T requires a two-dimensional array; use x.mT or permute_dims")
        return self._view(self._shape[::-1], self._strides[::-1], self._offset)

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("x.mT requires at least two dimensions")
        sh, st = list(self._shape), list(self._strides)
        sh[-2:], st[-2:] = sh[:-3:-1], st[:-3:-1]
        return self._view(sh, st, self._offset)

    def __array_namespace__(self, /, *, api_version=None):
        if api_version is not None and api_version not in (
                "2021.12", "2022.12", "2023.12", "2024.12", "2025.12"):
            raise ValueError(f"unsupported api_version {api_version!r}")
        import array_api_vulkan
        return array_api_vulkan

    def to_device(self, device, /, *, stream=None):
        if stream is not None:
            raise ValueError("streams are not supported")
        device = _runtime.get_device(device)
        if device == self.device:
            return self
        _dtypes.check_supported(self._dtype, device)
        _runtime.count_fallback("to_device")
        return _fallback.from_host(self._host(), device, self._dtype)

    # --- conversions ----------------------------------------------------------------------
    def _item(self):
        return self._host().reshape(()).item()

    def _scalar(self, what):
        # int(), float(), complex() and operator.index() take 0-d arrays only, as numpy 2 (the
        # standard defines them on zero-dimensional arrays); bool() any one-element array
        if self.ndim:
            raise TypeError(f"only 0-d arrays can be converted to Python {what}, not an array "
                            f"of shape {self._shape}")
        return self._item()

    def __bool__(self, /):
        if self.size != 1:
            raise ValueError("the truth value of an array with more than one element is ambiguous")
        return bool(self._item())

    def __int__(self, /):
        if self._dtype.kind == "c":
            raise TypeError("int() of a complex array")
        return int(self._scalar("int"))

    def __float__(self, /):
        if self._dtype.kind == "c":
            raise TypeError("float() of a complex array")
        return float(self._scalar("float"))

    def __complex__(self, /):
        return complex(self._scalar("complex"))

    def __index__(self, /):
        if self._dtype.kind not in "iu":
            raise TypeError("only integer arrays can be used as an index")
        return int(self._scalar("int"))

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("the array lives in device memory: a host copy is unavoidable")
        a = self._host()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __dlpack__(self, /, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export through DLPack: on the device (kDLVulkan, the VkBuffer and the view's offset)
        by default, or as a host copy for dl_device=(1, 0) (what numpy.from_dlpack(x,
        device="cpu") and scikit-learn ask for)."""
        if stream is not None and stream != -1:
            raise BufferError("streams are not supported")
        versioned = max_version is not None and tuple(max_version) >= (1, 0)
        dev = self.device
        if dl_device is not None and tuple(dl_device) == (_CPU_DLPACK, 0):
            if copy is False:
                raise BufferError("exporting device memory to the host needs a copy")
            host = self._host()
            if not versioned:
                return host.__dlpack__()
            return host.__dlpack__(max_version=max_version, dl_device=(_CPU_DLPACK, 0),
                                   copy=True)
        if dl_device is not None and tuple(dl_device) != (_VULKAN_DLPACK, dev.index):
            raise BufferError(f"cannot export to DLPack device {tuple(dl_device)}")
        x = self
        if copy:
            from ._creation_functions import _copy
            x = _copy(self)
        return dev.dlpack(x._alloc, x._dtype._np, x._shape, x._strides, x._offset,
                          versioned=versioned)

    def __dlpack_device__(self, /):
        return (_VULKAN_DLPACK, self.device.index)

    def __repr__(self):
        body = np.array2string(self._host(), separator=", ", prefix="Array(")
        return f"Array({body}, dtype={self._dtype.name}, device={self.device!r})"

    __str__ = __repr__

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of a 0-d array")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self._shape[0]))

    # --- indexing ---------------------------------------------------------------------------
    def _basic_index(self, key):
        """A view for a tuple of ints, slices, None and at most one Ellipsis, or of slices, None,
        an Ellipsis and one Python bool (a new axis of one where True, of none where False, as
        numpy gives); None if the key is not basic."""
        n_ell = 0
        n_idx = 0
        n_int = n_bool = 0
        for k in key:
            if k is Ellipsis:
                n_ell += 1
            elif k is None:
                pass
            elif isinstance(k, (bool, np.bool_)):
                n_bool += 1
            elif isinstance(k, slice) or _is_int_key(k):
                n_idx += 1
                n_int += not isinstance(k, slice)
            else:
                return None
        if n_bool and (n_bool > 1 or n_int):
            return None  # (numpy broadcasts bools with each other and with integers)
        if n_ell > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        if n_idx > self.ndim:
            raise IndexError(f"too many indices: {n_idx} for a {self.ndim}-d array")
        if n_ell == 0:
            key = key + (Ellipsis,)
        shape, strides, offset, d = [], [], self._offset, 0
        for k in key:
            if k is Ellipsis:
                for _ in range(self.ndim - n_idx):
                    shape.append(self._shape[d])
                    strides.append(self._strides[d])
                    d += 1
            elif k is None:
                shape.append(1)
                strides.append(0)
            elif isinstance(k, (bool, np.bool_)):
                shape.append(1 if k else 0)
                strides.append(0)
            elif isinstance(k, slice):
                n = self._shape[d]
                start, stop, step = k.indices(n)
                m = len(range(start, stop, step))
                if m > 0:
                    offset += start * self._strides[d]
                shape.append(m)
                strides.append(self._strides[d] * step)
                d += 1
            else:
                n = self._shape[d]
                i = operator.index(k)
                if not -n <= i < n:
                    raise IndexError(f"index {i} is out of bounds for axis {d} with size {n}")
                offset += (i % n) * self._strides[d]
                d += 1
        return self._view(shape, strides, offset)

    def __getitem__(self, key, /):
        tkey = key if isinstance(key, tuple) else (key,)
        view = self._basic_index(tkey)
        if view is not None:
            return view
        tkey, view = self._device_keys(tkey)
        if view is not None:
            return view
        self._check_advanced(tkey)
        out = _indexing().getitem_native(self, tkey)
        if out is not None:
            return out
        return _fallback.call("__getitem__", lambda a, k: a[k], self, tkey)

    def _device_keys(self, key):
        """(key, view) for a key that is not basic: its numpy arrays, as CuPy takes them,
        integer and boolean ones uploaded to this array's device and 0-d ones as Python scalars;
        the view where that made the key basic, else None."""
        if not any(k.__class__ is np.ndarray for k in key):
            return key, None
        from ._creation_functions import asarray
        out = []
        for k in key:
            if k.__class__ is np.ndarray:
                if k.dtype.kind not in "biu":
                    raise IndexError(f"arrays used as indices must be of integer or boolean "
                                     f"type, not {k.dtype}")
                k = k.item() if k.ndim == 0 else asarray(k, device=self.device)
            out.append(k)
        key = tuple(out)
        return key, self._basic_index(key)

    def _check_advanced(self, key):
        for k in key:
            if isinstance(k, Array):
                if k._dtype.kind not in "biu":
                    raise IndexError(f"arrays used as indices must be of integer or boolean type, "
                                     f"not {k._dtype.name}")
                if k.device != self.device:
                    raise ValueError("index array is on a different device")
            elif not (k is None or k is Ellipsis or isinstance(k, (slice, bool, np.bool_))
                      or _is_int_key(k)):
                raise IndexError(f"unsupported index {k!r}")

    def __setitem__(self, key, value, /):
        tkey = key if isinstance(key, tuple) else (key,)
        view = self._basic_index(tkey)
        if view is None:
            tkey, view = self._device_keys(tkey)
            if view is None:
                self._check_advanced(tkey)
        if isinstance(value, np.generic):
            value = value.item()
        if isinstance(value, Array):
            if _dtypes.promote(self._dtype, value._dtype) != self._dtype:
                raise TypeError(f"cannot assign {value._dtype.name} values to a "
                                f"{self._dtype.name} array")
            if value.device != self.device:
                raise ValueError("value is on a different device")
        elif isinstance(value, _SCALARS):
            if _dtypes.scalar_dtype(self._dtype, value) != self._dtype:
                raise TypeError(f"cannot assign a Python {type(value).__name__} to a "
                                f"{self._dtype.name} array")
        else:
            raise TypeError(f"cannot assign {type(value).__name__} to an array")
        if view is not None and self._assign_native(view, value):
            return
        if view is None and _indexing().setitem_native(self, tkey, value):
            return
        _runtime.count_fallback("__setitem__")
        if isinstance(value, Array):
            value = value._host()
        hkey = tuple(k._host() if isinstance(k, Array) else k for k in tkey)
        self._write_host(hkey, value)

    def _write_host(self, key, value):
        """Write `value` into self[key] in place: download the allocation's bytes, modify them,
        write them back, so that every view of the allocation sees the change."""
        alloc, dev = self._alloc, self._alloc.device
        raw = np.array(dev.host_bytes(alloc))  # writable copy of the whole allocation
        view = self._strided(raw)
        with np.errstate(all="ignore"):
            view[key] = value
        dev.write(alloc, raw)

    @staticmethod
    def _assign_native(view, value):
        """Write value (an Array of a dtype that promotes to view's, or a Python scalar that
        fits it) into the strided view on the device; False where the kernels cannot."""
        if isinstance(value, Array):
            try:
                fits = _ew()._broadcast_shapes(value._shape, view._shape) == view._shape
            except ValueError:
                fits = False
            if not fits:
                raise ValueError(f"cannot broadcast a value of shape {value._shape} to the "
                                 f"indexed shape {view._shape}")
            dev = view._alloc.device
            overlap = value._alloc is view._alloc and value.size
            if not (_kernels.supports_cast(value._dtype, view._dtype, dev)
                    and (not overlap or _kernels.supports_cast(value._dtype, value._dtype, dev))):
                return False
            if overlap:
                # Source and destination may overlap: copy the source first, as numpy does.
                value = _kernels.copy(value)
        else:
            if not _kernels.supports_cast(view._dtype, view._dtype, view._alloc.device):
                return False
            value = _dtypes.scalar_value(value, view._dtype)
        _kernels.assign(view, value)
        return True

    def _overwrite(self, other, name):
        """Replace every element of self with those of `other` (same shape and dtype)."""
        if self._assign_native(self, other):
            return
        _runtime.count_fallback(name)
        host = other._host()
        if self._offset == 0 and self._is_c_contiguous():
            self._alloc.device.write(self._alloc, host)
        else:
            self._write_host(Ellipsis, host)

    # --- operators ------------------------------------------------------------------------
    def __matmul__(self, other, /):
        if not isinstance(other, Array):
            return NotImplemented
        from ._linear_algebra_functions import matmul
        return matmul(self, other)

    def __rmatmul__(self, other, /):
        if not isinstance(other, Array):
            return NotImplemented
        from ._linear_algebra_functions import matmul
        return matmul(other, self)

    def __imatmul__(self, other, /):
        if not isinstance(other, Array):
            return NotImplemented
        from ._linear_algebra_functions import matmul
        return self._inplace(matmul(self, other), "__imatmul__")

    def _inplace(self, result, name):
        if result._dtype != self._dtype:
            raise TypeError(f"{name} would change the dtype from {self._dtype.name} to "
                            f"{result._dtype.name}")
        if result._shape != self._shape:
            raise ValueError(f"{name} would change the shape from {self._shape} to "
                             f"{result._shape}")
        self._overwrite(result, name)
        return self


_OPERANDS = (Array,) + _SCALARS
_OPERAND_TYPES = frozenset(_OPERANDS)


def _binary(fname, kind, opname):
    op = None  # the elementwise function, looked up on first use (its module imports this one)

    def method(self, other, /):
        nonlocal op
        if other.__class__ not in _OPERAND_TYPES:
            if isinstance(other, np.generic):
                other = other.item()
            if not isinstance(other, _OPERANDS):
                return NotImplemented
        if op is None:
            op = getattr(_ew(), fname)
        if kind == "r":
            return op(other, self)
        out = op(self, other)
        return self._inplace(out, f"__i{opname}__") if kind == "i" else out
    return method


def _unary(fname):
    op = None

    def method(self, /):
        nonlocal op
        if op is None:
            op = getattr(_ew(), fname)
        return op(self)
    return method


# operator -> elementwise function; reflected and in-place forms where Python has them
_BINARY = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
}
_COMPARE = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
            "gt": "greater", "ge": "greater_equal"}
_UNARY = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}

for _op, _f in _BINARY.items():
    for _kind, _fmt in (("", "__{}__"), ("r", "__r{}__"), ("i", "__i{}__")):
        _m = _binary(_f, _kind, _op)
        _m.__name__ = _fmt.format(_op)
        setattr(Array, _m.__name__, _m)
for _op, _f in _COMPARE.items():
    _m = _binary(_f, "", _op)
    _m.__name__ = f"__{_op}__"
    setattr(Array, _m.__name__, _m)
for _op, _f in _UNARY.items():
    _m = _unary(_f)
    _m.__name__ = f"__{_op}__"
    setattr(Array, _m.__name__, _m)
Array.__hash__ = None
del _op, _f, _kind, _fmt, _m
_kernels.set_result_type(Array)
