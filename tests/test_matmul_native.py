"""Matrix products on the device (the matmul family): matmul, @, tensordot, vecdot, outer,
matrix_transpose, against numpy; no host fallback for native cases."""
import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import linalg
from array_api_vulkan._runtime import runtime_stats

from conftest import DTYPES, computes_natively, has, normal, plan_specs

NUMERIC = [d for d in DTYPES if d != xp.bool and computes_natively(d)]
_rng = np.random.default_rng(1234)


def _data(shape, dt, lo=-4, hi=5):
    npdt = np.dtype(dt.name)
    if npdt.kind == "u":
        a = _rng.integers(0, hi + 3, shape)
    elif npdt.kind == "i":
        a = _rng.integers(lo, hi, shape)
    else:
        return normal(_rng, shape, npdt)
    return a.astype(npdt)


def _check(got, want, k):
    got = np.asarray(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        single = want.dtype in (np.float32, np.complex64)
        rtol = (1e-5 if single else 1e-12) * max(1, k) ** 0.5 * 4
        scale = np.max(np.abs(want)) if want.size else 0
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * scale)
    else:
        np.testing.assert_array_equal(got, want)


def _fallbacks():
    return dict(runtime_stats()["host_fallbacks"])


def _matmul_case(sa, sb, dt, transform=None):
    a, b = _data(sa, dt), _data(sb, dt)
    xa, xb = xp.asarray(a), xp.asarray(b)
    if transform:
        a, b = transform(a, b, np)
        xa, xb = transform(xa, xb, xp)
    before = _fallbacks()
    with np.errstate(all="ignore"):
        want = np.matmul(a, b)
    got = xa @ xb
    assert _fallbacks() == before, "matmul went through the host"
    _check(got, want, a.shape[-1])
    return got


SHAPES = [
    ((5,), (5,)), ((7,), (7, 3)), ((4, 7), (7,)), ((3, 4), (4, 5)),
    ((2, 3, 4), (4, 5)), ((2, 1, 3, 4), (3, 4, 6)), ((6, 40, 33), (33, 20)),
    ((67, 33), (33, 129)), ((2, 67, 33), (2, 33, 129)), ((3, 4), (4, 0)), ((0, 4), (4, 5)),
    ((3, 0), (0, 5)), ((2, 0, 3), (3, 2)), ((1, 1), (1, 1)),
    ((2, 3, 2, 17, 20), (3, 1, 20, 18)),  # three batch dims: copied
    ((100, 16, 16), (100, 16, 16)), ((5,), (2, 5, 70)), ((70, 130), (130,)),
    ((5000,), (5000,)), ((1, 3000), (3000, 2)),
    # split-K (tall-skinny): tiled and direct, batched, transposed below
    ((20, 9000), (9000, 24)), ((3, 5000), (5000, 2)), ((2, 40, 3000), (2, 3000, 40)),
]


@pytest.mark.parametrize("sa,sb", SHAPES, ids=[f"{a}@{b}" for a, b in SHAPES])
def test_matmul_shapes_float32(sa, sb):
    _matmul_case(sa, sb, xp.float32)


@pytest.mark.parametrize("dt", NUMERIC, ids=lambda d: d.name)
@pytest.mark.parametrize("sa,sb", [((67, 33), (33, 129)), ((3, 4, 5), (5, 6)), ((9,), (9,)),
                                   ((40, 70), (70, 20)), ((4100,), (4100,)),
                                   ((17, 2500), (2500, 19))])
def test_matmul_dtypes(dt, sa, sb):
    _matmul_case(sa, sb, dt)


@pytest.mark.parametrize("dt", [d for d in NUMERIC if np.dtype(d.name).kind in "iu"],
                         ids=lambda d: d.name)
