"""Issue 8's sweep: the reductions (statistical, utility and searching functions) x every
advertised dtype x axis forms (None, int, negative, tuples, keepdims) x layouts (0-d, empty,
size 1, strided, transposed, negative strides, long rows split over two passes, a large input),
against numpy, with no host fallback; plus their numerics (compensated float sums, integer
wrap-around, NaN, determinism).

Not native (host fallback through _fallback.call, counted): sum/prod with dtype=bool (no
kernel computes in bool; numpy's logical-or/and semantics), and arrays whose allocation holds
2^32 elements or more (the kernels index in 32 bits); see test_counted_fallback."""
import math
import zlib

import numpy as np
import pytest

import array_api_vulkan as xp
from conftest import FLOAT, computes_natively, has, plan_specs
from array_api_vulkan._array_object import Array
from array_api_vulkan._dtypes import from_np

INFO = xp.__array_namespace_info__()
DEV = INFO.default_device()
DTYPES = list(INFO.dtypes(device=DEV).values())
DEFAULTS = INFO.default_dtypes(device=DEV)
# (numpy's reference answers for empty slices and correction >= n warn)
pytestmark = pytest.mark.filterwarnings("ignore:Degrees of freedom:RuntimeWarning",
                                        "ignore:Mean of empty slice:RuntimeWarning",
                                        "ignore:invalid value:RuntimeWarning")


def dev(h):
    """Upload without the spec layer's asarray (which counts itself as a host round trip)."""
    h = np.asarray(h)
    return Array._new(DEV.upload(np.ascontiguousarray(h)), from_np(h.dtype), h.shape)


def values(dt, shape, rng, op):
    n = int(np.prod(shape))
    k = dt._np.kind
    if k == "b":
        v = rng.random(n) < (0.9 if op in ("all", "prod") else 0.2)
    elif k in "iu":
        info = np.iinfo(dt._np)
        if op == "prod":
            v = rng.integers(max(info.min, -3), 4, n).astype(dt._np)
            v[v == 0] = 1
        elif op in ("all", "any", "count_nonzero"):
            v = (rng.random(n) < 0.8) * rng.integers(1, 100, n)
            v = v.astype(dt._np)
        else:
            v = rng.integers(info.min, info.max, n, dtype=dt._np, endpoint=True)
            v[rng.random(n) < 0.3] = 7  # ties for argmin/argmax
    else:
        if op == "prod":
            v = 1 + 0.05 * rng.standard_normal(n)
        elif op in ("all", "any", "count_nonzero"):
            v = (rng.random(n) < 0.8) * rng.standard_normal(n)
        else:
            v = rng.standard_normal(n) * 10.0 ** rng.integers(-2, 3, n)
        if k == "c":
            v = v + 1j * (1 + 0.05 * rng.standard_normal(n) if op == "prod" else rng.standard_normal(n))
            if op == "prod":
                v = v / np.abs(v)
        v = v.astype(dt._np)
        if op in ("min", "max", "argmin", "argmax") and n > 3:
            v[rng.integers(0, n)] = v[rng.integers(0, n)]  # a tie
    return v.reshape(shape)


def exact_sum(h, axis, keepdims):
    """The sum of h over axis by math.fsum (rows of moved axes), as float64 / complex128."""
    axes = tuple(range(h.ndim)) if axis is None else tuple(a % h.ndim for a in np.atleast_1d(axis))
    kept = [k for k in range(h.ndim) if k not in axes]
    m = np.transpose(h, kept + list(axes)).reshape(int(np.prod([h.shape[k] for k in kept])),
                                                   int(np.prod([h.shape[k] for k in axes])))
    if h.dtype.kind == "c":
        r = np.array([complex(math.fsum(v.real.astype(np.float64)), math.fsum(v.imag.astype(np.float64))) for v in m])
    else:
        r = np.array([math.fsum(v.astype(np.float64)) for v in m], np.float64)
    shape = [1 if k in axes else n for k, n in enumerate(h.shape)] if keepdims else [h.shape[k] for k in kept]
    return r.reshape(shape)


def numpy_ref(op, h, axis, keepdims, **kw):
    """numpy's answer in the standard's dtype (float sums and means: the exactly rounded ones)."""
    dt = from_np(h.dtype)
    if op in ("sum", "mean") and (dt._np.kind in "fc" or op == "mean"):
        r = exact_sum(h, axis, keepdims)
        if op == "mean":
            cnt = h.size if axis is None else int(np.prod([h.shape[k] for k in np.atleast_1d(axis)] or [1]))
            with np.errstate(all="ignore"):
                r = r / cnt if cnt else r * np.nan
        fdt = kw.get("dtype") or (dt if dt._np.kind in "fc" else DEFAULTS["real floating"])
        with np.errstate(all="ignore"):
            return np.asarray(r).astype(fdt._np)
    if op in ("sum", "prod"):
        acc = kw.get("dtype") or _acc(dt)
        return getattr(np, op)(h, axis=axis, keepdims=keepdims, dtype=acc._np)
    if op in ("mean", "var", "std"):
        fdt = dt if dt._np.kind in "fc" else DEFAULTS["real floating"]
        h64 = h.astype(np.complex128 if dt._np.kind == "c" else np.float64)
        with np.errstate(all="ignore"):
            if op == "mean":
                r = np.mean(h64, axis=axis, keepdims=keepdims)
            else:
                r = getattr(np, op)(h64, axis=axis, keepdims=keepdims, ddof=kw.get("correction", 0.0))
        return np.asarray(r).astype(fdt._np)
    if op in ("argmin", "argmax"):
        return np.asarray(getattr(np, op)(h, axis=axis, keepdims=keepdims)).astype(DEFAULTS["indexing"]._np)
    if op == "count_nonzero":
        return np.asarray(np.count_nonzero(h, axis=axis, keepdims=keepdims)).astype(DEFAULTS["indexing"]._np)
    return np.asarray(getattr(np, op)(h, axis=axis, keepdims=keepdims))


