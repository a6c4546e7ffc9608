"""linalg.eigh and linalg.eigvalsh on the device (the linalg family's OP_EIGH, cyclic Jacobi):
eigenvalues against numpy's (ascending), A V = V diag(w) and V^T V = I, batched and strided
input, repeated eigenvalues, only the lower triangle read, NaN input, empty and 1 x 1 input;
real symmetric and complex Hermitian; no host fallback where native (up to EIGH_MAX); larger
ones fall back (counted) and still match numpy."""
import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import linalg
from array_api_vulkan._kernels import _linalg as _klinalg
from array_api_vulkan._runtime import runtime_stats

from conftest import FLOATING, REAL_FLOATING, computes_natively, normal

FLOATS, REALS = list(FLOATING), list(REAL_FLOATING)
_rng = np.random.default_rng(7)


def _np(dt):
    return np.dtype(dt.name)


def _sym(shape, dt):
    a = normal(_rng, shape, np.complex128 if _np(dt).kind == "c" else np.float64)
    return ((a + np.conj(np.swapaxes(a, -1, -2))) / 2).astype(_np(dt))


def _real(dt):
    return np.dtype(np.finfo(_np(dt)).dtype)


def _eps(dt):
    return float(np.finfo(_np(dt)).eps)


def _fallbacks():
    return dict(runtime_stats()["host_fallbacks"])


class native:
    """Asserts that the block ran without a host fallback (where dt computes natively)."""

    def __init__(self, dt, on=True):
        self.on = on and computes_natively(dt)

    def __enter__(self):
        self.before = _fallbacks()

    def __exit__(self, *exc):
        if exc[0] is None and self.on:
            assert _fallbacks() == self.before, "went through the host"


def _check(a, w, v, dt, s=1.0):
    """w ascending against numpy's, A V = V diag(w), V^T V = I (a: the symmetric matrices;
    a and w divided by s first, in float64)."""
    w, v = np.asarray(w), np.asarray(v)
    n = a.shape[-1]
    assert w.shape == a.shape[:-1] and v.shape == a.shape
    assert w.dtype == _real(dt) and v.dtype == _np(dt)
    wide = np.complex128 if _np(dt).kind == "c" else np.float64
    a64 = a.astype(wide) / s
    w = w.astype(np.float64) / s
    want = np.linalg.eigvalsh(a64)
    scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
    tol = 30 * n * _eps(dt) * scale
    np.testing.assert_allclose(w, want, rtol=0, atol=tol)
    assert np.all(np.diff(w, axis=-1) >= 0)
    v64 = v.astype(wide)
    np.testing.assert_allclose(a64 @ v64, v64 * w[..., None, :].astype(np.float64), rtol=0,
                               atol=tol)
    np.testing.assert_allclose(np.conj(np.swapaxes(v64, -1, -2)) @ v64, np.broadcast_to(np.eye(n), a.shape),
                               rtol=0, atol=30 * n * _eps(dt))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 16, 33, 64, 100])
def test_eigh_sizes(dt, n):
    """(Native where supports() says so: on CPU devices, orders whose sweeps stay within
    lavapipe's loop limit; 100 is past it there.)"""
    a = _sym((n, n), dt)
    x = xp.asarray(a)
    on = _klinalg.supports("eigh", x)
    with native(dt, on=on):
        w, v = linalg.eigh(x)
        wv = linalg.eigvalsh(x)
    _check(a, w, v, dt)
    if on:  # (one kernel: the same values; numpy's two routines differ in the last bits)
        np.testing.assert_array_equal(np.asarray(wv), np.asarray(w))


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
def test_eigh_few_matrices_wide_workgroups(dt, monkeypatch):
    """A few matrices take EIGH_WIDE_NT invocations each (GPUs; forced here on any device), V in
    device memory: the same results as the usual width."""
    a = _sym((2, 40, 40), dt)
    x = xp.asarray(a)
    with native(dt):
        w1, v1 = (np.asarray(t) for t in linalg.eigh(x))
    monkeypatch.setattr(_klinalg, "EIGH_WIDE_CPU", True)
    monkeypatch.setattr(_klinalg, "EIGH_V_SHARED_BYTES", 0)
    monkeypatch.setattr(_klinalg, "EIGH_V_SHARED_STACK_BYTES", 0)
    assert not _klinalg._eigh_gs(x._alloc.device, dt, 40, _klinalg.EIGH_WIDE_NT, True, 2)[2]
    _klinalg._plans.clear()
    seen = []
    step = _klinalg._step
    monkeypatch.setattr(_klinalg, "_step", lambda *a, **k: seen.append(step(*a, **k)) or seen[-1])
    with native(dt):
        w2, v2 = (np.asarray(t) for t in linalg.eigh(x))
    monkeypatch.undo()
    _klinalg._plans.clear()
    # (the step's specialisation constants: op, NT, GS, CP_RPT, JACOBI_TWO for V in device memory)
    assert [st[1][1] for st in seen] == [_klinalg.EIGH_WIDE_NT]
    assert seen[0][1][4] == 1
    _check(a, w1, v1, dt)
    _check(a, w2, v2, dt)


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
def test_eigh_vectors_in_device_memory(dt, monkeypatch):
    """Small eigh keeps V in shared memory beside the working copy (FLAG_VSHARED); with it
    forced into device memory the results are the same."""
    a = _sym((4, 12, 12), dt)
    x = xp.asarray(a)
    assert _klinalg._eigh_gs(x._alloc.device, dt, 12, _klinalg._eigh_nt(12), True)[2]
    with native(dt):
        w1, v1 = (np.asarray(t) for t in linalg.eigh(x))
    monkeypatch.setattr(_klinalg, "EIGH_V_SHARED_BYTES", 0)
    monkeypatch.setattr(_klinalg, "EIGH_V_SHARED_STACK_BYTES", 0)
    assert not _klinalg._eigh_gs(x._alloc.device, dt, 12, _klinalg._eigh_nt(12), True, 4)[2]
    _klinalg._plans.clear()
    with native(dt):
        w2, v2 = (np.asarray(t) for t in linalg.eigh(x))
    monkeypatch.undo()
    _klinalg._plans.clear()  # (the device-memory plans must not serve later tests)
    _check(a, w1, v1, dt)
    _check(a, w2, v2, dt)
    np.testing.assert_array_equal(w1, w2)
    np.testing.assert_allclose(v1, v2, rtol=0, atol=100 * _eps(dt))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(5, 4, 4), (2, 3, 9, 9), (40, 32, 32), (0, 3, 3), (2, 0, 0)])
