"""Issue 8, sorting and sets: sort/argsort (stable, descending, any axis), unique_* and
searchsorted native through the sort family (glsl/sort.comp), against numpy / array-api-strict's
behaviour, for every advertised real dtype and bool, with no host fallback.

References: argsort ascending is numpy's stable argsort; descending is array-api-strict's
flip(argsort(flip(x))) (equal keys in input order, NaNs first); unique_* are numpy >= 2's
np.unique(x.reshape(-1), equal_nan=False) (sorted values, each NaN distinct)."""
import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan._array_object import Array
from array_api_vulkan._dtypes import from_np

from array_api_vulkan._kernels import _sort

from conftest import DEVICE, DTYPES, computes_natively

INDEX = xp.__array_namespace_info__().default_dtypes(device=DEVICE)["indexing"]
REAL = [d for d in DTYPES if "complex" not in d.name and computes_natively(d)]
IDS = [d.name for d in REAL]


def dev(h):
    """Upload without the spec layer's asarray (which counts itself as a host round trip)."""
    h = np.asarray(h)
    return Array._new(DEVICE.upload(np.ascontiguousarray(h)), from_np(h.dtype), h.shape)


def values(dt, shape, rng, ties=False):
    n = int(np.prod(shape))
    k = dt._np.kind
    if k == "b":
        v = rng.random(n) < 0.5
    elif k in "iu":
        info = np.iinfo(dt._np)
        if ties:
            v = rng.integers(max(info.min, -2), 3, n).astype(dt._np)
        else:
            v = rng.integers(info.min, info.max, n, dtype=dt._np, endpoint=True)
    else:
        if ties:
            v = rng.integers(-2, 3, n).astype(dt._np)
        else:
            v = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(dt._np)
            sp = rng.random(n)
            v[sp < 0.05] = np.nan
            v[(sp >= 0.05) & (sp < 0.1)] = -0.0
            v[(sp >= 0.1) & (sp < 0.15)] = 0.0
            v[(sp >= 0.15) & (sp < 0.17)] = np.inf
            v[(sp >= 0.17) & (sp < 0.19)] = -np.inf
    return v.reshape(shape)


def ref_argsort(a, axis, descending):
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    n = a.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(a, axis=axis), axis=axis, kind="stable"), axis=axis)


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    if got.dtype.kind == "f":
        ok = (got == want) | (np.isnan(got) & np.isnan(want))
    else:
        ok = got == want
    assert ok.all(), (got, want)


# (shape, axis, view)
LAYOUTS = [
    ((1000,), -1, None),
    ((1,), 0, None),
    ((13, 257), 1, None),
    ((13, 257), 0, None),
    ((4, 5, 6), 1, None),
    ((4, 5, 6), -3, None),
    ((300, 3), 0, None),
    ((20, 30), 1, lambda a: a[::2, ::-3]),
    ((20, 30), 0, lambda a: a.T),
    ((0, 5), 1, None),
    ((5, 0), 1, None),
]


@pytest.mark.parametrize("dt", REAL, ids=IDS)
def test_sort_argsort(dt):
    rng = np.random.default_rng(1)
    xp.reset_runtime_stats()
    for ties in (False, True):
        for shape, axis, view in LAYOUTS:
            h = values(dt, shape, rng, ties)
            x = dev(h)
            if view is not None:
                h, x = view(h), view(x)
            for desc in (False, True):
                idx = ref_argsort(h, axis, desc)
                got = xp.argsort(x, axis=axis, descending=desc)
                assert got.dtype == INDEX
                same(got, idx)
                same(xp.sort(x, axis=axis, descending=desc), np.take_along_axis(h, idx, axis))
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_nan_and_zeros():
    for dt in REAL:
        if dt._np.kind != "f":
            continue
        h = np.array([1.0, np.nan, 2.0, np.nan, -0.0, 0.0, 1.0, -np.inf, np.inf, -0.0], dt._np)
        x = dev(h)
        xp.reset_runtime_stats()
        # ascending: NaNs last in input order; -0 == +0 keep input order
        same(xp.argsort(x), [7, 4, 5, 9, 0, 6, 2, 8, 1, 3])
        # descending (array-api-strict): NaNs first, equal keys in input order
        same(xp.argsort(x, descending=True), [1, 3, 8, 2, 0, 6, 4, 5, 9, 7])
        s = np.asarray(xp.sort(x))
        assert np.signbit(s[1:4]).tolist() == [True, False, True]
        assert xp.runtime_stats()["host_fallbacks"] == {}