def _acc(dt):
    from array_api_vulkan._dtypes import accumulator_dtype

    return accumulator_dtype(dt, DEV)


def check(op, got, want, h, axis):
    assert got.shape == want.shape, (op, got.shape, want.shape)
    assert got.dtype == want.dtype, (op, got.dtype, want.dtype)
    if want.dtype.kind in "biu" or op in ("min", "max"):
        np.testing.assert_array_equal(got, want, err_msg=op)
        return
    eps = np.finfo(want.dtype).eps
    a = np.abs(h.astype(np.complex128 if h.dtype.kind == "c" else np.float64))
    if op in ("sum", "mean"):
        # error bound of a compensated sum plus a tree: a few ulps of sum |x| (numpy's pairwise
        # sum is within log2(n) ulps of it)
        scale = np.sum(a, axis=axis, keepdims=want.ndim == h.ndim and h.ndim > 0)
        if op == "mean":
            cnt = h.size if axis is None else int(np.prod([h.shape[k] for k in np.atleast_1d(axis)]))
            scale = scale / max(cnt, 1)
        err = np.abs(got.astype(np.complex128) - want.astype(np.complex128))
        lim = 8 * eps * np.broadcast_to(scale, err.shape) + np.finfo(want.dtype).tiny
        assert np.all((err <= lim) | (got == want) | (np.isnan(got) & np.isnan(want))), (op, got, want)
        return
    np.testing.assert_allclose(got, want, rtol=200 * eps, atol=0 if op != "var" else 50 * eps * float(np.max(a, initial=0) ** 2),
                               err_msg=op)


OPS = {
    "sum": "numeric+bool", "prod": "numeric+bool", "min": "real+bool", "max": "real+bool",
    "mean": "numeric", "all": "all", "any": "all", "var": "real", "std": "real",
    "count_nonzero": "all", "argmax": "real+bool", "argmin": "real+bool",
}


def allowed(op, dt):
    k = dt._np.kind
    cat = OPS[op]
    if cat == "all":
        return True
    if cat == "numeric":
        return k != "b"
    if cat == "numeric+bool":
        return True
    if cat == "real":
        return k in "iuf"
    return k != "c"  # real+bool


def cases():
    return [pytest.param(op, dt, id=f"{op}-{dt.name}") for op in OPS for dt in DTYPES if allowed(op, dt)]


# (shape, axis, keepdims, view): views are applied to the uploaded array and the host copy alike
LAYOUTS = [
    ((), None, False, None),
    ((), None, True, None),
    ((1,), None, False, None),
    ((1, 1), 0, True, None),
    ((0, 3), None, False, None),
    ((0, 3), 0, False, None),
    ((0, 3), 1, True, None),
    ((2, 0, 3, 4), (1, 3), False, None),   # empty, and neither part collapses
    ((2, 3, 0, 4), 3, True, None),
    ((5, 6, 7), None, False, None),
    ((5, 6, 7), 0, False, None),
    ((5, 6, 7), 1, True, None),
    ((5, 6, 7), -1, False, None),
    ((5, 6, 7), (0, 2), False, None),
    ((5, 6, 7), (-1, -2), True, None),
    ((5, 6, 7), (), False, None),
    ((6, 10), 0, False, lambda a: a.T),
    ((6, 10), None, False, lambda a: a[::-2, 1::3]),
    ((6, 10), 1, False, lambda a: a[::-1, ::-1]),
    ((4, 5, 6), 1, False, lambda a: a[:, ::-1, 1:]),
    ((3, 5000), 1, False, None),    # long rows: two passes (ROWS)
    ((5000, 3), 0, True, None),     # a long leading axis: two passes (COLS)
    ((4099,), None, False, lambda a: a[::2]),
]


@pytest.mark.parametrize("op,dt", cases())
def test_sweep(op, dt):
    rng = np.random.default_rng(zlib.crc32(f"{op}-{dt.name}".encode()))
    fn = getattr(xp, op)
    xp.reset_runtime_stats()
    for shape, axis, keepdims, view in LAYOUTS:
        if op in ("argmin", "argmax") and isinstance(axis, tuple):
            continue  # (an int axis or None)
        h = values(dt, shape, rng, op)
        x = dev(h)
        if view is not None:
            h, x = view(h), view(x)
        n_red = h.size if axis is None else int(np.prod([h.shape[k] for k in np.atleast_1d(axis)]))
        if op in ("min", "max", "argmin", "argmax") and n_red == 0:
            with pytest.raises(ValueError):
                fn(x, axis=axis, keepdims=keepdims)
            continue
        got = np.asarray(fn(x, axis=axis, keepdims=keepdims))
        want = numpy_ref(op, h, axis, keepdims)
        check(op, got, want, h, axis)
        if op in ("var", "std") and n_red > 1:
            got = np.asarray(fn(x, axis=axis, keepdims=keepdims, correction=1))
            check(op, got, numpy_ref(op, h, axis, keepdims, correction=1), h, axis)
    if computes_natively(dt, *((xp.bool,) if op in ("all", "any") else ())):
        assert xp.runtime_stats()["host_fallbacks"] == {}, op
    else:  # bool (in or out) without 8-bit storage: correct through the counted host fallback
        assert sum(xp.runtime_stats()["host_fallbacks"].values()) > 0, op


