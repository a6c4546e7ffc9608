"""Issue 8: where, take, take_along_axis, integer-array and boolean-mask __getitem__ /
__setitem__, nonzero on the device (select, gather/scatter and compaction kernels) for every
advertised dtype, against numpy, with no host fallback.

Documented behaviour beyond numpy's: out-of-bounds integer array indices are clamped (negative
ones wrap once first); duplicate scatter positions store one of the values (unspecified which).
More than two index arrays (and masks whose leading dimensions are more than two strided runs)
are folded into one position array by elementwise kernels first. Boolean masks mixed with
slices, integers, None and integer arrays (numpy's semantics: a mask stands for the integer
arrays of its coordinates) are native too, and so are a 0-d mask or one Python bool that is
the key's only advanced index (a new axis of one or of none), and keys that select nothing
(an empty x or an empty index array: numpy's shape, nothing written). Not native (counted host
fallback): 0-d masks and Python bools beside integers or integer arrays, or several bools."""
import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan._array_object import Array
from array_api_vulkan._dtypes import from_np

from conftest import computes_natively, needs

INFO = xp.__array_namespace_info__()
DEV = INFO.default_device()
DTYPES = list(INFO.dtypes(device=DEV).values())
INDEX = [d for d in DTYPES if d.kind in "iu"]
IDS = [d.name for d in DTYPES]
DEFAULT_INDEX = INFO.default_dtypes(device=DEV)["indexing"]._np
DEFAULT_FLOAT = INFO.default_dtypes(device=DEV)["real floating"]._np
# Masks and conditions are bool: without 8-bit storage buffers every bool kernel is the host
# fallback (conftest.computes_natively), and so are these ops.
NATIVE = computes_natively(xp.bool)


def ix(a):
    """Index data in the default index dtype (numpy's default int64 may not be advertised)."""
    return np.asarray(a).astype(DEFAULT_INDEX)


def dev(h):
    h = np.asarray(h)
    return Array._new(DEV.upload(np.ascontiguousarray(h)), from_np(h.dtype), h.shape)


def host(a):
    return np.asarray(a)


def vals(dt, shape, rng):
    k = dt._np.kind
    if k == "b":
        return rng.random(shape) < 0.5
    if k == "c":
        return (rng.integers(-50, 50, shape) + 1j * rng.integers(-50, 50, shape)).astype(dt._np)
    lo = 0 if k == "u" else -50
    return rng.integers(lo, 50, shape).astype(dt._np)


def scalar(dt):
    return {"b": True, "i": -3, "u": 3, "f": -2.5, "c": 1.5 - 2j}[dt._np.kind]


@pytest.fixture(autouse=True)
def no_fallback(request):
    xp.reset_runtime_stats()
    yield
    if NATIVE and request.node.name != "test_counted_fallbacks":
        assert xp.runtime_stats()["host_fallbacks"] == {}


def same(a, h):
    a = host(a)
    assert a.dtype == h.dtype and a.shape == h.shape
    np.testing.assert_array_equal(a, h)


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_where(dt):
    rng = np.random.default_rng(1)
    c = rng.random((3, 4, 5)) < 0.5
    a, b = vals(dt, (3, 4, 5), rng), vals(dt, (4, 1), rng)
    same(xp.where(dev(c), dev(a), dev(b)), np.where(c, a, b))
    # strided / negative strides / broadcast condition
    same(xp.where(dev(c)[:, ::-1, :1], dev(a)[:, :, ::-2], dev(b)),
         np.where(c[:, ::-1, :1], a[:, :, ::-2], b))
    s = scalar(dt)
    same(xp.where(dev(c), s, dev(a)), np.where(c, np.asarray(s, dt._np), a))
    same(xp.where(dev(c), dev(a), s), np.where(c, a, np.asarray(s, dt._np)))
    # 0-d and empty
    same(xp.where(dev(np.bool_(True)), dev(a[0, 0, 0]), dev(b[0, 0])),
         np.where(True, a[0, 0, 0], b[0, 0]))
    same(xp.where(dev(c[:0]), dev(a[:0]), dev(b)), np.where(c[:0], a[:0], b))


