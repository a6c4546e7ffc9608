"""Manipulation and creation functions on the device: concat, stack, unstack, repeat, roll, tile,
flip and the view functions, tril/triu, meshgrid, linspace; and diff (views, concat, subtract). Values equal numpy's for every
advertised dtype, over empty, 0-d, size-1 and strided/transposed/flipped inputs, with no host
fallback wherever the device computes on the dtype (bool without 8-bit storage is moved by the
counted host fallback: conftest.computes_natively)."""
import itertools

import numpy as np
import pytest

import array_api_vulkan as xp
from conftest import COMPLEX, DTYPES, FLOAT, computes_natively, has

NAMES = [d.name for d in DTYPES]


def data(name, shape, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(name)
    if dt.kind == "b":
        return rng.random(shape) > 0.5
    if dt.kind == "i":
        return rng.integers(-100, 100, shape).astype(dt)
    if dt.kind == "u":
        return rng.integers(0, 200, shape).astype(dt)
    if dt.kind == "f":
        return (rng.standard_normal(shape) * 10).astype(dt)
    return (rng.standard_normal(shape) * 10 + 1j * rng.standard_normal(shape)).astype(dt)


# Views of a (4, 6, 5) array and of its numpy twin, as the inputs the functions get.
VIEWS = {
    "contig": lambda a: a,
    "strided": lambda a: a[::2, 1:, ::-2],
    "transposed": lambda a: a.mT if hasattr(a, "mT") else np.swapaxes(a, -1, -2),
    "flipped": lambda a: a[::-1, :, ::-1],
    "size1": lambda a: a[1:2, 2:3, 3:4],
    "empty": lambda a: a[:, :0],
}


def pair(name, view="contig", shape=(4, 6, 5), seed=0):
    h = data(name, shape, seed)
    return VIEWS[view](xp.asarray(h)), VIEWS[view](h)


def check(got, want):
    g = np.asarray(got)
    assert g.shape == want.shape, (g.shape, want.shape)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want)


@pytest.fixture
def native():
    """Asserts, after the test body, that nothing fell back where the dtypes are computed on."""
    seen = []

    def expect(*names):
        seen.extend(names)

    xp.reset_runtime_stats()
    yield expect
    fb = xp.runtime_stats()["host_fallbacks"]
    if computes_natively(*seen):
        assert fb == {}, fb


def test_concat_and_stack_replay_as_one_plan():
    """A join layout seen before replays as one compiled plan: the same dispatches and the same
    values, with mixed dtypes, views, empty pieces, axis None, and more pieces than a plan takes
    (the general path)."""
    from array_api_vulkan._kernels import _manip

    rng = np.random.default_rng(5)
    a = rng.random((300, 4)).astype(np.float32)
    b = rng.integers(-9, 9, (7, 4)).astype(np.int16 if has("int16") else np.float32)
    A, B, E = xp.asarray(a), xp.asarray(b), xp.zeros((0, 4), dtype=xp.float32)
    cases = [
        (lambda: xp.concat((A, B, E)), lambda: np.concatenate((a, b))),
        (lambda: xp.concat((A[::-2], A[:, 1:3].T.T[:, ::-1]), axis=None),
         lambda: np.concatenate((a[::-2], a[:, 1:3][:, ::-1]), axis=None)),
        (lambda: xp.stack((A, A[::-1]), axis=2), lambda: np.stack((a, a[::-1]), axis=2)),
        (lambda: xp.concat([A] * 9, axis=1), lambda: np.concatenate([a] * 9, axis=1)),
    ]
    for make, want in cases:
        first = make()
        xp.synchronize()
        xp.reset_runtime_stats()
        again = make()
        d = xp.runtime_stats()["dispatches"]
        check(first, want())
        check(again, want())
        assert d <= 9
    keys = [k for k in _manip._join_plans if k[1] == (307, 4)]
    assert keys and _manip._join_plans[keys[0]] is not None
    assert any(v is None for k, v in _manip._join_plans.items() if len(k[4]) > _manip.MAX_JOIN_ARGS)
    assert xp.runtime_stats()["host_fallbacks"] == {}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_concat_stack(name, view, native):
    native(name)
    x, h = pair(name, view)
    y, g = pair(name, view, seed=1)
    for axis in (0, 1, -1):
        check(xp.concat([x, y, x], axis=axis), np.concatenate([h, g, h], axis=axis))
    check(xp.concat([x, y], axis=None), np.concatenate([h, g], axis=None))
    for axis in (0, 2, -1):
        check(xp.stack([x, y], axis=axis), np.stack([h, g], axis=axis))
    check(xp.concat([x]), h.copy())
    check(xp.stack([x[0, 0, 0] if x.size else x[:, :, :0].mT]),
          np.stack([h[0, 0, 0] if h.size else h[:, :, :0].swapaxes(-1, -2)]))