def test_large_float32_ones():
    """2^24 + 2^20 float32 ones: a naive float32 sum stalls at 16777216; numpy's pairwise one
    and this one do not. Also the large-input case of the sweep (two passes, every workgroup)."""
    n = (1 << 24) + (1 << 20)
    x = xp.ones((n,), dtype=xp.float32)
    xp.reset_runtime_stats()
    s = xp.sum(x)
    assert s.dtype == xp.float32 and float(s) == n
    assert float(xp.mean(x)) == 1.0
    assert xp.runtime_stats()["host_fallbacks"] == {}


def _adversarial(n, rng):
    """Alternating large values of both signs among ones: cancellation everywhere."""
    v = np.ones(n)
    k = (n + 1) // 2
    big = 10.0 ** rng.integers(6, 9, k)
    v[0::2] = np.where(np.arange(k) % 2 == 0, big, -big)
    v[1::4] *= 1 + rng.random(len(v[1::4]))
    return v


@pytest.mark.parametrize("dtname", ["float32", "float64"])
def test_adversarial_sum_against_fsum(dtname):
    dt = getattr(xp, dtname)
    if dt not in DTYPES:
        pytest.skip(f"no {dtname} on this device")
    rng = np.random.default_rng(8)
    h = _adversarial(200_001, rng).astype(dt._np)
    exact = math.fsum(h.astype(np.float64))
    got = float(xp.sum(dev(h)))
    ours, numpys = abs(got - exact), abs(float(np.sum(h)) - exact)
    eps = float(np.finfo(dt._np).eps)
    assert ours <= max(numpys, 4 * eps * abs(exact) + eps), (got, exact, float(np.sum(h)))
    # along both axes of a 2-D view: rows (ROWS mode) and columns (COLS mode, no copy)
    m = h[:200_000].reshape(400, 500)
    x = dev(m)
    for axis in (0, 1):
        g = np.asarray(xp.sum(x, axis=axis)).astype(np.float64)
        ex = np.array([math.fsum(r) for r in np.moveaxis(m.astype(np.float64), axis, -1)])
        npe = np.abs(np.sum(m, axis=axis).astype(np.float64) - ex)
        assert np.all(np.abs(g - ex) <= np.maximum(npe, 4 * eps * np.abs(ex) + eps)), axis


def test_deterministic():
    rng = np.random.default_rng(3)
    h = (rng.standard_normal(300_000) * 10.0 ** rng.integers(-5, 6, 300_000)).astype(np.float32)
    x = dev(h)
    first = [np.asarray(f(x)).tobytes() for f in (xp.sum, xp.mean, xp.var, xp.std)]
    for _ in range(3):
        assert [np.asarray(f(x)).tobytes() for f in (xp.sum, xp.mean, xp.var, xp.std)] == first


def test_integer_wraparound():
    for dt in DTYPES:
        if dt._np.kind not in "iu":
            continue
        info = np.iinfo(dt._np)
        h = np.full(1000, info.max, dt._np)
        h[::3] = info.min
        for op in ("sum", "prod"):
            got = np.asarray(getattr(xp, op)(dev(h)))
            with np.errstate(all="ignore"):
                want = getattr(np, op)(h, dtype=_acc(dt)._np)
            assert got == want and got.dtype == want.dtype, (op, dt)
            # in the array's own dtype (dtype=): wraps there
            got = np.asarray(getattr(xp, op)(dev(h), dtype=dt))
            assert got == getattr(np, op)(h, dtype=dt._np), (op, dt)


def test_nan_and_empty():
    for dt in DTYPES:
        if dt._np.kind != "f":
            continue
        h = np.arange(20, dtype=dt._np).reshape(4, 5)
        h[2, 3] = np.nan
        x = dev(h)
        for op in ("min", "max", "sum", "mean"):
            got = np.asarray(getattr(xp, op)(x, axis=1))
            np.testing.assert_array_equal(np.isnan(got), [False, False, True, False])
            assert np.isnan(float(getattr(xp, op)(x)))
    e = dev(np.zeros((0, 4), np.float32))
    assert float(xp.sum(e)) == 0 and float(xp.prod(e)) == 1
    assert math.isnan(float(xp.mean(e)))
    assert bool(xp.all(e)) is True and bool(xp.any(e)) is False
    np.testing.assert_array_equal(np.asarray(xp.sum(e, axis=0)), np.zeros(4))
    assert np.asarray(xp.sum(e, axis=1)).shape == (0,)
    for op in (xp.min, xp.max):
        with pytest.raises(ValueError):
            op(e)
        with pytest.raises(ValueError):
            op(e, axis=0)
        assert np.asarray(op(e, axis=1)).shape == (0,)


def test_complex_products_with_infinities():
    """A complex product multiplies its elements only, never the identity 1 + 0j: that gave
    (1 + 0j) * (-inf + 1j) = -inf + NaN j, and so NaN for every product with an infinity. The
    reference is the elements' product from the first (numpy's scalar multiplication); numpy's
    own prod multiplies the identity by the first element, which is the same where that element
    is finite."""
    import functools
    import itertools
    import operator

    rows = [[1 + 2j, -np.inf + 1j], [1e-38 + 2.5j, -np.inf + 1j], [2j, np.inf + 0j],
            [1 + 1j, 3e38 + 3e38j], [1 + 2j, 3 - 1j, 0.5j], [np.nan + 1j, 2j]]
    for dt in DTYPES:
        if dt._np.kind != "c":
            continue
        for row in rows:
            h = np.array(row, dt._np)
            with np.errstate(all="ignore"):
                want = functools.reduce(operator.mul, h)
                cwant = np.array(list(itertools.accumulate(h, operator.mul)), dt._np)
                if np.isfinite(h[0]):
                    np.testing.assert_array_equal(want, np.prod(h))
                rows_want = [want, functools.reduce(operator.mul, h[::-1])]
            np.testing.assert_array_equal(np.asarray(xp.prod(dev(h))), want)
            np.testing.assert_array_equal(np.asarray(xp.cumulative_prod(dev(h))), cwant)
            # rows reduced along the last axis: each its own product
            h2 = np.stack([h, h[::-1]])
            np.testing.assert_array_equal(np.asarray(xp.prod(dev(h2), axis=1)), rows_want)