@needs("int8", "int16")
def test_where_promotes():
    c = np.array([True, False, True])
    a, b = np.array([1, 2, 3], np.int8), np.array([4, 5, 6], np.int16)
    same(xp.where(dev(c), dev(a), dev(b)), np.where(c, a, b))
    same(xp.where(dev(c), dev(np.array([1.5, 2.5, 3.5], np.float32)), 2),
         np.array([1.5, 2, 3.5], np.float32))


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_take(dt):
    rng = np.random.default_rng(2)
    a = vals(dt, (4, 5, 6), rng)
    for idt in INDEX:
        i = np.array([0, 3, 2, 3, 4, 1], idt._np)
        same(xp.take(dev(a), dev(i), axis=1), np.take(a, i, axis=1))
    i = ix([0, -1, -6, 5])
    same(xp.take(dev(a), dev(i), axis=-1), np.take(a, i, axis=-1))
    same(xp.take(dev(a)[::-1, 1:, ::2], dev(i[:2]), axis=0), np.take(a[::-1, 1:, ::2], i[:2], axis=0))
    same(xp.take(dev(a[0, 0]), dev(i[:0])), a[0, 0][:0])
    same(xp.take(dev(a)[:, :, 3], dev(i[:1]), axis=0), np.take(a[:, :, 3], i[:1], axis=0))


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_take_along_axis(dt):
    rng = np.random.default_rng(3)
    a = vals(dt, (4, 5, 6), rng)
    for idt in INDEX:
        lo = 0 if idt.kind == "u" else -6
        i = rng.integers(lo, 6, (4, 5, 3)).astype(idt._np)
        same(xp.take_along_axis(dev(a), dev(i), axis=2), np.take_along_axis(a, i, axis=2))
    i = ix(rng.integers(-5, 5, (1, 7, 6)))
    same(xp.take_along_axis(dev(a), dev(i), axis=1), np.take_along_axis(a, i, axis=1))
    i = ix(rng.integers(0, 3, (4, 3, 1)))
    same(xp.take_along_axis(dev(a)[:, ::-1, ::-2], dev(i), axis=1),
         np.take_along_axis(a[:, ::-1, ::-2], i, axis=1))


def test_out_of_bounds_clamps():
    a = np.arange(5, dtype=np.int32)
    same(xp.take(dev(a), dev(ix([7, -9, 4, -1])), axis=0), np.array([4, 0, 4, 4], np.int32))
    same(dev(a)[dev(ix([100, -100]))], np.array([4, 0], np.int32))


def _keys(j, k):
    return [(j,), (slice(None), j), (j, k), (j, slice(1, None), k), (0, slice(None), k),
            (slice(None, None, -1), j, 2), (None, j, Ellipsis), (Ellipsis, k), (k, None, j)]


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_getitem_arrays(dt):
    rng = np.random.default_rng(4)
    a = vals(dt, (4, 5, 6), rng)
    j, k = ix([[0, 1], [2, -1]]), ix([1, 3])
    da = dev(a)
    for hk, dk in zip(_keys(j, k), _keys(dev(j), dev(k))):
        same(da[dk], a[hk])
        same(da[::-1, 1:, ::-1][dk], a[::-1, 1:, ::-1][hk])
    same(da[dev(ix(2))], a[ix(2)])  # 0-d index array
    i3 = ix([[0, -1], [3, 2]])
    h, d = (i3, k, j), (dev(i3), dev(k), dev(j))
    same(da[d], a[h])  # three index arrays
    same(da[::-1, :, ::-1][d], a[::-1, :, ::-1][h])
    same(da[::-1, ::2, 1:][dev(i3), 1, dev(ix([0, 4])), None], a[::-1, ::2, 1:][i3, 1, ix([0, 4]), None])
    same(da[dev(ix(np.zeros((0,))))], a[ix(np.zeros((0,)))])


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_mask_and_nonzero(dt):
    rng = np.random.default_rng(5)
    a = vals(dt, (4, 5, 6), rng)
    da = dev(a)
    for m in (rng.random((4,)) < 0.5, rng.random((4, 5)) < 0.5, rng.random((4, 5, 6)) < 0.5,
              np.zeros((4, 5), bool), np.ones((4, 5), bool)):
        same(da[dev(m)], a[m])
        same(da[dev(m), ...], a[m, ...])
        same(da[::-1][dev(m)], a[::-1][m])
    m = rng.random((5, 4)) < 0.5
    same(da[:, :, 0].T[dev(m)], a[:, :, 0].T[m])  # leading dims not one strided dimension
    same(da[dev(m.T)[::1]], a[m.T])
    m2 = rng.random((8, 6)) < 0.5  # a strided, negative-stride mask
    same(da[:, ::2, 1:][dev(m2)[::-2, ::2]], a[:, ::2, 1:][m2[::-2, ::2]])
    for x in (a, a[:, ::-2, 1:], a[:0], a[1, 2]):
        for d, h in zip(xp.nonzero(dev(np.ascontiguousarray(x)) if x is not a else da), np.nonzero(x)):
            same(d, h.astype(DEFAULT_INDEX))
    res = xp.nonzero(da[:, ::-2, 1:])
    for d, h in zip(res, np.nonzero(a[:, ::-2, 1:])):
        same(d, h.astype(DEFAULT_INDEX))



