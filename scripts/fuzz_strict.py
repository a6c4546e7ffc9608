"""Differential fuzzing of array_api_vulkan against array_api_strict (numpy underneath).

Each seed draws one call: an op family (elementwise, reductions, scans, sorting, sets,
manipulation, indexing, in-place operators, linalg, fft), dtypes among those the default device
advertises, shapes (0-d, empty, size 1, broadcast), views (reversed, stepped, permuted), special
values, then runs it in both namespaces and compares dtype, shape and values (floats with
rtol = atol = 1e-3, NaNs equal; unique_* by their values and a reconstruction of x), or the
exception raised. Not a test: a tool for soaks, run by hand (`make fuzz`).

    python scripts/fuzz_strict.py [--seeds 0:2000] [--families elementwise,reduce,...] [--tame]
                                  [--same-kind]

--tame keeps floats finite and below 1e6 (linalg and fft differ by design once values overflow);
--same-kind compares dtypes by kind only (a device without float64/int64 accumulates in 32 bits).
Prints one line per finding and a summary; the exit status is 1 where any finding is not in
KNOWN. Lines tagged STRICT-RAISES (array_api_strict refusing what the standard leaves open or
numpy allows) are counted, not findings.
"""
import argparse
import os
import sys
import traceback
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import array_api_strict as st  # noqa: E402

import array_api_vulkan as xp  # noqa: E402

warnings.filterwarnings("ignore")

ADVERTISED = set(xp.__array_namespace_info__().dtypes())
INT = [d for d in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
       if d in ADVERTISED]
FLT = [d for d in ("float32", "float64") if d in ADVERTISED]
CPX = [d for d in ("complex64", "complex128") if d in ADVERTISED]
ALL = ["bool"] + INT + FLT + CPX
TAME = False

# Differences by design: (the finding's kind, a substring of its line, or a tuple of substrings
# that must all be in it)
KNOWN = (
    # bitwise shifts of float operands: strict checks the shift's sign first (ValueError); the
    # dtype rule (TypeError) comes first here
    ("EXC-TYPE", " bitwise_"),
    # an unsigned array with a negative Python int, in a function that takes no unsigned input
    # or divides: both raise, strict a TypeError, numpy and this package an OverflowError first
    ("EXC-TYPE", "OverflowError(Python int -"),
    # argmax/argmin/sort of bool, which strict refuses (numpy and this package take it): an
    # empty one raises here for its emptiness instead
    ("EXC-TYPE", "Only real numeric dtypes are allowed"),
    # mixed kinds that strict refuses to promote (this package follows numpy's rules), where
    # another error (shapes) comes first here
    ("EXC-TYPE", "cannot be type promoted together"),
    # an ordering comparison (less, greater, ...) of a real array with a complex Python scalar:
    # strict compares (numpy's order) though it refuses complex arrays there; this package
    # raises TypeError for both, the standard's operands being real-valued
    ("OURS-RAISES", ("does not accept complex", "operands")),
    # an integer array (even an empty one) to a negative Python integer power: numpy and this
    # package raise ValueError; strict computes an empty one
    ("OURS-RAISES", "integers to negative integer powers"),
    # fft, linalg and complex products of non-finite input: how infinities and NaNs spread
    # depends on the algorithm (VkFFT's passes, blocked factorizations against pocketfft and
    # LAPACK; complex multiplication following C99's Annex G, glsl/include/complex_math.glsl,
    # where numpy's differs)
    ("NONFINITE", ""),
)


def values(rng, dt, shape):
    n = int(np.prod(shape)) if shape else 1
    if dt == "bool":
        v = rng.random(n) < 0.5
    elif dt.startswith(("int", "uint")):
        info = np.iinfo(dt)
        if rng.random() < 0.4:
            v = rng.integers(max(info.min, -10), min(info.max, 10) + 1, n).astype(dt)
        else:
            v = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
    else:
        base = "float32" if dt in ("float32", "complex64") else "float64"

        def real():
            r = rng.standard_normal(n) * 10.0 ** int(rng.integers(-3, 4))
            if not TAME and rng.random() < 0.3:
                special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, 1e-40,
                                    3e38], dtype=base)
                pick = rng.random(n) < 0.2
                r[pick] = rng.choice(special, pick.sum())
            if rng.random() < 0.3:
                r = np.round(r)
            return r.astype(base)

        v = real()
        if dt.startswith("complex"):
            v = (v + 1j * real()).astype(dt)
    return np.asarray(v).reshape(shape)


