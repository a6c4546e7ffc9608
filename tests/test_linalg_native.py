"""Factorizations and the rest of the linalg extension on the device (the linalg family and
compositions of native ops): cholesky, solve, inv, det, slogdet, qr, matrix_power, trace,
diagonal, outer, cross, vecdot, vector_norm, matrix_norm, against numpy; no host fallback for
the native cases; batched, broadcast, empty, strided and transposed inputs; singular and
non-positive-definite inputs raise as numpy does."""
import math

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import linalg
from array_api_vulkan._runtime import runtime_stats

from conftest import DTYPES, FLOATING, REAL_FLOATING, computes_natively, normal

FLOATS, REALS = list(FLOATING), list(REAL_FLOATING)
_rng = np.random.default_rng(99)


def _np(dt):
    return np.dtype(dt.name)


def _data(shape, dt):
    return normal(_rng, shape, dt)


def _spd(shape, dt):
    n = shape[-1]
    a = _data(shape, dt)
    s = a @ np.conj(np.swapaxes(a, -1, -2)) / n + np.eye(n, dtype=_np(dt))
    return s.astype(_np(dt))


def _tol(dt, n=1):
    single = dt in (xp.float32, xp.complex64)
    return (2e-4 if single else 1e-10) * max(1, n) ** 0.5


def _close(got, want, dt, n=1, scale=None):
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype or got.dtype == np.dtype(dt.name), (got.dtype, want.dtype)
    t = _tol(dt, n)
    if scale is None:
        scale = np.max(np.abs(want)) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=t, atol=t * max(scale, 1.0))


def _fallbacks():
    return dict(runtime_stats()["host_fallbacks"])


class native:
    """Asserts that the block ran without a host fallback."""

    def __enter__(self):
        self.before = _fallbacks()

    def __exit__(self, *exc):
        if exc[0] is None:
            assert _fallbacks() == self.before, "went through the host"


# -- cholesky --------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(1, 1), (7, 7), (2, 3, 63, 63), (65, 65), (2, 130, 130),
                                   (0, 4, 4), (2, 0, 0)])
def test_cholesky(dt, shape):
    a = _spd(shape, dt) if shape[-1] else np.zeros(shape, _np(dt))
    x = xp.asarray(a)
    with native():
        lo = linalg.cholesky(x)
        up = linalg.cholesky(x, upper=True)
    want = np.linalg.cholesky(a)
    _close(lo, want, dt, shape[-1])
    _close(up, np.conj(np.swapaxes(want, -1, -2)), dt, shape[-1])


@pytest.mark.parametrize("dt", REALS, ids=lambda d: d.name)
def test_cholesky_200_transposed(dt):
    a = _spd((200, 200), dt)
    with native():
        got = linalg.cholesky(xp.asarray(a).mT)
    _close(got, np.linalg.cholesky(a.T), dt, 200)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("n", [5, 70])
def test_cholesky_not_positive_definite(dt, n):
    a = _spd((3, n, n), dt)
    a[1, n - 3, n - 3] = -10
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cholesky(a)
    with native(), pytest.raises(np.linalg.LinAlgError):
        linalg.cholesky(xp.asarray(a))
    # a NaN pivot is no failure for numpy's (OpenBLAS's) potrf: NaN results, as numpy's
    for m in (np.full((2, 2), np.nan, _np(dt)), _spd((n, n), dt)):
        m[-1, 0] = m[0, -1] = np.nan
        want = np.linalg.cholesky(m)
        with native():
            got = np.asarray(linalg.cholesky(xp.asarray(m)))
        assert np.array_equal(np.isnan(got), np.isnan(want)) and np.isnan(want).any()


# -- LU: det, slogdet, solve, inv ------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(1, 1), (7, 7), (3, 64, 64), (65, 65), (0, 3, 3), (2, 0, 0),
                                   (2, 0, 3, 3)])
def test_det_slogdet(dt, shape):
    a = _data(shape, dt) / max(1, shape[-1]) ** 0.5
    x = xp.asarray(a)
    with native():
        d = linalg.det(x)
        s, l = linalg.slogdet(x)
    s0, l0 = np.linalg.slogdet(a)
    _close(s, s0, dt, shape[-1], scale=1.0)
    _close(l, l0, dt, shape[-1], scale=1.0)
    d0 = np.linalg.det(a)
    got = np.asarray(d)
    assert got.shape == d0.shape and got.dtype == d0.dtype
    # det's relative error follows logdet's absolute one
    rtol = _tol(dt, shape[-1]) * max(1.0, np.max(np.abs(l0), initial=1))
    np.testing.assert_allclose(got, d0, rtol=rtol)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("n", [6, 70])
def test_singular(dt, n):
    a = _data((3, n, n), dt)
    a[1, :, 4] = 0             # a zero column
    a[2, 5] = 2 * a[2, 1]      # dependent rows (exactly: a power-of-two multiple)
    a[2, 3] = 0
    a[2, :, 2] = 0
    x = xp.asarray(a)
    with native():
        d = np.asarray(linalg.det(x))
        s, l = linalg.slogdet(x)
    assert d[1] == 0 and d[2] == 0
    assert np.asarray(s)[1] == 0 and np.asarray(l)[1] == -np.inf
    for f in (lambda: linalg.inv(x), lambda: linalg.solve(x, xp.asarray(_data((3, n, 2), dt)))):
        with native(), pytest.raises(np.linalg.LinAlgError):
            f()
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.inv(a)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("sa, sb", [((1, 1), (1, 1)), ((7, 7), (7, 3)),
                                    ((4, 1, 63, 63), (3, 63, 16)), ((65, 65), (2, 65, 1)),
                                    ((0, 5, 5), (5, 2)), ((3, 3), (0, 3, 2))])
