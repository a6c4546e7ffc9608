"""Issue 3's sweep: every elementwise function x every advertised dtype x shapes (0-d, empty,
broadcast, non-contiguous, large), against numpy, with no host fallback (bool on a device without
8-bit storage: one counted fallback per call), and float64 results carrying float64 precision."""
import warnings
import zlib

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import _elementwise_functions as ew
from array_api_vulkan._array_object import Array
from array_api_vulkan._dtypes import from_np
from conftest import computes_natively, first, needs, param

DEV = xp.__array_namespace_info__().default_device()
DTYPES = list(xp.__array_namespace_info__().dtypes(device=DEV).values())

FUNCS = {row[0]: row for row in ew._TABLE}
# Exact ops (IEEE-exact or integer): results must match numpy bit for bit (signed zeros too).
INEXACT_ULPS = {n: 4 for n in ("exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan",
                               "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
                               "atanh", "atan2", "logaddexp", "pow", "hypot")}
INEXACT_ULPS.update({"abs": 2, "sign": 2})           # of complex: a hypot
# Complex results are compared by |got - want| <= ulps * eps * |want| (componentwise ulps
# mean little under cancellation, and numpy itself uses FMA or not depending on the CPU).
INEXACT_ULPS_COMPLEX = {"multiply": 2, "divide": 4, "reciprocal": 4, "square": 2, "sqrt": 4,
                        "sign": 4, "abs": 2}
INEXACT_ULPS_COMPLEX.update({n: 8 for n in INEXACT_ULPS if n not in INEXACT_ULPS_COMPLEX})
INEXACT_ULPS_COMPLEX["pow"] = 64  # x1 ** x2 = exp(x2 log x1): numpy's own error is of this order


def dev(h):
    """Upload without the spec layer's asarray (which counts itself as a host round trip)."""
    h = np.asarray(h)
    return Array._new(DEV.upload(np.ascontiguousarray(h)), from_np(h.dtype), h.shape)


def values(dt, n, rng, name=None, arg=0):
    k = dt._np.kind
    if k == "b":
        return rng.integers(0, 2, n).astype(bool)
    if k in "iu":
        info = np.iinfo(dt._np)
        if name in ("bitwise_left_shift", "bitwise_right_shift") and arg == 1:
            return rng.integers(0 if k == "u" else -2, 8 * dt.itemsize + 3, n).astype(dt._np)
        if name == "pow":
            lo = 0 if (k == "u" or arg == 1) else -4
            return rng.integers(lo, 6, n).astype(dt._np)
        v = rng.integers(info.min, info.max, n, dtype=dt._np, endpoint=True)
        small = rng.integers(max(info.min, -9), 10, n).astype(dt._np)
        v = np.where(rng.random(n) < 0.5, small, v)
        v[: min(n, 4)] = [0, 1, info.max, info.min][: min(n, 4)]
        return v
    mag = 10.0 ** rng.integers(-4, 5, n)
    if name in ("exp", "expm1", "sinh", "cosh", "tanh", "logaddexp", "pow"):
        mag = np.minimum(mag, 30.0)
    if k == "c" and name == "pow":
        mag = np.clip(mag, 0.1, 2.0)  # pow amplifies input rounding by |x2 log x1|
    v = rng.standard_normal(n) * mag
    if k == "c":
        v = v + 1j * rng.standard_normal(n) * mag[::-1]
    if k == "c" and name == "expm1":
        v = v.real.clip(-60, 60) + 1j * v.imag  # see test_complex_expm1_large_real_part
    v = v.astype(dt._np)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5]
    if k == "c" and name == "pow":
        # the standard leaves complex pow's special cases to exp(x2 * log(x1)); numpy differs
        specials = [1.0, -1.0, 0.5, 2.0]
    m = min(n, len(specials))
    idx = rng.permutation(n)[:m]
    v[idx] = np.array(specials[:m]).astype(dt._np)
    return v