def test_masks_at_every_byte_offset():
    """Compaction reads a mask four bytes a load where it is word-aligned and byte by byte
    where not: masks that are views at byte offsets 0 to 4, of lengths with a tail and of many
    chunks, with bytes other than 0 and 1 set, give numpy's nonzero, x[m], x[m] = v and
    x[m] = values."""
    rng = np.random.default_rng(11)
    n_max = 100_003
    raw = (rng.random(n_max + 8) < 0.4).astype(np.uint8) * rng.integers(1, 256, n_max + 8).astype(np.uint8)
    base = dev(raw.view(bool))
    for n in (4, 4099, 100_003):
        h = rng.standard_normal(n).astype(np.float32)
        for off in range(5):
            m, hm = base[off:off + n], raw[off:off + n] != 0
            assert m._offset == off
            same(xp.nonzero(m)[0], np.nonzero(hm)[0].astype(DEFAULT_INDEX))
            x = dev(h)
            same(x[m], h[hm])
            want = h.copy()
            want[hm] = 7.0
            x[m] = 7.0
            same(x, want)
            src = rng.standard_normal(int(hm.sum())).astype(np.float32)
            want[hm] = src
            x[m] = dev(src)
            same(x, want)


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_setitem(dt):
    rng = np.random.default_rng(6)
    a = vals(dt, (4, 5, 6), rng)
    da = dev(a)
    m = rng.random((4, 5)) < 0.5
    s = scalar(dt)
    da[dev(m)] = s
    a[m] = s
    same(da, a)
    v = vals(dt, (6,), rng)
    da[dev(m)] = dev(v)
    a[m] = v
    same(da, a)
    j, k = ix([[0, 1], [2, 3]]), ix([1, 4])
    da[dev(j), dev(k)] = dev(v)
    a[j, k] = v
    same(da, a)
    da[1, :, dev(k)] = s
    a[1, :, k] = s
    same(da, a)
    # a strided / negative-stride view writes through to its base
    view = da[::-1, :, ::2]
    hv = a[::-1, :, ::2]
    mm = rng.random((4, 5, 3)) < 0.5
    view[dev(mm)] = s
    hv[mm] = s
    same(da, a)
    view[dev(ix([0, 2])), 1] = dev(v[:3])
    hv[ix([0, 2]), 1] = v[:3]
    same(da, a)
    view3 = da[::-1, ::2, ::2]  # leading dimensions in three strided runs
    hv3 = a[::-1, ::2, ::2]
    m3 = rng.random((4, 3, 3)) < 0.5
    same(view3[dev(m3)], hv3[m3])
    view3[dev(m3)] = s
    hv3[m3] = s
    same(da, a)
    i3 = ix([[0, -1], [3, 2]])
    da[dev(i3), dev(ix([1, 2])), dev(ix([[0], [5]]))] = dev(v[:1])
    a[i3, ix([1, 2]), ix([[0], [5]])] = v[:1]
    same(da, a)
    da[dev(np.zeros((4, 5), bool))] = s  # nothing selected
    same(da, a)


def test_setitem_promotes_value():
    a = np.zeros((3, 4), DEFAULT_FLOAT)
    da = dev(a)
    m = np.array([True, False, True])
    da[dev(m)] = dev(np.arange(4, dtype=np.int8))
    a[m] = np.arange(4)
    same(da, a)