def test_solve(dt, sa, sb):
    n = sa[-1]
    a = _data(sa, dt) + 2 * n ** 0.5 * np.eye(n, dtype=_np(dt))
    b = _data(sb, dt)
    with native():
        got = linalg.solve(xp.asarray(a), xp.asarray(b))
    _close(got, np.linalg.solve(a, b), dt, n)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
def test_solve_vector_and_strided(dt):
    n = 9
    a = _data((2, n, n), dt) + 4 * np.eye(n, dtype=_np(dt))
    b = _data((n,), dt)
    xa = xp.asarray(a)
    with native():
        got = linalg.solve(xa, xp.asarray(b))          # a vector x2: result (2, n)
    _close(got, np.linalg.solve(a, b), dt, n)
    b2 = _data((2, 2 * n, 6), dt)
    with native():
        got = linalg.solve(xa.mT, xp.asarray(b2)[:, ::2, ::3])
    _close(got, np.linalg.solve(np.swapaxes(a, -1, -2), b2[:, ::2, ::3]), dt, n)


@pytest.mark.parametrize("dt", REALS, ids=lambda d: d.name)
def test_solve_mixed_dtypes_and_200(dt):
    n = 200
    a = _data((n, n), dt) + 30 * np.eye(n, dtype=_np(dt))
    b = _data((n, 16), xp.float32)
    with native():
        got = linalg.solve(xp.asarray(a), xp.asarray(b))
    _close(got, np.linalg.solve(a, b), dt, n)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(1, 1), (7, 7), (2, 2, 64, 64), (65, 65), (0, 3, 3), (2, 0, 0)])
def test_inv(dt, shape):
    n = shape[-1]
    a = _data(shape, dt) + 2 * n ** 0.5 * np.eye(n, dtype=_np(dt))
    with native():
        got = linalg.inv(xp.asarray(a))
    _close(got, np.linalg.inv(a), dt, n)


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
def test_lu_working_copies_in_device_memory(dt, monkeypatch):
    """Small solves keep the LU and X in shared memory (FLAG_XSHARED) and small dets the LU;
    the device-memory path, which larger stacks take, gives the same results where forced."""
    from array_api_vulkan._kernels import _linalg as kl

    n = 20
    a = _data((3, n, n), dt) + 2 * n ** 0.5 * np.eye(n, dtype=_np(dt))
    b = _data((3, n, 5), dt)
    x, y = xp.asarray(a), xp.asarray(b)
    dev = x._alloc.device
    assert kl._lu_gs(dev, dt, n * n + n * n, kl.local_size(n), 3) is not None

    def results():
        with native():
            return [np.asarray(r) for r in (linalg.solve(x, y), linalg.inv(x), linalg.det(x))]

    shared = results()
    monkeypatch.setattr(kl, "LU_SHARED", False)
    assert kl._lu_gs(dev, dt, n * n + n * n, kl.local_size(n), 3) is None
    in_memory = results()
    monkeypatch.undo()
    for got in (shared, in_memory):
        _close(got[0], np.linalg.solve(a, b), dt, n)
        _close(got[1], np.linalg.inv(a), dt, n)
        np.testing.assert_allclose(got[2], np.linalg.det(a), rtol=_tol(dt, n) * n)


def test_inv_broadcast_batch_strides():
    dt = FLOATS[0]
    a = _data((3, 1, 5, 5), dt) + 3 * np.eye(5, dtype=_np(dt))
    x = xp.broadcast_to(xp.asarray(a), (3, 4, 5, 5))   # batch strides that do not collapse
    with native():
        got = linalg.inv(x)
    _close(got, np.linalg.inv(np.broadcast_to(a, (3, 4, 5, 5))), dt, 5)


# -- QR ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(1, 1), (7, 7), (9, 4), (4, 9), (2, 65, 63), (130, 70),
                                   (66, 140), (0, 3, 3), (3, 0), (0, 4)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dt, shape, mode):
    a = _data(shape, dt)
    with native():
        q, r = linalg.qr(xp.asarray(a), mode=mode)
    q0, r0 = np.linalg.qr(a, mode=mode)
    _close(q, q0, dt, max(shape[-2:]), scale=1.0)
    _close(r, r0, dt, max(shape[-2:]))


@pytest.mark.parametrize("dt", REALS, ids=lambda d: d.name)
def test_qr_200_transposed(dt):
    a = _data((200, 120), dt)
    with native():
        q, r = linalg.qr(xp.asarray(a).mT)
    q0, r0 = np.linalg.qr(a.T)
    _close(q, q0, dt, 200, scale=1.0)
    _close(r, r0, dt, 200)


# -- compositions of native ops ---------------------------------------------------------------
@pytest.mark.parametrize("dt", FLOATS + [xp.int32], ids=lambda d: d.name)
@pytest.mark.parametrize("n", [0, 1, 2, 5, -3])
def test_matrix_power(dt, n):
    if dt == xp.int32 and (n < 0 or not computes_natively(dt)):
        pytest.skip("integer inverse")
    a = _data((2, 4, 4), dt) if dt != xp.int32 else _rng.integers(-3, 4, (2, 4, 4)).astype(np.int32)
    if n < 0:
        a = a + 3 * np.eye(4, dtype=a.dtype)
    with native():
        got = linalg.matrix_power(xp.asarray(a), n)
    want = np.linalg.matrix_power(a, n)
    if dt == xp.int32:
        np.testing.assert_array_equal(np.asarray(got), want)
    else:
        _close(got, want, dt, 16)


@pytest.mark.parametrize("dt", FLOATS + [xp.int32], ids=lambda d: d.name)
@pytest.mark.parametrize("offset", [0, 2, -1, 7])
def test_trace_diagonal(dt, offset):
    if dt == xp.int32:
        a = _rng.integers(-9, 9, (2, 3, 4, 5)).astype(np.int32)
    else:
        a = _data((2, 3, 4, 5), dt)
    x = xp.asarray(a)
    with native():
        t = linalg.trace(x, offset=offset)
        d = linalg.diagonal(x, offset=offset)
    np.testing.assert_allclose(np.asarray(d), np.diagonal(a, offset, -2, -1))
    want = np.trace(a, offset, -2, -1)
    if dt == xp.int32:
        want = want.astype(np.asarray(t).dtype)
        np.testing.assert_array_equal(np.asarray(t), want)
    else:
        _close(t, want.astype(_np(dt)), dt, 5)


