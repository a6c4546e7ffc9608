"""Elementwise functions: one ElementwiseOp per row of _TABLE.

An op validates dtypes, applies type promotion (Python scalars included), broadcasts, asks
the kernels layer, and falls back to its numpy implementation on the host.
"""
import inspect

import numpy as np

from . import _dtypes, _fallback, _kernels
from ._array_object import _SCALARS, Array
from ._dtypes import _categories

__all__ = []


def _broadcast_shapes(*shapes):
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(-ndim, 0):
        sizes = {s[i] for s in shapes if len(s) >= -i and s[i] != 1}
        if len(sizes) > 1:
            raise ValueError(f"shapes {shapes} cannot be broadcast together")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def _py(a):
    """numpy scalars (np.int64, np.bool_, ...) act as the Python scalars they hold, as in numpy."""
    return a.item() if isinstance(a, np.generic) else a


def _promote_args(args, fname):
    """The common dtype of Arrays and Python scalars (standard rules, numpy where it is silent)
    and their device; TypeError for anything else."""
    arrays = [a for a in args if isinstance(a, Array)]
    if not arrays:
        raise TypeError(f"{fname}: at least one argument must be an array")
    for a in args:
        if not isinstance(a, Array) and not isinstance(a, _SCALARS):
            raise TypeError(f"{fname}: unsupported argument type {type(a).__name__}")
    dev = arrays[0].device
    if any(a.device != dev for a in arrays[1:]):
        raise ValueError(f"{fname}: arrays are on different devices")
    ct = arrays[0].dtype
    for a in arrays[1:]:
        ct = _dtypes.promote(ct, a.dtype)
    for s in args:
        if not isinstance(s, Array):
            ct = _dtypes.scalar_dtype(ct, s)
    return ct, dev


# --- numpy implementations for the cases where numpy and the standard disagree --------------

def _floor_divide(a, b):
    out = np.floor_divide(a, b)
    if out.dtype.kind == "f":
        # the standard wants floor(a / b) when an operand is infinite; numpy pairs // with %
        fix = np.isinf(a) | np.isinf(b)
        if np.any(fix):
            out = np.where(fix, np.floor(np.divide(a, b)), out)
    return out


def _expm1(x):
    if x.dtype.kind != "c":
        return np.expm1(x)
    a, b = x.real, x.imag
    # exp(a) cis(b) - 1 without cancellation: expm1(a) cos(b) - 2 sin(b/2)^2
    re = np.expm1(a) * np.cos(b) - 2 * np.sin(b / 2) ** 2
    im = np.exp(a) * np.sin(b)
    # the standard's special cases that the formula gets wrong
    zero_b = b == 0
    re = np.where(zero_b, np.where(a == 0, 0.0, np.expm1(a)), re)  # (+-0 + 0j) -> +0 + 0j
    im = np.where(zero_b, b, im)
    ninf, pinf, fin_b = a == -np.inf, a == np.inf, np.isfinite(b)
    re = np.where(ninf, -1.0, re)
    im = np.where(ninf, np.where(fin_b, 0.0 * np.sin(np.where(fin_b, b, 0)), 0.0), im)
    bad = pinf & ~fin_b
    re = np.where(bad, np.inf, re)
    im = np.where(bad, np.nan, im)
    return _cplx(re, im, x.dtype)


def _cplx(re, im, dtype):
    out = np.empty(np.shape(re), dtype)
    out.real, out.imag = re, im
    return out


def _tanh(x):
    out = np.tanh(x)
    if x.dtype.kind == "c":
        # +-0 + (inf or NaN)j -> +-0 + NaN j (C99 G.6.2.6); numpy gives NaN + NaN j
        a, b = x.real, x.imag
        fix = (a == 0) & ~np.isfinite(b)
        # +-inf + bj (finite b) -> +-1 + 0j with the sign of b (numpy follows sin(2b))
        big = np.isinf(a) & np.isfinite(b)
        if np.any(fix | big):
            re = np.where(fix, a, np.where(big, np.sign(a), out.real))
            im = np.where(fix, np.nan, np.where(big, np.copysign(0.0, b), out.imag))
            out = _cplx(re, im, x.dtype)
    return out


def _real(x):
    return np.real(x).copy()


def _imag(x):
    return np.imag(x).copy()


# Compiled plans kept per op: a loop over ever-new shapes must not grow memory without bound.
_MAX_COMPILED = 256
_CONSTANT_ON_INTEGERS = {"isnan": False, "isinf": False, "isfinite": True}
# What a Python scalar becomes for kernels computing in a dtype of each kind.
_SCALAR_CONVERT = {"b": bool, "i": int, "u": int, "f": float, "c": complex}