def ulp_diff(a, b):
    """Distance in units in the last place between same-dtype real float arrays."""
    it = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    ia, ib = a.view(it).astype(np.int64), b.view(it).astype(np.int64)
    big = np.int64(np.iinfo(it).min)
    ia = np.where(ia < 0, big - ia, ia)
    ib = np.where(ib < 0, big - ib, ib)
    return np.abs(ia - ib)


def check(got, want, name, dt, scale=None):
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
        return
    tol = INEXACT_ULPS.get(name, 0)
    if want.dtype.kind == "c" and name in INEXACT_ULPS_COMPLEX:
        tol = INEXACT_ULPS_COMPLEX[name]
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{name}: NaN positions")
            inf = np.isinf(w) | np.isinf(g)
            np.testing.assert_array_equal(g[inf], w[inf], err_msg=f"{name}: infinities")
        fin = np.isfinite(want) & np.isfinite(got)
        err = np.abs(got[fin] - want[fin])
        fi = np.finfo(want.dtype)
        lim = tol * fi.eps * np.maximum(np.abs(want[fin]), fi.smallest_normal)
        if not np.all(err <= lim):
            i = np.argmax(err - lim)
            raise AssertionError(f"{name}: got {got[fin][i]!r}, want {want[fin][i]!r}: error "
                                 f"{err[i] / np.abs(want[fin][i]) / np.finfo(want.dtype).eps:.1f} ulp of |want|")
        return
    if name == "logaddexp" and scale is not None:
        # log(exp(a) + exp(b)) cancels near 0 (numpy too): absolute error against max(|a|, |b|)
        ok = ~np.isnan(want) & np.isfinite(scale)
        err = np.abs(got[ok].astype(np.float64) - want[ok])
        assert np.all((err <= tol * np.spacing(np.maximum(np.abs(scale[ok]), np.abs(want[ok])).astype(want.dtype)))
                      | (got[ok] == want[ok])), name
        return
    parts = [(got.real, want.real), (got.imag, want.imag)] if want.dtype.kind == "c" else [(got, want)]
    for g, w in parts:
        g, w = np.ascontiguousarray(g), np.ascontiguousarray(w)
        nan_g, nan_w = np.isnan(g), np.isnan(w)
        np.testing.assert_array_equal(nan_g, nan_w, err_msg=f"{name}: NaN positions")
        ok = ~nan_w
        d = ulp_diff(g[ok], w[ok])
        if tol == 0:
            # bitwise equal, but +0 == -0 where numpy's own result is not the standard's
            bad = d != 0
        else:
            bad = (d > tol) & ~((g[ok] == w[ok]))
        if bad.any():
            i = np.argmax(bad)
            raise AssertionError(f"{name}: {bad.sum()} of {bad.size} differ by > {tol} ulp, "
                                 f"e.g. got {g[ok][i]!r} want {w[ok][i]!r} ({d[i]} ulp)")


def reference(name, dt, *hargs):
    """The spec layer's numpy implementation (which carries the standard's fixes to numpy)."""
    if name == "clip":
        x, lo, hi = hargs
        return np.minimum(np.maximum(x, lo), hi)
    row = FUNCS[name]
    rdt = ew.__dict__[name]._result_dtype(dt, DEV)
    cd = rdt if row[3] == "float" else dt
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        hs = [np.asarray(h, dtype=cd._np) for h in hargs]
        if cd._np == np.complex64 and name in INEXACT_ULPS:
            # numpy's complex64 math is itself a few ulp off: round a complex128 result instead
            out = np.asarray(row[4](*[h.astype(np.complex128) for h in hs]), dtype=rdt._np)
        else:
            out = np.asarray(row[4](*hs), dtype=rdt._np)
        if name == "log1p" and dt._np.kind == "c":
            out = _mp_log1p(hs[0]).astype(out.dtype)
        if name == "sign" and dt._np.kind == "c":
            # the standard: NaN + NaN j when a component is NaN (numpy gives a unit vector)
            out = np.where(np.isnan(hs[0]), np.complex128(complex(np.nan, np.nan)), out).astype(out.dtype)
    return out