def shape_of(rng, ndim=None, most=5):
    if ndim is None:
        ndim = int(rng.choice([0, 1, 1, 2, 2, 3, 4]))
    out = []
    for _ in range(ndim):
        r = rng.random()
        out.append(0 if r < 0.05 else 1 if r < 0.2 else int(rng.integers(2, most + 1)))
    return tuple(out)


class Input:
    """Host values and a view recipe (per-axis slices, then maybe a permutation)."""

    def __init__(self, rng, dt, shape=None, view_ok=True):
        shape = shape_of(rng) if shape is None else shape
        self.view = None
        if view_ok and shape and rng.random() < 0.3:
            sl = tuple([slice(None), slice(None, None, -1), slice(1, None, 2)][
                int(rng.choice(3, p=[0.6, 0.2, 0.2]))] for _ in shape)
            perm = tuple(int(p) for p in rng.permutation(len(shape))) if rng.random() < 0.3 else None
            self.view = (sl, perm)
            shape = tuple(2 * n + 1 if s.step == 2 else n for n, s in zip(shape, sl))
        self.host = values(rng, dt, shape)

    def make(self, ns):
        a = ns.asarray(self.host)
        if self.view is not None:
            sl, perm = self.view
            a = a[sl]
            if perm is not None:
                a = ns.permute_dims(a, perm)
        return a

    @property
    def shape(self):
        return self.make(np).shape


FAMILIES = {}


def family(name):
    def deco(f):
        FAMILIES[name] = f
        return f
    return deco


def axis_of(rng, nd, tuples=True):
    r = rng.random()
    if r < 0.3 or nd == 0:
        return None
    if r < 0.7 or not tuples:
        return int(rng.integers(-nd, nd))
    return tuple(int(v) for v in rng.choice(nd, int(rng.integers(1, nd + 1)), replace=False))


UNARY = ("abs acos acosh asin asinh atan atanh bitwise_invert ceil conj cos cosh exp expm1 floor "
         "imag isfinite isinf isnan log log1p log2 log10 logical_not negative positive real round "
         "sign signbit sin sinh square sqrt tan tanh trunc reciprocal").split()
BINARY = ("add atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift bitwise_xor "
          "copysign divide equal floor_divide greater greater_equal hypot less less_equal "
          "logaddexp logical_and logical_or logical_xor maximum minimum multiply nextafter "
          "not_equal pow remainder subtract").split()


@family("elementwise")
def g_elementwise(rng):
    if rng.random() < 0.4:
        name = str(rng.choice(UNARY))
        return name, [Input(rng, str(rng.choice(ALL)))], lambda ns, x: getattr(ns, name)(x)
    name = str(rng.choice(BINARY))
    d1 = str(rng.choice(ALL))
    d2 = d1 if rng.random() < 0.5 else str(rng.choice(ALL))
    s = shape_of(rng)
    s2 = s
    if s and rng.random() < 0.4:
        s2 = tuple(1 if rng.random() < 0.4 else n for n in s)[int(rng.integers(0, len(s) + 1)):]
    if rng.random() < 0.2:
        sc = [True, 3, -2, 2.5, float("nan"), 1j][int(rng.integers(0, 6))]
        return f"{name}(x, {sc!r})", [Input(rng, d1, s)], lambda ns, x: getattr(ns, name)(x, sc)
    return name, [Input(rng, d1, s), Input(rng, d2, s2)], lambda ns, x, y: getattr(ns, name)(x, y)