@pytest.mark.parametrize("dt", FLOATS + [xp.int32], ids=lambda d: d.name)
def test_cross_outer_vecdot(dt):
    def data(s):
        if dt == xp.int32:
            return _rng.integers(-9, 9, s).astype(np.int32)
        return _data(s, dt)

    a, b = data((4, 3)), data((2, 1, 3))
    c, d = data((3, 5)), data((3, 5))
    with native():
        r1 = linalg.cross(xp.asarray(a), xp.asarray(b))
        r2 = linalg.cross(xp.asarray(c), xp.asarray(d), axis=0)
        r3 = linalg.outer(xp.asarray(a[0]), xp.asarray(c[0]))
        r4 = linalg.vecdot(xp.asarray(a), xp.asarray(b))
    for got, want in ((r1, np.cross(a, b)), (r2, np.cross(c, d, axis=0)),
                      (r3, np.outer(a[0], c[0])), (r4, np.sum(np.conj(a) * b, axis=-1))):
        if dt == xp.int32:
            np.testing.assert_array_equal(np.asarray(got), want)
        else:
            _close(got, want, dt, 3)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("ord", [2, 1, 0, math.inf, -math.inf, 3, -1.5])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (-1, True), ((0, 2), False)])
def test_vector_norm(dt, ord, axis, keepdims):
    a = _data((3, 4, 5), dt)
    a[0, 0, 0] = 0
    with native(), np.errstate(divide="ignore"):
        got = linalg.vector_norm(xp.asarray(a), axis=axis, keepdims=keepdims, ord=ord)
        want = np.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord)
    _close(got, want, dt, 60)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("ord", ["fro", 1, -1, math.inf, -math.inf])
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(dt, ord, keepdims):
    a = _data((2, 4, 6), dt)
    with native():
        got = linalg.matrix_norm(xp.asarray(a).mT, keepdims=keepdims, ord=ord)
    want = np.linalg.matrix_norm(np.swapaxes(a, -1, -2), keepdims=keepdims, ord=ord)
    _close(got, want, dt, 24)


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (3, 0), (0, 3), (0, 3, 0), (2, 0, 3), (0, 2, 3)])
def test_empty_inputs_are_native(shape):
    """Norms, svdvals, pinv and matrix_rank of empty matrices or stacks: numpy's results (zeros,
    or empty), or a ValueError where numpy's takes a minimum over nothing; no host round trip."""
    a = np.zeros(shape, _np(FLOATS[0]))
    x = xp.asarray(a)
    before = dict(_fallbacks())
    cases = [(f"matrix_norm {o} {k}", lambda o=o, k=k: linalg.matrix_norm(x, ord=o, keepdims=k),
              lambda o=o, k=k: np.linalg.matrix_norm(a, ord=o, keepdims=k))
             for o in ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf) for k in (False, True)]
    cases += [(f"vector_norm {o} {ax} {k}", lambda o=o, ax=ax, k=k: linalg.vector_norm(x, ord=o, axis=ax, keepdims=k),
               lambda o=o, ax=ax, k=k: np.linalg.vector_norm(a, ord=o, axis=ax, keepdims=k))
              for o in (math.inf, -math.inf, 2) for ax in (None, -1, (0, 1)) for k in (False, True)]
    cases += [("svdvals", lambda: linalg.svdvals(x), lambda: np.linalg.svdvals(a)),
              ("pinv", lambda: linalg.pinv(x), lambda: np.linalg.pinv(a)),
              ("matrix_rank", lambda: linalg.matrix_rank(x), lambda: np.linalg.matrix_rank(a))]
    for name, ours, ref in cases:
        try:
            want = np.asarray(ref())
        except ValueError:
            with pytest.raises(ValueError):
                ours()
            continue
        got = np.asarray(ours())
        assert got.shape == want.shape and np.array_equal(got, want), (name, got, want)
    assert _fallbacks() == before


def test_matrix_norm_svd_ords_beyond_svd_max_are_counted_fallbacks():
    from array_api_vulkan._kernels import _linalg as kl

    a = _data((kl.SVD_MAX + 1, kl.SVD_MAX + 1), FLOATS[0])
    before = _fallbacks().get("matrix_norm", 0)
    got = linalg.matrix_norm(xp.asarray(a), ord=2)
    assert _fallbacks().get("matrix_norm", 0) == before + 1
    _close(got, np.linalg.matrix_norm(a, ord=2), FLOATS[0], 3)


def test_matrix_norm_invalid_ord():
    """An ord outside the standard's set is a ValueError, before any host round trip."""
    x = xp.asarray(_data((3, 3), FLOATS[0]))
    before = dict(_fallbacks())
    for bad in ("bad", 3, 0, 0.5, "inf"):
        with pytest.raises(ValueError, match="invalid ord"):
            linalg.matrix_norm(x, ord=bad)
    assert _fallbacks() == before


def test_rtol_must_be_a_number_or_an_array():
    x = xp.asarray(_data((3, 3), FLOATS[0]))
    for fn in (linalg.pinv, linalg.matrix_rank):
        with pytest.raises(TypeError, match="rtol"):
            fn(x, rtol="x")


def test_repeated_calls_replay_plans():
    dt = FLOATS[0]
    a = _spd((4, 6, 6), dt)
    x = xp.asarray(a)
    linalg.cholesky(x)
    from array_api_vulkan._kernels import _linalg

    n = len(_linalg._plans)
    for _ in range(3):
        _close(linalg.cholesky(x), np.linalg.cholesky(a), dt, 6)
    assert len(_linalg._plans) == n