def test_matmul_integers_wrap(dt):
    info = np.iinfo(np.dtype(dt.name))
    a = np.full((20, 30), info.max // 3 + 1, np.dtype(dt.name))
    b = np.full((30, 25), 7, np.dtype(dt.name))
    got = xp.asarray(a) @ xp.asarray(b)
    _check(got, np.matmul(a, b), 30)


def test_matmul_transposed_in_place():
    a, b = _data((67, 33), xp.float32), _data((129, 33), xp.float32)
    xa, xb = xp.asarray(a), xp.asarray(b)
    _check(xa @ xb.mT, a @ b.T, 33)  # warm: the plan is made
    d0 = runtime_stats()["dispatches"]
    got = xa @ xb.mT
    assert runtime_stats()["dispatches"] - d0 == 1  # no copy of xb.mT
    _check(got, a @ b.T, 33)
    at = _data((33, 67), xp.float32)
    xat = xp.asarray(at)
    _check(xat.mT @ xb.mT, at.T @ b.T, 33)
    d0 = runtime_stats()["dispatches"]
    _check(xat.mT @ xb.mT, at.T @ b.T, 33)
    assert runtime_stats()["dispatches"] - d0 == 1
    # matrix_transpose is a view
    assert xp.matrix_transpose(xb)._alloc is xb._alloc


def test_matmul_strided_operands():
    def tr(a, b, m):
        return a[::2, 1::3], b[::-1, ::2]
    _matmul_case((80, 90), (30, 70), xp.float32, tr)

    def tr3(a, b, m):
        return m.permute_dims(a, (1, 0, 2)), b[:, ::-1]
    _matmul_case((20, 3, 16), (16, 40), xp.float32, tr3)


def test_matmul_broadcast_batch_transposed():
    def tr(a, b, m):
        return a, m.matrix_transpose(b) if m is xp else np.swapaxes(b, -1, -2)
    _matmul_case((4, 1, 30, 20), (3, 50, 20), xp.float32, tr)


def test_matmul_mixed_dtypes():
    pairs = [(xp.float32, xp.int8), (xp.int16, xp.int32), (xp.uint8, xp.int16)]
    if has("float64"):
        pairs.append((xp.float32, xp.float64))
    if has("complex64"):
        pairs.append((xp.complex64, xp.float32))
    for d1, d2 in pairs:
        if not computes_natively(d1, d2):
            continue
        a, b = _data((9, 13), d1), _data((13, 11), d2)
        before = _fallbacks()
        got = xp.matmul(xp.asarray(a), xp.asarray(b))
        assert _fallbacks() == before
        assert got.dtype == xp.result_type(d1, d2)
        _check(got, np.matmul(a, b), 13)


def test_matmul_k_zero_and_empty():
    got = xp.asarray(np.ones((3, 0), np.float32)) @ xp.asarray(np.ones((0, 4), np.float32))
    _check(got, np.zeros((3, 4), np.float32), 0)
    got = xp.asarray(np.ones((0,), np.int32)) @ xp.asarray(np.ones((0,), np.int32))
    _check(got, np.zeros((), np.int32), 0)


def test_matmul_large():
    a, b = _data((512, 512), xp.float32), _data((512, 512), xp.float32)
    before = _fallbacks()
    got = xp.asarray(a) @ xp.asarray(b)
    assert _fallbacks() == before
    _check(got, a @ b, 512)


def test_matmul_repeated_is_one_dispatch():
    a, b = xp.asarray(_data((2, 40, 50), xp.float32)), xp.asarray(_data((50, 60), xp.float32))
    a @ b
    d0 = runtime_stats()["dispatches"]
    for _ in range(3):
        a @ b
    assert runtime_stats()["dispatches"] - d0 == 3


def test_matmul_errors():
    a = xp.asarray(np.ones((3, 4), np.float32))
    with pytest.raises(ValueError):
        a @ a
    with pytest.raises(ValueError):
        xp.matmul(xp.asarray(np.ones((2, 3, 4), np.float32)), xp.asarray(np.ones((3, 4, 5), np.float32)))
    assert linalg.matmul is xp.matmul or linalg.matmul(a, a.mT).shape == (3, 3)


@pytest.mark.parametrize("dt", NUMERIC, ids=lambda d: d.name)
def test_tensordot_vecdot_outer(dt):
    a, b = _data((3, 4, 5), dt), _data((4, 5, 6), dt)
    xa, xb = xp.asarray(a), xp.asarray(b)
    before = _fallbacks()
    _check(xp.tensordot(xa, xb), np.tensordot(a, b), 20)
    _check(linalg.tensordot(xa, xb, axes=([1], [0])), np.tensordot(a, b, axes=([1], [0])), 4)
    _check(xp.tensordot(xa, xb, axes=([2, 1], [1, 0])), np.tensordot(a, b, axes=([2, 1], [1, 0])), 20)
    _check(xp.tensordot(xa, xb, axes=0), np.tensordot(a, b, axes=0), 1)
    c, d = _data((6, 7), dt), _data((3, 6, 7), dt)
    want = np.sum(np.conj(c) * d, axis=-1).astype(c.dtype)
    _check(xp.vecdot(xp.asarray(c), xp.asarray(d)), want, 7)
    _check(linalg.vecdot(xp.asarray(c), xp.asarray(d), axis=-2),
           np.sum(np.conj(c) * d, axis=-2).astype(c.dtype), 6)
    u, v = _data((5,), dt), _data((7,), dt)
    _check(linalg.outer(xp.asarray(u), xp.asarray(v)), np.outer(u, v), 1)
    assert _fallbacks() == before


def test_matmul_split_k_transposed():
    def tr(a, b, m):
        return (m.matrix_transpose(a) if m is xp else a.T), b
    _matmul_case((3000, 33), (3000, 18), xp.float32, tr)
    from array_api_vulkan._kernels import _matmul
    dev = xp.asarray(1.0)._alloc.device
    assert _matmul._split_k(dev, 4, 3000, 16, 33 * 18)[0] > 1
    # NVIDIA's own split-K knobs cut a long K into more chunks than the module's, and split no
    # product the module's would not (256 tiles of float32 1024^2)
    nvidia = type("Dev", (), {"info": {"vendor_id": 0x10DE}})()
    assert (_matmul._split_k(nvidia, 1, 1 << 20, 16, 64 * 64)[0]
            > _matmul._split_k(None, 1, 1 << 20, 16, 64 * 64)[0] > 1)
    assert _matmul._split_k(nvidia, 256, 1024, 16, 1 << 20) == (1, 1024)


# -- matmul_update: C += alpha * (A @ B) in place, C a strided view ------------------------------

UPDATE_DTYPES = [d for d in NUMERIC if np.dtype(d.name).kind in "fc"] + [xp.int32]


def _update_case(c_full, c_index, a, b, alpha, dt):
    """c_full[c_index] += alpha * a @ b through matmul_update (a, b: numpy or (array, numpy))."""
    from array_api_vulkan import _kernels

    xc = xp.asarray(c_full)
    xa, na = a if isinstance(a, tuple) else (xp.asarray(a), a)
    xb, nb = b if isinstance(b, tuple) else (xp.asarray(b), b)
    view = c_index(xc)
    want = c_full.copy()
    with np.errstate(all="ignore"):
        prod = np.matmul(na, nb)
        c_index(want)[...] = (c_index(want) + np.asarray(alpha).astype(want.dtype) * prod).astype(want.dtype)
    assert _kernels.supports_matmul_update(view, xa, xb)
    before = _fallbacks()
    d0 = runtime_stats()["dispatches"]
    assert _kernels.matmul_update(view, xa, xb, alpha) is view
    assert runtime_stats()["dispatches"] - d0 == 1
    assert _fallbacks() == before
    _check(xc, want, na.shape[-1])


@pytest.mark.parametrize("dt", UPDATE_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("m,k,n", [(70, 24, 90), (5, 7, 3), (130, 16, 140), (40, 300, 20)])
def test_matmul_update_views(dt, m, k, n):
    kind = np.dtype(dt.name).kind
    alpha = -1 if kind in "iu" else (0.5 - 2.1j if kind == "c" else -0.75)
    c = _data((m + 9, n + 5), dt)
    # a block of a larger matrix (the trailing update of a blocked factorization)
    _update_case(c, lambda x: x[4:4 + m, 3:3 + n], _data((m, k), dt), _data((k, n), dt), alpha, dt)
    # a transposed, strided view; operands transposed in place
    c = _data((2 * n, m), dt)
    a, b = _data((k, m), dt), _data((n, k), dt)
    xa, xb = xp.asarray(a), xp.asarray(b)
    _update_case(c, lambda x: (x.mT if hasattr(x, "mT") else x.T)[:, ::2],
                 (xa.mT, a.T), (xb.mT, b.T), alpha, dt)


def test_matmul_update_same_matrix():
    """A22 -= A21 @ A12 with all three views of one matrix (disjoint blocks)."""
    from array_api_vulkan import _kernels

    dt = xp.float32
    n, kb = 150, 32
    full = _data((n, n), dt)
    x = xp.asarray(full)
    _kernels.matmul_update(x[kb:, kb:], x[kb:, :kb], x[:kb, kb:], -1.0)
    want = full.copy()
    want[kb:, kb:] -= full[kb:, :kb] @ full[:kb, kb:]
    _check(x, want, kb)


def test_matmul_update_batched_and_vectors():
    dt = xp.float32
    c = _data((3, 2, 40, 50), dt)
    _update_case(c, lambda x: x[:, 1], _data((3, 40, 20), dt), _data((20, 50), dt), 2.0, dt)
    c = _data((4, 30, 20), dt)
    _update_case(c, lambda x: x[::2, :, ::-1], _data((2, 30, 7), dt), _data((2, 7, 20), dt), 1.0, dt)
    c = _data((30, 3), dt)
    _update_case(c, lambda x: x[:, 1], _data((30, 9), dt), _data((9,), dt), 3.0, dt)


def test_matmul_update_empty_and_errors():
    from array_api_vulkan import _kernels

    dt = xp.float32
    c = xp.asarray(_data((4, 5), dt))
    before = np.asarray(c).copy()
    _kernels.matmul_update(c, xp.asarray(np.ones((4, 0), np.float32)),
                           xp.asarray(np.ones((0, 5), np.float32)), 1.0)
    np.testing.assert_array_equal(np.asarray(c), before)
    a, b = xp.asarray(_data((4, 3), dt)), xp.asarray(_data((3, 6), dt))
    assert not _kernels.supports_matmul_update(c, a, b)
    with pytest.raises(_kernels.NotNative):
        _kernels.matmul_update(c, a, b, 1.0)
    if has("int32"):
        ci = xp.asarray(np.ones((4, 6), np.int32))
        assert not _kernels.supports_matmul_update(ci, a, b)


# -- the fast tiled path (float32/float64): every load mode, tile class and edge --------------

FAST_DTYPES = [d for d in (xp.float32, getattr(xp, "float64", None)) if d is not None and has(d)]


def _fast_case(m, k, n, dt, ta, tb, offset=0, batch=()):
    """A (m x k) @ B (k x n), A given transposed in place where ta, B where tb, the operands
    starting `offset` elements into their allocations."""
    def operand(shape, t):
        full = _data(batch + ((shape[1], shape[0]) if t else shape), dt).reshape(-1)
        full = np.concatenate([_data((offset,), dt), full]) if offset else full
        x = xp.asarray(full)[offset:]
        x = xp.reshape(x, batch + ((shape[1], shape[0]) if t else shape))
        a = full[offset:].reshape(batch + ((shape[1], shape[0]) if t else shape))
        if t:
            return xp.matrix_transpose(x), np.swapaxes(a, -1, -2)
        return x, a
    xa, a = operand((m, k), ta)
    xb, b = operand((k, n), tb)
    before = _fallbacks()
    got = xa @ xb
    assert _fallbacks() == before
    _check(got, np.matmul(a, b), k)


@pytest.fixture
def own_kernel(monkeypatch):
    """float64 through this family's own fast kernel (by default its tiled products take the
    linalg family's GEMM step: _matmul.GEMM_STEP_CODES)."""
    from array_api_vulkan._kernels import _matmul

    monkeypatch.setattr(_matmul, "GEMM_STEP_CODES", "")
    monkeypatch.setattr(_matmul, "_plans", {})


@pytest.mark.parametrize("codes", ["d", "fd"])
def test_matmul_gemm_step(codes, monkeypatch):
    """Tiled products through the linalg family's GEMM step: transposed operands, offsets,
    one batch dimension (broadcast too); split-K and two batch dimensions keep the own kernel."""
    from array_api_vulkan._kernels import _matmul

    monkeypatch.setattr(_matmul, "GEMM_STEP_CODES", codes)
    monkeypatch.setattr(_matmul, "_plans", {})
    taken = []
    real = _matmul._gemm_step_layout  # (asked first: None keeps the own kernel)
    monkeypatch.setattr(_matmul, "_gemm_step_layout",
                        lambda *a: taken.append(real(*a) is not None) or real(*a))
    for dt in [d for d in FAST_DTYPES if np.dtype(d.name).char in codes]:
        taken.clear()
        for ta, tb in [(False, False), (True, False), (False, True), (True, True)]:
            _fast_case(130, 68, 150, dt, ta, tb)
            _fast_case(70, 40, 90, dt, ta, tb, offset=3)
        _fast_case(68, 40, 36, dt, False, True, offset=2, batch=(3,))
        _matmul_case((40, 24), (3, 24, 52), dt)              # a broadcast batch (stride 0)
        assert taken and all(taken), taken
        n = len(taken)
        _fast_case(40, 3000, 36, dt, True, False)           # split-K: the own kernel
        _matmul_case((2, 3, 40, 24), (3, 24, 52), dt)        # two batch dimensions
        assert taken[n:] == [False], taken


@pytest.mark.parametrize("dt", FAST_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("m,k,n", [(130, 68, 150), (129, 33, 67), (300, 64, 20), (20, 64, 300)])
def test_matmul_fast_layouts(dt, ta, tb, m, k, n, own_kernel):
    from array_api_vulkan._kernels import _matmul

    assert _matmul.fast_tiles(xp.asarray(np.ones(1))._alloc.device, np.dtype(dt.name).char,
                              m, n, 1) is not None
    _fast_case(m, k, n, dt, ta, tb)


@pytest.mark.parametrize("dt", FAST_DTYPES, ids=lambda d: d.name)
def test_matmul_fast_misaligned_batched_split(dt, own_kernel):
    _fast_case(70, 40, 90, dt, False, False, offset=1)   # scalar loads (offsets not aligned)
    _fast_case(70, 40, 90, dt, True, True, offset=3)
    _fast_case(68, 40, 36, dt, False, True, offset=2, batch=(3,))
    _fast_case(40, 3000, 36, dt, True, False)           # split-K through the fast path
    _matmul_case((2, 1, 40, 24), (3, 24, 52), dt)        # broadcast batch


@pytest.mark.parametrize("dt", FAST_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("cls", ["big", "med", "tall", "wide"])
def test_matmul_fast_each_config(dt, cls, monkeypatch, own_kernel):
    from array_api_vulkan._kernels import _matmul

    width = np.dtype(dt.name).itemsize
    monkeypatch.setattr(_matmul, "FORCE_FAST", {width: _matmul.FAST[width][cls]})
    monkeypatch.setattr(_matmul, "_plans", {})
    _fast_case(150, 37, 140, dt, False, False)
    _fast_case(150, 36, 140, dt, True, True)


@pytest.mark.parametrize("dt", NUMERIC, ids=lambda d: d.name)
def test_matmul_vector_lanes(dt):
    """Matrix-vector products: several invocations per element (k-contiguous rows), split-K."""
    _matmul_case((70, 130), (130,), dt)
    _matmul_case((3, 5000), (5000,), dt)

    def tr(a, b, m):
        return a, (m.matrix_transpose(b) if m is xp else b.T)
    _matmul_case((20, 300), (5, 300), dt, tr)


def test_matmul_update_vector_lanes():
    dt = xp.float32
    c = _data((300, 3), dt)
    _update_case(c, lambda x: x[:, 1], _data((300, 64), dt), _data((64,), dt), -1.0, dt)


@pytest.mark.parametrize("group", [3, 8])
def test_matmul_fast_swizzle(group, monkeypatch, own_kernel):
    from array_api_vulkan._kernels import _matmul

    monkeypatch.setattr(_matmul, "SWIZZLE", group)
    monkeypatch.setattr(_matmul, "_plans", {})
    monkeypatch.setattr(_matmul, "FORCE_FAST", {4: (16, 16, 4, 4, 8), 8: (16, 16, 2, 2, 8)})
    for dt in FAST_DTYPES:
        _fast_case(330, 20, 290, dt, False, False)   # a last partial group of tile rows
        _fast_case(70, 20, 290, dt, True, False, batch=(2,))


def test_matmul_nvidia_knobs(monkeypatch, own_kernel):
    """NVIDIA's own knob values (unmeasured defaults, _matmul.NVIDIA): chosen on an NVIDIA
    device only, and correct when applied here."""
    from types import SimpleNamespace

    from array_api_vulkan._kernels import _matmul

    nv = SimpleNamespace(info={"vendor_id": 0x10DE},
                         limits={"max_compute_shared_memory_size": 49152})
    name = "DIRECT_SPLIT_THREADS"
    assert _matmul._knob(nv, name) == _matmul.NVIDIA[name]
    dev = xp.asarray(np.ones(1))._alloc.device
    if dev.info.get("vendor_id") != 0x10DE:
        assert _matmul._knob(dev, name) == getattr(_matmul, name)
    monkeypatch.setattr(_matmul, "_plans", {})
    for name, value in _matmul.NVIDIA.items():
        monkeypatch.setattr(_matmul, name, value)
    monkeypatch.setattr(_matmul, "BIG_MIN_GROUPS", 1)
    for dt in FAST_DTYPES:
        _fast_case(300, 40, 270, dt, False, False)
        _fast_case(260, 36, 300, dt, True, True, batch=(2,))
    _matmul_case((3, 5000), (5000,), xp.float32)


def test_matmul_update_tiles(monkeypatch):
    """Updates take fast tiles of at most UPDATE_MOST_ACC accumulators an invocation, forced big
    tiles too (NVIDIA's driver took a minute to compile an 8 x 8 update); products keep theirs."""
    from types import SimpleNamespace

    from array_api_vulkan._kernels import _matmul

    nv = SimpleNamespace(info={"vendor_id": 0x10DE},
                         limits={"max_compute_shared_memory_size": 49152})
    for code, width in (("f", 4), ("d", 8)):
        product = _matmul.fast_tiles(nv, code, 4096, 4096, 1)
        update = _matmul.fast_tiles(nv, code, 4096, 4096, 1, update=True)
        assert product[2] * product[3] > _matmul.UPDATE_MOST_ACC >= update[2] * update[3]
        monkeypatch.setattr(_matmul, "FORCE_FAST", {width: _matmul.NVIDIA["FAST"][width]["big"]})
        update = _matmul.fast_tiles(nv, code, 256, 256, 1, update=True)
        assert update[2] * update[3] <= _matmul.UPDATE_MOST_ACC
        monkeypatch.setattr(_matmul, "FORCE_FAST", None)


@pytest.mark.parametrize("dt", FAST_DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("static,exact", [(True, True), (True, False), (False, False)])
@pytest.mark.parametrize("cfg", ["nvidia_big", "med"])
def test_matmul_fast_static_modes(dt, static, exact, cfg, monkeypatch, own_kernel):
    """The fast path's mode word as specialisation constant 8 (_matmul.STATIC_MODES), with the
    edge tests compiled out where M, N and K are whole tiles (EXACT_TILES): every load mode
    (operands transposed in place, misaligned offsets) on whole and ragged tiles, products and
    in-place updates, agree with numpy; the spec constant is what the layout asks for."""
    from array_api_vulkan._kernels import _matmul

    width = np.dtype(dt.name).itemsize
    tiles = _matmul.NVIDIA["FAST"][width]["big"] if cfg == "nvidia_big" else _matmul.FAST[width]["med"]
    monkeypatch.setattr(_matmul, "FORCE_FAST", {width: tiles})
    monkeypatch.setattr(_matmul, "STATIC_MODES", static)
    monkeypatch.setattr(_matmul, "EXACT_TILES", exact)
    monkeypatch.setattr(_matmul, "_plans", {})
    specs = plan_specs(monkeypatch, "matmul")
    dev = xp.asarray(np.ones(1))._alloc.device
    wx, wy, rm, rn, tk = _matmul.fast_tiles(dev, np.dtype(dt.name).char, 256, 256, 1)
    m, n, k = 2 * wy * rm, 2 * wx * rn, 4 * tk           # whole tiles
    for ta, tb in [(False, False), (True, False), (False, True), (True, True)]:
        for mm, kk, nn, off in [(m, k, n, 0), (m - 3, k + 1, n + 5, 0), (m, k, n, 1)]:
            specs.clear()
            _fast_case(mm, kk, nn, dt, ta, tb, offset=off)
            (spec,) = specs
            whole = (mm, kk, nn) == (m, k, n)
            if static:
                assert len(spec) == 9 and spec[8] & _matmul.FM_STATIC, spec
                assert bool(spec[8] & _matmul.FM_EXACT) == (exact and whole), spec
            else:
                assert len(spec) == 8, spec
    _fast_case(m, k, n, dt, False, True, batch=(2,))
    _update_case(_data((m + 4, n), dt), lambda x: x[2:2 + m, :], _data((m, k), dt),
                 _data((k, n), dt), -0.75, dt)


FROZEN_DTYPES = [d for d in (xp.int64, xp.uint64, xp.float64, xp.complex128) if computes_natively(d)]


@pytest.mark.parametrize("dt", FROZEN_DTYPES, ids=lambda d: d.name)
def test_matmul_frozen_tiles(dt, monkeypatch):
    """64-bit and complex128 products on the generic tiled path take the variants built with
    their tiles fixed and loops unrolled in SPIR-V (variants.frozen_tiles) where one matches, and
    give what the specialised kernel gives (numpy's, exactly for integers)."""
    from array_api_vulkan._kernels import _matmul
    from array_api_vulkan._runtime import device as _device

    rng = np.random.default_rng(11)

    def arr(shape):
        if dt.name.startswith(("int", "uint")):
            return rng.integers(0, 1000, shape).astype(dt.name)
        h = rng.standard_normal(shape)
        return (h + 1j * rng.standard_normal(shape) if dt == xp.complex128 else h).astype(dt.name)

    # a plain product, a batched one, a transposed operand, a small one (2 x 2 blocks)
    cases = [(arr((100, 103)), arr((103, 99)), False), (arr((3, 40, 50)), arr((3, 50, 45)), False),
             (arr((70, 90)), arr((80, 90)), True), (arr((30, 40)), arr((40, 20)), False)]
    seen = []
    plan = _device.Device.compile_plan

    def spy(self, *args):
        seen.extend(step[0] for step in args[4])
        return plan(self, *args)

    monkeypatch.setattr(_device.Device, "compile_plan", spy)
    got = {}
    for frozen in (True, False):
        monkeypatch.setattr(_matmul, "USE_FROZEN", frozen)
        monkeypatch.setattr(_matmul, "_plans", {})
        seen.clear()
        xp.reset_runtime_stats()
        got[frozen] = []
        for a, b, bt in cases:
            xb = xp.asarray(b)
            r = xp.asarray(a) @ (xp.matrix_transpose(xb) if bt else xb)
            got[frozen].append(np.asarray(r))
        assert xp.runtime_stats()["host_fallbacks"] == {}
        tiled = [s for s in seen if s.startswith("matmul_")]
        if dt == xp.float64:  # (its products take the fast path, not the tiled one)
            assert not any("_t16x" in s for s in tiled)
        else:
            assert any("_t16x16x4x4x" in s for s in tiled) == frozen
            assert any("_t16x16x2x2x" in s for s in tiled) == frozen
    for (a, b, bt), g1, g0 in zip(cases, got[True], got[False]):
        want = a @ (np.swapaxes(b, -1, -2) if bt else b)
        if dt.name.startswith(("int", "uint")):
            assert np.array_equal(g1, want) and np.array_equal(g0, want)
        else:
            np.testing.assert_allclose(g1, want, rtol=1e-12, atol=1e-10)
            np.testing.assert_allclose(g0, want, rtol=1e-12, atol=1e-10)