@family("reduce")
def g_reduce(rng):
    name = str(rng.choice("sum prod min max mean var std all any count_nonzero argmax argmin".split()))
    a = Input(rng, str(rng.choice(ALL)))
    kw = {"axis": axis_of(rng, len(a.shape), tuples=name not in ("argmax", "argmin"))}
    if rng.random() < 0.3:
        kw["keepdims"] = True
    if name in ("var", "std") and rng.random() < 0.5:
        kw["correction"] = [0, 1, 0.5][int(rng.integers(0, 3))]
    dt = str(rng.choice(ALL)) if name in ("sum", "prod") and rng.random() < 0.3 else None

    def f(ns, x):
        return getattr(ns, name)(x, **kw, **({"dtype": getattr(ns, dt)} if dt else {}))
    return f"{name}{kw} dtype={dt}", [a], f


@family("scan")
def g_scan(rng):
    name = str(rng.choice(["cumulative_sum", "cumulative_prod", "diff"]))
    a = Input(rng, str(rng.choice(ALL)))
    nd = len(a.shape)
    if name == "diff":
        if nd == 0:
            a, nd = Input(rng, str(rng.choice(ALL)), (5,)), 1
        ax, n = int(rng.integers(-nd, nd)), int(rng.integers(0, 3))
        return f"diff(axis={ax}, n={n})", [a], lambda ns, x: ns.diff(x, axis=ax, n=n)
    kw = {}
    if nd > 1 or rng.random() < 0.3:
        kw["axis"] = int(rng.integers(-nd, nd)) if nd else None
    if rng.random() < 0.4:
        kw["include_initial"] = True
    return f"{name}{kw}", [a], lambda ns, x: getattr(ns, name)(x, **kw)


@family("sort")
def g_sort(rng):
    name = str(rng.choice(["sort", "argsort", "searchsorted"]))
    dt = str(rng.choice(["bool"] + INT + FLT if name != "searchsorted" else INT + FLT))
    if name == "searchsorted":
        x1 = np.sort(values(rng, dt, (int(rng.integers(0, 20)),)))
        side = str(rng.choice(["left", "right"]))
        inp = Input(rng, dt)
        inp1 = Input(rng, dt, (0,), view_ok=False)
        inp1.host, inp1.view = x1, None
        return f"searchsorted({side})", [inp1, inp], lambda ns, p, q: ns.searchsorted(p, q, side=side)
    s = shape_of(rng, int(rng.integers(1, 4)), most=int(rng.choice([5, 300])))
    kw = {"axis": int(rng.integers(-len(s), len(s))), "descending": bool(rng.random() < 0.5)}
    return f"{name}{kw}", [Input(rng, dt, s)], lambda ns, x: getattr(ns, name)(x, **kw)


@family("unique")
def g_unique(rng):
    name = str(rng.choice(["unique_values", "unique_counts", "unique_inverse", "unique_all"]))
    dt = str(rng.choice(["bool"] + INT + FLT))
    a = Input(rng, dt)
    if dt in FLT and rng.random() < 0.5:
        a.host = np.round(a.host)

    def f(ns, x):
        r = getattr(ns, name)(x)
        return tuple(r) if isinstance(r, tuple) else r
    return name, [a], f