# -- the blocked paths (order > BLOCKED_MIN): one compiled plan of GEMM/TRSM/AUX steps -------
from array_api_vulkan._kernels import _linalg as _klinalg  # noqa: E402


@pytest.fixture(params=["default", "nb64-whole-global", "nb16-matmul"])
def knobs(request, monkeypatch):
    """The blocked paths under their tuning knobs: the defaults (NB = 32, LU panels in inner
    blocks of 16, TRSM blocks in shared memory, panels of up to 1024 invocations); NB = 64 with
    whole LU panels, the TRSM in device memory with 16 columns a workgroup and panels of 256
    invocations and the cholesky's diagonal-block and TRSM steps rather than chol_panel;
    NB = 16 with the trailing updates through _matmul.matmul_update (steps recorded one by
    one), the LU panels of lu_slots() rather than lu_reg(), the TRSM's shared form rather than
    its subgroup form, the cholesky panels without look-ahead, 5 rows a workgroup, and the
    QR panels of qr_panel() rather than qr_sgp()."""
    if request.param == "nb64-whole-global":
        monkeypatch.setattr(_klinalg, "NB", 64)
        monkeypatch.setattr(_klinalg, "PANEL_IB", 0)
        monkeypatch.setattr(_klinalg, "TRSM_SHARED", False)
        monkeypatch.setattr(_klinalg, "TRSM_CW", 16)
        monkeypatch.setattr(_klinalg, "PANEL_NT", 256)
        monkeypatch.setattr(_klinalg, "CHOL_PANEL", False)
    elif request.param == "nb16-matmul":
        monkeypatch.setattr(_klinalg, "NB", 16)
        monkeypatch.setattr(_klinalg, "UPDATE", "matmul")
        monkeypatch.setattr(_klinalg, "LU_SLOTS", True)
        monkeypatch.setattr(_klinalg, "LU_REG", False)
        monkeypatch.setattr(_klinalg, "TRSM_SG", False)
        monkeypatch.setattr(_klinalg, "CHOL_LOOK", False)
        monkeypatch.setattr(_klinalg, "CHOL_CR", 5)
        monkeypatch.setattr(_klinalg, "QR_SGP", False)
    return request.param


def _knob_case(knobs, dt):
    """The knob variants run on one real and one complex dtype."""
    if knobs != "default" and dt not in (FLOATS[0], FLOATS[-1]):
        pytest.skip("knob variants on two dtypes")


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("n", [64, 65, 129])
def test_blocked_cholesky(dt, n, knobs):
    _knob_case(knobs, dt)
    if knobs != "default" and n != 129:
        pytest.skip("knob variants at 129")
    a = _spd((2, n, n), dt)
    x = xp.asarray(a)
    with native():
        lo = linalg.cholesky(x)
        up = linalg.cholesky(x, upper=True)
        st = linalg.cholesky(xp.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2))).mT)
        off = linalg.cholesky(x[1])     # a view at an offset
    want = np.linalg.cholesky(a)
    _close(lo, want, dt, n)
    _close(up, np.conj(np.swapaxes(want, -1, -2)), dt, n)
    _close(st, want, dt, n)
    _close(off, want[1], dt, n)


@pytest.mark.parametrize("dt", REALS[-1:], ids=lambda d: d.name)
@pytest.mark.parametrize("bad", [3, 100, 140])
def test_blocked_cholesky_not_positive_definite(dt, bad):
    """A failure in the first, a middle or the last block of one matrix of a batch raises."""
    a = _spd((3, 150, 150), dt)
    a[1, bad, bad] = -10
    with native(), pytest.raises(np.linalg.LinAlgError):
        linalg.cholesky(xp.asarray(a))
    a[1] = _spd((150, 150), dt)
    with native():
        _close(linalg.cholesky(xp.asarray(a)), np.linalg.cholesky(a), dt, 150)
    # a NaN pivot in that block goes on (numpy's NaN results), not a failure
    a[1, bad, bad] = np.nan
    want = np.linalg.cholesky(a)
    with native():
        got = np.asarray(linalg.cholesky(xp.asarray(a)))
    assert np.array_equal(np.isnan(got), np.isnan(want))


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("n", [65, 129, 200])
def test_blocked_lu(dt, n, knobs):
    """solve (batch broadcast, strided b), inv, det and slogdet of blocked LUs."""
    _knob_case(knobs, dt)
    if (knobs != "default") != (n == 129):
        pytest.skip("knob variants at 129, the defaults at 65 and 200")
    if n == 200 and dt not in REALS:
        pytest.skip("200 on the real dtypes")
    a = _data((2, n, n), dt) / n ** 0.5
    b = _data((3, 1, n, 5), dt)
    x, y = xp.asarray(a), xp.asarray(b)
    with native():
        got = linalg.solve(x, y)
        gi = linalg.inv(x)
        d = linalg.det(x)
        s, l = linalg.slogdet(x)
        bt = _data((5, n), dt)
        gs = linalg.solve(x[1], xp.asarray(bt).mT)   # offset a, transposed b
    _close(got, np.linalg.solve(a, b), dt, n, scale=np.abs(np.linalg.solve(a, b)).max())
    _close(gi, np.linalg.inv(a), dt, n)
    ws, wl = np.linalg.slogdet(a)
    _close(s, ws, dt, n)
    _close(l, wl, dt, n)
    _close(d, np.linalg.det(a), dt, n, scale=np.abs(np.linalg.det(a)).max())
    want = np.linalg.solve(a[1], bt.T)
    _close(gs, want, dt, n, scale=np.abs(want).max())