class LayoutPlans:
    """What a function keeps per call layout (each Array's dtype, shape and strides, each Python
    scalar's type): compiled plans replaying the call's one dispatch (_compiled), those taken
    only for the first call after a host wait where fusion holds the layout (_eager, with the
    kernels layer's test), and functions holding such calls for fusion (_held). The elementwise
    functions and where keep them."""

    def __init__(self):
        self._compiled, self._eager, self._held = {}, {}, {}

    def _replay(self, layout, args):
        """The call run again as kept for its layout, or None (the general path runs)."""
        fast = self._compiled.get(layout)
        if fast is not None:
            return fast(*args)
        if self._held or self._eager:
            # a layout fusion holds: compiled for the first call after a host wait only (asked
            # first: after a wait the held plan would decline it)
            fast = self._eager.get(layout) if self._eager else None
            if fast is not None and _kernels.eager_now(args, fast[1]):
                out = fast[0](*args)
                if out is not None:
                    return out
            fast = self._held.get(layout)
            if fast is not None:
                return fast(args)
        return None

    def _compile(self, layout, mark, args, out):
        """Keeps a compiled plan of the call just made for its layout, where the kernels layer
        can make one (see _kernels.compile_since), or else a function holding it for fusion."""
        compiled = _kernels.compile_since(mark, args, out)
        if compiled is None and layout not in self._held:
            held = _kernels.hold_plan(mark, args, out)
            if held is not None:
                if len(self._held) >= _MAX_COMPILED:
                    self._held.clear()
                self._held[layout] = held
        if compiled is not None:
            eager = _kernels.eager_since(mark)
            plans = self._eager if eager is not None else self._compiled
            if len(plans) >= _MAX_COMPILED:
                plans.clear()
            plans[layout] = compiled if eager is None else (compiled, eager)

    def _drop_plans(self):
        self._compiled.clear()
        self._eager.clear()
        self._held.clear()