def test_zero_d():
    """0-d: sort gives the value, argsort 0 (this package's behaviour, as its host path)."""
    x = dev(np.float32(2.5))
    xp.reset_runtime_stats()
    s, a = xp.sort(x), xp.argsort(x)
    assert s.shape == () and float(s) == 2.5 and a.shape == () and int(a) == 0
    assert xp.runtime_stats()["host_fallbacks"] == {}
    with pytest.raises(np.exceptions.AxisError, match="0-d"):
        xp.sort(x, axis=1)


def test_stability_many_equal_keys():
    rng = np.random.default_rng(2)
    h = rng.integers(0, 4, 100_000).astype(np.int32)
    x = dev(h)
    xp.reset_runtime_stats()
    same(xp.argsort(x), np.argsort(h, kind="stable"))
    same(xp.argsort(x, descending=True), ref_argsort(h, 0, True))
    # many short rows
    h2 = rng.integers(0, 3, (5000, 7)).astype(np.int32)
    same(xp.argsort(dev(h2), axis=1), np.argsort(h2, axis=1, kind="stable"))
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_large():
    n = 1 << 22
    rng = np.random.default_rng(3)
    h = rng.standard_normal(n).astype(np.float32)
    h[::1000] = 0.5  # ties
    x = dev(h)
    xp.reset_runtime_stats()
    same(xp.argsort(x), np.argsort(h, kind="stable"))
    assert xp.runtime_stats()["host_fallbacks"] == {}


# The 8-bit radix sort's paths: rows longer than a workgroup's tile (256 x ROW_KPT) take the
# global passes (key passes, then passes over the row index); 4097 crosses a tile boundary.
GLOBAL_LAYOUTS = [((4097,), -1), ((3, 5000), -1), ((5000, 3), 0)]


def _check_sorts(h, x, axis):
    for desc in (False, True):
        idx = ref_argsort(h, axis, desc)
        got = xp.argsort(x, axis=axis, descending=desc)
        assert got.dtype == INDEX
        same(got, idx)
        s = np.asarray(xp.sort(x, axis=axis, descending=desc))
        want = np.take_along_axis(h, idx, axis)
        same(s, want)
        if h.dtype.kind == "f":  # -0.0 and +0.0 in input order
            assert (np.signbit(s) == np.signbit(want)).all()


@pytest.mark.parametrize("dt", REAL, ids=IDS)
def test_radix_global_passes(dt):
    rng = np.random.default_rng(6)
    xp.reset_runtime_stats()
    for shape, axis in GLOBAL_LAYOUTS:
        h = values(dt, shape, rng)
        _check_sorts(h, dev(h), axis)
    assert xp.runtime_stats()["host_fallbacks"] == {}


# (KPT, USE_BALLOT, ROW_KPT, ONESWEEP, radix workgroup width, KEY_REORDER): the shared-memory
# ranking (no subgroup ballots), small tiles with the one-workgroup row sort off (every size
# through the global passes), and the same with tile histograms and their scan before each
# scatter instead of the look-back; wider workgroups (tiles of 512 x 4, 768 x 4 and 384 x 10
# keys, the per-digit steps taken by their first 256 invocations), with key words reordered or
# digits.
# (CPU devices take the tile histograms either way: _sort.ONESWEEP_CPU.)
CONFIGS = [(16, False, 16, True, 256, 0), (8, True, 0, True, 256, 0), (8, True, 0, False, 256, 0),
           (8, True, 0, True, 256, 1), (4, False, 0, True, 512, 1), (4, False, 0, True, 768, 0),
           (10, False, 0, True, 384, 1)]
SOME = [d for d in REAL if d.name in ("bool", "uint8", "int16", "float32", "int64", "float64")]


@pytest.mark.parametrize("cfg", CONFIGS, ids=["smem", "kpt8_global", "kpt8_global_twopass",
                                              "kpt8_keyreorder", "wide512_keyreorder", "wide768",
                                              "wide384_kpt10_keyreorder"])
