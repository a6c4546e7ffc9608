"""Issue 8, bandwidth scans: cumulative_sum / cumulative_prod as reduce-then-scan over chunks of
long rows (glsl/scan.comp PARTIAL, a scan of the chunk totals, ROWS with carry-in), and the
compaction family built on it (glsl/compact.comp: count, scan of the counts, write in order):
boolean-mask __getitem__ / __setitem__ and nonzero. Values against numpy, no host fallback where
the device computes the dtypes natively (bool needs 8-bit storage: without it the mask ops are
counted host fallbacks, and stay correct)."""
import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan._array_object import Array
from array_api_vulkan._dtypes import from_np
from array_api_vulkan._kernels import _index, _launch, _reduce

from conftest import DTYPES, computes_natively, has

INFO = xp.__array_namespace_info__()
DEV = INFO.default_device()
DEFAULT_INDEX = INFO.default_dtypes(device=DEV)["indexing"]._np
NATIVE_MASK = computes_natively(xp.bool)
TILE = 256 * 8


SUBGROUPS = "arithmetic" in DEV.info.get("subgroup_operations", ())


# (subgroups, scan.comp STAGE): the `_sg` variants (where the device has subgroup arithmetic)
# and the shared-memory workgroup scans; tiles staged through shared memory (GPUs) or not (CPU
# devices), whichever this device would choose
_PATHS = [(True, 1), (False, 0)] if SUBGROUPS else [(False, 1), (False, 0)]


@pytest.fixture(params=_PATHS, ids=lambda v: ("sg" if v[0] else "shared") + f"-stage{v[1]}")
def subgroups(request, monkeypatch):
    monkeypatch.setattr(_launch, "USE_SUBGROUPS", request.param[0])
    monkeypatch.setattr(_reduce, "SCAN_STAGE", request.param[1])
    return request.param


def dev(h):
    h = np.asarray(h)
    return Array._new(DEV.upload(np.ascontiguousarray(h)), from_np(h.dtype), h.shape)


def fallbacks():
    return sum(xp.runtime_stats()["host_fallbacks"].values())


def values(dt, n, rng, op):
    """Values whose running sums / products are exact in dt (and numpy's reference)."""
    k = dt._np.kind
    if k == "b":
        return rng.random(n) < 0.5
    if op == "cumulative_prod":
        # mostly ones, a few -1 and (integers: they wrap like numpy's) 2
        v = np.where(rng.random(n) < 0.002, rng.choice([-1, 2] if k in "iu" else [-1], n), 1)
        if k == "u":
            v = np.abs(v)
        if k == "c":
            return (v + 0j).astype(dt._np)
        return v.astype(dt._np)
    v = rng.integers(-3 if k in "ifc" else 0, 4, n)
    if k == "c":
        return (v + 1j * rng.integers(-2, 3, n)).astype(dt._np)
    return v.astype(dt._np)


def ref(op, h, axis, inc, dtype):
    fn = np.cumsum if op == "cumulative_sum" else np.cumprod
    r = fn(h, axis=axis, dtype=dtype)
    if inc:
        shape = list(r.shape)
        shape[axis] = 1
        r = np.concatenate([np.full(shape, 0 if op == "cumulative_sum" else 1, r.dtype), r], axis=axis)
    return r


def acc_dtype(dt):
    k = dt._np.kind
    i64 = has("int64")
    if k in "bi" and dt._np.itemsize < (8 if i64 else 4):
        return np.dtype(np.int64 if i64 else np.int32)
    if k == "u" and dt._np.itemsize < (8 if i64 else 4):
        return np.dtype(np.uint64 if i64 else np.uint32)
    return dt._np


def check(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype, got.shape)
    np.testing.assert_array_equal(got, want)


# lengths about tiles and chunks: one tile, one more, the least chunked row (two tiles + 1),
# several chunks (on CPU devices a row is split into about 32 of them: past that the chunks
# grow), a ragged last chunk
LENGTHS = (1, TILE - 1, TILE, TILE + 1, 2 * TILE + 1, 5 * TILE - 1, 33 * 2 * TILE + 7)