def test_dtype_argument():
    """dtype=: the input is converted first (natively), then reduced in dtype."""
    h = np.arange(-50, 50, dtype=np.int32).reshape(10, 10)
    x = dev(h)
    xp.reset_runtime_stats()
    for dt in DTYPES:
        if dt._np.kind == "b":
            continue
        for op in ("sum", "prod"):
            hh = h if op == "sum" else (h % 3 + 1)
            got = np.asarray(getattr(xp, op)(dev(hh), axis=1, dtype=dt))
            with np.errstate(all="ignore"):
                want = getattr(np, op)(hh.astype(dt._np), axis=1, dtype=dt._np)
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-6)
    f = np.asarray(xp.sum(dev(h.astype(np.float32)), dtype=xp.float32))
    assert f.dtype == np.float32 and f == -50
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_compiled_plan_reused():
    """A repeated reduction of one layout is one compiled plan call (both passes)."""
    from array_api_vulkan._kernels import _reduce

    x = xp.ones((3, 70_000), dtype=xp.float32)
    xp.sum(x, axis=1)
    key = _reduce.plan_key(x, (1,), False, xp.float32, 0.0)
    plan = _reduce._plans["sum"][key]
    y = xp.ones((3, 70_000), dtype=xp.float32)
    xp.reset_runtime_stats()
    out = xp.sum(y, axis=1)
    assert _reduce._plans["sum"][key] is plan
    assert np.asarray(out).tolist() == [70_000.0] * 3



def test_repeated_calls_resolve_as_the_first(monkeypatch):
    """A repeated reduction call skips validation and dtype resolution (_RESOLVED); its result
    is the first call's, and what the key leaves out still goes the general way: another
    dtype=, a switched device feature, bad arguments."""
    from array_api_vulkan import _statistical_functions as sf

    x = xp.asarray([1, 2, 3, 4], dtype=xp.int32)
    defaults = xp.__array_namespace_info__().default_dtypes(device=x.device)
    for _ in range(2):
        assert xp.sum(x).dtype == defaults["integral"] and int(xp.sum(x)) == 10
        assert xp.sum(x, dtype=xp.int32).dtype == xp.int32
        assert xp.mean(x).dtype == defaults["real floating"] and float(xp.mean(x)) == 2.5
        assert int(xp.argmax(x, axis=0)) == 3
        assert float(xp.var(xp.astype(x, xp.float32), correction=1)) == pytest.approx(5 / 3)
        assert xp.max(x, axis=(0,), keepdims=True).shape == (1,)
    assert ("sum", x.dtype, x.shape) in {k[:3] for k in sf._RESOLVED}
    dev = x.device
    monkeypatch.setattr(dev, "supports_float64", False)
    assert xp.mean(x).dtype == xp.float32  # (the default float of the device as it now is)
    monkeypatch.undo()
    assert int(xp.sum(x, axis=[0])) == 10  # (unhashable: the general path, every time)
    assert int(xp.sum(x, axis=[0])) == 10
    with pytest.raises(Exception):
        xp.sum(x, axis=1)
    with pytest.raises(ValueError):
        xp.max(x[:0])
    with pytest.raises(TypeError):
        xp.mean(xp.asarray([True]))
def test_var_large_offset():
    """float32 data far from 0 (1e4 + noise): var/std against numpy in float64, by a two-pass
    (mean, then deviations with the corrected formula) whatever the axis."""
    rng = np.random.default_rng(11)
    h = (1e4 + 0.01 * rng.standard_normal((300, 2000))).astype(np.float32)
    x = dev(h)
    for axis in (None, 0, 1):
        for op in ("var", "std"):
            for corr in (0, 1):
                got = np.asarray(getattr(xp, op)(x, axis=axis, correction=corr))
                want = getattr(np, op)(h.astype(np.float64), axis=axis, ddof=corr)
                assert got.dtype == np.float32
                np.testing.assert_allclose(got, want, rtol=2e-5, err_msg=f"{op} {axis} {corr}")
    # correction >= n: numpy's inf/NaN
    one = dev(np.array([3.0, 3.0], np.float32))
    assert math.isnan(float(xp.var(one, correction=2)))
    assert math.isinf(float(xp.var(dev(np.array([1.0, 3.0], np.float32)), correction=2)))


def test_arg_nan_and_ties():
    """argmin/argmax: the first occurrence, and the first NaN as numpy; long rows (two passes)
    and leading axes (one invocation per column) too."""
    for dt in DTYPES:
        if dt._np.kind not in "iufb":
            continue
        rng = np.random.default_rng(5)
        n = 20_000
        h = rng.integers(0, 2 if dt._np.kind == "b" else 5, (3, n)).astype(dt._np)
        if dt._np.kind == "f":
            h[1, [7000, 123, 15000]] = np.nan
            h[2, -1] = np.nan
        x = dev(h)
        for op in ("argmin", "argmax"):
            for axis, hv, xv in ((1, h, x), (0, h.T, x.T), (None, h, x), (0, h[:, ::-7].T, x[:, ::-7].T)):
                got = np.asarray(getattr(xp, op)(xv, axis=axis))
                want = getattr(np, op)(hv, axis=axis)
                np.testing.assert_array_equal(got, want, err_msg=f"{op} {dt} {axis}")