def test_radix_configs(cfg, monkeypatch):
    for name, v in zip(("KPT", "USE_BALLOT", "ROW_KPT", "ONESWEEP", "RADIX_LOCAL", "KEY_REORDER"), cfg):
        monkeypatch.setattr(_sort, name, v)
    # (the same tiles on a GPU run)
    monkeypatch.setattr(_sort, "KPT_GPU", cfg[0])
    monkeypatch.setattr(_sort, "RADIX_LOCAL_GPU", cfg[4])
    monkeypatch.setattr(_sort, "KEY_REORDER_GPU", cfg[5])
    assert _sort._radix_local(xp.asarray(0)._alloc.device, cfg[0]) == cfg[4]
    rng = np.random.default_rng(7)
    xp.reset_runtime_stats()
    for dt in SOME:
        for shape, axis in [((2049,), -1), ((70, 33), -1), ((33, 70), 0)]:
            h = values(dt, shape, rng, ties=dt.name == "float32")
            _check_sorts(h, dev(h), axis)
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_radix_width_falls_back_where_the_tile_does_not_fit(monkeypatch):
    """A radix workgroup width whose tile (or its groups' counters) would not fit the device's
    shared memory, or that is not a multiple of 32, gives the 256 wide workgroups."""
    d = xp.asarray(0)._alloc.device
    for ls, kpt, want in [(1024, 16, 256), (4096, 1, 256), (500, 4, 256), (512, 4, 512)]:
        monkeypatch.setattr(_sort, "RADIX_LOCAL", ls)
        monkeypatch.setattr(_sort, "RADIX_LOCAL_GPU", ls)
        monkeypatch.setattr(_sort, "USE_BALLOT", False)
        assert _sort._radix_local(d, kpt) == want, (ls, kpt)


def test_cpu_devices_take_the_two_pass_scatter():
    """On CPU devices (lavapipe) a global radix sort takes a tile histogram and a scan before
    each scatter, not the single sweep's look-back (_sort.ONESWEEP_CPU; see its comment): zero,
    global histogram and info, then three dispatches for each of the four key passes."""
    if xp.asarray(0)._alloc.device.kind != "cpu":
        pytest.skip("a CPU device's choice")
    h = np.random.default_rng(12).standard_normal(70_000).astype(np.float32)
    x = dev(h)
    xp.synchronize()
    xp.reset_runtime_stats()
    r = xp.argsort(x)
    xp.synchronize()
    assert xp.runtime_stats()["dispatches"] == 3 + 3 * 4
    same(r, np.argsort(h, kind="stable"))


@pytest.mark.parametrize("onesweep", [True, False], ids=["onesweep", "twopass"])
def test_histogram_workgroups_take_several_tiles_each(onesweep, monkeypatch):
    """The all-pass histogram runs fewer workgroups than tiles, each over every groups-th tile
    (and zeroing the single sweep's status rows of its tiles): 3 workgroups over about 25 tiles
    sort and argsort float32 (payload, NaNs, descending) and int32 as numpy does."""
    monkeypatch.setattr(_sort, "GHIST_GROUPS", 3)
    monkeypatch.setattr(_sort, "GHIST_GROUPS_CPU", 3)
    monkeypatch.setattr(_sort, "ONESWEEP", onesweep)
    monkeypatch.setattr(_sort, "ONESWEEP_CPU", onesweep)
    rng = np.random.default_rng(21)
    h = rng.standard_normal(100_003).astype(np.float32)
    h[::97] = np.nan
    h[::89] = -0.0
    x = dev(h)
    same(xp.sort(x), np.sort(h))
    same(xp.argsort(x), np.argsort(h, kind="stable"))
    same(xp.sort(x, descending=True), _desc(h))
    hi = rng.integers(-(1 << 31), 1 << 31, 100_003, dtype=np.int64).astype(np.int32)
    same(xp.sort(dev(hi)), np.sort(hi))
    same(xp.argsort(dev(hi)), np.argsort(hi, kind="stable"))


def _desc(h):
    """h sorted descending as the standard orders it (NaNs first)."""
    return np.concatenate([h[np.isnan(h)], np.sort(h[~np.isnan(h)])[::-1]])


def _f32(*bits):
    return np.array(bits, np.uint32).view(np.float32)