@pytest.mark.parametrize("dt", DTYPES, ids=[d.name for d in DTYPES])
def test_scan_lengths(dt, subgroups):
    rng = np.random.default_rng(3)
    xp.reset_runtime_stats()
    for op in ("cumulative_sum", "cumulative_prod"):
        for n in LENGTHS:
            h = values(dt, n, rng, op)
            x = dev(h)
            for inc in ((False, True) if n in (1, 2 * TILE + 1) else (False,)):
                check(getattr(xp, op)(x, include_initial=inc), ref(op, h, 0, inc, acc_dtype(dt)))
        if dt._np.kind in "iu":  # dtype= the input's own: wraps exactly like numpy
            h = np.random.default_rng(1).integers(0, 100, 3 * TILE + 5).astype(dt._np)
            check(getattr(xp, op)(dev(h), dtype=dt), ref(op, h, 0, False, dt._np))
    assert fallbacks() == 0 or not computes_natively(dt)


@pytest.mark.parametrize("op", ("cumulative_sum", "cumulative_prod"))
def test_scan_axes_and_views(op, subgroups):
    dt = xp.int32
    rng = np.random.default_rng(5)
    xp.reset_runtime_stats()
    shapes = [(3, 2 * TILE + 9, 2), (5, 4, 3), (2 * TILE + 3, 3), (1, 1, 1), (4, 1, 7)]
    for shape in shapes:
        h = values(dt, int(np.prod(shape)), rng, op).reshape(shape)
        x = dev(h)
        for axis in range(len(shape)):
            for inc in (False, True):
                check(getattr(xp, op)(x, axis=axis, include_initial=inc),
                      ref(op, h, axis, inc, np.int64 if has("int64") else np.int32))
    h = values(dt, 3 * 5000, rng, op).reshape(3, 5000)
    x = dev(h)
    acc = np.int64 if has("int64") else np.int32
    for view in (lambda a: a.T, lambda a: a[::-1, ::-3], lambda a: a[1:, 7:4000:2]):
        hv, xv = view(h), view(x)
        for axis in (0, 1):
            check(getattr(xp, op)(xv, axis=axis, include_initial=True), ref(op, hv, axis, True, acc))
    assert fallbacks() == 0


def test_scan_empty_and_errors():
    for shape, axis in (((0,), 0), ((3, 0), 1), ((0, 4), 1), ((0, 4), 0)):
        h = np.zeros(shape, np.int32)
        for inc in (False, True):
            check(xp.cumulative_sum(dev(h), axis=axis, include_initial=inc),
                  ref("cumulative_sum", h, axis, inc, np.int64 if has("int64") else np.int32))
    # a 0-d array (the standard asks for one dimension or more) is one element, as in numpy
    check(xp.cumulative_sum(dev(np.float32(1.5))), np.cumulative_sum(np.float32(1.5)))
    check(xp.cumulative_prod(dev(np.int32(3)), axis=-1, include_initial=True),
          np.cumulative_prod(np.int32(3), axis=-1, include_initial=True,
                             dtype=np.int64 if has("int64") else np.int32))
    with pytest.raises(ValueError):
        xp.cumulative_sum(dev(np.float32(1)), axis=1)