SCAN_LAYOUTS = [
    ((1,), 0, None),
    ((7,), -1, None),
    ((0,), 0, None),
    ((0, 3), 1, None),
    ((3, 0), 1, None),
    ((4, 5, 6), 0, None),
    ((4, 5, 6), 1, None),
    ((4, 5, 6), 2, None),
    ((6, 10), 0, lambda a: a.T),
    ((6, 10), 1, lambda a: a[::-2, 1::3]),
    ((4, 5, 6), 1, lambda a: a[:, ::-1, ::2]),
    ((3, 5000), 1, None),   # tiles and carries (a workgroup per row)
    ((300, 7), 0, None),    # an invocation per row, coalesced
]


def scan_ref(op, h, axis, include_initial, dtype=None):
    acc = dtype or _acc(from_np(h.dtype))
    fn = np.cumsum if op == "cumulative_sum" else np.cumprod
    with np.errstate(all="ignore"):
        r = fn(h, axis=axis, dtype=acc._np)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        r = np.concatenate([np.full(shape, 0 if op == "cumulative_sum" else 1, r.dtype), r], axis=axis)
    return r


def scan_cases():
    return [pytest.param(op, dt, id=f"{op}-{dt.name}") for op in ("cumulative_sum", "cumulative_prod")
            for dt in DTYPES]


@pytest.mark.parametrize("op,dt", scan_cases())
def test_scan_sweep(op, dt):
    rng = np.random.default_rng(zlib.crc32(f"{op}-{dt.name}".encode()))
    fn = getattr(xp, op)
    xp.reset_runtime_stats()
    for shape, axis, view in SCAN_LAYOUTS:
        h = values(dt, shape, rng, "prod" if op == "cumulative_prod" else "sum")
        x = dev(h)
        if view is not None:
            h, x = view(h), view(x)
        for inc in (False, True):
            got = np.asarray(fn(x, axis=axis, include_initial=inc))
            want = scan_ref(op, h, axis, inc)
            assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype)
            if want.dtype.kind in "biu":
                np.testing.assert_array_equal(got, want)
            else:
                # running sums: within a few ulps of the running sum of |x| (numpy's is naive)
                eps = np.finfo(want.dtype).eps
                if op == "cumulative_sum":
                    scale = scan_ref(op, np.abs(h.astype(np.complex128 if h.dtype.kind == "c" else np.float64)), axis, inc)
                    assert np.all(np.abs(got - want) <= 16 * eps * np.abs(scale) + 1e-30)
                else:
                    np.testing.assert_allclose(got, want, rtol=64 * eps * max(shape))
    if computes_natively(dt, *((xp.bool,) if op in ("all", "any") else ())):
        assert xp.runtime_stats()["host_fallbacks"] == {}, op
    else:  # bool (in or out) without 8-bit storage: correct through the counted host fallback
        assert sum(xp.runtime_stats()["host_fallbacks"].values()) > 0, op


def test_scan_dtype_and_1d_default_axis():
    h = np.arange(1, 11, dtype=np.int16 if has("int16") else np.int32)  # (a dtype the device holds)
    xp.reset_runtime_stats()
    for dt in DTYPES:
        if dt._np.kind == "b":
            continue
        got = np.asarray(xp.cumulative_prod(dev(h), dtype=dt))
        want = np.cumprod(h.astype(dt._np), dtype=dt._np)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6)
    assert xp.runtime_stats()["host_fallbacks"] == {}
    with pytest.raises(ValueError):
        xp.cumulative_sum(dev(np.ones((2, 2))))  # axis required past one dimension


def test_counted_fallback():
    """What has no kernel goes to numpy and is counted."""
    h = np.array([[0, 2, 0], [1, 0, 0]], np.int32)
    xp.reset_runtime_stats()
    got = np.asarray(xp.sum(dev(h), axis=1, dtype=xp.bool))
    np.testing.assert_array_equal(got, np.sum(h, axis=1, dtype=bool))
    assert xp.runtime_stats()["host_fallbacks"] == {"sum": 1}


# -- bandwidth paths (vector loads, lanes, subgroup tree, one-pass var) ------------------------
from array_api_vulkan._kernels import _launch as _L, _reduce as _R  # noqa: E402

_BW_OPS = ("sum", "max", "min", "argmax", "argmin", "mean", "var", "std", "prod", "any")


def _bw_check(op, h, x, axis=None, **kw):
    got = np.asarray(getattr(xp, op)(x, axis=axis, **kw))
    if op in ("var", "std"):
        want = numpy_ref(op, h, axis, False, **kw)
        np.testing.assert_allclose(got, want, rtol=300 * np.finfo(want.dtype).eps, err_msg=op)
        return
    check(op, got, numpy_ref(op, h, axis, False), h, axis)


def _bw_values(dt, n, rng, op):
    return values(dt, (n,), rng, op)