@family("manipulation")
def g_manipulation(rng):
    name = str(rng.choice("flip roll repeat tile tril triu expand_dims squeeze moveaxis reshape "
                          "broadcast_to concat stack clip where nonzero take take_along_axis "
                          "unstack".split()))
    dt = str(rng.choice(ALL))
    a = Input(rng, dt)
    s = a.shape
    nd = len(s)
    if name == "flip":
        ax = axis_of(rng, nd)
        return f"flip({ax})", [a], lambda ns, x: ns.flip(x, axis=ax)
    if name == "roll":
        sh, ax = int(rng.integers(-7, 8)), axis_of(rng, nd, tuples=False)
        return f"roll({sh}, {ax})", [a], lambda ns, x: ns.roll(x, sh, axis=ax)
    if name == "repeat":
        ax = axis_of(rng, nd, tuples=False) if nd else None
        r = int(rng.integers(0, 4))
        return f"repeat({r}, {ax})", [a], lambda ns, x: ns.repeat(x, r, axis=ax)
    if name == "tile":
        reps = tuple(int(v) for v in rng.integers(0, 3, int(rng.integers(0, 4))))
        return f"tile{reps}", [a], lambda ns, x: ns.tile(x, reps)
    if name in ("tril", "triu"):
        if nd < 2:
            a = Input(rng, dt, shape_of(rng, 2))
        k = int(rng.integers(-3, 4))
        return f"{name}(k={k})", [a], lambda ns, x: getattr(ns, name)(x, k=k)
    if name == "expand_dims":
        ax = int(rng.integers(-nd - 1, nd + 1))
        return f"expand_dims({ax})", [a], lambda ns, x: ns.expand_dims(x, axis=ax)
    if name == "squeeze":
        ones = tuple(i for i, n in enumerate(s) if n == 1)
        return f"squeeze({ones})", [a], lambda ns, x: ns.squeeze(x, axis=ones)
    if name == "moveaxis":
        if nd == 0:
            return "moveaxis((), ())", [a], lambda ns, x: ns.moveaxis(x, (), ())
        src, dst = int(rng.integers(-nd, nd)), int(rng.integers(-nd, nd))
        return f"moveaxis({src}, {dst})", [a], lambda ns, x: ns.moveaxis(x, src, dst)
    if name == "reshape":
        n = int(np.prod(s))
        shapes = [(n,), (-1,), (1, n), (n, 1)] + ([(2, -1)] if n and n % 2 == 0 else [])
        shp = shapes[int(rng.integers(0, len(shapes)))]
        return f"reshape({shp})", [a], lambda ns, x: ns.reshape(x, shp)
    if name == "broadcast_to":
        shp = (int(rng.integers(1, 3)),) + tuple(s)
        return f"broadcast_to({shp})", [a], lambda ns, x: ns.broadcast_to(x, shp)
    if name in ("concat", "stack"):
        b = Input(rng, dt if rng.random() < 0.6 else str(rng.choice(ALL)), s)
        if name == "concat":
            ax = None if nd == 0 or rng.random() < 0.2 else int(rng.integers(-nd, nd))
            return f"concat(axis={ax})", [a, b], lambda ns, x, y: ns.concat((x, y), axis=ax)
        ax = int(rng.integers(-nd - 1, nd + 1))
        return f"stack(axis={ax})", [a, b], lambda ns, x, y: ns.stack((x, y), axis=ax)
    if name == "clip":
        lo, hi = [None, -1, 0, 2.5][int(rng.integers(0, 4))], [None, 1, 3][int(rng.integers(0, 3))]
        return f"clip({lo}, {hi})", [a], lambda ns, x: ns.clip(x, lo, hi)
    if name == "where":
        c = Input(rng, "bool", s)
        b = Input(rng, dt if rng.random() < 0.7 else str(rng.choice(ALL)), s)
        return "where", [c, a, b], lambda ns, c_, x, y: ns.where(c_, x, y)
    if nd == 0:
        a, s, nd = Input(rng, dt, (4,)), (4,), 1
    if name == "nonzero":
        return "nonzero", [a], lambda ns, x: ns.nonzero(x)
    if name == "unstack":
        ax = int(rng.integers(-nd, nd))
        return f"unstack({ax})", [a], lambda ns, x: tuple(ns.unstack(x, axis=ax))
    ax = int(rng.integers(-nd, nd))
    n = s[ax]
    if n == 0:
        return "identity", [a], lambda ns, x: x
    idx = Input(rng, "int64" if "int64" in ADVERTISED else "int32", (0,), view_ok=False)
    if name == "take":
        idx.host = rng.integers(-n, n, int(rng.integers(0, 6))).astype(idx.host.dtype)
        return f"take(axis={ax})", [a, idx], lambda ns, x, i: ns.take(x, i, axis=ax)
    ishape = list(s)
    ishape[ax] = int(rng.integers(0, 4))
    idx.host = rng.integers(0, n, tuple(ishape)).astype(idx.host.dtype)
    return f"take_along_axis(axis={ax})", [a, idx], lambda ns, x, i: ns.take_along_axis(x, i, axis=ax)