def test_scan_calls_resolved_once_then_repeated(monkeypatch):
    """A repeated cumulative_* call (same function, dtype, shape, device, axis, dtype=,
    include_initial) skips validation and supports_scan (kept in _RESOLVED beside the
    reductions' calls), with the same results
    on other values and views of that shape; calls that differ in any of those resolve anew, and
    invalid ones still raise."""
    from array_api_vulkan import _statistical_functions as sf

    monkeypatch.setattr(sf, "_RESOLVED", {})

    def scans():
        return [k for k in sf._RESOLVED if k[0].startswith("cumulative_")]

    rng = np.random.default_rng(4)
    h = rng.standard_normal((6, 5)).astype(np.float32)
    check(xp.cumulative_sum(dev(h), axis=1), np.cumulative_sum(h, axis=1))
    assert len(scans()) == 1
    asked = []
    monkeypatch.setattr(sf._kernels, "supports_scan", lambda *a: asked.append(a) or True)
    h2 = rng.standard_normal((6, 5)).astype(np.float32)
    check(xp.cumulative_sum(dev(h2), axis=1), np.cumulative_sum(h2, axis=1))
    wide = rng.standard_normal((6, 10)).astype(np.float32)
    check(xp.cumulative_sum(dev(wide)[:, ::2], axis=1), np.cumulative_sum(wide[:, ::2], axis=1))
    assert not asked  # (both repeated: the same key)
    for kw in ({"axis": 0}, {"axis": 1, "include_initial": True}, {"axis": -1}):
        check(xp.cumulative_sum(dev(h), **kw), np.cumulative_sum(h, **kw))
    check(xp.cumulative_prod(dev(h), axis=1), np.cumulative_prod(h, axis=1))
    assert len(asked) == 4 and len(scans()) == 5
    with pytest.raises(ValueError):
        xp.cumulative_sum(dev(h))  # (axis None on 2-D: never resolved, always checked)
    with pytest.raises(IndexError):
        xp.cumulative_sum(dev(h), axis=2)  # (out of range: a new key, checked)
    with pytest.raises(TypeError):
        xp.cumulative_sum(np.ones(3), axis=0)  # (a numpy array: not ours)
    s0 = xp.cumulative_sum(dev(np.float32(2.5)))  # a 0-d input is reshaped: not remembered
    check(s0, np.cumulative_sum(np.float32(2.5)))
    assert len(scans()) == 5


def test_scan_float_deterministic(subgroups):
    """Float scans: the order of operations is fixed by the layout: same input, same bits."""
    h = np.random.default_rng(9).standard_normal(30 * TILE + 11).astype(np.float32)
    x = dev(h)
    a = np.asarray(xp.cumulative_sum(x))
    b = np.asarray(xp.cumulative_sum(dev(h)))
    assert a.tobytes() == b.tobytes()
    scale = np.cumsum(np.abs(h.astype(np.float64)))
    assert np.all(np.abs(a - np.cumsum(h.astype(np.float64))) <= 64 * np.finfo(np.float32).eps * scale)


def test_scan_large(monkeypatch):
    """A row past 2^24 elements, with GPU-sized chunking (more chunk totals than one tile: their
    scan walks several tiles)."""
    monkeypatch.setattr(_reduce, "SCAN_TARGET_GROUPS_CPU", 4096)
    monkeypatch.setattr(_reduce, "SCAN_STAGE", 1)  # (as on a GPU)
    monkeypatch.setattr(_reduce, "_scan_plans", {})
    n = (1 << 24) + 3
    h = (np.arange(n) % 3 == 0).astype(np.float32)  # exact running sums in float32
    xp.reset_runtime_stats()
    got = np.asarray(xp.cumulative_sum(dev(h), include_initial=True))
    want = np.concatenate([[0], np.cumsum(h, dtype=np.float64)]).astype(np.float32)
    assert got.dtype == np.float32 and got.shape == (n + 1,)
    np.testing.assert_array_equal(got, want)
    assert fallbacks() == 0


# --- compaction: boolean masks and nonzero --------------------------------------------------
MASK_LENGTHS = (0, 1, TILE - 1, TILE + 1, 2 * TILE, 2 * TILE + 1, 37 * TILE + 5, 100 * TILE + 3)


def masks(n, rng):
    return {"all": np.ones(n, bool), "none": np.zeros(n, bool), "random": rng.random(n) < 0.4,
            "sparse": rng.random(n) < 0.001}


@pytest.mark.parametrize("n", MASK_LENGTHS)
def test_mask_lengths(n, subgroups):
    rng = np.random.default_rng(n)
    xp.reset_runtime_stats()
    h = rng.standard_normal(n).astype(np.float32)
    for name, m in masks(n, rng).items():
        x, dm = dev(h), dev(m)
        check(x[dm], h[m])
        (nz,) = xp.nonzero(dm)
        check(nz, np.nonzero(m)[0].astype(DEFAULT_INDEX))
        a = h.copy()
        x[dm] = 2.5
        a[m] = 2.5
        check(x, a)
        v = rng.standard_normal(int(m.sum())).astype(np.float32)
        x[dm] = dev(v)
        a[m] = v
        check(x, a)
        check(xp.count_nonzero(dm), np.asarray(np.count_nonzero(m), DEFAULT_INDEX))
    assert (fallbacks() == 0) == NATIVE_MASK