@pytest.mark.parametrize("dtname", ["float32", "float64", "int32", "uint32", "int64"])
def test_vector_tails_and_unaligned_views(dtname):
    """Lengths with n % 4 != 0 (the scalar tail after the 16-byte loads) and views whose first
    element is not 16-byte aligned (scalar path), one and two passes."""
    if not has(dtname):
        pytest.skip(f"no {dtname}")
    dt = getattr(xp, dtname)
    rng = np.random.default_rng(zlib.crc32(dtname.encode()))
    xp.reset_runtime_stats()
    for n in (1, 3, 5, 7, 4097, 70_003):
        for start in (0, 1, 2, 3):
            if start >= n:
                continue
            for op in _BW_OPS:
                if op in ("var", "std", "mean") and dt._np.kind != "f":
                    continue
                if op == "prod" and n > 10 or op == "any" and not computes_natively(xp.bool):
                    continue
                h = _bw_values(dt, n, rng, op)
                x = dev(h)
                _bw_check(op, h[start:], x[start:])
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_layout_word_static_or_pushed(monkeypatch):
    """The layout word as a specialisation constant (_reduce.STATIC_MODE, STATIC_MODE_CPU) or read
    from the push block: the same bits for every mode (rows, columns, a subgroup per row, packed columns),
    finalisation (mean, var, std) and aux kind (argmax's indices)."""
    specs = plan_specs(monkeypatch, "reduce")
    cases = [((100_003,), None), ((1000, 36), 0), ((600, 999), 1), ((4096, 8), 0), ((7, 5, 300), (0, 2))]
    got = {}
    for static in (True, False):
        monkeypatch.setattr(_R, "STATIC_MODE", static)
        monkeypatch.setattr(_R, "STATIC_MODE_CPU", static)  # (the GPUs' default, here everywhere)
        specs.clear()
        for dtname in ("float32", "int32"):
            dt = getattr(xp, dtname)
            for shape, axis in cases:
                ops = ("sum", "mean", "std", "argmax") if dt._np.kind == "f" else ("sum", "max", "argmin")
                for k, op in enumerate(ops):
                    if op.startswith("arg") and isinstance(axis, tuple):
                        continue  # (one axis only)
                    h = values(dt, shape, np.random.default_rng(k), op)
                    x = dev(h)
                    if static:
                        _bw_check(op, h, x, axis)
                    r = np.asarray(getattr(xp, op)(x, axis=axis))
                    got.setdefault((dtname, shape, op), []).append(r.tobytes())
        assert specs and all((len(sp) == 5 and sp[4] & _R.RM_STATIC) if static else len(sp) == 4
                             for sp in specs), specs
    assert all(a == b for a, b in got.values())


@pytest.mark.parametrize("static", [False, True])
def test_final_in_pass(monkeypatch, static):
    """A long row's last workgroup reducing the partials in the same dispatch
    (_reduce.FINAL_IN_PASS, reduce.comp final_row): one dispatch instead of two, the same bits
    as the second pass for every op that takes it (float sums, means, var/std, min/max,
    argmin/argmax), with the layout word pushed or static; a plan replayed many times in one
    batch (its counters ordered by their hazard) and views (offsets, strides) stay right."""
    monkeypatch.setattr(_R, "STATIC_MODE", static)
    monkeypatch.setattr(_R, "STATIC_MODE_CPU", static)
    rng = np.random.default_rng(5)
    cases = [((300_001,), None), ((3, 100_000), 1), ((4, 5, 30_000), (0, 2))]
    dtnames = ("float32", "float64", "int32")
    if static:  # (a pipeline per layout: on lavapipe each is a compile of a large shader)
        cases, dtnames = cases[:2], ("float32",)
    got = {}
    for final in (True, False):
        monkeypatch.setattr(_R, "FINAL_IN_PASS", final)
        for dtname in dtnames:
            dt = getattr(xp, dtname)
            if not has(dt):
                continue
            ops = (("sum", "mean", "var", "std", "max", "argmax", "argmin") if dt._np.kind == "f"
                   else ("max", "min", "argmax"))
            for shape, axis in cases:
                for k, op in enumerate(ops):
                    if op.startswith("arg") and isinstance(axis, tuple):
                        continue
                    h = values(dt, shape, np.random.default_rng(k), op)
                    x = dev(h)
                    _bw_check(op, h, x, axis)
                    before = xp.runtime_stats()["dispatches"]
                    r = getattr(xp, op)(x, axis=axis)
                    xp.synchronize()
                    n_disp = xp.runtime_stats()["dispatches"] - before
                    if shape[0] == 300_001:
                        assert n_disp == (1 if final else 2), (op, dtname, final, n_disp)
                    got.setdefault((dtname, shape, op), []).append(np.asarray(r).tobytes())
    assert all(a == b for a, b in got.values())
    # one plan, many replays in one batch, with offsets (an unaligned view) and a strided view
    monkeypatch.setattr(_R, "FINAL_IN_PASS", True)
    hs = [rng.standard_normal(200_003).astype(np.float32) for _ in range(12)]
    xs = [dev(h) for h in hs]
    sums = [xp.sum(x[3:]) for x in xs] + [xp.argmax(x[::3]) for x in xs]
    xp.synchronize()
    for h, s in zip(hs + hs, sums[:12] + [None] * 12):
        if s is not None:
            assert math.isclose(float(s), math.fsum(h[3:].astype(np.float64)), rel_tol=1e-6, abs_tol=1e-3)
    for h, a in zip(hs, sums[12:]):
        assert int(a) == int(np.argmax(h[::3]))
    assert xp.runtime_stats()["host_fallbacks"] == {}


@pytest.mark.parametrize("sg,vec,tree", [(True, True, 1), (True, True, 0), (False, True, 1),
                                         (True, False, 1), (False, False, 1)])
def test_subgroup_and_portable_paths(sg, vec, tree):
    """The subgroup tree (where the device has shuffles), a subgroup per row (SGROWS), the
    shared-memory tree (forced through _launch.USE_SUBGROUPS / _reduce.SG_TREE) and the scalar
    loads (_reduce.USE_VEC): all agree with numpy, and each is deterministic."""
    old = (_L.USE_SUBGROUPS, _R.USE_VEC, _R.SG_TREE)
    _L.USE_SUBGROUPS, _R.USE_VEC, _R.SG_TREE = sg, vec, tree
    try:
        rng = np.random.default_rng(21)
        for dtname in ("float32", "int32"):
            dt = getattr(xp, dtname)
            # (600 rows: a subgroup per row (SGROWS) in _sg variants)
            for shape, axis in (((100_003,), None), ((1000, 36), 0), ((513, 12), 0),
                                ((600, 999), 1)):
                for op in ("sum", "argmax", "var") if dt._np.kind == "f" else ("max", "argmin"):
                    h = values(dt, shape, rng, op)
                    x = dev(h)
                    _bw_check(op, h, x, axis)
                    a = np.asarray(getattr(xp, op)(x, axis=axis)).tobytes()
                    assert np.asarray(getattr(xp, op)(x, axis=axis)).tobytes() == a
    finally:
        _L.USE_SUBGROUPS, _R.USE_VEC, _R.SG_TREE = old