@pytest.mark.parametrize("dt", REALS[-1:], ids=lambda d: d.name)
@pytest.mark.parametrize("panel", ["lu", "lu_slots", "lu_reg", "lu_reg_nosg"])
def test_blocked_singular(dt, panel, monkeypatch):
    monkeypatch.setattr(_klinalg, "LU_SLOTS", panel == "lu_slots")
    monkeypatch.setattr(_klinalg, "LU_REG", panel.startswith("lu_reg"))
    if panel == "lu_reg_nosg":
        # lu_reg's pivot search without subgroup shuffles (pivot_pick), as on a device
        # lacking them
        monkeypatch.setattr(_klinalg._launch, "USE_SUBGROUPS", False)
    n = 150
    a = _data((3, n, n), dt)
    a[1, :, 100] = 0             # a zero column in the second block
    a[2, 140] = 2 * a[2, 7]      # dependent rows
    x = xp.asarray(a)
    with native():
        d = np.asarray(linalg.det(x))
        s, l = linalg.slogdet(x)
    assert d[1] == 0 and np.asarray(s)[1] == 0 and np.asarray(l)[1] == -np.inf
    assert abs(d[2]) <= 1e-6 * abs(d[0])
    for f in (lambda: linalg.inv(x), lambda: linalg.solve(x, xp.asarray(_data((3, n, 2), dt)))):
        with native(), pytest.raises(np.linalg.LinAlgError):
            f()


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
def test_blocked_cholesky_qr_without_subgroups(dt, monkeypatch):
    """The blocked cholesky (chol_panel needs no subgroups) and QR (qr_panel, not qr_sgp) in
    the variants built without subgroup shuffles, as on a device lacking them."""
    monkeypatch.setattr(_klinalg._launch, "USE_SUBGROUPS", False)
    a = _spd((2, 129, 129), dt)
    g = _data((2, 140, 129), dt)
    with native():
        lo = linalg.cholesky(xp.asarray(a))
        q, r = linalg.qr(xp.asarray(g))
    _close(lo, np.linalg.cholesky(a), dt, 129)
    q, r = np.asarray(q), np.asarray(r)
    _close(q @ r, g, dt, 129)
    _close(np.abs(r), np.abs(np.linalg.qr(g)[1]), dt, 129)


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
@pytest.mark.parametrize("sg", [True, False], ids=["sg", "nosg"])
def test_blocked_lu_mixed_panels(dt, sg, monkeypatch):
    """Panels of more rows than the panel step's invocations (256 here) go to lu(), the later
    ones to lu_reg(): one factorization through both, its interchanges applied across both
    (lu_reg's pivot search by subgroup shuffles where the device has them, and without)."""
    monkeypatch.setattr(_klinalg, "PANEL_NT", 256)
    monkeypatch.setattr(_klinalg._launch, "USE_SUBGROUPS", sg)
    n = 300
    a = _data((2, n, n), dt) / n ** 0.5
    # a zero diagonal: every column needs its interchange (a wrong pivot search fails here)
    a[:, np.arange(n), np.arange(n)] = 0
    b = _data((2, n, 3), dt)
    x = xp.asarray(a)
    with native():
        got = linalg.solve(x, xp.asarray(b))
        s, l = linalg.slogdet(x)
    want = np.linalg.solve(a, b)
    _close(got, want, dt, n, scale=np.abs(want).max())
    ws, wl = np.linalg.slogdet(a)
    _close(s, ws, dt, n)
    _close(l, wl, dt, n)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(2, 130, 65), (65, 130), (2, 129, 129)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_blocked_qr(dt, shape, mode, knobs):
    _knob_case(knobs, dt)
    if knobs != "default" and (mode == "complete" or len(shape) == 3):
        pytest.skip("knob variants on one shape")
    a = _data(shape, dt)
    with native():
        q, r = linalg.qr(xp.asarray(a), mode=mode)
    q, r = np.asarray(q), np.asarray(r)
    wq, wr = np.linalg.qr(a, mode=mode)
    assert q.shape == wq.shape and r.shape == wr.shape
    _close(q @ r, a, dt, shape[-1])
    eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    _close(np.conj(np.swapaxes(q, -1, -2)) @ q, eye.astype(q.dtype), dt, shape[-1])
    _close(np.abs(r), np.abs(wr), dt, shape[-1])
    assert np.allclose(np.tril(r, -1), 0)


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
def test_blocked_qr_mixed_panels(dt):
    """A tall matrix whose first panels have more rows than qr_sgp's registers hold (qr_panel's
    panels of NB columns) and whose later ones fit (qr_sgp's of QR_SGP_NB)."""
    from array_api_vulkan._kernels import _launch
    x0 = xp.asarray(np.zeros(1, _np(dt)))
    sg = _launch.subgroup_size(x0._alloc.device)
    if sg < 4:
        pytest.skip("no subgroup size reported")
    m = sg * _klinalg.QRS_RPT + 40
    a = _data((m, 100), dt)
    with native():
        q, r = linalg.qr(xp.asarray(a))
    q, r = np.asarray(q), np.asarray(r)
    _close(q @ r, a, dt, 100)
    _close(np.conj(q.T) @ q, np.eye(100, dtype=q.dtype), dt, 100)
    _close(np.abs(r), np.abs(np.linalg.qr(a)[1]), dt, 100)


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
@pytest.mark.parametrize("flags", ["plain", "neg-acc", "transposed-conj"])
def test_split_gemm_step(dt, flags):
    """The blocked paths' GEMM step cut along K (a thin product, few tiles, a long K): its
    chunks' partial products summed by the AUX step into a strided block of C, as the uncut
    product; two batch items, K not a multiple of the chunk."""
    from array_api_vulkan._kernels._launch import ARG
    L = _klinalg
    nb, m, n, k = 2, 40, 70, 300
    a = _data((nb, k, m) if flags == "transposed-conj" else (nb, m, k), dt)
    b = _data((nb, k, n), dt)
    c = _data((nb, m + 3, n + 5), dt)
    x = xp.asarray(a)
    rec = L._begin("linalg_gemm", x, nb)
    assert rec.splits(m, n, k, 0)[0] > 1
    assert rec.splits(m, n, k, L.G_LOWER)[0] == 1
    f = {"plain": 0, "neg-acc": L.G_NEG | L.G_ACC,
         "transposed-conj": L.G_TA | L.G_CA | L.G_ACC}[flags]
    ld = n + 5
    cref = (ARG, 2), 3 * ld + 5, ld, (m + 3) * ld
    rec.gemm(cref, ((ARG, 0), 0, a.shape[-1], a[0].size), ((ARG, 1), 0, n, k * n), m, n, k, f)
    assert any(st[1][0] == L.CODES["linalg_aux"] for st in rec.steps)
    out = xp.asarray(c)
    rec.run([x, xp.asarray(b), out])
    opa = np.conj(np.swapaxes(a, -1, -2)) if flags == "transposed-conj" else a
    want = c.copy()
    prod = opa @ b
    blk = want[:, 3:, 5:]
    blk[...] = -prod + blk if flags == "neg-acc" else (prod + blk if f & L.G_ACC else prod)
    _close(out, want, dt, k)


