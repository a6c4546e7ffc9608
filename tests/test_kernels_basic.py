"""Issue 2's native minimum: creation, astype and float32 arithmetic run as Vulkan kernels."""
import warnings

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import _kernels
from conftest import cast_is_native, computes_natively, has

DEV = xp.__array_namespace_info__().default_device()
DTYPES = [d for d in xp.__array_namespace_info__().dtypes(device=DEV).values()]


def dev(h):
    """Upload without the spec layer's asarray (which counts itself as a host round trip)."""
    from array_api_vulkan._array_object import Array
    from array_api_vulkan._dtypes import from_np

    h = np.array(h, order="C")  # (np.ascontiguousarray makes 0-d arrays 1-d)
    return Array._new(DEV.upload(h), from_np(h.dtype), h.shape)


@pytest.fixture
def no_fallbacks():
    xp.reset_runtime_stats()
    yield
    assert xp.runtime_stats()["host_fallbacks"] == {}


@pytest.fixture
def fallbacks():
    """The host fallbacks since the test began, for tests that check them themselves."""
    xp.reset_runtime_stats()
    return lambda: xp.runtime_stats()["host_fallbacks"]


def host(x):
    return np.asarray(x)


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.name)
def test_full_zeros_ones_empty(dt, fallbacks):
    val = {"b": True, "i": -3, "u": 7, "f": 2.5, "c": 1.5 - 2j}[dt._np.kind]
    for shape in [(), (0,), (5,), (3, 4), (1000, 3)]:
        np.testing.assert_array_equal(host(xp.full(shape, val, dtype=dt)), np.full(shape, val, dt._np))
        np.testing.assert_array_equal(host(xp.zeros(shape, dtype=dt)), np.zeros(shape, dt._np))
        np.testing.assert_array_equal(host(xp.ones(shape, dtype=dt)), np.ones(shape, dt._np))
        assert xp.empty(shape, dtype=dt).shape == shape
    x = xp.zeros((2, 3), dtype=dt)
    np.testing.assert_array_equal(host(xp.ones_like(x)), np.ones((2, 3), dt._np))
    np.testing.assert_array_equal(host(xp.full_like(x, val)), np.full((2, 3), val, dt._np))
    # bool without 8-bit storage: no kernel writes it, each call is one counted host round trip
    assert fallbacks() == ({} if computes_natively(dt) else
                           {"full": 5, "zeros": 6, "ones": 5, "ones_like": 1, "full_like": 1})


def test_full_extremes(no_fallbacks):
    for dt in DTYPES:
        if dt._np.kind in "iu":
            info = np.iinfo(dt._np)
            for v in (info.min, info.max):
                np.testing.assert_array_equal(host(xp.full((3,), v, dtype=dt)), np.full(3, v, dt._np))
        if dt._np.kind == "f":
            for v in (np.inf, -np.inf, -0.0, 1e-40, np.finfo(dt._np).max):
                r = host(xp.full((2,), v, dtype=dt))
                np.testing.assert_array_equal(r, np.full(2, v, dt._np))
                assert np.signbit(r[0]) == np.signbit(v)
            assert np.isnan(host(xp.full((2,), np.nan, dtype=dt))).all()


@pytest.mark.parametrize("dt", [d for d in DTYPES if d._np.kind in "iuf"], ids=lambda d: d.name)
def test_arange(dt, no_fallbacks):
    cases = [(0, 10, 1), (5, -3, -2), (3, 4, 7), (0, 0, 1)]
    if dt._np.kind == "u":
        cases = [(0, 10, 1), (20, 3, -3), (3, 4, 7)]
    if dt._np.kind == "f":
        cases += [(0.1, 1.0, 0.1), (-2.5, 7.25, 0.75), (1, 1e6, 3.3), (0.8999999999999999, 30, 2.9)]
    for start, stop, step in cases:
        if dt.itemsize == 1 and abs(stop) > 100:
            continue
        ref = np.arange(start, stop, step, dtype=dt._np)
        got = host(xp.arange(start, stop, step, dtype=dt))
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.name)
def test_eye(dt, fallbacks):
    cases = [(3, None, 0), (4, 6, 1), (5, 2, -1), (3, 3, 5), (3, 3, -7), (0, 3, 0), (1, 1, 0)]
    for n, m, k in cases:
        np.testing.assert_array_equal(host(xp.eye(n, m, k=k, dtype=dt)), np.eye(n, m, k=k, dtype=dt._np))
    assert fallbacks() == ({} if computes_natively(dt) else {"eye": len(cases)})


def _values(dt, n=64, seed=0):
    rng = np.random.default_rng(seed)
    k = dt._np.kind
    if k == "b":
        return rng.integers(0, 2, n).astype(bool)
    if k in "iu":
        info = np.iinfo(dt._np)
        v = rng.integers(info.min, info.max, n, dtype=dt._np, endpoint=True)
        v[:4] = [0, 1, info.max, info.min]
        return v
    v = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n))
    if k == "c":
        v = v + 1j * rng.standard_normal(n)
    v = v.astype(dt._np)
    v[:6] = [0, -0.0, np.inf, -np.inf, np.nan, 1e30]
    return v