class ElementwiseOp(LayoutPlans):
    """An elementwise function of the standard.

    name: the standard's name (and the kernels layer's op name); nargs: 1 or 2;
    category: allowed input dtypes (a key of _dtypes._categories); result: how the result
    dtype follows from the promoted input dtype ("same", "bool", "real": complex -> its real
    counterpart, "float": integers -> the default float); host: the numpy implementation.
    """

    def __init__(self, name, nargs, category, result, host):
        self.__name__ = self.__qualname__ = name
        self.nargs, self.category, self.result, self.host = nargs, category, result, host
        # signature (dtype of each Array, type of each Python scalar) -> resolved call plan
        self._plans = {}
        LayoutPlans.__init__(self)
        self._allowed = _categories[category]
        names = ("x",) if nargs == 1 else ("x1", "x2")
        self.__signature__ = inspect.Signature(
            [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in names])
        self.__doc__ = (f"{name}({', '.join(names)}, /): elementwise {name}; inputs of "
                        f"{category} dtypes (see the array API standard).")

    def __repr__(self):
        return f"<elementwise function {self.__name__}>"

    def _result_dtype(self, ct, device):
        if self.result == "same":
            return ct
        if self.result == "bool":
            return _dtypes.bool
        if self.result == "real":
            return _dtypes._real_of.get(ct, ct)
        # "float"
        return ct if ct.kind in "fc" else _dtypes.defaults(device)["real floating"]

    def __call__(self, *args):
        # The hot path: a layout seen before (dtypes, shapes, strides, scalar types) runs as one
        # compiled plan; a signature seen before (dtypes, scalar types) skips validation and
        # promotion, which depend only on it (and an int scalar's range).
        if len(args) == 2:  # (no list comprehension: its frame costs the hot path)
            a, b = args
            layout = ((a._dtype, a._shape, a._strides) if a.__class__ is Array else a.__class__,
                      (b._dtype, b._shape, b._strides) if b.__class__ is Array else b.__class__)
        elif len(args) == 1:
            a = args[0]
            layout = ((a._dtype, a._shape, a._strides) if a.__class__ is Array else a.__class__,)
        else:
            layout = tuple([(a._dtype, a._shape, a._strides) if a.__class__ is Array
                            else a.__class__ for a in args])
        fast = self._compiled.get(layout)
        if fast is not None:
            out = fast(*args)
        else:
            out = self._replay(layout, args)
        if out is not None:
            return out
        key = tuple([k[0] if k.__class__ is tuple else k for k in layout])
        plan = self._plans.get(key)
        if plan is not None:
            mark = _kernels.mark()
            out = plan(args)
            if out is not None:
                self._compile(layout, mark, args, out)
                return out
        return self._call(args, key, layout)

    def _make_plan(self, args, ct, rdt):
        """A function running this signature again natively, or returning None to defer to
        the general path (which then raises or falls back as it should)."""
        name, elementwise, astype = self.__name__, _kernels.elementwise, _kernels.astype
        pdev = next(a._alloc.device for a in args if a.__class__ is Array)
        feats, features = _kernels._launch.features(pdev), _kernels._launch.features
        steps = []
        for a in args:
            if a.__class__ is Array:
                steps.append(0 if a._dtype == ct else 1)
            elif a.__class__ is int and ct.kind in "iu":
                info = np.iinfo(ct._np)
                steps.append((int(info.min), int(info.max)))
            else:
                steps.append(_SCALAR_CONVERT[ct.kind])
        steps = tuple(steps)

        def plan(args):
            kargs, dev, shape = [], None, None
            for a, step in zip(args, steps):
                if step == 0 or step == 1:
                    if dev is None:
                        dev, shape = a._alloc.device, a._shape
                        if dev != pdev or features(dev) != feats:
                            return None  # (asked for pdev as it was: the general path asks again)
                    elif a._alloc.device != dev:
                        return None
                    elif a._shape != shape:
                        try:
                            shape = _broadcast_shapes(shape, a._shape)
                        except ValueError:
                            return None
                    if step == 1:
                        a = astype(a, ct)
                elif step.__class__ is tuple:
                    if not step[0] <= a <= step[1]:
                        return None
                else:
                    a = step(a)
                kargs.append(a)
            return elementwise(name, kargs, rdt, shape)

        return plan

    def _call(self, args, key=None, layout=None):
        mark = _kernels.mark()
        if len(args) != self.nargs:
            raise TypeError(f"{self.__name__}() takes {self.nargs} positional argument(s)")
        args = tuple(_py(a) for a in args)
        if self.nargs == 1 and not isinstance(args[0], Array):
            raise TypeError(f"{self.__name__}() expects an array, got {type(args[0]).__name__}")
        # (before promotion: logical_or(uint8 array, -2) is a TypeError, not an OverflowError)
        for a in args:
            if isinstance(a, Array) and a.dtype not in self._allowed:
                raise TypeError(f"{self.__name__}() does not accept {a.dtype.name} input")
        ct, dev = _promote_args(args, self.__name__)
        if ct.kind in "fc" and ct not in _dtypes.supported(dev):
            # e.g. int32 + 1.5 (numpy's rule: float64) on a device without float64: the widest
            # float it has, computed natively (integers are not narrowed: see from_host)
            ct = _dtypes.nearest_supported(ct, dev)
        if ct not in self._allowed:
            raise TypeError(f"{self.__name__}() does not accept {ct.name} operands")
        rdt = self._result_dtype(ct, dev)
        shape = _broadcast_shapes(*(a.shape for a in args if isinstance(a, Array)))
        if ct.kind in "iu" and self.__name__ in _CONSTANT_ON_INTEGERS:
            # integers are never NaN or infinite: a fill, no need to read x
            from ._creation_functions import _fill
            return _fill(self.__name__, shape, _CONSTANT_ON_INTEGERS[self.__name__], rdt, dev)
        # kernels take operands already of the promoted dtype, scalars as Python scalars; the
        # kernels layer is asked first whether the conversions and the op are native
        if (all(a.dtype == ct or _kernels.supports_cast(a.dtype, ct, dev)
                for a in args if isinstance(a, Array))
                and _kernels.supports_elementwise(
                    self.__name__, [ct if isinstance(a, Array) else None for a in args], rdt, dev)):
            kargs = [(a if a.dtype == ct else _kernels.astype(a, ct)) if isinstance(a, Array)
                     else _dtypes.scalar_value(a, ct) for a in args]
            out = _kernels.elementwise(self.__name__, kargs, rdt, shape)
            # (Arrays and Python scalars only: numpy scalars take the general path every time)
            if key is not None and all(k.__class__ is _dtypes.DType or k in _SCALARS for k in key):
                self._plans[key] = self._make_plan(args, ct, rdt)
                if layout is not None:
                    self._compile(layout, mark, args, out)
            return out
        # integer division computes in the result's float dtype
        cd = rdt if self.result == "float" else ct
        host = self.host
        return _fallback.call(
            self.__name__, lambda *h: host(*(np.asarray(v, dtype=cd._np) for v in h)),
            *args, device=dev, dtype=rdt)