@pytest.mark.parametrize("name", NAMES)
def test_concat_promotes(name, native):
    others = [n for n in ("int32", "float32", "uint8", "bool", COMPLEX.name) if has(n)]
    x, h = pair(name, "strided")
    for other in others:
        native(name, other)
        y, g = pair(other, "transposed", shape=(4, 5, 5))
        try:
            want = np.concatenate([h, g[::2, 1:, :3]], axis=1)
            dt = xp.result_type(x.dtype, y.dtype)
        except TypeError:
            continue
        if dt not in DTYPES:
            continue  # e.g. int32 with float32 promotes to float64, which the device lacks
        want = want.astype(np.dtype(dt.name))
        check(xp.concat([x, y[::2, 1:, :3]], axis=1), want)


def test_concat_errors():
    x = xp.zeros((2, 3))
    with pytest.raises(ValueError):
        xp.concat([x, xp.zeros((3, 2))], axis=1)
    with pytest.raises(ValueError):
        xp.concat([x, xp.zeros(3)])
    with pytest.raises(ValueError):
        xp.concat([xp.zeros(()), xp.zeros(())])
    with pytest.raises(ValueError):
        xp.stack([x, xp.zeros((3, 2))])
    check(xp.concat([xp.zeros(()), xp.ones((2,))], axis=None), np.array([0, 1, 1], FLOAT._np))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_roll(name, view, native):
    native(name)
    x, h = pair(name, view)
    cases = [(3, None), (-7, None), (1, 0), (-2, 1), (13, -1), ((1, -2), (0, 2)), ((2, 3), (1, 1)),
             (0, 0), (5, (0, 1))]
    for shift, axis in cases:
        check(xp.roll(x, shift, axis=axis), np.roll(h, shift, axis=axis))
    x0, h0 = pair(name, shape=())
    check(xp.roll(x0, 4), np.roll(h0, 4))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_diff(name, view, native):
    native(name)
    x, h = pair(name, view)
    for axis in (-1, 0, 1, 2, -3):
        for n in (1, 2, 3, 7):
            with np.errstate(over="ignore"):
                want = np.diff(h, n=n, axis=axis)
            check(xp.diff(x, n=n, axis=axis), want)
    # prepend and append (the same dtype, and another dtype promoting); n = 0 is x itself
    p, hp = pair(name, shape=x.shape[:2] + (2,), seed=1)
    a, ha = pair(name, shape=x.shape[:2] + (1,), seed=2)
    with np.errstate(over="ignore"):
        check(xp.diff(x, prepend=p, append=a), np.diff(h, prepend=hp, append=ha))
        check(xp.diff(x, n=2, append=a), np.diff(h, n=2, append=ha))
    assert xp.diff(x, n=0, prepend=p) is x
    # n and axis positionally, in numpy's order (scikit-learn's roc_curve calls diff(a, 2))
    with np.errstate(over="ignore"):
        check(xp.diff(x, 2), np.diff(h, 2))
        check(xp.diff(x, 1, 0), np.diff(h, 1, 0))
    if has(xp.float32) and name in ("int8", "uint8", "int16", "float32"):
        f, hf = pair("float32", shape=x.shape[:2] + (2,), seed=3)
        check(xp.diff(x, prepend=f), np.diff(h, prepend=hf))
    # the errors
    x1, _ = pair(name, shape=(5,))
    for bad in (dict(n=-1), dict(n=1.5), dict(n=True)):
        with pytest.raises(ValueError):
            xp.diff(x1, **bad)
    with pytest.raises((ValueError, IndexError)):
        xp.diff(x1, axis=1)
    with pytest.raises(ValueError):
        xp.diff(pair(name, shape=())[0])
    with pytest.raises(TypeError):
        xp.diff(x1, prepend=np.zeros(1))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("view", list(VIEWS))