def _ref_cast(h, to):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            if to.kind == "b":
                return h != 0
            if h.dtype.kind == "c" and to.kind != "c":
                h = h.real
            return h.astype(to)


@pytest.mark.parametrize("src", DTYPES, ids=lambda d: d.name)
def test_astype_all_pairs(src, fallbacks):
    h = _values(src)
    x = dev(h)
    xp.reset_runtime_stats()
    host_casts = 0
    for dst in DTYPES:
        assert _kernels.supports_cast(src, dst, x.device) == cast_is_native(src, dst)
        if not cast_is_native(src, dst):
            # the device lacks a feature this cast's kernel needs (bool: 8-bit storage;
            # float -> unsigned: int64): the spec layer's astype falls back, counted
            with pytest.raises(_kernels.NotNative):
                _kernels.astype(x, dst)
            if src._np.kind == "c" and dst._np.kind not in "cb":
                with pytest.raises(TypeError):  # (the standard does not permit it)
                    xp.astype(x, dst)
                continue
            out = xp.astype(x, dst)
            host_casts += 1
        else:
            out = _kernels.astype(x, dst)
        got = host(out)
        ref = _ref_cast(h, dst._np)
        if src._np.kind in "fc" and dst._np.kind in "iu":
            # out-of-range and non-finite float -> integer conversions are undefined
            hr = h.real if src._np.kind == "c" else h
            info = np.iinfo(dst._np)
            ok = np.isfinite(hr) & (hr > info.min - 1) & (hr < info.max + 1)
            np.testing.assert_array_equal(got[ok], ref[ok], err_msg=f"{src.name}->{dst.name}")
        else:
            np.testing.assert_array_equal(got, ref, err_msg=f"{src.name}->{dst.name}")
    assert fallbacks() == ({"astype": host_casts} if host_casts else {})


def test_astype_noncontiguous_and_copy(no_fallbacks):
    h = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = dev(h)
    xp.reset_runtime_stats()
    for view, hv in [(x[:, ::2, 1:], h[:, ::2, 1:]), (xp.permute_dims(x, (2, 0, 1)), h.transpose(2, 0, 1)),
                     (x[::-1, 1, ::-2], h[::-1, 1, ::-2]), (x[1, 2, 3], h[1, 2, 3])]:
        for dt in (xp.float32, xp.int32, xp.complex64):
            np.testing.assert_array_equal(host(xp.astype(view, dt)), hv.astype(dt._np))


OPS32 = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide}


@pytest.mark.parametrize("name", sorted(OPS32))
def test_float32_arithmetic(name, no_fallbacks):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((7, 9)).astype(np.float32)
    b = rng.standard_normal((7, 9)).astype(np.float32)
    b[0, 0] = 0
    a[1, :3] = [np.inf, np.nan, -0.0]
    x, y = dev(a), dev(b)
    fn, ref = getattr(xp, name), OPS32[name]
    with np.errstate(all="ignore"):
        cases = [(fn(x, y), ref(a, b)), (fn(x, 2.5), ref(a, np.float32(2.5))),
                 (fn(-1.5, y), ref(np.float32(-1.5), b)), (fn(x[:, 1:2], y[3]), ref(a[:, 1:2], b[3])),
                 (fn(x.T, y.T), ref(a.T, b.T)), (fn(x[::2, ::-3], y[::2, ::3]), ref(a[::2, ::-3], b[::2, ::3])),
                 (fn(x[0, 0], y[1, 1]), ref(a[0, 0], b[1, 1]))]
    for got, want in cases:
        assert got.dtype == xp.float32
        np.testing.assert_array_equal(host(got), want)


def test_float32_negative_and_operators(no_fallbacks):
    a = np.array([[1.5, -0.0, np.inf], [np.nan, 3e38, -1e-40]], np.float32)
    x = dev(a)
    np.testing.assert_array_equal(host(xp.negative(x)), -a)
    np.testing.assert_array_equal(host(-x), -a)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(host(x + x * 2 - x / 3), a + a * np.float32(2) - a / np.float32(3))
    np.testing.assert_array_equal(host(1 - x), np.float32(1) - a)


def test_large_and_empty(no_fallbacks):
    n = 3_000_000  # past one 65535-group row of the dispatch grid
    x = xp.arange(n, dtype=xp.float32)
    y = xp.full((n,), 0.5, dtype=xp.float32)
    got = host(x * y + 1.0)
    np.testing.assert_array_equal(got, np.arange(n, dtype=np.float32) * np.float32(0.5) + 1)
    e = xp.zeros((0, 3), dtype=xp.float32)
    assert (e + e).shape == (0, 3)
    assert host(e - 1.0).shape == (0, 3)