@pytest.mark.parametrize("onesweep", [True, False], ids=["onesweep", "twopass"])
def test_sort_float32_payload_where_needed(onesweep, monkeypatch):
    """A float32 sort of values carries the values only where some key loses one (-0.0, a NaN
    other than 0x7FC00000); either way every result bit is numpy's, NaNs last (first when
    descending) in input order."""
    monkeypatch.setattr(_sort, "ONESWEEP", onesweep)
    rng = np.random.default_rng(10)
    base = rng.standard_normal(10_000).astype(np.float32)
    base[::7] = 0.0
    cases = {"plain": base.copy()}
    h = base.copy()
    h[::11] = -0.0
    cases["negative zeros"] = h
    h = base.copy()
    h[[5, 50, 500]] = _f32(0x7FC00000, 0xFFC00001, 0x7F800001)
    cases["NaN payloads"] = h
    h = base.copy()
    h[[3, 30, 3000]] = np.nan
    cases["canonical NaNs"] = h
    xp.reset_runtime_stats()
    for name, h in cases.items():
        x = dev(h)
        for desc in (False, True):
            want = np.take_along_axis(h, ref_argsort(h, 0, desc), 0)
            got = np.asarray(xp.sort(x, descending=desc))
            assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist(), (name, desc)
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_radix_skipped_passes():
    """Key passes whose digit is the same for every key are skipped on the device: small
    ranges, all keys equal, keys differing in the top byte only."""
    rng = np.random.default_rng(8)
    xp.reset_runtime_stats()
    cases = [rng.integers(0, 200, 9000).astype(np.int32), np.full(9000, 7, np.int32),
             (rng.integers(0, 3, 9000) << 24).astype(np.uint32),
             np.repeat(np.float32([-0.0, 0.0, 1.5]), 3000)]
    if computes_natively(xp.int64):
        cases.append(rng.integers(-5, 5, 9000).astype(np.int64) << 40)
    if computes_natively(xp.float64):
        cases.append(np.repeat(np.float64([2.0, -2.0, np.nan]), 3000))
    for h in cases:
        _check_sorts(h, dev(h), -1)
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_radix_big_stable():
    """2^24 elements, 200 distinct values: equal keys in input order across 4096 tiles."""
    rng = np.random.default_rng(9)
    h = rng.integers(0, 200, 1 << 24).astype(np.int32)
    xp.reset_runtime_stats()
    same(xp.argsort(dev(h)), np.argsort(h, kind="stable"))
    assert xp.runtime_stats()["host_fallbacks"] == {}


def _unique_ref(h):
    return np.unique(h.reshape(-1), return_index=True, return_inverse=True, return_counts=True,
                     equal_nan=False)


@pytest.mark.parametrize("dt", REAL, ids=IDS)
def test_unique(dt):
    rng = np.random.default_rng(4)
    xp.reset_runtime_stats()
    for shape, view in [((600,), None), ((30, 40), lambda a: a[::-2, 1::3]), ((0,), None),
                        ((), None), ((7, 1, 3), None)]:
        for ties in (True, False):
            h = values(dt, shape, rng, ties)
            x = dev(h)
            if view is not None:
                h, x = view(h), view(x)
            v, i, inv, c = _unique_ref(h)
            r = xp.unique_all(x)
            same(r.values, v)
            same(r.indices, i)
            same(r.inverse_indices, inv.reshape(h.shape))
            same(r.counts, c)
            _same_unique_parts(x, h, v, inv, c)
    assert xp.runtime_stats()["host_fallbacks"] == {}


def _same_unique_parts(x, h, v, inv, c):
    """unique_values, unique_counts and unique_inverse of x against numpy's v, inv, c of h."""
    same(xp.unique_values(x), v)
    rc = xp.unique_counts(x)
    same(rc.values, v)
    same(rc.counts, c)
    ri = xp.unique_inverse(x)
    same(ri.values, v)
    same(ri.inverse_indices, inv.reshape(h.shape))


DENSE = [d for d in REAL if d._np.kind in "biu" and d._np.itemsize <= 4]