def test_repeat_tile(name, view, native):
    native(name)
    x, h = pair(name, view)
    for r, axis in ((3, None), (2, 0), (1, 1), (0, 2), (4, -1)):
        check(xp.repeat(x, r, axis=axis), np.repeat(h, r, axis=axis))
    for reps in ((2,), (1, 3, 1), (2, 1, 1, 2), (0, 2), (), (2, 2, 2)):
        check(xp.tile(x, reps), np.tile(h, reps))
    x0, h0 = pair(name, shape=())
    check(xp.repeat(x0, 3), np.repeat(h0, 3))
    check(xp.tile(x0, (2, 3)), np.tile(h0, (2, 3)))


@pytest.mark.parametrize("name", NAMES)
def test_repeat_counts(name, native):
    native(name)
    x, h = pair(name, "strided")
    idx = xp.__array_namespace_info__().default_dtypes()["indexing"]
    for axis, counts in ((0, [2, 0]), (1, [1, 0, 3, 2, 0]), (2, [3, 1, 2]), (None, None)):
        if counts is None:
            counts = list(range(h.size))
        r = np.array(counts)
        check(xp.repeat(x, xp.asarray(r, dtype=idx), axis=axis), np.repeat(h, r, axis=axis))
    check(xp.repeat(x, xp.asarray([2], dtype=idx), axis=1), np.repeat(h, [2], axis=1))
    check(xp.repeat(x, xp.asarray(0, dtype=idx), axis=1), np.repeat(h, 0, axis=1))
    e, he = pair(name, "empty")
    check(xp.repeat(e, xp.asarray([], dtype=idx), axis=1), np.repeat(he, [], axis=1))
    check(xp.repeat(e[:, :, 0], xp.asarray([], dtype=idx)), np.repeat(he[:, :, 0], []))
    with pytest.raises(ValueError):
        xp.repeat(x, xp.asarray([1, -1], dtype=idx), axis=0)
    with pytest.raises(ValueError):
        xp.repeat(x, -1)


def test_tile_high_rank():
    """Eight interleaved axes are beyond one dispatch's push block: split over the leading ones."""
    h = data("float32", (2, 3, 2, 3, 2))
    x = xp.asarray(h)[:, ::-1]
    xp.reset_runtime_stats()
    check(xp.tile(x, (2, 3, 2, 2, 3)), np.tile(h[:, ::-1], (2, 3, 2, 2, 3)))
    assert xp.runtime_stats()["host_fallbacks"] == {}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("view", ["contig", "strided", "transposed", "flipped", "size1", "empty"])
def test_tril_triu(name, view, native):
    native(name)
    x, h = pair(name, view)
    for k in (0, 1, -1, 3, -4, 100, -100):
        check(xp.tril(x, k=k), np.tril(h, k=k))
        check(xp.triu(x, k=k), np.triu(h, k=k))
    # other values of the same layout, twice: the plans made on the second call, replayed
    for seed in (5, 6):
        x, h = pair(name, view, seed=seed)
        for k in (0, -1, 3):
            check(xp.tril(x, k=k), np.tril(h, k=k))
            check(xp.triu(x, k=k), np.triu(h, k=k))
    x2, h2 = pair(name, shape=(7, 3))
    check(xp.tril(x2, k=-1), np.tril(h2, k=-1))
    check(xp.triu(x2.mT, k=1), np.triu(h2.T, k=1))