def _mp_log1p(z):
    """numpy's complex log1p is log(1 + z), which cancels near 0: mpmath instead. For complex64
    inputs only near 0: elsewhere log(1 + z) in complex128 is within 1e-9 of |log1p(z)|, far
    below complex64's tolerance, which check() takes relative to |want|."""
    import mpmath

    mpmath.mp.prec = 120
    flat = z.reshape(-1)
    out = np.empty(flat.shape, np.complex128)
    near0 = np.ones(flat.shape, bool)
    if flat.dtype == np.complex64:
        with np.errstate(all="ignore"):
            out[:] = np.log1p(flat.astype(np.complex128))
        near0 = np.abs(flat) < 1e-4
    for i, v in enumerate(flat):
        if not near0[i]:
            continue
        if np.isfinite(v):
            r = mpmath.log1p(mpmath.mpc(float(v.real), float(v.imag)))
            out[i] = complex(float(r.real), float(r.imag))
        else:
            out[i] = np.log1p(v)
    return out.reshape(z.shape)


def scale_of(name, hargs):
    if name != "logaddexp":
        return None
    with np.errstate(all="ignore"):
        return np.broadcast_arrays(np.maximum(np.abs(hargs[0]), np.abs(hargs[1])), hargs[0])[0]


def _pending(name, dt):
    """Ops whose shader variant waits on a math include that has not landed (complex math)."""
    from array_api_vulkan._kernels import _launch

    op = _launch.table.lookup(name, _launch.table.DTYPES[dt.name][0])
    if op is None or op.family != "math":
        return None
    code = _launch.table.DTYPES[dt.name][0]
    if _launch.variant("math", code, op.sigs[code], name) is None:
        return "needs " + " and ".join(_launch._variants.math_includes(code))
    return None


def cases():
    out = []
    for name, row in sorted(FUNCS.items()):
        for dt in ew._categories[row[2]]:
            if dt in DTYPES:
                why = _pending(name, dt)
                marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
                out.append(pytest.param(name, dt, id=f"{name}-{dt.name}", marks=marks))
    for dt in ew._categories["real numeric"]:
        if dt in DTYPES:
            out.append(pytest.param("clip", dt, id=f"clip-{dt.name}"))
    return out


def call(name, *args):
    if name == "clip":
        return xp.clip(*args)
    return getattr(xp, name)(*args)


@pytest.mark.parametrize("name,dt", cases())
def test_sweep(name, dt):
    nargs = 3 if name == "clip" else FUNCS[name][1]
    rdt = dt if name == "clip" else ew.__dict__[name]._result_dtype(dt, DEV)
    calls = 0
    rng = np.random.default_rng(zlib.crc32(f"{name}-{dt.name}".encode()))
    # (shape of each argument) per case: 0-d, empty, broadcast, contiguous large, plus views
    shapes = [[()] * nargs, [(0, 3)] * nargs, [(5, 1, 3)] + [(4, 1)] * (nargs - 1),
              [(70001,)] * nargs]
    xp.reset_runtime_stats()
    for shp in shapes:
        hs = [values(dt, int(np.prod(s)), rng, name, j).reshape(s) for j, s in enumerate(shp)]
        if name == "clip":
            hs[1], hs[2] = np.minimum(hs[1], hs[2]), np.maximum(hs[1], hs[2])
        got = np.asarray(call(name, *[dev(h) for h in hs]))
        calls += 1
        check(got, reference(name, dt, *hs), name, dt, scale_of(name, hs))
    # non-contiguous views: reversed, strided and transposed
    hs = [values(dt, 6 * 10, rng, name, j).reshape(6, 10) for j in range(nargs)]
    xs = [dev(h) for h in hs]
    views = [(lambda a: a[::-2, 1::3]), (lambda a: a.T[::2]), (lambda a: a[2])]
    for v in views:
        got = np.asarray(call(name, *[v(x) for x in xs]))
        calls += 1
        hv = [v(h) for h in hs]
        check(got, reference(name, dt, *hv), name, dt, scale_of(name, hv))
    # Python scalars on either side
    if nargs >= 2:
        h = values(dt, 50, rng, name, 0)
        s = values(dt, 3, rng, name, 1)[2].item()
        if dt._np.kind == "f":
            s = float(np.float32(1.25)) if name != "pow" else 2.0
        args = [dev(h)] + [s] * (nargs - 1)
        if name == "clip":
            args = [dev(h), min(s, 3), max(s, 3)]
        got = np.asarray(call(name, *args))
        calls += 1
        hv = [h] + [np.asarray(a, dt._np) for a in args[1:]]
        check(got, reference(name, dt, *hv), name, dt, scale_of(name, hv))
        if name != "clip":
            h = values(dt, 50, rng, name, 1)
            got = np.asarray(call(name, s, dev(h)))
            calls += 1
            hv = [np.asarray(s, dt._np), h]
            check(got, reference(name, dt, *hv), name, dt, scale_of(name, hv))
    # bool without 8-bit storage: every call one counted host round trip, nothing else
    want = {} if computes_natively(dt, rdt) else {name: calls}
    assert xp.runtime_stats()["host_fallbacks"] == want, name