_TABLE = [
    # name, nargs, allowed input dtypes, result dtype rule, numpy implementation
    ("abs", 1, "numeric", "real", np.abs),
    ("acos", 1, "floating", "same", np.arccos),
    ("acosh", 1, "floating", "same", np.arccosh),
    ("add", 2, "numeric", "same", np.add),
    ("asin", 1, "floating", "same", np.arcsin),
    ("asinh", 1, "floating", "same", np.arcsinh),
    ("atan", 1, "floating", "same", np.arctan),
    ("atan2", 2, "real floating", "same", np.arctan2),
    ("atanh", 1, "floating", "same", np.arctanh),
    ("bitwise_and", 2, "integer or boolean", "same", np.bitwise_and),
    ("bitwise_left_shift", 2, "integer", "same", np.left_shift),
    ("bitwise_invert", 1, "integer or boolean", "same", np.invert),
    ("bitwise_or", 2, "integer or boolean", "same", np.bitwise_or),
    ("bitwise_right_shift", 2, "integer", "same", np.right_shift),
    ("bitwise_xor", 2, "integer or boolean", "same", np.bitwise_xor),
    ("ceil", 1, "real numeric", "same", np.ceil),
    ("conj", 1, "numeric", "same", np.conj),
    ("copysign", 2, "real floating", "same", np.copysign),
    ("cos", 1, "floating", "same", np.cos),
    ("cosh", 1, "floating", "same", np.cosh),
    ("divide", 2, "numeric", "float", np.divide),
    ("equal", 2, "all", "bool", np.equal),
    ("exp", 1, "floating", "same", np.exp),
    ("expm1", 1, "floating", "same", _expm1),
    ("floor", 1, "real numeric", "same", np.floor),
    ("floor_divide", 2, "real numeric", "same", _floor_divide),
    ("greater", 2, "real numeric", "bool", np.greater),
    ("greater_equal", 2, "real numeric", "bool", np.greater_equal),
    ("hypot", 2, "real floating", "same", np.hypot),
    ("imag", 1, "complex floating", "real", _imag),
    ("isfinite", 1, "numeric", "bool", np.isfinite),
    ("isinf", 1, "numeric", "bool", np.isinf),
    ("isnan", 1, "numeric", "bool", np.isnan),
    ("less", 2, "real numeric", "bool", np.less),
    ("less_equal", 2, "real numeric", "bool", np.less_equal),
    ("log", 1, "floating", "same", np.log),
    ("log1p", 1, "floating", "same", np.log1p),
    ("log2", 1, "floating", "same", np.log2),
    ("log10", 1, "floating", "same", np.log10),
    ("logaddexp", 2, "real floating", "same", np.logaddexp),
    ("logical_and", 2, "bool", "bool", np.logical_and),
    ("logical_not", 1, "bool", "bool", np.logical_not),
    ("logical_or", 2, "bool", "bool", np.logical_or),
    ("logical_xor", 2, "bool", "bool", np.logical_xor),
    ("maximum", 2, "real numeric", "same", np.maximum),
    ("minimum", 2, "real numeric", "same", np.minimum),
    ("multiply", 2, "numeric", "same", np.multiply),
    ("negative", 1, "numeric", "same", np.negative),
    ("nextafter", 2, "real floating", "same", np.nextafter),
    ("not_equal", 2, "all", "bool", np.not_equal),
    ("positive", 1, "numeric", "same", np.positive),
    ("pow", 2, "numeric", "same", np.power),
    ("real", 1, "numeric", "real", _real),
    ("reciprocal", 1, "floating", "same", np.reciprocal),
    ("remainder", 2, "real numeric", "same", np.remainder),
    ("round", 1, "numeric", "same", np.round),
    ("sign", 1, "numeric", "same", np.sign),
    ("signbit", 1, "real floating", "bool", np.signbit),
    ("sin", 1, "floating", "same", np.sin),
    ("sinh", 1, "floating", "same", np.sinh),
    ("square", 1, "numeric", "same", np.square),
    ("sqrt", 1, "floating", "same", np.sqrt),
    ("subtract", 2, "numeric", "same", np.subtract),
    ("tan", 1, "floating", "same", np.tan),
    ("tanh", 1, "floating", "same", _tanh),
    ("trunc", 1, "real numeric", "same", np.trunc),
]