@pytest.mark.parametrize("name", NAMES)
def test_views_stay_views(name, native):
    native(name)
    x, h = pair(name, "strided")
    views = [
        (xp.flip(x), np.flip(h)), (xp.flip(x, axis=(0, 2)), np.flip(h, axis=(0, 2))),
        (xp.permute_dims(x, (2, 0, 1)), h.transpose(2, 0, 1)),
        (xp.moveaxis(x, 0, -1), np.moveaxis(h, 0, -1)),
        (xp.expand_dims(x, axis=(0, 2)), np.expand_dims(h, (0, 2))),
        (xp.squeeze(x[:1], axis=0), h[0]),
        (xp.broadcast_to(x[:1], (3,) + x.shape[1:]), np.broadcast_to(h[:1], (3,) + h.shape[1:])),
        (xp.reshape(x[0], (-1,)) if x[0]._is_c_contiguous() else x[0], h[0].reshape(-1)
         if h[0].flags.c_contiguous else h[0]),
    ]
    views += list(zip(xp.unstack(x, axis=1), [h[:, i] for i in range(h.shape[1])]))
    for v, want in views:
        assert v._alloc is x._alloc
        check(v, want)
    # copies: reshape of a non-contiguous view, copy=True, asarray(copy=True) of a flipped view
    for got, want in ((xp.reshape(x, (-1,)), h.reshape(-1)), (xp.reshape(x, (2, -1), copy=True),
                      h.reshape(2, -1)), (xp.asarray(xp.flip(x), copy=True), np.flip(h))):
        assert got._alloc is not x._alloc
        check(got, want)
    with pytest.raises(ValueError):
        xp.reshape(x, (-1,), copy=False)
    c, hc = pair(name, "contig")
    assert xp.reshape(c, (4, 30), copy=False)._alloc is c._alloc
    check(xp.reshape(c, (4, 30), copy=False), hc.reshape(4, 30))


@pytest.mark.parametrize("name", NAMES)
def test_meshgrid(name, native):
    native(name)
    a, ha = pair(name, shape=(5,))
    b, hb = pair(name, shape=(7,), seed=1)
    c, hc = pair(name, shape=(3,), seed=2)
    for indexing in ("xy", "ij"):
        got = xp.meshgrid(a, b[::-2], c, indexing=indexing)
        want = np.meshgrid(ha, hb[::-2], hc, indexing=indexing)
        for g, w in zip(got, want):
            check(g, w)
            check(xp.asarray(g, copy=True), w)
    assert xp.meshgrid() == ()


@pytest.mark.parametrize("name", [n for n in NAMES if np.dtype(n).kind in "fc"])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace(name, endpoint, native):
    native(name)
    exact = has("float64")  # numpy computes in float64; without it, in the dtype itself
    cplx = np.dtype(name).kind == "c"
    bounds = [(0.1, 3.7), (-5, 5), (1e-300, 2e-300), (2.5, 2.5), (3, -1e10), (0, 1e-320)]
    if cplx:
        bounds += [(0.1 + 1j, -3.7j), (1j, 1j), (-2, 5 + 5j)]
    # (each call three times: the second makes the plan kept for its arguments, the third
    # replays it)
    for (start, stop), num, _ in itertools.product(bounds, (0, 1, 2, 3, 10, 101), range(3)):
        got = xp.linspace(start, stop, num, endpoint=endpoint, dtype=getattr(xp, name))
        with np.errstate(all="ignore"):
            want = np.linspace(start, stop, num, endpoint=endpoint).astype(name)
        if exact:
            check(got, want)
        else:
            g = np.asarray(got)
            assert g.dtype == want.dtype and g.shape == want.shape
            # float64 emulated by double-floats: equal but for rare ties of rounding
            scale = max(abs(start), abs(stop))
            np.testing.assert_allclose(g, want, rtol=2e-7, atol=1e-14 * scale)
    got = xp.linspace(0, 1, 5)
    assert got.dtype == FLOAT
    check(got, np.linspace(0, 1, 5).astype(FLOAT._np))


@pytest.mark.parametrize("name", NAMES)
def test_transposed_copies(name, native):
    """Copies of transposed views go through the shared-memory tile kernel: 2-D, batched,
    partial tiles, reversed and stepped views."""
    from array_api_vulkan import _kernels

    native(name)
    h = data(name, (3, 45, 70))
    x = xp.asarray(h)
    # (x[1].T, x[2].T: x[0].T's layout at other offsets, its plan made, then replayed)
    cases = [(x[0].T, h[0].T), (x[1].T, h[1].T), (x[2].T, h[2].T), (x.mT, h.swapaxes(-1, -2)),
             (x[1, ::-1].T, h[1, ::-1].T),
             (x[:, ::2, 3:].mT, h[:, ::2, 3:].swapaxes(-1, -2)),
             (xp.permute_dims(x, (2, 0, 1)), h.transpose(2, 0, 1))]
    for v, want in cases:
        check(xp.asarray(v, copy=True), want)
        check(xp.reshape(v, (-1,)), want.reshape(-1))
        if computes_natively(name):
            assert _kernels.supports_transpose_copy(v)
    assert not _kernels.supports_transpose_copy(x)
    assert not _kernels.supports_transpose_copy(x[:, :4].mT)


