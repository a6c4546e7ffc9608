"""Data types, dtype categories, type promotion and which dtypes a device can hold."""
import builtins

import numpy as np

builtins_bool = builtins.bool  # this module's `bool` is the array API dtype


class DType:
    """An array API data type; wraps the numpy dtype used on the host fallback path."""

    __slots__ = ("name", "_np", "kind", "bits")

    def __init__(self, name):
        self.name = name
        self._np = np.dtype(name)
        self.kind = self._np.kind  # 'b', 'i', 'u', 'f', 'c'
        self.bits = 8 * self._np.itemsize if name != "bool" else 8

    @property
    def dtype(self):
        # lets np.dtype(xp.float32) and np.asarray(..., dtype=xp.float32) work (SciPy does this)
        return self._np

    @property
    def itemsize(self):
        return self._np.itemsize

    def __repr__(self):
        return f"array_api_vulkan.{self.name}"

    # Equality and hashing are object identity (the default, in C): dtypes are singletons, also
    # through pickling (__reduce__), and the elementwise plans look them up on every call.

    def __reduce__(self):
        return (_by_name, (self.name,))


def _by_name(name):
    return _NAME[name]


_ALL_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float32", "float64", "complex64", "complex128")
_NAME = {n: DType(n) for n in _ALL_NAMES}
bool = _NAME["bool"]
int8, int16, int32, int64 = (_NAME[n] for n in ("int8", "int16", "int32", "int64"))
uint8, uint16, uint32, uint64 = (_NAME[n] for n in ("uint8", "uint16", "uint32", "uint64"))
float32, float64 = _NAME["float32"], _NAME["float64"]
complex64, complex128 = _NAME["complex64"], _NAME["complex128"]

_all_dtypes = tuple(_NAME.values())
_boolean_dtypes = (bool,)
_signed_integer_dtypes = (int8, int16, int32, int64)
_unsigned_integer_dtypes = (uint8, uint16, uint32, uint64)
_integer_dtypes = _signed_integer_dtypes + _unsigned_integer_dtypes
_real_floating_dtypes = (float32, float64)
_complex_floating_dtypes = (complex64, complex128)
_floating_dtypes = _real_floating_dtypes + _complex_floating_dtypes
_real_numeric_dtypes = _integer_dtypes + _real_floating_dtypes
_numeric_dtypes = _real_numeric_dtypes + _complex_floating_dtypes

# Categories named in the elementwise table (the standard's wording for allowed input dtypes).
_categories = {
    "all": _all_dtypes,
    "bool": _boolean_dtypes,
    "integer": _integer_dtypes,
    "integer or boolean": _integer_dtypes + _boolean_dtypes,
    "numeric": _numeric_dtypes,
    "real numeric": _real_numeric_dtypes,
    "floating": _floating_dtypes,
    "real floating": _real_floating_dtypes,
    "complex floating": _complex_floating_dtypes,
}

# isdtype kinds
_kinds = {
    "bool": _boolean_dtypes,
    "signed integer": _signed_integer_dtypes,
    "unsigned integer": _unsigned_integer_dtypes,
    "integral": _integer_dtypes,
    "real floating": _real_floating_dtypes,
    "complex floating": _complex_floating_dtypes,
    "numeric": _numeric_dtypes,
}

_real_of = {complex64: float32, complex128: float64}
_complex_of = {float32: complex64, float64: complex128}


def from_np(npdtype):
    """The DType for a numpy dtype; TypeError for numpy-only dtypes (float16, object, ...)."""
    try:
        return _NAME[np.dtype(npdtype).name]
    except KeyError:
        raise TypeError(f"numpy dtype {npdtype} has no array API counterpart") from None


# --- promotion -------------------------------------------------------------------------