def test_high_rank_views_and_broadcasting(no_fallbacks):
    """Ranks beyond what the push block describes after collapsing go through a contiguous copy."""
    rng = np.random.default_rng(3)
    shape = (2, 3, 2, 3, 2, 3, 2, 3, 2)
    a = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape[1:]).astype(np.float32)
    x, y = dev(a), dev(b)
    perm = (8, 0, 7, 1, 6, 2, 5, 3, 4)
    xv = xp.permute_dims(x, perm)
    av = a.transpose(perm)
    yv = xp.permute_dims(y, (7, 0, 6, 1, 5, 2, 4, 3))[:, ::-1]
    bv = b.transpose(7, 0, 6, 1, 5, 2, 4, 3)[:, ::-1]
    np.testing.assert_array_equal(host(xv[0] * 2.0), av[0] * np.float32(2))
    np.testing.assert_array_equal(host(xp.subtract(xv[1], yv)), av[1] - bv)
    for dt in [xp.float64, xp.complex64] if has("float64") else [xp.complex64]:
        np.testing.assert_array_equal(host(xp.astype(xv, dt)), av.astype(dt._np))
    np.testing.assert_array_equal(host(xp.clip(xv[0], -0.5, yv)), np.minimum(np.maximum(av[0], -0.5), bv))


def test_integer_semantics(no_fallbacks):
    """numpy's integer results: division by zero gives 0, MIN // -1 wraps, shifts past the width."""
    for dt in DTYPES:
        if dt._np.kind not in "iu":
            continue
        info = np.iinfo(dt._np)
        a = np.array([7, -7, info.min, info.max, 0, 5], dt._np) if dt._np.kind == "i" else \
            np.array([7, 9, info.max, 0, 5, 1], dt._np)
        b = np.array([0, 2, -1, 3, 0, -2], dt._np) if dt._np.kind == "i" else \
            np.array([0, 2, 1, 3, 0, 4], dt._np)
        x, y = dev(a), dev(b)
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(host(xp.floor_divide(x, y)), np.floor_divide(a, b), err_msg=dt.name)
            np.testing.assert_array_equal(host(xp.remainder(x, y)), np.remainder(a, b), err_msg=dt.name)
        bits = 8 * dt.itemsize
        s = np.array([0, 1, bits - 1, bits, bits + 5, 3], dt._np)
        np.testing.assert_array_equal(host(xp.bitwise_left_shift(x, dev(s))), np.left_shift(a, s), err_msg=dt.name)
        np.testing.assert_array_equal(host(xp.bitwise_right_shift(x, dev(s))), np.right_shift(a, s), err_msg=dt.name)
        np.testing.assert_array_equal(host(x + x), a + a, err_msg=dt.name)
        np.testing.assert_array_equal(host(x * x), a * a, err_msg=dt.name)


def test_variants_without_float64(no_fallbacks):
    """The float32/complex64 variants for devices without float64 (plain float32 division)."""
    from array_api_vulkan._kernels import _launch

    class NoF64:
        supports_float64 = False

    rng = np.random.default_rng(5)
    a = rng.standard_normal(100).astype(np.float32)
    b = rng.standard_normal(100).astype(np.float32)
    x, y = dev(a), dev(b)
    for name, ref in (("divide", np.divide), ("floor_divide", np.floor_divide)):
        op = _launch.table.lookup(name, "f")
        shader = _launch.variant("binary", "f", "f", name, NoF64())
        assert shader.endswith("_nof64")
        out = xp.empty((100,), dtype=xp.float32)
        assert _launch.map_op(shader, op.code, out, [x, y], 2)
        np.testing.assert_allclose(host(out), ref(a, b), rtol=1e-6)


def test_clip_with_missing_bounds(no_fallbacks):
    for dt in DTYPES:
        if dt._np.kind not in "iuf":
            continue
        h = np.array([0, 1, 5, 100, 127], dt._np)
        x = dev(h)
        got = _kernels.elementwise("clip", [x, None, 7], dt, x.shape)
        np.testing.assert_array_equal(host(got), np.minimum(h, np.asarray(7, dt._np)))
        got = _kernels.elementwise("clip", [x, 3, None], dt, x.shape)
        np.testing.assert_array_equal(host(got), np.maximum(h, np.asarray(3, dt._np)))


def test_denorm_preserve_choice():
    from array_api_vulkan._kernels import _launch

    class D:
        def __init__(self, info):
            self.info = info

    assert _launch.denorm_preserve(D({"float_controls": {"denorm_preserve_f32": True}}))
    assert _launch.denorm_preserve(D({"float_controls": {"denorm_preserve_f32": False},
                                      "vendor_id": 0x10DE}))
    assert not _launch.denorm_preserve(D({"float_controls": {"denorm_preserve_f32": False},
                                          "vendor_id": 0x1002}))
    assert _launch.denorm_preserve(D({"vendor_id": 0x10DE}))
    assert not _launch.denorm_preserve(D({"vendor_id": 0x10005}))