def test_blocked_is_one_plan():
    """A repeated blocked call replays one compiled plan: no new plan, and the host reads only
    the status word."""
    from array_api_vulkan._runtime import reset_runtime_stats

    dt = xp.float64 if xp.float64 in DTYPES else xp.float32
    x = xp.asarray(_spd((130, 130), dt))
    linalg.cholesky(x)
    plans = len(_klinalg._plans)
    reset_runtime_stats()
    linalg.cholesky(x)
    assert len(_klinalg._plans) == plans
    st = runtime_stats()
    assert st["submits"] <= 2, st["submits"]


@pytest.mark.parametrize("look", [True, False])
def test_blocked_cholesky_steps(look, monkeypatch):
    """The blocked cholesky records a step a block with look-ahead (the copy in, the blocks, the
    final zeroing), and a panel step and a GEMM step a block without."""
    from array_api_vulkan._runtime import reset_runtime_stats

    monkeypatch.setattr(_klinalg, "CHOL_LOOK", look)
    dt = xp.float64 if xp.float64 in DTYPES else xp.float32
    n = 130
    a = _spd((n, n), dt)
    x = xp.asarray(a)
    with native():
        want = np.asarray(linalg.cholesky(x))
    reset_runtime_stats()
    with native():
        got = linalg.cholesky(x)
    blocks = -(-n // _klinalg._nb("cholesky"))
    assert runtime_stats()["dispatches"] == 2 + (blocks if look else 2 * blocks - 1)
    assert np.array_equal(np.asarray(got), want)
    _close(got, np.linalg.cholesky(a), dt, n)


@pytest.mark.parametrize("n", [100, 3000])
def test_blocked_permutation_step(n):
    """The AUX step turning LU's row interchanges into a permutation, in shared memory (n up to
    2048) and in device memory beyond."""
    from array_api_vulkan._kernels._launch import ARG

    rng = np.random.default_rng(5)
    piv = np.array([rng.integers(j, n) for j in range(n)], np.uint32)
    p = xp.asarray(piv)
    x = xp.asarray(np.zeros((1, 1), np.float32))
    rec = _klinalg._begin("linalg_cholesky", x, 1)
    out = rec.out(n, p.dtype, (n,))
    rec.aux(_klinalg.X_PERM, n, n, out, perm=out, piv=(ARG, 0))
    got = np.asarray(rec.compile(1)(p))
    want = np.arange(n)
    for j in range(n):
        want[[j, piv[j]]] = want[[piv[j], j]]
    np.testing.assert_array_equal(got, want)


def test_kernels_raise_not_native():
    """The kernels raise NotNative, with what they cannot serve, where supports() answers no
    (they never return None), and cache no plan then."""
    from array_api_vulkan._kernels import NotNative

    plans = dict(_klinalg._plans)
    a = xp.asarray(_spd((4, 4), xp.float32))
    b = xp.asarray(np.ones((4, 2), np.int32))
    assert not _klinalg.supports("solve", a, b)
    with pytest.raises(NotNative, match="operands of float32 and int32"):
        _klinalg.solve(a, b)
    n = _klinalg.EIGH_MAX + 1
    big = xp.asarray(np.zeros((n, n), np.float32))
    assert not _klinalg.supports("eigh", big)
    with pytest.raises(NotNative, match="beyond EIGH_MAX"):
        _klinalg.eigh(big, True)
    with pytest.raises(NotNative, match="beyond a blocked step's grid"):
        _klinalg._begin("linalg_cholesky", a, _klinalg.MAX_Z + 1)
    assert _klinalg._plans == plans


# -- svd class: one-sided Jacobi (glsl/linalg.comp svdj) after a QR -----------------------------
class native_svd(native):
    """native() with strict mode on, so that the svd class takes its native path even where
    numpy's round trip is expected to be faster (single larger matrices on GPUs: svd_pays)."""

    def __enter__(self):
        super().__enter__()
        self.prev = xp.set_strict(True)

    def __exit__(self, *exc):
        xp.set_strict(self.prev)
        super().__exit__(*exc)


def _native_bool():
    """native_svd(), where bool results are computed on the device (not without 8-bit
    storage)."""
    import contextlib

    return native_svd() if computes_natively(xp.bool) else contextlib.nullcontext()


def _svd_checks(x, a, dt, full):
    u, s, vh = (np.asarray(t) for t in linalg.svd(x, full_matrices=full))
    wu, ws, wvh = np.linalg.svd(a, full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == (wu.shape, ws.shape, wvh.shape)
    assert (u.dtype, s.dtype, vh.dtype) == (wu.dtype, ws.dtype, wvh.dtype)
    k = min(a.shape[-2:])
    n = max(a.shape[-2:])
    _close(s, ws, dt, 4 * n)
    _close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dt, 4 * n)
    for q in (u, np.conj(np.swapaxes(vh, -1, -2))):
        _close(np.conj(np.swapaxes(q, -1, -2)) @ q, np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2), dt, 4 * n)