def _build_table():
    t = {}
    for group in (_signed_integer_dtypes, _unsigned_integer_dtypes, _real_floating_dtypes,
                  _complex_floating_dtypes):
        for a in group:
            for b in group:
                t[a, b] = a if a.bits >= b.bits else b
    t[bool, bool] = bool
    # mixed signedness: the smallest signed type holding both (uint64 with signed: undefined)
    for u in _unsigned_integer_dtypes[:3]:
        for i in _signed_integer_dtypes:
            r = next(s for s in _signed_integer_dtypes if s.bits > u.bits and s.bits >= i.bits)
            t[u, i] = t[i, u] = r
    for f in _real_floating_dtypes:
        for c in _complex_floating_dtypes:
            t[f, c] = t[c, f] = complex128 if 64 in (f.bits, c.bits // 2) else complex64
    return t


_promotion_table = _build_table()


def promote(a, b):
    """Promote two DTypes: the standard's table, numpy's rules for mixed kinds it leaves open."""
    try:
        return _promotion_table[a, b]
    except KeyError:
        pass
    # the standard is silent on mixed kinds (int with float, bool with int, uint64 with int64)
    return from_np(np.promote_types(a._np, b._np))


def is_promotable(a, b):
    return (a, b) in _promotion_table


def scalar_dtype(dtype, scalar):
    """Result dtype of an array of `dtype` combined with a Python scalar (standard: the array's
    dtype when the scalar's kind fits; where the standard is silent, numpy's NEP 50 rules)."""
    k = dtype.kind
    if isinstance(scalar, np.bool_) or scalar is True or scalar is False:
        if k == "b":
            return dtype
    elif isinstance(scalar, int):
        if k in "iu":
            lo, hi = np.iinfo(dtype._np).min, np.iinfo(dtype._np).max
            if not lo <= scalar <= hi:
                raise OverflowError(f"Python int {scalar} out of bounds for {dtype.name}")
            return dtype
        if k in "fc":
            return dtype
    elif isinstance(scalar, float):
        if k in "fc":
            return dtype
    elif isinstance(scalar, complex):
        if k == "c":
            return dtype
        if k == "f":
            return _complex_of[dtype]
    else:
        raise TypeError(f"unsupported scalar type {type(scalar).__name__}")
    return from_np(np.result_type(dtype._np, scalar))


def scalar_value(scalar, dtype):
    """The Python scalar of dtype's kind that stands for `scalar` (what kernels get)."""
    k = dtype.kind
    if k == "b":
        return builtins_bool(scalar)
    if k in "iu":
        return int(scalar)
    if k == "f":
        return float(scalar)
    return complex(scalar)



def default_scalar_dtype(scalar, device):
    """The default dtype for a lone Python scalar on `device`."""
    d = defaults(device)
    if isinstance(scalar, (builtins_bool, np.bool_)):
        return bool
    if isinstance(scalar, int):
        return d["integral"]
    if isinstance(scalar, float):
        return d["real floating"]
    if isinstance(scalar, complex):
        return d["complex floating"]
    raise TypeError(f"unsupported scalar type {type(scalar).__name__}")


# --- device support ----------------------------------------------------------------------

def _has_float64(device):
    # The float64 kernels need 64-bit integers too (bit tricks in math_f64.glsl and
    # kernels_float.glsl): without int64 nearly every float64 op would be a host round trip.
    return getattr(device, "supports_float64", False) and getattr(device, "supports_int64", False)


def supported(device):
    """The dtypes `device` can hold and compute with, in the standard's order. bool is always
    there (the standard needs it); on a device without 8-bit storage its values are stored
    and moved natively and computed on through the (counted) host fallback."""
    flags = (getattr(device, "supports_int8", False), getattr(device, "supports_int16", False),
             getattr(device, "supports_int64", False), _has_float64(device))
    got = _supported_with.get(flags)
    if got is None:
        ok = {bool, int32, uint32, float32, complex64}
        for has, more in zip(flags, ({int8, uint8}, {int16, uint16}, {int64, uint64}, {float64, complex128})):
            if has:
                ok |= more
        got = _supported_with[flags] = tuple(d for d in _all_dtypes if d in ok)
    return got


_supported_with = {}  # the device's (int8, int16, int64, float64) support -> supported()'s answer


def defaults(device):
    f64 = _has_float64(device)
    i64 = getattr(device, "supports_int64", False)
    i = int64 if i64 else int32
    return {"real floating": float64 if f64 else float32,
            "complex floating": complex128 if f64 else complex64,
            "integral": i, "indexing": i}


# The device features each dtype needs beyond the base ones (see supported()).
_NEEDS = {int8: ("storage8",), uint8: ("storage8",), int16: ("storage16",),
          uint16: ("storage16",), int64: ("int64",), uint64: ("int64",),
          float64: ("float64", "int64"), complex128: ("float64", "int64")}


def accumulator_dtype(dtype, device):
    """The default result dtype of sum, prod, cumulative_sum, cumulative_prod and trace for an
    input of `dtype` on `device` (the standard): bool and signed integers accumulate in the
    default integer dtype, unsigned integers in the unsigned integer dtype of its width, each
    unless the input is wider; floating dtypes in themselves."""
    d = defaults(device)["integral"]
    if dtype.kind in "bi":
        return d if dtype.bits <= d.bits else dtype
    if dtype.kind == "u":
        u = uint64 if d.bits == 64 else uint32
        return u if dtype.bits <= u.bits else dtype
    return dtype


def check_supported(dtype, device):
    """ValueError (as for any other unsupported argument value) if `device` cannot hold dtype."""
    ok = supported(device)
    if dtype not in ok:
        info = getattr(device, "info", None) or {}
        lacking = [f for f in _NEEDS.get(dtype, ()) if not info.get(f, True)]
        off = [f for f in lacking if f in info.get("disabled_features", ())]
        why = f" (it lacks the {' and '.join(lacking)} feature{'s' if len(lacking) > 1 else ''}" \
              + (", disabled by ARRAY_API_VULKAN_DISABLE_FEATURES" if off else "") + ")" \
            if lacking else ""
        raise ValueError(f"device {device} does not support {dtype.name}{why}; its dtypes: "
                         + ", ".join(d.name for d in ok))


def nearest_supported(dtype, device):
    """The dtype a host result of `dtype` is stored as on `device`: of its kind, the narrowest
    one at least as wide (int8 without 8-bit storage: int32), else the widest (float64 without
    float64: float32)."""
    ok = supported(device)
    if dtype in ok:
        return dtype
    same_kind = [d for d in {"b": (bool,), "i": _signed_integer_dtypes, "u": _unsigned_integer_dtypes,
                             "f": _real_floating_dtypes, "c": _complex_floating_dtypes}[dtype.kind]
                 if d in ok]
    if not same_kind:
        raise ValueError(f"device {device!r} cannot hold {dtype.name}")
    return next((d for d in same_kind if d.bits >= dtype.bits), same_kind[-1])


def check_dtype(dtype):
    """A dtype= argument as this namespace's dtype: one of ours, or a numpy dtype or scalar type
    of the same name (as CuPy takes them: code written for numpy passes np.float32, and
    scikit-learn hands numpy dtypes of its fitted attributes to xp.isdtype). Strings, Python
    types and anything else raise TypeError."""
    if dtype.__class__ is DType:
        return dtype
    if isinstance(dtype, np.dtype) or (isinstance(dtype, type) and issubclass(dtype, np.generic)):
        found = _NAME.get(np.dtype(dtype).name)
        if found is not None:
            return found
    raise TypeError(f"{dtype!r} is not an array_api_vulkan dtype")