@pytest.mark.parametrize("dt", DTYPES, ids=[d.name for d in DTYPES])
def test_mask_dtypes(dt):
    rng = np.random.default_rng(11)
    xp.reset_runtime_stats()
    n = 9 * TILE + 13
    h = values(dt, n, rng, "cumulative_sum")
    m = rng.random(n) < 0.5
    x, dm = dev(h), dev(m)
    check(x[dm], h[m])
    for d, w in zip(xp.nonzero(x), np.nonzero(h)):  # nonzero of a non-bool array
        check(d, w.astype(DEFAULT_INDEX))
    one = True if dt == xp.bool else 1
    x[dm] = one
    h[m] = one
    check(x, h)
    v = h[::-1][m].copy()
    x[dm] = dev(v)
    h[m] = v
    check(x, h)
    assert (fallbacks() == 0) == computes_natively(dt, xp.bool)


def test_mask_shapes_and_views(subgroups):
    rng = np.random.default_rng(2)
    xp.reset_runtime_stats()
    h = rng.standard_normal((70, 90)).astype(np.float32)
    m = rng.random((70, 90)) < 0.3
    x, dm = dev(h), dev(m)
    check(x[dm], h[m])  # a 2-D mask over all of x: one run
    check(x[dm, ...], h[m, ...])
    for d, w in zip(xp.nonzero(dm), np.nonzero(m)):
        check(d, w.astype(DEFAULT_INDEX))
    hv, xv = h[::-2, 1::3], x[::-2, 1::3]  # strided view, strided mask
    mv = m[1::2, ::3]
    check(xv[dev(mv)], hv[mv])
    check(xv[dev(m)[1::2, ::3]], hv[mv])
    check(x[dm[:, 0]], h[m[:, 0]])  # a mask over the leading dimension: rows
    h3 = rng.integers(0, 9, (6, 5, 4)).astype(np.int32)
    m2 = rng.random((6, 5)) < 0.5
    x3 = dev(h3)
    check(x3[dev(m2)], h3[m2])
    x3[dev(m2)] = 7
    h3[m2] = 7
    check(x3, h3)
    x[dm] = 0.0
    h[m] = 0.0
    check(x, h)
    xv = x[:, ::2]
    xv[dev(m[:, ::2])] = -1.0
    h[:, ::2][m[:, ::2]] = -1.0
    check(x, h)
    assert (fallbacks() == 0) == NATIVE_MASK


def test_compaction_chunks():
    """The count/scan/write plan: chunks of whole tiles, their count scanned in one workgroup."""
    L, G = _index._compact_chunks(100 * TILE + 3, DEV)
    assert L % TILE == 0 and G * L >= 100 * TILE + 3 > (G - 1) * L


@pytest.mark.parametrize("d", (1, 3, 16, 17))
def test_mask_rows(d, subgroups):
    """A mask over x's leading dimensions: rows of up to 16 elements are moved by the compaction
    itself, longer ones through the coordinates and a gather; views and set-items too."""
    rng = np.random.default_rng(d)
    xp.reset_runtime_stats()
    dt = xp.complex64 if d == 3 else xp.int16 if d == 16 and has("int16") else xp.float32
    n = 3 * TILE + 5
    h = (rng.standard_normal((n, d)) * 10).astype(dt._np)
    m = rng.random(n) < 0.6
    x, dm = dev(h), dev(m)
    check(x[dm], h[m])
    check(x[::-1][dm], h[::-1][m])
    check(x[:, ::-1][dm], h[:, ::-1][m])
    h2 = h.reshape(n, d, 1)
    check(dev(h2)[dm], h2[m])
    x[dm] = 1
    h[m] = 1
    check(x, h)
    v = rng.integers(0, 5, (int(m.sum()), d)).astype(dt._np)
    x[dm] = dev(v)
    h[m] = v
    check(x, h)
    x[dm] = dev(v[0])  # a row broadcast to every selected row
    h[m] = v[0]
    check(x, h)
    xe = dev(np.zeros((n, 0), np.float32))
    check(xe[dm], np.zeros((n, 0), np.float32)[m])
    assert (fallbacks() == 0) == computes_natively(dt, xp.bool)