@pytest.mark.parametrize("dt", FLOATS, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(1, 1), (6, 6), (7, 3), (3, 7), (2, 9, 4), (2, 4, 9), (40, 12),
                                   (2, 1, 17, 17)])
def test_svd(dt, shape):
    """svd (both full_matrices), svdvals, pinv, matrix_rank and the 2, -2 and nuclear norms of
    square, tall (a QR first) and wide (the conjugate transpose's) stacks, against numpy, on the
    device."""
    a = _data(shape, dt)
    x = xp.asarray(a)
    with native_svd():
        for full in (True, False):
            _svd_checks(x, a, dt, full)
        _close(linalg.svdvals(x), np.linalg.svdvals(a), dt, 4 * max(shape))
    with _native_bool():  # (pinv and matrix_rank compare: bool results)
        _close(linalg.pinv(x), np.linalg.pinv(a, rtol=max(shape[-2:]) * np.finfo(_np(dt)).eps), dt, 40 * max(shape))
        np.testing.assert_array_equal(np.asarray(linalg.matrix_rank(x)), np.linalg.matrix_rank(a))
    with native_svd():
        for o in (2, -2, "nuc"):
            _close(linalg.matrix_norm(x, ord=o, keepdims=True),
                   np.linalg.matrix_norm(a, ord=o, keepdims=True), dt, 4 * max(shape))


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
def test_svd_working_copies_in_device_memory(dt, monkeypatch):
    """Small svds keep W and V in shared memory (FLAG_SHARED); the device-memory path, which
    larger orders take, gives the same results where forced."""
    from array_api_vulkan._kernels import _linalg as kl

    a = _data((3, 9, 9), dt)
    x = xp.asarray(a)
    assert kl._svd_gs(x._alloc.device, dt, 9, kl._eigh_nt(9), True)[1]
    with native_svd():
        shared = [np.asarray(t) for t in linalg.svd(x)]
    monkeypatch.setattr(kl, "SVD_SHARED", False)
    kl._plans.clear()
    for shape in ((3, 9, 9), (20, 12)):
        b = a if shape == a.shape else _data(shape, dt)
        with native_svd():
            _svd_checks(xp.asarray(b), b, dt, True)
    with native_svd():
        dev = [np.asarray(t) for t in linalg.svd(x)]
    monkeypatch.undo()
    kl._plans.clear()  # (the device-memory plans must not serve later tests)
    for s_, d_ in zip(shared, dev):
        _close(s_, d_, dt, 36)


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
def test_svd_rank_deficient_and_special(dt):
    """Zero, rank-deficient (U completed to an orthonormal basis), repeated-column and graded
    matrices; matrix_rank and pinv with rtol arrays; NaN or inf: numpy's LinAlgError."""
    n = 12
    lo = _data((3, n, 4), dt) @ _data((3, 4, n), dt)
    cases = [np.zeros((n, n), _np(dt)), lo, np.diag(np.logspace(0, -20, n)).astype(_np(dt))]
    dup = _data((n, n), dt)
    dup[:, 3] = dup[:, 7]
    cases.append(dup)
    for a in cases:
        with native_svd():
            _svd_checks(xp.asarray(a), a, dt, True)
    rt = np.array([1e-5, 0.5, 1e-3])
    with _native_bool():
        np.testing.assert_array_equal(np.asarray(linalg.matrix_rank(xp.asarray(lo))), [4, 4, 4])
        np.testing.assert_array_equal(np.asarray(linalg.matrix_rank(xp.asarray(lo), rtol=xp.asarray(rt))),
                                      np.linalg.matrix_rank(lo, rtol=rt))
        _close(linalg.pinv(xp.asarray(lo)), np.linalg.pinv(lo, rtol=n * np.finfo(_np(dt)).eps), dt, 1e4)
    a = _data((2, 4, 4), dt)
    a[1, 2, 1] = np.nan
    for fn in (linalg.svd, linalg.svdvals, linalg.pinv, linalg.matrix_rank):
        with pytest.raises(np.linalg.LinAlgError):
            getattr(np.linalg, fn.__name__)(a)
        with _native_bool(), pytest.raises(np.linalg.LinAlgError, match="SVD did not converge"):
            fn(xp.asarray(a))
    # an inf without a NaN: numpy's NaN singular values (and rank 0), no error
    a[1, 2, 1] = np.inf
    with _native_bool():
        s = np.asarray(linalg.svdvals(xp.asarray(a)))
        r = np.asarray(linalg.matrix_rank(xp.asarray(a)))
    assert np.isnan(s[1]).all() and np.isnan(np.linalg.svdvals(a)[1]).all()
    _close(s[0], np.linalg.svdvals(a)[0], dt, 16)
    np.testing.assert_array_equal(r, np.linalg.matrix_rank(a))


@pytest.mark.parametrize("shape", [(256, 256), (200, 200), (2000, 256), (96, 640)])
def test_svd_large_orders_native_on_gpus(shape):
    """svd up to SVD_MAX (256) runs on GPUs (lavapipe's loop limit sends these to numpy, counted)
    with numpy's accuracy: square, tall (QR first) and wide."""
    from array_api_vulkan._kernels import _launch

    dt = FLOATS[-1] if computes_natively(xp.float64) else FLOATS[0]
    a = _data(shape, dt)
    x = xp.asarray(a)
    if _launch.on_cpu(x._alloc.device):
        pytest.skip("order past lavapipe's loop budget: a counted fallback there")
    with native_svd():
        _svd_checks(x, a, dt, False)