@pytest.mark.parametrize("dtname", ["float32", "float64", "int32"])
def test_four_loads_in_flight_give_the_same_bits(dtname, monkeypatch):
    """ROWS mode with 4 vector loads in flight (_reduce.LOADS_*, the GPU tuning knob) gives the
    same bits as with 2: each lane takes its elements in the same order. Lengths where the
    4-load loop leaves 0-3 vectors to the 2-load loop and the tail (few long chunks, so that an
    invocation takes many vectors)."""
    if not has(dtname):
        pytest.skip(f"no {dtname}")
    monkeypatch.setattr(_R, "TARGET_GROUPS", 3)
    monkeypatch.setattr(_R, "TARGET_GROUPS_GPU", 3)
    dt = getattr(xp, dtname)
    rng = np.random.default_rng(zlib.crc32(dtname.encode()) + 4)
    ops = ("sum", "mean", "var", "max", "argmin") if dt._np.kind == "f" else ("sum", "max", "argmin")
    for n in (4096 * 7 + 3, 256 * 4 * 13 + 256 * 4 * 3 + 5, 1_000_003):
        h = values(dt, (n,), rng, "sum")
        x = dev(h)
        got = {}
        for loads in (2, 4):
            monkeypatch.setattr(_R, "LOADS_CPU", loads)
            monkeypatch.setattr(_R, "LOADS_GPU", loads)
            got[loads] = [np.asarray(getattr(xp, op)(x)).tobytes() for op in ops]
        assert got[2] == got[4]
        for op in ops:
            _bw_check(op, h, x)


def test_large_matrix_axes():
    """Axis 0 (COLS: a column group an invocation, 4 columns a vector load, rows split into
    chunks) and axis 1 (ROWS) of large float32 matrices, also with a column count that is not
    a multiple of 4 (scalar COLS) and a transposed view."""
    rng = np.random.default_rng(4)
    xp.reset_runtime_stats()
    for shape in ((1024, 1024), (777, 1023), (4096, 64)):
        h = rng.standard_normal(shape).astype(np.float32)
        x = dev(h)
        for axis in (0, 1):
            for op in ("sum", "max", "argmax", "var", "mean"):
                _bw_check(op, h, x, axis)
        _bw_check("sum", h.T, x.T, 0)
        _bw_check("argmin", h.T, x.T, 1)
        # negative strides: column groups walked upwards (COLS), rows read backwards (scalar)
        _bw_check("sum", h[::-1], x[::-1], 0)
        _bw_check("argmax", h[::-1, 4:], x[::-1, 4:], 0)
        _bw_check("var", h[:, ::-1], x[:, ::-1], 1)
    assert xp.runtime_stats()["host_fallbacks"] == {}


@pytest.mark.parametrize("lanes", [1, 2, 8, 16])
def test_cols_lanes(lanes, monkeypatch):
    """COLS with lanes splitting each chunk (_reduce.COLS_LANES_*, reduce.comp RL_BIT; lane l
    takes rows l, l + lanes, ...; here wherever a lane gets at least 16 rows): every op agrees
    with numpy, vector and scalar column groups, views, float64 and integers; integer results
    and argmax/argmin are the same whatever the lanes (ties: the first row, though a later lane
    holds it); var about a large offset."""
    for name in ("COLS_LANES_CPU", "COLS_LANES_GPU"):
        monkeypatch.setattr(_R, name, lanes)
    for name in ("MIN_COLS_CHUNK", "MIN_COLS_CHUNK_GPU"):  # (so that 16 lanes fit 260 rows)
        monkeypatch.setattr(_R, name, 16)
    rng = np.random.default_rng(71)
    xp.reset_runtime_stats()
    for shape, dt in (((1000, 512), np.float32), ((333, 257), np.float32), ((260, 64), FLOAT._np)):
        h = rng.standard_normal(shape).astype(dt)
        x = dev(h)
        for op in ("sum", "mean", "max", "argmax", "argmin", "var", "std", "prod"):
            _bw_check(op, h, x, 0)
        _bw_check("sum", h[::-1, 3:], x[::-1, 3:], 0)
        _bw_check("var", h + 1e4, dev(h + 1e4), 0)
    hi = rng.integers(-3, 4, (999, 300)).astype(np.int32)
    xi = dev(hi)
    got = [np.asarray(f(xi, axis=0)) for f in (xp.sum, xp.argmax, xp.argmin, xp.count_nonzero)]
    monkeypatch.setattr(_R, "COLS_LANES_CPU", 1)
    monkeypatch.setattr(_R, "COLS_LANES_GPU", 1)
    one = [np.asarray(f(xi, axis=0)) for f in (xp.sum, xp.argmax, xp.argmin, xp.count_nonzero)]
    for g, o, want in zip(got, one, (hi.sum(0), hi.argmax(0), hi.argmin(0), np.count_nonzero(hi, 0))):
        np.testing.assert_array_equal(g, want)
        np.testing.assert_array_equal(o, want)
    assert xp.runtime_stats()["host_fallbacks"] == {}