def test_eigh_batched(dt, shape):
    a = _sym(shape, dt)
    x = xp.asarray(a)
    with native(dt):
        w, v = linalg.eigh(x)
        wv = linalg.eigvalsh(x)
    assert w.shape == shape[:-1] and v.shape == shape and wv.shape == shape[:-1]
    _check(a, w, v, dt)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
def test_eigh_strided_and_transposed(dt):
    a = _sym((3, 12, 12), dt)
    big = np.zeros((3, 24, 12), _np(dt))
    big[:, ::2] = a
    x = xp.asarray(big)[:, ::2]
    with native(dt):
        w, v = linalg.eigh(x)
        wt, vt = linalg.eigh(xp.asarray(a).mT)
    _check(a, w, v, dt)
    _check(np.swapaxes(a, -1, -2), wt, vt, dt)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
def test_eigh_lower_triangle_only(dt):
    n = 10
    a = _sym((n, n), dt)
    garbage = np.tril(a) + np.triu(_sym((n, n), dt) * 100, 1)
    if _np(dt).kind == "c":   # the diagonal's imaginary part is not read either (LAPACK)
        garbage[np.diag_indices(n)] += 5j
    with native(dt):
        w, v = linalg.eigh(xp.asarray(garbage))
    _check(a, w, v, dt)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
def test_eigh_special(dt):
    n = 12
    q, _ = np.linalg.qr(_sym((n, n), dt).astype(np.complex128 if _np(dt).kind == "c" else
                                                  np.float64))
    qh = np.conj(q.T)
    d = np.array([3.0, 3.0, 3.0, -1.0, -1.0, 0.0, 0.0, 2.0, 5.0, 5.0, -7.0, 1e-3])
    big = 1e30 if _real(dt) == np.float64 else 1e18
    top = 1e300 if _real(dt) == np.float64 else 4e37     # near the range's end: no overflow
    cases = [np.eye(n), np.diag(d), (q * d) @ qh, -((q * np.abs(d + 1)) @ qh) - np.eye(n),
             np.zeros((n, n)), np.ones((n, n)), np.diag(d) * big, (q * d) @ qh * 1e-20,
             (q * d) @ qh * top]
    for c in cases:
        a = c.astype(_np(dt))
        with native(dt):
            w, v = linalg.eigh(xp.asarray(a))
        s = float(np.abs(a).max()) or 1.0
        _check(a, w, v, dt, s)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
def test_eigh_nan(dt):
    a = np.eye(4, dtype=_np(dt))
    a[2, 1] = np.nan
    with native(dt):
        w, v = linalg.eigh(xp.asarray(a))
    assert np.isnan(np.asarray(w)).any() and np.isnan(np.asarray(v)).any()
    a = np.eye(4, dtype=_np(dt))
    a[1, 2] = np.nan          # the upper triangle is not read
    with native(dt):
        w = linalg.eigvalsh(xp.asarray(a))
    np.testing.assert_array_equal(np.asarray(w), np.ones(4))


def test_eigh_large_falls_back():
    n = _klinalg.EIGH_MAX + 1
    dt = REALS[-1]
    a = _sym((n, n), dt)
    before = _fallbacks().get("eigvalsh", 0)
    w = linalg.eigvalsh(xp.asarray(a))
    assert _fallbacks().get("eigvalsh", 0) == before + 1
    np.testing.assert_allclose(np.asarray(w), np.linalg.eigvalsh(a.astype(np.float64)),
                               atol=1e-3 * n)


def test_pca_workload_native():
    dt = REALS[-1]
    X = _rng.standard_normal((500, 64)).astype(_np(dt))
    x = xp.asarray(X)
    with native(dt):
        xc = x - xp.mean(x, axis=0, keepdims=True)
        cov = (xp.matrix_transpose(xc) @ xc) / (X.shape[0] - 1)
        w, v = linalg.eigh(cov)
    _check(np.asarray(cov), w, v, dt)
