"""Host fallbacks: counted once per call, numpy's values, and the standard's special cases
where numpy differs from it (checked with the kernels layer switched off)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import array_api_vulkan as xp
from array_api_vulkan import _kernels
from conftest import COMPLEX, FLOAT, INT, UINT, first

FAST = settings(max_examples=30, deadline=None)


def host(x):
    return np.asarray(x)


@pytest.fixture
def no_kernels(monkeypatch):
    """Force every function onto the numpy host path."""
    # (the spec layer asks supports_* first (docs/design.md, "ask first"): a falsy answer is
    # "not native"; sort, unique and searchsorted are replaced too, so nothing reaches a kernel)
    for name in ("sort", "unique", "searchsorted", "supports_reduce", "supports_scan",
                 "supports_sort", "supports_cast", "supports_elementwise", "supports_fill",
                 "supports_linspace", "supports_gather", "supports_compact",
                 "supports_compact_values"):
        monkeypatch.setattr(_kernels, name, lambda *a, **k: None)
    # Plans made before would still run natively: start each op without them, and without the
    # reductions' resolved calls (a repeated call does not ask supports_reduce again).
    from array_api_vulkan import _elementwise_functions as ew, _statistical_functions as sf

    monkeypatch.setattr(sf, "_RESOLVED", {})

    for op in vars(ew).values():
        if isinstance(op, ew.ElementwiseOp):
            monkeypatch.setattr(op, "_plans", {})
            monkeypatch.setattr(op, "_compiled", {})


def fallbacks():
    return dict(xp.runtime_stats()["host_fallbacks"])


def test_one_count_per_fallback_call(no_kernels):
    x = xp.asarray([3.0, 1.0, 2.0])
    before = fallbacks()
    xp.sort(x)
    xp.add(x, 1)
    xp.linalg.eig(xp.reshape(xp.concat([x] * 3), (3, 3)))
    after = fallbacks()
    for name in ("sort", "add", "eig"):
        assert after.get(name, 0) - before.get(name, 0) == 1, name


def test_views_need_no_fallback():
    x = xp.ones((4, 6))
    before = fallbacks()
    xp.reshape(x, (6, 4)), xp.permute_dims(x, (1, 0)), xp.flip(x), x[1:, ::2], x.mT
    xp.expand_dims(x, axis=(0, 3)), xp.squeeze(x[None], axis=0), xp.broadcast_to(x, (2, 4, 6))
    xp.linalg.diagonal(x, offset=1), xp.unstack(x), xp.meshgrid(x[0], x[:, 0])
    assert fallbacks() == before


INF = math.inf


def test_floor_divide_with_infinities(no_kernels):
    a = xp.asarray([5.0, -5.0, 5.0, -5.0, INF, -INF, INF, 7.0])
    b = xp.asarray([INF, INF, -INF, -INF, 2.0, 2.0, -3.0, 2.0])
    r = host(xp.floor_divide(a, b))
    want = [0.0, -0.0, -0.0, 0.0, INF, -INF, -INF, 3.0]
    np.testing.assert_array_equal(r, want)
    assert list(np.signbit(r)) == [False, True, True, False, False, True, True, False]
    np.testing.assert_array_equal(host(a // 2.0), host(xp.floor_divide(a, 2.0)))


def cplx(re, im):
    return complex(re, im)


def test_complex_expm1_special_cases(no_kernels):
    z = xp.asarray([cplx(0.0, 0.0), cplx(-0.0, 0.0), cplx(1.0, INF), cplx(INF, 0.0),
                    cplx(-INF, 1.0), cplx(-INF, INF), cplx(INF, INF), cplx(math.nan, 0.0),
                    cplx(1e-10, 1e-10)])
    r = host(xp.expm1(z))
    assert r[0] == 0 and not np.signbit(r[0].real) and r[1] == 0 and not np.signbit(r[1].real)
    assert np.isnan(r[2].real) and np.isnan(r[2].imag)
    assert r[3].real == INF and r[3].imag == 0
    assert r[4].real == -1 and r[4].imag == 0
    assert r[5].real == -1 and r[5].imag == 0
    assert np.isinf(r[6].real) and np.isnan(r[6].imag)
    assert np.isnan(r[7].real) and r[7].imag == 0
    # (no cancellation: exp(z) - 1 would be 0 or far off; complex64 without float64)
    np.testing.assert_allclose(r[8], np.expm1(1e-10 + 1e-10j), rtol=1e-12 if r.dtype == np.complex128
                               else 4 * np.finfo(np.float32).eps)


def test_complex_tanh_special_cases(no_kernels):
    z = xp.asarray([cplx(0.0, INF), cplx(0.0, math.nan), cplx(INF, 3.0), cplx(-INF, -3.0)])
    r = host(xp.tanh(z))
    assert r[0].real == 0 and np.isnan(r[0].imag)
    assert r[1].real == 0 and np.isnan(r[1].imag)
    assert r[2] == 1 and not np.signbit(r[2].imag)
    assert r[3] == -1 and np.signbit(r[3].imag)


@FAST
@given(a=hnp.arrays(np.float32, hnp.array_shapes(max_dims=3, max_side=5),
                    elements=st.floats(-2, 2, width=32)))
def test_reductions_match_numpy(a):
    x = xp.asarray(a)
    for f, g in ((xp.sum, np.sum), (xp.mean, np.mean), (xp.std, np.std), (xp.prod, np.prod)):
        if a.size == 0 and f is not xp.sum:
            continue
        np.testing.assert_allclose(host(f(x)), g(a, dtype=np.float64), rtol=1e-3, atol=1e-3)
    if a.ndim:
        np.testing.assert_array_equal(host(xp.cumulative_sum(x, axis=0)),
                                      np.cumsum(a, axis=0, dtype=np.float32))
        if a.size:
            np.testing.assert_array_equal(host(xp.max(x, axis=0)), np.max(a, axis=0))
    assert xp.sum(xp.asarray(a.astype(np.int8))).dtype == INT
    assert xp.sum(xp.asarray(a.astype(np.uint8))).dtype == UINT


@FAST
@given(a=hnp.arrays(np.int16, hnp.array_shapes(min_dims=1, max_dims=2, max_side=6),
                    elements=st.integers(-3, 3)),
       descending=st.booleans())
def test_sorting_matches_numpy(a, descending):
    x = xp.asarray(a)
    s = host(xp.sort(x, axis=-1, descending=descending))
    want = np.sort(a, axis=-1)
    np.testing.assert_array_equal(s, want[..., ::-1] if descending else want)
    i = host(xp.argsort(x, axis=-1, descending=descending, stable=True))
    np.testing.assert_array_equal(np.take_along_axis(a, i, axis=-1), s)
    if not descending:
        np.testing.assert_array_equal(i, np.argsort(a, axis=-1, kind="stable"))
    else:
        # stable: equal elements keep their order
        rows = i.reshape(-1, a.shape[-1]) if a.ndim else i
        vals = s.reshape(rows.shape)
        for r, v in zip(rows, vals):
            for j in range(len(r) - 1):
                if v[j] == v[j + 1]:
                    assert r[j] < r[j + 1]


def test_unique_functions_sorted_and_nan_distinct():
    a = np.array([3.0, 1.0, np.nan, 3.0, np.nan, 2.0])
    x = xp.asarray(a)
    v = host(xp.unique_values(x))
    assert v[:3].tolist() == [1.0, 2.0, 3.0] and np.isnan(v[3:]).sum() == 2
    u = xp.unique_all(x)
    assert host(u.counts)[:3].tolist() == [1, 1, 2]
    assert host(u.indices)[:3].tolist() == [1, 5, 0]
    inv = xp.unique_inverse(xp.reshape(x, (2, 3)))
    assert inv.inverse_indices.shape == (2, 3)
    np.testing.assert_array_equal(host(inv.values)[host(inv.inverse_indices)][~np.isnan(
        a.reshape(2, 3))], a.reshape(2, 3)[~np.isnan(a.reshape(2, 3))])
    c = xp.unique_counts(xp.asarray([2, 2, 1]))
    assert host(c.values).tolist() == [1, 2] and host(c.counts).tolist() == [1, 2]


def test_searching_functions():
    a = xp.asarray([1.0, 2.0, 2.0, 5.0])
    assert host(xp.searchsorted(a, xp.asarray([2.0, 6.0]))).tolist() == [1, 4]
    assert host(xp.searchsorted(a, 2.0, side="right")).tolist() == 3
    assert host(xp.argmax(a)).tolist() == 3 and xp.argmax(a).dtype == INT
    assert host(xp.argmin(xp.reshape(a, (2, 2)), axis=1, keepdims=True)).tolist() == [[0], [0]]
    nz = xp.nonzero(xp.asarray([[0, 1], [2, 0]]))
    assert [host(n).tolist() for n in nz] == [[0, 1], [1, 0]]
    assert int(xp.count_nonzero(xp.asarray([0, 3, 4]))) == 2
    assert host(xp.isin(xp.asarray([1, 2, 3]), xp.asarray([2]))).tolist() == [False, True, False]
    with pytest.raises(ValueError):
        xp.nonzero(xp.asarray(1))


def test_manipulation_fallbacks_match_numpy():
    a = np.arange(6).reshape(2, 3)
    x = xp.asarray(a)
    np.testing.assert_array_equal(host(xp.concat([x, x], axis=1)), np.concatenate([a, a], 1))
    np.testing.assert_array_equal(host(xp.concat([x, x], axis=None)),
                                  np.concatenate([a.ravel(), a.ravel()]))
    np.testing.assert_array_equal(host(xp.stack([x, x], axis=-1)), np.stack([a, a], -1))
    np.testing.assert_array_equal(host(xp.roll(x, 1, axis=1)), np.roll(a, 1, axis=1))
    np.testing.assert_array_equal(host(xp.repeat(x, 2, axis=0)), np.repeat(a, 2, axis=0))
    np.testing.assert_array_equal(host(xp.tile(x, (2, 1))), np.tile(a, (2, 1)))
    np.testing.assert_array_equal(host(xp.take(x, xp.asarray([2, 0]), axis=1)), a[:, [2, 0]])
    np.testing.assert_array_equal(host(xp.diff(x, axis=1)), np.diff(a, axis=1))
    small = first("int8", "int16", "int32")  # x is of the default integer dtype, as wide or wider
    assert x.dtype == INT and xp.concat([x, xp.asarray([[1, 2, 3]], dtype=small)]).dtype == INT


@FAST
@given(shape=hnp.array_shapes(max_dims=4, max_side=4), data=st.data())
def test_reshape_views_and_copies(shape, data):
    a = np.arange(int(np.prod(shape))).reshape(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    x = xp.permute_dims(xp.asarray(a), tuple(perm))
    b = a.transpose(perm)
    new = data.draw(st.sampled_from([(-1,), (b.size,), (1, -1), b.shape[::-1]]))
    r = xp.reshape(x, new)
    np.testing.assert_array_equal(host(r), b.reshape(new))
    try:
        v = xp.reshape(x, new, copy=False)
    except ValueError:
        assert not np.shares_memory(b.reshape(new), a)
    else:
        assert v._alloc is x._alloc
        np.testing.assert_array_equal(host(v), b.reshape(new))


def test_linalg_matches_numpy():
    rng = np.random.default_rng(0)
    # float64 (float32 on a device without it: numpy's float32 LAPACK then, and a looser atol)
    a = rng.standard_normal((3, 3)).astype(FLOAT._np)
    s = a @ a.T + 3 * np.eye(3, dtype=a.dtype)
    atol = 1e-12 if FLOAT == xp.float64 else 1e-5
    # inv, cholesky, slogdet and solve are native (float32 there: a few ulps from numpy's)
    rtol = 1e-7 if FLOAT == xp.float64 else 4e-6
    x, sx = xp.asarray(a), xp.asarray(s)
    np.testing.assert_allclose(host(xp.linalg.inv(x)), np.linalg.inv(a), rtol=rtol)
    np.testing.assert_allclose(host(xp.linalg.cholesky(sx)), np.linalg.cholesky(s), rtol=rtol)
    np.testing.assert_allclose(host(xp.linalg.cholesky(sx, upper=True)),
                               np.linalg.cholesky(s).T, rtol=rtol)
    w, v = xp.linalg.eigh(sx)
    np.testing.assert_allclose(host(w), np.linalg.eigvalsh(s))
    q, r = xp.linalg.qr(x)
    np.testing.assert_allclose(host(q) @ host(r), a, atol=atol)
    sign, logdet = xp.linalg.slogdet(x)
    np.testing.assert_allclose(float(sign) * math.exp(float(logdet)), np.linalg.det(a),
                               rtol=rtol)
    np.testing.assert_allclose(host(xp.linalg.solve(x, xp.asarray([1.0, 2.0, 3.0]))),
                               np.linalg.solve(a, [1.0, 2.0, 3.0]), rtol=rtol)
    u, sv, vh = xp.linalg.svd(x, full_matrices=False)
    np.testing.assert_allclose((host(u) * host(sv)) @ host(vh), a, atol=atol)
    assert xp.linalg.eigvals(x).dtype == COMPLEX
    np.testing.assert_allclose(host(xp.linalg.diagonal(x, offset=-1)), np.diagonal(a, -1))
    np.testing.assert_allclose(float(xp.linalg.trace(x)), np.trace(a))
    np.testing.assert_allclose(host(xp.linalg.vector_norm(x, axis=1, ord=1)),
                               np.abs(a).sum(1))
    np.testing.assert_allclose(host(xp.tensordot(x, x, axes=1)), a @ a)
    np.testing.assert_allclose(host(xp.vecdot(x, x)), (a * a).sum(-1))
    f32 = xp.asarray(a, dtype=xp.float32)
    assert xp.linalg.svd(f32).S.dtype == xp.float32
    assert xp.linalg.eigh(f32).eigenvalues.dtype == xp.float32


def test_fft_keeps_precision_and_matches_numpy():
    a = np.arange(8, dtype=np.float32)
    x = xp.asarray(a)
    r = xp.fft.rfft(x)
    assert r.dtype == xp.complex64
    np.testing.assert_allclose(host(r), np.fft.rfft(a), rtol=1e-5, atol=1e-5)
    back = xp.fft.irfft(r, n=8)
    assert back.dtype == xp.float32
    np.testing.assert_allclose(host(back), a, atol=1e-5)
    c = xp.asarray(a.astype(np.complex128))
    np.testing.assert_allclose(host(xp.fft.fftn(c, norm="ortho")), np.fft.fftn(a, norm="ortho"))
    assert xp.fft.fftfreq(4, dtype=xp.float32).dtype == xp.float32
    np.testing.assert_array_equal(host(xp.fft.fftshift(x)), np.fft.fftshift(a))
    with pytest.raises(TypeError):
        xp.fft.fft(x)