@pytest.mark.parametrize("dt", DENSE, ids=[d.name for d in DENSE])
def test_unique_by_counting_over_a_dense_range(dt, monkeypatch):
    """unique_values / unique_counts / unique_inverse of bool and integers of at most 32 bits
    whose keys span no more than the element count count the keys in bins, with no radix pass:
    numpy's answers for views, range ends, shared bins (a range of at most 4096) and global
    ones; a wider range still sorts."""
    monkeypatch.setattr(_sort, "DENSE_MIN_N", 64)
    radix = []
    real = _sort._radix
    monkeypatch.setattr(_sort, "_radix", lambda *a, **k: radix.append(1) or real(*a, **k))
    rng = np.random.default_rng(9)
    k = dt._np.kind
    lo, hi = (0, 1) if k == "b" else (int(np.iinfo(dt._np).min), int(np.iinfo(dt._np).max))
    xp.reset_runtime_stats()
    cases = [((600,), lo, lo + 6, None), ((600,), hi - 6, hi, None),
             ((30, 40), max(lo, -3), min(hi, 4), lambda a: a[::-2, 1::3]),
             ((20000,), max(lo, -2500), min(hi, 2500), None)]  # (the last: global bins where wide)
    for shape, a, b, view in cases:
        h = rng.integers(a, b, shape, endpoint=True).astype(dt._np)
        x = dev(h)
        if view is not None:
            h, x = view(h), view(x)
        v, _, inv, c = _unique_ref(h)
        _same_unique_parts(x, h, v, inv, c)
    assert radix == [] and xp.runtime_stats()["host_fallbacks"] == {}
    if dt._np.itemsize >= 2:
        h = rng.integers(lo, hi, 1000, endpoint=True).astype(dt._np)  # (range wider than 1000)
        same(xp.unique_values(dev(h)), np.unique(h))
        assert radix


def test_unique_nan_zero():
    for dt in REAL:
        if dt._np.kind != "f":
            continue
        h = np.array([np.nan, 1.0, -0.0, np.nan, 0.0, 1.0], dt._np)
        r = xp.unique_all(dev(h))
        same(r.values, [0.0, 1.0, np.nan, np.nan])
        same(r.indices, [2, 1, 0, 3])
        same(r.counts, [2, 2, 1, 1])
        same(r.inverse_indices, [2, 1, 0, 3, 0, 1])


@pytest.mark.parametrize("dt", REAL, ids=IDS)
def test_searchsorted(dt):
    """(The second round, of other values, makes plans for the layouts the first saw; the third
    replays them.)"""
    from array_api_vulkan import _searching_functions as sf

    sf._search_plans.clear()
    rng = np.random.default_rng(5)
    xp.reset_runtime_stats()
    for ties in (True, False, True):
        a = values(dt, (200,), rng, ties)
        q = values(dt, (3, 50), rng, ties)
        s = np.sort(a)
        perm = np.argsort(a, kind="stable").astype(INDEX._np)
        for side in ("left", "right"):
            same(xp.searchsorted(dev(s), dev(q), side=side), np.searchsorted(s, q, side=side))
            same(xp.searchsorted(dev(a), dev(q), side=side, sorter=dev(perm)),
                 np.searchsorted(a, q, side=side, sorter=perm))
            # strided x1 and x2
            s2 = np.sort(a)[::-1]
            same(xp.searchsorted(dev(s2)[::-1], dev(q)[:, ::2], side=side),
                 np.searchsorted(s2[::-1], q[:, ::2], side=side))
            same(xp.searchsorted(dev(s), dev(q[0, 0]), side=side),
                 np.searchsorted(s, q[0, 0], side=side))
            same(xp.searchsorted(dev(s[:0]), dev(q), side=side), np.zeros(q.shape, np.int64))
    assert xp.runtime_stats()["host_fallbacks"] == {}
    assert sum(1 for p in sf._search_plans.values() if p) == 4  # (x2 C-contiguous, x1 not empty)


def test_searchsorted_nan_scalar():
    dt = REAL[-1] if REAL[-1]._np.kind == "f" else xp.float32
    s = np.array([-np.inf, -1.0, -0.0, 0.0, 2.0, np.inf, np.nan, np.nan], dt._np)
    q = np.array([np.nan, 0.0, -0.0, np.inf, -5.0, 2.0], dt._np)
    xp.reset_runtime_stats()
    for side in ("left", "right"):
        same(xp.searchsorted(dev(s), dev(q), side=side), np.searchsorted(s, q, side=side))
        same(xp.searchsorted(dev(s), 2.0, side=side), np.searchsorted(s, 2.0, side=side))
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_searchsorted_sorter_shape():
    """A sorter whose shape is not x1's is a ValueError (as numpy's), not indices clamped."""
    x1 = dev(np.arange(4, dtype=np.float32))
    with pytest.raises(ValueError, match="sorter"):
        xp.searchsorted(x1, x1, sorter=dev(np.array([0, 1], np.int32)))