LARGE = 1 << 24


def test_large():
    """16M-element inputs: concat, roll and a flipped copy (one dispatch each, no fallback)."""
    h = np.arange(LARGE, dtype=np.float32)
    x = xp.asarray(h)
    xp.reset_runtime_stats()
    half = LARGE // 2
    check(xp.concat([x[half:], x[:half]]), np.concatenate([h[half:], h[:half]]))
    check(xp.roll(x, 12345), np.roll(h, 12345))
    check(xp.asarray(xp.flip(x), copy=True), h[::-1])
    check(xp.tile(x[:LARGE // 4], (4,)), np.tile(h[:LARGE // 4], 4))
    t = xp.reshape(x, (4096, 4096)).T  # the tiled transpose
    check(xp.asarray(t, copy=True), h.reshape(4096, 4096).T)
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_roll_tile_repeat_replay_a_compiled_plan(monkeypatch):
    """roll, tile and repeat (an int count) keep the compiled plan of their copies per call
    (x's layout and the other arguments): a repeated call on another x of that layout (here
    views at other offsets of one array, also flipped) records it without the general path, and
    agrees with numpy; a copy made for axis=None (x not contiguous) keeps no plan."""
    from array_api_vulkan import _manipulation_functions as mf
    from array_api_vulkan import _kernels

    mf._copy_plans.clear()
    rng = np.random.default_rng(4)
    h = rng.standard_normal((7, 5, 6)).astype(np.float32)
    big = xp.asarray(h)
    calls = [(lambda x: xp.roll(x, 2), lambda a: np.roll(a, 2)),
             (lambda x: xp.roll(x, (1, -3), axis=(0, 2)), lambda a: np.roll(a, (1, -3), axis=(0, 2))),
             (lambda x: xp.tile(x, (2, 1, 3)), lambda a: np.tile(a, (2, 1, 3))),
             (lambda x: xp.repeat(x, 3, axis=1), lambda a: np.repeat(a, 3, axis=1)),
             (lambda x: xp.repeat(x, 2), lambda a: np.repeat(a, 2))]
    for run in range(3):
        if run == 2:
            def refuse(*args, **kw):
                raise AssertionError("expected the compiled plan")
            monkeypatch.setattr(_kernels, "copies", refuse)
        for k, view in enumerate((lambda a: a[run:run + 4], lambda a: a[run:run + 4, ::-1])):
            x, ref = view(big), view(h)
            # (axis=None of the flipped view: a flattened copy first, the general path)
            for f, g in calls if k == 0 else calls[1:4]:
                check(f(x), g(ref))
    monkeypatch.undo()
    kept = len(mf._copy_plans)
    x = big[:, ::2]  # (not contiguous: axis=None rolls a flattened copy)
    for _ in range(2):
        check(xp.roll(x, 3), np.roll(h[:, ::2], 3))
        check(xp.repeat(x, 2), np.repeat(h[:, ::2], 2))
    assert len(mf._copy_plans) == kept


def test_reshape_repeated_layouts():
    """A reshape that gave a view keeps its answer per (shape, strides, requested shape): the
    next call of that layout returns the same view of its own array (offset included), while
    float sizes, wrong sizes and copy=True still behave as on a first call."""
    from array_api_vulkan import _manipulation_functions as mf

    a = np.arange(48, dtype=np.float32).reshape(4, 12)
    x = xp.asarray(a)
    for k in range(3):
        for view, host in ((x, a), (x[1:3], a[1:3]), (x[:, 2:8:2], a[:, 2:8:2])):
            for shape in ((-1,), (host.size,), (1, -1), host.shape[::-1]):
                r = xp.reshape(view, shape)
                np.testing.assert_array_equal(np.asarray(r), host.reshape(shape))
                assert (r._alloc is x._alloc) == np.shares_memory(host.reshape(shape), a)
        with pytest.raises(TypeError):
            xp.reshape(x, (48.0,))
        with pytest.raises(ValueError):
            xp.reshape(x, (47,))
        c = xp.reshape(x, (48,), copy=True)
        assert c._alloc is not x._alloc
        np.testing.assert_array_equal(np.asarray(c), a.ravel())
    assert (x._shape, x._strides, (-1,)) in mf._reshape_views