class _Pow(ElementwiseOp):
    """pow: numpy's ValueError for an integer array to a negative Python integer power. (An
    array of exponents is not checked: that would read it back; such elements give what
    integer repeated squaring gives, 0 but for bases 1 and -1.)"""

    def __call__(self, *args):
        if (len(args) == 2 and args[1].__class__ is int and args[1] < 0 and args[0].__class__ is Array
                and args[0]._dtype.kind == "i"):  # (unsigned: -1 is out of range, OverflowError)
            raise ValueError("integers to negative integer powers are not allowed")
        return ElementwiseOp.__call__(self, *args)


for _row in _TABLE:
    globals()[_row[0]] = (_Pow if _row[0] == "pow" else ElementwiseOp)(*_row)
    __all__.append(_row[0])
del _row


# per layout of (x, min, max) with both bounds given: compiled plans, as the elementwise
# functions keep
_clip_plans = LayoutPlans()
_kernels._fuse.listeners.append(_clip_plans._drop_plans)


def clip(x, /, min=None, max=None):
    """Clamp each element of x to [min, max]; the result has x's dtype and shape."""
    layout = tuple([(a._dtype, a._shape, a._strides) if a.__class__ is Array else a.__class__
                    for a in (x, min, max)])
    out = _clip_plans._replay(layout, (x, min, max))
    if out is not None:
        return out
    if not isinstance(x, Array):
        raise TypeError("clip() expects an array")
    if x.dtype not in _dtypes._real_numeric_dtypes:
        raise TypeError(f"clip() does not accept {x.dtype.name} input")
    bounds = []
    for b in (min, max):
        if b is None:
            bounds.append(None)
            continue
        if isinstance(b, Array):
            if b.device != x.device:
                raise ValueError("clip(): bounds are on a different device")
            if b.dtype not in _dtypes._real_numeric_dtypes:
                raise TypeError(f"clip() does not accept {b.dtype.name} bounds")
        elif isinstance(b, (int, float)) and not isinstance(b, bool):
            if x.dtype.kind in "iu" and isinstance(b, float):
                raise TypeError("clip(): a float bound for an integer array")
        else:
            raise TypeError(f"clip(): unsupported bound {b!r}")
        bounds.append(b)
    shape = _broadcast_shapes(x.shape, *(b.shape for b in bounds if isinstance(b, Array)))
    dev = x.device
    if min is None and max is None:
        if _kernels.supports_cast(x.dtype, x.dtype, dev):
            return _kernels.copy(x)
        return _fallback.call("clip", np.copy, x, dtype=x.dtype)
    arrays = [b for b in bounds if isinstance(b, Array)]
    if (all(b.dtype == x.dtype or _kernels.supports_cast(b.dtype, x.dtype, dev) for b in arrays)
            and _kernels.supports_elementwise(
                "clip", [x.dtype] + [x.dtype if isinstance(b, Array) else None for b in bounds],
                x.dtype, dev)):
        kargs = [x]
        for b in bounds:
            if isinstance(b, Array):
                b = b if b.dtype == x.dtype else _kernels.astype(b, x.dtype)
            elif b is not None:
                b = _dtypes.scalar_value(b, x.dtype)
            kargs.append(b)
        mark = _kernels.mark()
        out = _kernels.elementwise("clip", kargs, x.dtype, shape)
        if min is not None and max is not None and layout[0].__class__ is tuple:
            _clip_plans._compile(layout, mark, (x, min, max), out)
        return out
    npdt = x.dtype._np

    def host(a, lo, hi):
        out = a
        if x.dtype.kind in "iu":
            # out-of-range integer bounds clamp to the dtype's range (numpy would overflow)
            info = np.iinfo(npdt)
            lo = None if lo is None else np.clip(np.asarray(lo), info.min, info.max)
            hi = None if hi is None else np.clip(np.asarray(hi), info.min, info.max)
        if lo is not None:
            out = np.maximum(out, np.asarray(lo).astype(npdt))
        if hi is not None:
            out = np.minimum(out, np.asarray(hi).astype(npdt))
        return np.array(np.broadcast_to(out, shape), dtype=npdt)

    return _fallback.call("clip", host, x, min, max, dtype=x.dtype)


__all__.append("clip")


def _drop_compiled():
    """Fusion switched on or off: per-op compiled plans made under the other setting go (a plan
    records its dispatch at once, so it would keep ops of its layout out of fusion)."""
    for _name in __all__:
        _op = globals()[_name]
        if isinstance(_op, ElementwiseOp):
            _op._drop_plans()


_kernels._fuse.listeners.append(_drop_compiled)