@family("indexing")
def g_indexing(rng):
    dt = str(rng.choice(ALL))
    a = Input(rng, dt, shape_of(rng, int(rng.integers(1, 4))))
    s = a.shape
    if rng.random() < 0.3:
        m = Input(rng, "bool", s, view_ok=False)
        return "x[mask]", [a, m], lambda ns, x, mm: x[mm]
    key = []
    for n in s:
        r = rng.random()
        if r < 0.3 and n > 0:
            key.append(int(rng.integers(-n, n)))
        elif r < 0.6:
            key.append(slice(int(rng.integers(-n - 2, n + 2)), int(rng.integers(-n - 2, n + 2)),
                             int(rng.choice([1, 2, -1, -3]))))
        else:
            key.append(slice(None))
    if rng.random() < 0.3:
        key.insert(int(rng.integers(0, len(key) + 1)), None)
    key = tuple(key)
    return f"x[{key}]", [a], lambda ns, x: x[key]


@family("setitem")
def g_setitem(rng):
    dt = str(rng.choice(ALL))
    a = Input(rng, dt, shape_of(rng, int(rng.integers(1, 3))), view_ok=False)
    s = a.shape
    scalar = {"bool": True, "float32": 2.5, "float64": -1.5, "complex64": 1 + 2j,
              "complex128": 3j}.get(dt, 7)
    if rng.random() < 0.4:
        m = Input(rng, "bool", s, view_ok=False)

        def f(ns, x, mm):
            x = ns.asarray(x, copy=True)
            x[mm] = scalar
            return x
        return "x[mask] = v", [a, m], f
    key = tuple(slice(int(rng.integers(0, n + 1)), None, int(rng.choice([1, 2]))) for n in s)
    b = Input(rng, dt, np.zeros(s)[key].shape, view_ok=False)

    def g(ns, x, y):
        x = ns.asarray(x, copy=True)
        x[key] = y
        return x
    return f"x[{key}] = y", [a, b], g


@family("operators")
def g_operators(rng):
    name = str(rng.choice("__iadd__ __isub__ __imul__ __itruediv__ __ifloordiv__ __imod__ __ipow__ "
                          "__iand__ __ior__ __ixor__ __ilshift__ __irshift__ __radd__ __rsub__ "
                          "__rtruediv__ __rfloordiv__ __rmod__ __rpow__ __lt__ __eq__".split()))
    d1 = str(rng.choice(ALL))
    d2 = d1 if rng.random() < 0.5 else str(rng.choice(ALL))
    s = shape_of(rng, int(rng.integers(1, 3)))
    a = Input(rng, d1, s, view_ok=False)

    def call(x, other):
        r = getattr(x, name)(other)
        if r is NotImplemented:
            raise TypeError("NotImplemented")
        return r
    if rng.random() < 0.4:
        sc = [True, 3, -2, 2.5, 1j, 0][int(rng.integers(0, 6))]
        return f"{name}({sc!r})", [a], lambda ns, x: call(ns.asarray(x, copy=True), sc)
    b = Input(rng, d2, s[int(rng.integers(0, len(s) + 1)):], view_ok=False)
    return name, [a, b], lambda ns, x, y: call(ns.asarray(x, copy=True), y)