@needs("float64")
def test_float64_precision():
    a = dev(np.array([1.0, 2.0, 1e-3]))
    b = dev(np.array([1e-12, 3e-15, 1.0]))
    got = np.asarray(a + b)
    assert got[0] == 1.0 + 1e-12 and got[0] != np.float64(np.float32(1.0 + 1e-12))
    x = np.array([0.1, 1.0 / 3.0, 2.5, 700.0])
    e = np.asarray(xp.exp(dev(x)))
    assert np.all(ulp_diff(e, np.exp(x)) <= 2)
    with np.errstate(over="ignore"):
        assert np.any(e != np.exp(x.astype(np.float32)).astype(np.float64))
    s = np.asarray(xp.sin(dev(np.array([1e10, 3.0]))))
    assert np.all(ulp_diff(s, np.sin([1e10, 3.0])) <= 2)


@pytest.mark.parametrize("dt,re", [param(np.complex64, 85.0, dtypes=["complex64"]),
                                   param(np.complex128, 705.0, dtypes=["complex128"])])
def test_complex_expm1_large_real_part(dt, re):
    """Just below overflow the double-double path's products overflowed into NaN."""
    z = np.array([complex(re, -29.7), complex(re, 0.5)], dt)
    got = np.asarray(xp.expm1(dev(z)))
    assert not np.isnan(got.real).any(), got
    want = np.exp(z.astype(np.complex128)) - 1  # no cancellation at this size
    np.testing.assert_allclose(got, want, rtol=1e-5 if dt == np.complex64 else 1e-13)


def test_complex64_atanh_near_one():
    """(1 - x)^2 + y^2 underflows here; array-api-tests' test_atanh found it."""
    z = np.array([complex(1.0, 4.040825954369341e-37), complex(-1.0, 1e-30), complex(1.0, -2e-38)],
                 np.complex64)
    got = np.asarray(xp.atanh(dev(z)))
    want = np.arctanh(z.astype(np.complex128))
    assert np.isfinite(got).all(), got
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_huge_grid():
    """More than 65535 groups of 256 invocations (of 4 elements each): the grid's second dimension."""
    from array_api_vulkan._kernels import _launch

    n = 65535 * 256 * _launch.ELEMS + 1000
    dt = first("uint8", "uint16", "uint32")  # (the smallest there is)
    if n * dt.itemsize > DEV.limits["max_storage_buffer_range"]:
        pytest.skip(f"needs uint8 or uint16: {n} elements of {dt.name} exceed the device's "
                    f"maxStorageBufferRange ({DEV.limits['max_storage_buffer_range']} bytes)")
    x = xp.ones((n,), dtype=dt)
    y = np.asarray(x + x)
    assert y.shape == (n,) and y[0] == 2 and y[-1] == 2 and np.all(y[-70000:] == 2)