@pytest.mark.parametrize("pack", [True, False])
def test_tall_narrow_axis0(pack, monkeypatch):
    """Axis 0 of tall matrices with few columns (a k-means column count, PCA's mean): COLS with
    several chunks a workgroup and [row][chunk] partials (_reduce.USE_PACK), or one chunk a
    workgroup. Both agree with numpy, also for a view, an odd column count and int32."""
    monkeypatch.setattr(_R, "USE_PACK", pack)
    rng = np.random.default_rng(33)
    xp.reset_runtime_stats()
    for shape in ((200_000, 32), (100_001, 3), (50_000, 64), (20_000, 300)):
        h = rng.standard_normal(shape).astype(np.float32)
        x = dev(h)
        for op in ("sum", "mean", "max", "argmax", "var"):
            _bw_check(op, h, x, 0)
        _bw_check("sum", h[1:, 1:], x[1:, 1:], 0)
        hi = rng.integers(-1000, 1000, shape).astype(np.int32)
        _bw_check("sum", hi, dev(hi), 0)
        _bw_check("argmin", hi, dev(hi), 0)
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_float32_sum_2p24_against_fsum():
    """2^24 float32 values of mixed sign and magnitude: within numpy's pairwise sum's error (or
    a few ulps of the exact sum) of math.fsum, and the mean and var of them too."""
    rng = np.random.default_rng(24)
    n = 1 << 24
    h = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(np.float32)
    x = dev(h)
    h64 = h.astype(np.float64)
    exact = math.fsum(h64)
    got = float(xp.sum(x))
    eps = float(np.finfo(np.float32).eps)
    numpys = abs(float(np.sum(h)) - exact)
    assert abs(got - exact) <= max(numpys, 4 * eps * float(np.sum(np.abs(h64)))), (got, exact)
    np.testing.assert_allclose(float(xp.var(x)), float(np.var(h64)), rtol=1e-6)
    ones = xp.ones((n + 6,), dtype=xp.float32)  # (a tail of 2; 2^24 + 6 is a float32)
    assert float(xp.sum(ones)) == n + 6


def test_var_outliers_and_offsets():
    """The one-pass var (Chan's merges of (count, mean, M2) about each lane's first element):
    a far outlier as the first element, a large offset, constant rows (exactly 0)."""
    rng = np.random.default_rng(9)
    for dtname in ("float32", "float64"):
        if not has(dtname):
            continue
        npdt = np.dtype(dtname)
        h = rng.standard_normal(200_001).astype(npdt)
        h[0] = 1e4
        h[77_777] = -3e3
        for v in (h, h + npdt.type(1e5), np.full(5000, 3.25, npdt)):
            x = dev(v)
            for corr in (0, 1):
                got = float(xp.var(x, correction=corr))
                want = float(np.var(v.astype(np.float64), ddof=corr))
                assert abs(got - want) <= 1e-5 * want + 1e-30, (dtname, got, want)
        m = (rng.standard_normal((300, 500)) + 1e3).astype(npdt)
        m[:, 0] = -5e3
        x = dev(m)
        for axis in (0, 1):
            np.testing.assert_allclose(np.asarray(xp.std(x, axis=axis)),
                                       np.std(m.astype(np.float64), axis=axis), rtol=2e-5)


@pytest.mark.parametrize("fn", ["var", "std"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_var_std_propagate_nan_and_inf_in_a_one_element_lane(fn, dt):
    """A lane's M2 from a NaN (or inf - inf) stays NaN: its clamp at 0 must not drop it
    (array-api-tests' test_nan_propagation found var([nan]) == 0)."""
    if not has(dt):
        pytest.skip(f"no {dt}")
    for vals in ([np.nan], [np.inf], [-np.inf], [1.0, np.nan], [2.0]):
        x = np.array(vals, dtype=dt)
        got = float(getattr(xp, fn)(xp.asarray(x)))
        want = float(getattr(np, fn)(x)) if np.isfinite(x).all() else np.nan
        assert (np.isnan(got) and np.isnan(want)) or got == want, (vals, got)
    m = np.array([[np.nan, 1.0], [3.0, 4.0]], dtype=dt)
    got = np.asarray(getattr(xp, fn)(xp.asarray(m), axis=0))
    assert np.isnan(got[0]) and got[1] == getattr(np, fn)(m[:, 1])


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("shape,axis", [((7,), None), ((1 << 20,), None), ((4096, 64), 0),
                                        ((64, 4096), 1), ((3000, 3), 1), ((300, 5000), 0)])
def test_var_std_overflow_is_inf_and_infinities_nan(dt, shape, axis):
    """Finite elements whose squared deviations leave the dtype's range give +inf, as numpy's
    (sums of deviations about a lane's first element overflowed to inf - inf: NaN, found by
    scripts/fuzz_strict.py seed 45); an infinity anywhere in a row still gives NaN. Each path:
    short and long rows, several passes, COLS lanes, subgroup rows."""
    if not has(dt):
        pytest.skip(f"no {dt}")
    big = float(np.finfo(dt).max) * 0.9
    rng = np.random.default_rng(7)
    x = rng.standard_normal(shape).astype(dt)
    flat = x.reshape(-1)
    n = flat.size
    pos = rng.choice(n, size=min(n, 40), replace=False)
    flat[pos[: len(pos) // 2]] = big
    flat[pos[len(pos) // 2:]] = -big
    flat[0] = np.inf  # (row or column 0 holds an infinity)
    for fn in ("var", "std"):
        got = np.asarray(getattr(xp, fn)(xp.asarray(x), axis=axis))
        with np.errstate(all="ignore"):
            want = getattr(np, fn)(x, axis=axis)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=fn)
        np.testing.assert_array_equal(np.isposinf(got), np.isposinf(want), err_msg=fn)
        fin = np.isfinite(want)
        np.testing.assert_allclose(got[fin], want[fin], rtol=1e-3)