@family("linalg")
def g_linalg(rng):
    name = str(rng.choice("matmul tensordot vecdot matrix_transpose outer cross diagonal trace "
                          "cholesky solve inv det slogdet qr matrix_norm vector_norm matrix_power "
                          "pinv matrix_rank".split()))
    if not FLT:
        name = "matmul"
    fdt = str(rng.choice(FLT + CPX))
    n = int(rng.integers(1, 6))
    batch = shape_of(rng, int(rng.integers(0, 2)), most=3)
    num = INT + FLT
    if name == "matmul":
        dt = str(rng.choice(num + CPX))
        k, m, p = (int(v) for v in rng.integers(1, 7, 3))
        return name, [Input(rng, dt, batch + (m, k)), Input(rng, dt, (k, p) if rng.random() < 0.5
                                                              else (k,))], lambda ns, x, y: x @ y
    if name == "tensordot":
        dt = str(rng.choice(num))
        return name, [Input(rng, dt, (3, 4, 2)), Input(rng, dt, (4, 2, 5))], \
            lambda ns, x, y: ns.tensordot(x, y, axes=2)
    if name == "vecdot":
        dt = str(rng.choice(num + CPX))
        return name, [Input(rng, dt, batch + (n,)), Input(rng, dt, (n,))], lambda ns, x, y: ns.vecdot(x, y)
    if name == "matrix_transpose":
        return name, [Input(rng, str(rng.choice(ALL)), batch + (n, 3))], lambda ns, x: ns.matrix_transpose(x)
    if name in ("outer", "cross"):
        dt = str(rng.choice(num))
        shapes = ((n,), (3,)) if name == "outer" else (batch + (3,), (3,))
        return name, [Input(rng, dt, shapes[0]), Input(rng, dt, shapes[1])], \
            lambda ns, x, y: getattr(ns.linalg, name)(x, y)
    if name in ("diagonal", "trace"):
        off = int(rng.integers(-2, 3))
        return f"{name}({off})", [Input(rng, str(rng.choice(num)), batch + (n, 4))], \
            lambda ns, x: getattr(ns.linalg, name)(x, offset=off)
    if name == "vector_norm":
        a = Input(rng, fdt)
        o = [2, 1, 0, float("inf"), -float("inf"), 3, -1][int(rng.integers(0, 7))]
        ax = axis_of(rng, len(a.shape))
        return f"vector_norm({o}, {ax})", [a], lambda ns, x: ns.linalg.vector_norm(x, ord=o, axis=ax)
    m = Input(rng, fdt, batch + (n, n), view_ok=False)
    h = np.nan_to_num(m.host)
    h = np.where(abs(h) < 1e6, h, 1.5)
    if name == "cholesky":
        m.host = (h @ np.conj(np.swapaxes(h, -1, -2)) + n * np.eye(n)).astype(fdt)
        up = bool(rng.random() < 0.5)
        return f"cholesky(upper={up})", [m], lambda ns, x: ns.linalg.cholesky(x, upper=up)
    m.host = (h + 3 * n * np.eye(n) * (1 + (np.abs(h).max() if h.size else 0))).astype(fdt)
    if name == "solve":
        b = Input(rng, fdt, batch + (n, 2), view_ok=False)
        b.host = np.nan_to_num(np.where(np.abs(b.host) < 1e6, b.host, 1.0)).astype(fdt)
        return name, [m, b], lambda ns, x, y: ns.linalg.solve(x, y)
    if name == "qr":
        mode = str(rng.choice(["reduced", "complete"]))
        # (signs of Q's columns and R's rows are a free choice: compare magnitudes)
        return f"qr({mode})", [m], lambda ns, x: tuple(abs(t) for t in ns.linalg.qr(x, mode=mode))
    if name == "matrix_norm":
        o = ["fro", "nuc", 1, -1, 2, -2, float("inf"), -float("inf")][int(rng.integers(0, 8))]
        return f"matrix_norm({o})", [m], lambda ns, x: ns.linalg.matrix_norm(x, ord=o)
    if name == "matrix_power":
        p = int(rng.integers(-2, 4))
        return f"matrix_power({p})", [m], lambda ns, x: ns.linalg.matrix_power(x, p)
    if name == "slogdet":
        return name, [m], lambda ns, x: tuple(ns.linalg.slogdet(x))
    return name, [m], lambda ns, x: getattr(ns.linalg, name)(x)


@family("fft")
def g_fft(rng):
    if not CPX:
        return "identity", [Input(rng, "bool")], lambda ns, x: x
    name = str(rng.choice("fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftshift "
                          "ifftshift".split()))
    real_in = name in ("rfft", "rfftn", "ihfft")
    dt = str(rng.choice(FLT if real_in else CPX if name not in ("fftshift", "ifftshift") else FLT + CPX))
    s = tuple(max(n, 1) for n in shape_of(rng, int(rng.integers(1, 4)), most=9))
    a = Input(rng, dt, s)
    nd = len(s)
    norm = str(rng.choice(["backward", "ortho", "forward"]))
    if name in ("fftshift", "ifftshift"):
        ax = axis_of(rng, nd)
        return f"{name}({ax})", [a], lambda ns, x: getattr(ns.fft, name)(x, axes=ax)
    if name.endswith("n"):
        axes = tuple(int(v) for v in rng.choice(nd, int(rng.integers(1, nd + 1)), replace=False))
        if name == "irfftn":
            axes = tuple(sorted(axes))
        size = tuple(int(rng.integers(1, 10)) for _ in axes) if rng.random() < 0.4 else None
        return f"{name}(s={size}, axes={axes}, {norm})", [a], \
            lambda ns, x: getattr(ns.fft, name)(x, s=size, axes=axes, norm=norm)
    ax = int(rng.integers(-nd, nd))
    n = int(rng.integers(1, 12)) if rng.random() < 0.4 else None
    return f"{name}(n={n}, axis={ax}, {norm})", [a], \
        lambda ns, x: getattr(ns.fft, name)(x, n=n, axis=ax, norm=norm)