def test_large():
    n = 1 << 22
    rng = np.random.default_rng(7)
    a = rng.standard_normal(n).astype(np.float32)
    m = a > 0.3
    da, dm = dev(a), dev(m)
    same(da[dm], a[m])
    (nz,) = xp.nonzero(dm)
    same(nz, np.nonzero(m)[0].astype(DEFAULT_INDEX))
    i = ix(rng.integers(-n, n, n // 2))
    same(xp.take(da, dev(i), axis=0), np.take(a, i))
    same(xp.where(dm, da, 0.0), np.where(m, a, np.float32(0)))
    da[dm] = 0.0
    a[m] = 0
    same(da, a)


M6 = np.array([True, False, False, True, False, True])


def _mixed_masks():
    """m1 over an axis of 4, m2 over (5, 6), j an index array: three elements each, so that
    they broadcast together."""
    m2 = np.zeros((5, 6), bool)
    m2[0, 1] = m2[2, 5] = m2[4, 0] = True
    return np.array([True, False, True, True]), m2, ix([1, -1, 0])


def _mixed_keys(m1, m2, j):
    """Keys mixing boolean masks (m1 over one axis of length 4, m2 over (5, 6)) with slices,
    integers, None, Ellipsis and integer arrays (j), on a (4, 5, 6) array."""
    return [(m1, slice(1, 3)), (m1, 2), (m1, slice(None), slice(None, None, -2)), (0, m2),
            (slice(None), m2), (slice(None, None, -1), m2), (1, slice(None), m1[:2].repeat(3)),
            (slice(None), slice(1, 4), M6), (Ellipsis, M6),
            (m1, None, slice(1, 3), 4), (None, m1, Ellipsis), (m1, j), (m1, slice(None), j),
            (j, m2), (m1, m2), (2, slice(None), M6), (m1, 1, M6)]


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_getitem_mixed(dt):
    """Issue 8: masks mixed with slices, integers and integer arrays, numpy's semantics."""
    rng = np.random.default_rng(8)
    a = vals(dt, (4, 5, 6), rng)
    da = dev(a)
    m1, m2, j = _mixed_masks()
    hks = _mixed_keys(m1, m2, j) + _mixed_keys(m1, rng.random((5, 6)) < 0.4, j)[3:6]
    dks = [tuple(dev(k) if isinstance(k, np.ndarray) else k for k in key) for key in hks]
    for hk, dk in zip(hks, dks):
        same(da[dk], a[hk])
        same(da[::-1, :, ::-1][dk], a[::-1, :, ::-1][hk])


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_setitem_mixed(dt):
    rng = np.random.default_rng(9)
    a = vals(dt, (4, 5, 6), rng)
    da = dev(a)
    m1, m2, j = _mixed_masks()
    s = scalar(dt)
    for hk in _mixed_keys(m1, m2, j):
        dk = tuple(dev(k) if isinstance(k, np.ndarray) else k for k in hk)
        shape = a[hk].shape
        a[hk] = s
        da[dk] = s
        same(da, a)
        v = vals(dt, shape[-1:], rng)
        a[hk] = v
        da[dk] = dev(v)
        same(da, a)
        v = vals(dt, shape, rng)
        a[hk] = v
        da[dk] = dev(v)
        same(da, a)


def test_mixed_edge_cases():
    rng = np.random.default_rng(10)
    a = rng.integers(-50, 50, (2, 4, 3, 1)).astype(np.float32)
    da = dev(a)
    m = rng.random((2, 4, 3)) < 0.5
    same(da[dev(m), 1:], a[m, 1:])  # rows of no element
    da[dev(m), 1:] = dev(np.zeros((int(m.sum()), 0), np.float32))
    da[dev(m), 1:] = 5.0
    same(da, a)
    for idt in INDEX:  # three index arrays of a dtype other than the default: folded in it
        if idt.kind == "i":
            i = np.array([1, -1], idt._np)
            same(da[dev(i), dev(i), dev(i)], a[i, i, i])
            same(da[dev(i), 1:, dev(i), dev(i[:1] * 0)], a[i, 1:, i, i[:1] * 0])


@pytest.mark.parametrize("dt", [DTYPES[0], DTYPES[-1]], ids=[IDS[0], IDS[-1]])
def test_empty_selections(dt):
    """Keys that select nothing (an empty x, an empty mask, an empty index array) give numpy's
    shapes and write nothing, on the device: a mask's count is the one read."""
    rng = np.random.default_rng(11)
    a = vals(dt, (3, 4, 2), rng)[:, :, :0]
    da = dev(a)
    empty_mask, empty_ix = np.zeros(0, bool), ix(np.zeros(0))
    for key in [(ix([1]), slice(-2, None, 2), empty_mask), (np.array([True, False, True]),),
                (np.array([True, False, True]), None, 1), (slice(None), np.zeros((4, 0), bool)),
                (ix([2, -1]), ix([0, 3]), Ellipsis)]:
        dkey = tuple(dev(k) if isinstance(k, np.ndarray) else k for k in key)
        same(da[dkey], a[key])
        da[dkey] = scalar(dt)
    b = vals(dt, (5, 3), rng)
    db = dev(b)
    same(db[dev(empty_ix)], b[empty_ix])
    same(db[dev(empty_ix), 1:], b[empty_ix, 1:])
    db[dev(empty_ix)] = scalar(dt)
    db[dev(empty_ix), :] = dev(vals(dt, (3,), rng))
    same(db, b)
    with pytest.raises(ValueError):
        db[dev(empty_ix)] = dev(vals(dt, (2, 3), rng))
    with pytest.raises(IndexError):
        dev(vals(dt, (0,), rng))[dev(ix([0]))]  # an index into an axis of none
    with pytest.raises(IndexError):
        db[dev(empty_ix), dev(ix([0, 1]))]  # 0 vs 2: no broadcast


def test_mixed_errors():
    a = np.arange(120, dtype=np.int32).reshape(4, 5, 6)
    da = dev(a)
    with pytest.raises(IndexError):
        da[dev(np.ones((4, 5), bool)), 0, 0]  # too many indices
    with pytest.raises(IndexError):
        da[dev(np.array([True, False, True, True])), dev(ix([0, 1]))]  # 3 vs 2: no broadcast
    with pytest.raises(IndexError):
        da[0, dev(np.ones(5, bool)), 7]
    with pytest.raises(ValueError):
        da[dev(np.array([True, False, True, True])), 1:3] = dev(np.zeros((2, 2), np.int32))


def test_numpy_array_keys():
    """numpy arrays in an index, as CuPy takes them (scikit-learn indexes with numpy masks):
    integer and boolean ones are uploaded and index as device arrays do, 0-d ones as scalars;
    other dtypes raise IndexError. No host fallback where the device computes on bool."""
    h = np.arange(60, dtype=np.int32).reshape(5, 12)
    xp.reset_runtime_stats()
    a = dev(h)
    m = np.array([True, False, True, True, False])
    i = np.array([4, 0, -1])
    for key in (m, i, (i, slice(2, 9, 3)), (slice(None), np.array([11, 0], np.int32)),
                np.array(3), (np.array(2), np.array(-1)), (m, 5)):
        got = np.asarray(a[key])
        assert got.shape == h[key].shape and np.array_equal(got, h[key]), key
    b, hb = dev(h), h.copy()
    b[m] = -7
    hb[m] = -7
    b[:, np.array([0, 11])] = 5
    hb[:, [0, 11]] = 5
    b[np.array(1), np.array(1)] = 99
    hb[1, 1] = 99
    np.testing.assert_array_equal(np.asarray(b), hb)
    for bad in (np.array([0.5]), np.array(["a"])):
        with pytest.raises(IndexError):
            a[bad]
    if computes_natively(xp.bool):  # (masks go through the counted fallback without storage8)
        assert xp.runtime_stats()["host_fallbacks"] == {}


def test_single_element_writes_are_one_dispatch():
    """sklearn fills diagonals element by element: a[i, i] = v stays a view and one dispatch."""
    a = dev(np.zeros((6, 6), DEFAULT_FLOAT))
    xp.synchronize()
    before = xp.runtime_stats()["dispatches"]
    for i in range(6):
        a[i, i] = 2.0
    assert xp.runtime_stats()["dispatches"] - before <= 6
    same(a, np.eye(6, dtype=DEFAULT_FLOAT) * 2)
    assert float(a[3, 3]) == 2.0


@pytest.mark.parametrize("dt", DTYPES, ids=IDS)
def test_zero_d_masks_and_bools(dt):
    """A 0-d mask, or one Python bool, as the key's only advanced index (numpy: a new axis of
    one where True, of none where False), anywhere among slices, None and an Ellipsis: read
    and written on the device (the bool as a view), 0-d arrays too."""
    rng = np.random.default_rng(12)
    a0 = vals(dt, (2, 3, 4), rng)
    for flag in (True, False):
        for kind in ("mask", "bool"):
            k = dev(np.bool_(flag)) if kind == "mask" else flag
            hk = np.bool_(flag) if kind == "mask" else flag
            for key in [(0,), (0, Ellipsis), (Ellipsis, 0), (slice(None), 0),
                        (slice(None, None, -1), 0, slice(1, 3)), (None, 0), (0, None)]:
                dkey = tuple(k if e == 0 and not isinstance(e, bool) and type(e) is int else e
                             for e in key)
                hkey = tuple(hk if e is k else e for e in dkey)
                a = a0.copy()
                da = dev(a)
                same(da[dkey], a[hkey])
                v = vals(dt, a[hkey].shape, rng)
                da[dkey] = dev(v)
                a[hkey] = v
                same(da, a)
            z = dev(a0[0, 0, :1].reshape(()))
            same(z[k], a0[0, 0, :1].reshape(())[hk])


def test_counted_fallbacks():
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    same(dev(a)[dev(np.bool_(True)), 0], a[np.bool_(True), 0])  # a 0-d mask beside an integer
    assert xp.runtime_stats()["host_fallbacks"]
    xp.reset_runtime_stats()
    same(dev(a)[True, True], a[True, True])  # two bools: numpy broadcasts them
    assert xp.runtime_stats()["host_fallbacks"]
    # a mask whose shape differs from the axes it indexes: numpy's answer (an empty mask on an
    # axis of one selects nothing; any other difference raises)
    same(dev(a[:1])[dev(np.zeros(0, bool))], a[:1][np.zeros(0, bool)])
    with pytest.raises(IndexError):
        dev(a)[dev(np.ones(3, bool)), 1:3]
    with pytest.raises(IndexError):
        dev(a)[dev(ix(np.zeros((0,)))), 0][0]  # empty result, then out of range


def test_repeated_take_and_getitem_replay_a_compiled_gather():
    """take and integer-array __getitem__ keep the gather's compiled plan per call layout: a
    repeated call with other index values, other offsets of x and of the index arrays, or
    another x of the same layout records no new gather through the general path and agrees
    with numpy (from the layout's third call: the second makes the plan); keys with slice
    offsets and integers carry their offset; a key whose arrays
    differ in dtype (converted first) keeps no plan."""
    from array_api_vulkan import _indexing_functions as idxf
    from array_api_vulkan._kernels import _launch

    idxf._take_plans.clear()
    idxf._getitem_plans.clear()
    rng = np.random.default_rng(3)
    big = rng.standard_normal((9, 12)).astype(np.float32)
    hx = dev(big)
    cases = [
        (lambda x, i, j: xp.take(x, i, axis=1), lambda x, i, j: np.take(x, i, axis=1)),
        (lambda x, i, j: x[i], lambda x, i, j: x[i]),
        (lambda x, i, j: x[2:, i], lambda x, i, j: x[2:, i]),
        (lambda x, i, j: x[1, i], lambda x, i, j: x[1, i]),
        (lambda x, i, j: x[i, ::-2], lambda x, i, j: x[i, ::-2]),
        (lambda x, i, j: x[i[:, None], j], lambda x, i, j: x[i[:, None], j]),
    ]
    for run in range(4):  # (plans made on a layout's second call, replayed from the third)
        # another x of one layout each run: a view at another offset of the same shape
        x, h = hx[run:run + 6], big[run:run + 6]
        for f, ref in cases:
            ii = ix(rng.integers(-5, 6, 7))
            jj = ix(rng.integers(0, 12, 5))
            # index arrays at varying offsets inside bigger arrays
            di, dj = dev(np.concatenate([ix([0] * run), ii]))[run:], dev(jj)
            launches = _launch.state.launches
            got = f(x, di, dj)
            if run > 1:
                assert _launch.state.launches == launches, "expected the compiled plan"
            # (indices in [-5, 5]: in bounds of every indexed axis, so numpy's own answer)
            np.testing.assert_array_equal(np.asarray(got), ref(h, ii, jj))
    assert len(idxf._take_plans) == 1
    assert len(idxf._getitem_plans) == len(cases) - 1
    if len({d for d in INDEX if d.name in ("int32", "int64")}) == 2:
        i32, i64 = dev(np.array([0, 1], np.int32)), dev(np.array([1, 2], np.int64))
        for _ in range(2):
            np.testing.assert_array_equal(np.asarray(hx[i32, i64]), big[[0, 1], [1, 2]])
        assert len(idxf._getitem_plans) == len(cases) - 1