def test_repeated_call_skips_the_checks(monkeypatch):
    """A sort or argsort seen before (same dtype, shape, strides, axis, descending) runs the
    kernels layer's Repeat straight from the spec layer: the same values for other arrays of
    that layout (other allocations and offsets), no question asked of supports_sort; an input
    copied first (its axis not last in memory) is not kept; a changed module setting (a radix
    plan's key) makes the Repeat stand aside for a new plan."""
    from array_api_vulkan import _kernels, _sorting_functions as spec

    monkeypatch.setattr(spec, "_resolved", {})
    dt = from_np(np.dtype("float32"))
    rng = np.random.default_rng(3)
    h2 = values(dt, (13, 257), rng)
    x2 = dev(h2)

    def run(h, x):
        same(xp.sort(x), np.sort(h, kind="stable"))
        same(xp.argsort(x, descending=True), ref_argsort(h, -1, True))
        same(xp.sort(x2, axis=1), np.sort(h2, axis=1))

    h = values(dt, (5001,), rng)
    run(h[1:], dev(h)[1:])
    same(xp.sort(x2, axis=0), np.sort(h2, axis=0))  # (a copy first: not kept)
    assert len(spec._resolved) == 3
    asked = []
    real = _kernels.supports_sort
    monkeypatch.setattr(_kernels, "supports_sort", lambda *a: asked.append(a) or real(*a))
    for k in range(3):
        h = values(dt, (5001,), np.random.default_rng(10 + k))
        x = dev(h)
        run(h[1:], x[1:])
        run(h[:-1], x[:-1])  # another offset, the same layout
        same(x, h)  # the input is never written
    assert asked == []
    plans = len(_sort._plans)
    monkeypatch.setattr(_sort, "GHIST_GROUPS_CPU", _sort.GHIST_GROUPS_CPU + 1)
    monkeypatch.setattr(_sort, "GHIST_GROUPS", _sort.GHIST_GROUPS + 1)
    run(h[1:], x[1:])
    assert len(_sort._plans) > plans and len(asked) == 3
    monkeypatch.setattr(_sort, "_plans", {})  # (plans dropped: a Repeat serves only a kept one)
    run(h[1:], x[1:])
    assert len(_sort._plans) == 3 and len(asked) == 6
    assert xp.runtime_stats()["host_fallbacks"] == {}


ALL = [d for d in DTYPES if computes_natively(d)]


@pytest.mark.parametrize("dt", ALL, ids=[d.name for d in ALL])
@pytest.mark.parametrize("pairs", [True, False], ids=["pairs", "sorted"])
def test_isin(dt, pairs, monkeypatch):
    """isin against numpy's: every pair compared (small operands) or x2 sorted and searched,
    NaNs (never found), -0.0 and 0.0 (equal), an x2 of another dtype (promoted), an empty x2,
    Python scalars, invert; complex on the sorted path goes through numpy, counted."""
    from array_api_vulkan import _set_functions

    monkeypatch.setattr(_set_functions, "ISIN_PAIRS", 1 << 20 if pairs else 0)
    rng = np.random.default_rng(3)
    h = values(dt, (3, 40), rng, ties=True) if dt._np.kind != "c" else \
        (rng.integers(-2, 3, (3, 40)) + 1j * rng.integers(-1, 2, (3, 40))).astype(dt._np)
    g = h.reshape(-1)[::7].copy()
    if dt._np.kind in "fc":
        h[0, :3] = [np.nan, -0.0, 0.0]
        g[:2] = [np.nan, 0.0]
    xp.reset_runtime_stats()
    for x1, x2 in [(h, g), (h[1], g[:1]), (h, g[:0]), (h[:0], g), (h[0, 0], g)]:
        for invert in (False, True):
            same(xp.isin(dev(x1), dev(x2), invert=invert), np.isin(x1, x2, invert=invert))
    if dt._np.kind in "iu":
        other = xp.int64 if computes_natively(xp.int64) and dt._np.kind == "i" else dt
        same(xp.isin(dev(h), dev(g.astype(other._np))), np.isin(h, g))
        same(xp.isin(dev(h), 2), np.isin(h, 2))
        same(xp.isin(2, dev(g)), np.isin(2, g))
    fallbacks = xp.runtime_stats()["host_fallbacks"]
    # (complex, sorted: the six calls without an empty operand; without 8-bit storage bool
    # results are computed on through numpy: each call one round trip)
    if not computes_natively(xp.bool):
        assert set(fallbacks) == {"isin"}, fallbacks
    else:
        assert fallbacks == ({"isin": 6} if dt._np.kind == "c" and not pairs else {}), fallbacks