@pytest.mark.parametrize("dt", [param(d, dtypes=[d]) for d in ("float32", "float64", "complex64", "complex128")])
def test_round_trunc_halves_and_signed_zeros(dt):
    """round is half to even and trunc toward zero, each keeping the sign of a zero result, at
    the boundaries (x.5 of odd and even integers, the last fractional doubles below 2^52 and 2^53,
    the largest double below 0.5): Mesa 22.3's lavapipe got float64 roundEven and trunc wrong
    there (unary.comp makes them from floor and ceil)."""
    v = np.array([-0.4, -0.0, 0.0, -2.5, 1.5, 2.5, 0.5, -1.5, -0.5, 3.7, -7.5, 4503599627370495.5,
                  -4503599627370495.5, 9007199254740991.0, 0.49999999999999994, -0.49999999999999994,
                  1e300, -1e300, np.inf, -np.inf, np.nan, 5e-324, -5e-324])
    if dt.startswith("complex"):
        a = (v + 1j * v[::-1]).astype(dt)
        fns = ("round",)
    else:
        a = v.astype(dt)
        fns = ("round", "trunc")
    x = xp.asarray(a)
    for f in fns:
        got, want = np.asarray(getattr(xp, f)(x)), getattr(np, f)(a)
        for part in ((lambda z: z.real), (lambda z: z.imag)) if dt.startswith("complex") else ((lambda z: z),):
            g, w = part(got), part(want)
            num = ~np.isnan(w)  # (a NaN's sign is not specified: NVIDIA returns its canonical NaN)
            assert np.array_equal(g, w, equal_nan=True) and np.array_equal(np.signbit(g[num]), np.signbit(w[num])), \
                (f, a, got)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_integer_powers_by_repeated_squaring(dt):
    """A nonzero complex base to an integral real power |n| < 100 is repeated squaring (numpy's
    npy_cpow, its products compensated as multiply's are not), not exp(n log z): (i y) ** 3 is
    purely imaginary (exp-log left a real part of 1e-8 of the modulus in float32), (i y) ** 2
    real, z ** 2's parts within an ulp of the exact square's, and every n within a few ulps (of
    the modulus) of the exact power; other powers keep exp(w log z)."""
    if not computes_natively(dt):
        pytest.skip(f"no native {dt}")
    rng = np.random.default_rng(11)
    z = (rng.uniform(-3, 3, 64) + 1j * rng.uniform(-3, 3, 64)).astype(dt)
    z[:8] = (1j * rng.uniform(-3000, 3000, 8)).astype(dt)
    x = xp.asarray(z)
    sq = np.asarray(x ** 2)
    exact = z.astype(np.clongdouble) ** 2
    for got_part, want_part in ((sq.real, exact.real), (sq.imag, exact.imag)):
        ulp = np.spacing(np.abs(want_part).astype(z.real.dtype)).astype(np.longdouble)
        assert np.all(np.abs(got_part - want_part) <= ulp)
    assert np.all(np.asarray(x[:8] ** 3).real == 0)
    assert np.all(np.asarray(x[:8] ** 2).imag == 0)
    eps = np.finfo(z.real.dtype).eps
    for n in list(range(-6, 7)) + [17, 64, 99, -99, 2.0, 100, 2.5]:
        got = np.asarray(x ** n)
        with np.errstate(all="ignore"):
            want = z.astype(np.clongdouble) ** n
        info = np.finfo(z.real.dtype)
        fin = np.isfinite(want) & (np.abs(want) > info.tiny) & (np.abs(want) < info.max / 4)
        rel = np.abs(got[fin] - want[fin]) / np.abs(want[fin])
        bound = (8 + abs(float(n))) * eps if float(n).is_integer() and abs(n) < 100 else 1e3 * eps
        assert rel.max() <= bound, (n, float(rel.max() / eps))
    # an array of exponents takes the same branch per element
    w = np.array([3, 2.5, -2, 0] * 16, dtype=dt)
    got = np.asarray(x ** xp.asarray(w))
    assert np.all(got[:8:4].real == 0)