def to_host(r):
    if isinstance(r, (tuple, list)):
        return tuple(to_host(v) for v in r)
    if type(r).__module__.startswith("array_api_strict"):
        return np.asarray(r._array)
    if hasattr(r, "__array_namespace__"):
        return np.asarray(r)
    return r


def compare(got, want, same_kind, normwise=False):
    """'' where got matches want, else why not. normwise (fft, linalg: their errors are bounded
    relative to the result's norm, not each element): atol scaled by the largest finite |want|."""
    if got.shape != want.shape:
        return f"shape {got.shape} against {want.shape}"
    if got.dtype != want.dtype:
        if not (same_kind and got.dtype.kind == want.dtype.kind):
            return f"dtype {got.dtype} against {want.dtype}"
        with np.errstate(all="ignore"):  # (a narrower accumulator wraps as the cast does)
            want = want.astype(got.dtype)
    if got.size == 0:
        return ""
    if got.dtype.kind == "c":  # (parts apart: isclose of two equal infinite parts is False)
        # a complex value with a NaN part is a NaN (the standard's isnan): inf + nan j and
        # nan + nan j are the same answer (0 ** z with Re z < 0: C99's cpow gives the first,
        # numpy the second)
        both_nan = np.isnan(got) & np.isnan(want)
        got, want = np.where(both_nan, 0, got), np.where(both_nan, 0, want)
        got = np.stack([got.real, got.imag])
        want = np.stack([want.real, want.imag]).astype(got.dtype)
    if got.dtype.kind in "biu":
        if np.array_equal(got, want):
            return ""
        bad = np.argwhere(got != want)[:3].tolist()
        return f"values differ at {bad}"
    atol = 1e-3
    if normwise:
        finite = np.abs(want[np.isfinite(want)])
        atol *= max(1.0, float(finite.max())) if finite.size else 1.0
    ok = np.isclose(got, want, rtol=1e-3, atol=atol, equal_nan=True)
    if ok.all():
        return ""
    return f"values differ at {np.argwhere(~ok)[:3].tolist()}: {got[~ok][:3]} against {want[~ok][:3]}"


def compare_unique(name, x, got, want, same_kind):
    """unique_*: the same values; NaNs (each its own value) may come in any order, so the
    inverse is checked by rebuilding x and the indices by pointing at equal values."""
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    why = compare(got[0], want[0], same_kind)
    if why or name == "unique_values":
        return why
    vals = got[0]
    if name == "unique_counts":
        return compare(got[1], want[1], same_kind)
    inv = got[-1] if name == "unique_inverse" else got[2]
    rebuilt = vals[inv.astype(np.intp)]
    if not np.array_equal(rebuilt, x, equal_nan=x.dtype.kind in "fc"):
        return "the inverse does not rebuild x"
    if name == "unique_all":
        first = x.reshape(-1)[got[1].astype(np.intp)]
        if not np.array_equal(first, vals, equal_nan=x.dtype.kind in "fc"):
            return "the indices do not point at the values"
        return compare(got[3], want[3], same_kind)
    return ""