@pytest.mark.parametrize("dt", [FLOATS[0], FLOATS[-1]], ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(1100, 8), (2, 1500, 5), (1024, 3)])
def test_svd_of_tall_matrices_by_tsqr(dt, shape, monkeypatch):
    """A tall svd (reduced, or values only) reduces by TSQR: chunks of TSQR_CHUNK rows QR'd as a
    stack, then their R's (with a remainder chunk); right against numpy."""
    calls = []
    qr = linalg._klinalg.qr
    monkeypatch.setattr(linalg._klinalg, "qr", lambda x, c: calls.append(x.shape) or qr(x, c))
    a = _data(shape, dt)
    x = xp.asarray(a)
    with native_svd():
        _svd_checks(x, a, dt, False)
        _close(linalg.svdvals(x), np.linalg.svdvals(a), dt, 4 * max(shape))
    assert shape[:-2] + (2, linalg.TSQR_CHUNK, shape[-1]) in calls, calls


def test_svd_pays_sends_single_large_matrices_to_numpy_on_gpus(monkeypatch):
    """On GPUs the svd class runs natively where the Jacobi's estimate beats numpy's round trip
    (stacks, tall matrices, small orders) and goes through numpy, counted, for single larger
    matrices; CPU devices and strict mode always take the native path."""
    from array_api_vulkan._kernels import _launch, _linalg as kl

    def pays(shape):
        return kl.svd_pays(xp.empty(shape, dtype=FLOATS[0]))

    if _launch.on_cpu(xp.asarray(1.0)._alloc.device):
        assert all(pays(s) for s in [(256, 256), (64, 64), (3, 200, 200)])
    monkeypatch.setattr(_launch, "on_cpu", lambda dev: False)
    assert [pays(s) for s in [(6, 6), (2, 9, 4), (4096, 64), (64, 4096), (100, 64, 64), (1000, 32, 32)]] == [True] * 6
    assert [pays(s) for s in [(64, 64), (128, 128), (256, 256), (2000, 256), (2, 200, 200)]] == [False] * 5
    prev = xp.set_strict(True)
    try:
        assert pays((256, 256))
    finally:
        xp.set_strict(prev)


def test_jacobi_orders_within_the_cpu_loop_limit():
    """eigh and svd of orders whose loops would pass lavapipe's CPU_LOOP_LIMIT go through numpy
    there (counted) and stay native on GPUs; either way the results are right (at order 128, the
    limit used to end eigh's sweeps early: wrong eigenvectors, silently)."""
    from array_api_vulkan._kernels import _launch

    dt = FLOATS[-1] if computes_natively(xp.float64) else FLOATS[0]
    n = 128
    a = _data((n, n), dt)
    h = a + np.conj(a.T)
    x = xp.asarray(h)
    cpu = _launch.on_cpu(x._alloc.device)
    before = _fallbacks()
    w, v = (np.asarray(t) for t in linalg.eigh(x))
    prev = xp.set_strict(not cpu)  # (on GPUs a single 128^2 svd goes to numpy unless strict)
    try:
        s = np.asarray(linalg.svdvals(xp.asarray(a)))
    finally:
        xp.set_strict(prev)
    counted = {k: v - before.get(k, 0) for k, v in _fallbacks().items() if v != before.get(k, 0)}
    assert counted == ({"eigh": 1, "svdvals": 1} if cpu else {}), counted
    _close(w, np.linalg.eigvalsh(h), dt, 4 * n)
    _close(np.conj(v.T) @ v, np.eye(n), dt, 4 * n)
    _close(s, np.linalg.svdvals(a), dt, 4 * n)


def test_long_single_workgroup_loops_take_the_blocked_paths():
    """A tall QR of few columns and a solve of many right-hand sides, whose one-workgroup paths
    would loop past CPU_LOOP_LIMIT on lavapipe (wrong results, silently), are right."""
    from array_api_vulkan._kernels import _linalg as kl

    dt = FLOATS[0]
    dev = xp.asarray(1.0)._alloc.device
    with native():
        for m, mode in ((5000, "reduced"), (1100, "complete")):
            q_cols = m if mode == "complete" else 8
            assert not kl._small_fits(dev, "qr", m, 8, q_cols) or not kl._launch.on_cpu(dev)
            a = _data((m, 8), dt)
            q, r = (np.asarray(t) for t in linalg.qr(xp.asarray(a), mode=mode))
            _close(q @ r, a, dt, m)
            _close(np.conj(q.T) @ q, np.eye(q.shape[1]), dt, m)
        # the blocked QR's panels walk every row too: 200000 x 65 came out wrong, so on CPU
        # devices numpy serves it
        tall = xp.empty((200000, 65), dtype=dt)
        assert kl.supports("qr", tall) != kl._launch.on_cpu(dev)
        assert not kl._small_fits(dev, "solve", 16, 16, 20000) or not kl._launch.on_cpu(dev)
        m = _data((16, 16), dt) + 8 * np.eye(16, dtype=_np(dt))
        b = _data((16, 20000), dt)
        _close(linalg.solve(xp.asarray(m), xp.asarray(b)), np.linalg.solve(m, b), dt, 16 * 16)


def test_shared_array_sizes(monkeypatch):
    """GS steps: powers of two from 1024 on CPU devices (few pipelines to compile), finer steps
    on GPUs (a workgroup's shared bytes decide how many fit an SM). Only the AUX step's kernel
    declares the permutation's 2048 words, so eigh and svd count without them."""
    from array_api_vulkan._kernels import _linalg as kl

    dev = xp.ones(1)._alloc.device
    sizes = (1, 1024, 1025, 1281, 2240, 2560, 3585, 4096, 4097)
    monkeypatch.setattr(kl._launch, "on_cpu", lambda d: True)
    assert [kl._gs_size(dev, e) for e in sizes] == [1024, 1024, 2048, 2048, 4096, 4096, 4096, 4096, 8192]
    monkeypatch.setattr(kl._launch, "on_cpu", lambda d: False)
    assert [kl._gs_size(dev, e) for e in sizes] == [1024, 1024, 1280, 1536, 2560, 2560, 4096, 4096, 5120]
    f32 = xp.float32
    assert kl._other_shared(f32, 64) - kl._other_shared(f32, 64, perm=False) == 2047 * 4