def run_one(seed, families, same_kind):
    rng = np.random.default_rng(seed)
    fam = families[int(rng.integers(0, len(families)))]
    desc, inputs, f = FAMILIES[fam](rng)
    tag = (f"seed {seed} {fam} {desc} dtypes={[str(i.host.dtype) for i in inputs]} "
           f"shapes={[i.shape for i in inputs]}")
    results = {}
    for label, ns in (("strict", st), ("ours", xp)):
        try:
            results[label] = (to_host(f(ns, *(i.make(ns) for i in inputs))), None, "")
        except Exception as e:  # noqa: BLE001 (each side's exception is the finding)
            results[label] = (None, e, traceback.format_exc())
    (want, e_exc, _), (got, g_exc, g_tb) = results["strict"], results["ours"]
    if e_exc is not None and g_exc is not None:
        if isinstance(g_exc, type(e_exc)) or isinstance(e_exc, type(g_exc)):
            return None
        return (f"EXC-TYPE {tag}: strict {type(e_exc).__name__}({e_exc}) "
                f"ours {type(g_exc).__name__}({g_exc})")
    if g_exc is not None:
        crash = "" if isinstance(g_exc, (TypeError, ValueError, IndexError)) else "\n" + g_tb
        return f"OURS-RAISES {tag}: {type(g_exc).__name__}: {g_exc}{crash}"
    if e_exc is not None:
        return f"STRICT-RAISES {tag}: {type(e_exc).__name__}: {e_exc}"
    if desc.startswith("unique"):
        why = compare_unique(desc, inputs[0].make(np), got, want, same_kind)
    else:
        pairs = list(zip(got, want)) if isinstance(want, tuple) else [(got, want)]
        if isinstance(want, tuple) and (not isinstance(got, tuple) or len(got) != len(want)):
            return f"MISMATCH {tag}: a {type(got).__name__} against a tuple of {len(want)}"
        normwise = fam in ("fft", "linalg")
        why = next((w for g, e in pairs
                    if (w := compare(np.asarray(g), np.asarray(e), same_kind, normwise))), "")
    # (NONFINITE, known: how infinities spread differs by design) fft and linalg; complex
    # products, powers and means (numpy divides a complex sum by n as a complex number, so an
    # infinite part makes the other NaN); complex sign (numpy's, followed here, gives an
    # infinite part's direction: sign(-inf + 1j) = -1; strict divides by abs: NaN); floor
    # division of infinities (the standard's special cases give +-inf where numpy gives NaN)
    spreads = fam in ("fft", "linalg") or "floordiv" in desc or "floor_divide" in desc or (
        any(i.host.dtype.kind == "c" for i in inputs)
        and any(w in desc for w in ("prod", "multiply", "pow", "mean", "sign")))
    # (non-finite input, or in fft and linalg finite input that overflowed: the results hold
    # infinities or NaNs, spread as each algorithm's order of operations makes them)
    overflowed = fam in ("fft", "linalg") and not all(
        np.isfinite(np.asarray(r)).all() for r in (got if isinstance(got, tuple) else (got,))
        + (want if isinstance(want, tuple) else (want,)) if np.asarray(r).dtype.kind in "fc")
    if why and spreads and (overflowed or not all(
            np.isfinite(i.host).all() for i in inputs if i.host.dtype.kind in "fc")):
        return f"NONFINITE {tag}: {why}"
    return f"MISMATCH {tag}: {why}" if why else None


def main():
    global TAME
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0:1000", help="first:end")
    ap.add_argument("--families", default=",".join(FAMILIES), help=",".join(FAMILIES))
    ap.add_argument("--tame", action="store_true", help="finite floats below 1e6")
    ap.add_argument("--same-kind", action="store_true", help="compare dtypes by kind only")
    args = ap.parse_args()
    TAME = args.tame
    first, end = (int(v) for v in args.seeds.split(":"))
    families = args.families.split(",")
    counts, findings = {}, 0
    for seed in range(first, end):
        line = run_one(seed, families, args.same_kind)
        if line is None:
            continue
        kind = line.split(" ", 1)[0]
        counts[kind] = counts.get(kind, 0) + 1
        if kind not in ("STRICT-RAISES", "NONFINITE"):
            print(line, flush=True)
            findings += not any(line.startswith(k) and all(p in line for p in (sub if isinstance(sub, tuple) else (sub,)))
                                for k, sub in KNOWN)
    print(f"{end - first} seeds, device {xp.__array_namespace_info__().default_device()}: "
          f"{counts or 'no differences'}; {findings} not known")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
