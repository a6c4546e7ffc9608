"""Compiled elementwise plans (_vkcore.ElementwisePlan): a repeated call layout runs as one
C++ call. Each case runs once through the general path, then again through the compiled plan
with other data, offsets and scalar values, and must agree with the general path."""
import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import _elementwise_functions as ew
from array_api_vulkan._kernels import _launch
from conftest import FLOAT, computes_natively, first, param


@pytest.fixture(autouse=True, scope="module")
def _unfused():
    """Compiled per-op plans are the path of ops that are not held for fusion (fusion off here;
    tests/test_fusion.py covers it)."""
    from array_api_vulkan._kernels import _fuse

    prev = _fuse.set_enabled(False)
    yield
    _fuse.set_enabled(prev)


def general(op, *args):
    """op(*args) through the general path only (plans dropped before and after)."""
    saved = op._compiled, op._plans
    op._compiled, op._plans = {}, {}
    try:
        return op(*args)
    finally:
        op._compiled, op._plans = saved


def same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def compiled_call(op, *args):
    """op(*args), asserting it ran as a compiled plan (no map_op dispatch)."""
    launches = _launch.state.launches
    out = op(*args)
    assert _launch.state.launches == launches, "expected the compiled plan"
    return out


@pytest.mark.parametrize("dtype", [param(d, dtypes=[d]) for d in (
    "float32", "float64", "int8", "uint16", "int32", "int64", "uint64", "complex64", "complex128")])
def test_array_and_scalar_operands(dtype):
    rng = np.random.default_rng(0)
    host = (rng.random(40) * 50).astype(dtype)
    kind = np.dtype(dtype).kind
    scalars = {"f": (1.5, -2.25), "c": (1.5 + 2j, -0.5j), "i": (3, -7), "u": (3, 250)}[kind]
    base = xp.asarray(host)
    ew.add._compiled.clear()
    first = ew.add(base[1:21], scalars[0])  # general path, compiles the layout
    same(first, general(ew.add, base[1:21], scalars[0]))
    # Same layout (shape (20,), stride 1), another offset and scalar value: the compiled plan.
    second = compiled_call(ew.add, base[7:27], scalars[1])
    same(second, general(ew.add, base[7:27], scalars[1]))
    # Two arrays, strided views.
    ew.multiply(base[0:38:2], base[1:39:2])
    out = compiled_call(ew.multiply, base[2:40:2], base[1:39:2])
    same(out, general(ew.multiply, base[2:40:2], base[1:39:2]))


def test_reflected_scalar_and_python_int_on_float():
    x = xp.asarray(np.linspace(-3, 3, 12, dtype=np.float32))
    ew.subtract(2, x)
    same(compiled_call(ew.subtract, 5, x), general(ew.subtract, 5, x))
    ew.multiply(x, True)
    same(compiled_call(ew.multiply, x, False), general(ew.multiply, x, False))


def test_float32_scalar_rounding_and_overflow():
    x = xp.zeros(4, dtype=xp.float32)
    ew.add(x, 1.0)
    for v in (0.1, 1e39, -1e39, 3.4028235677973366e38, 3.4028235677973362e38, float("nan"), 1e-45):
        same(compiled_call(ew.add, x, v), general(ew.add, x, v))


def test_integer_scalar_out_of_range_takes_the_general_path():
    small = first("int8", "int16", "int32")  # (the narrowest the device has)
    out_of_range = int(np.iinfo(small._np).max) + 45  # 300 for int8
    x = xp.asarray(np.arange(5, dtype=small._np))
    ew.add(x, 3)
    with pytest.raises(Exception) as compiled_err:
        ew.add(x, out_of_range)
    with pytest.raises(Exception) as general_err:
        general(ew.add, x, out_of_range)
    assert type(compiled_err.value) is type(general_err.value)
    wide = first("uint64", "uint32")
    top = int(np.iinfo(wide._np).max)  # 2**64 - 1 for uint64
    u = xp.asarray(np.arange(5, dtype=wide._np))
    ew.add(u, 1)
    same(compiled_call(ew.add, u, top), general(ew.add, u, top))


def test_scalar_of_another_type_takes_the_general_path():
    x = xp.asarray(np.arange(6, dtype=FLOAT._np))
    ew.add(x, 1.0)
    same(ew.add(x, 2), general(ew.add, x, 2))  # an int: another layout key, compiled anew
    same(ew.add(x, np.float64(2.5)), general(ew.add, x, np.float64(2.5)))


def test_results_are_independent_arrays():
    x = xp.asarray(np.arange(8, dtype=np.float32))
    outs = [x + float(i) for i in range(5)]
    for i, o in enumerate(outs):
        np.testing.assert_array_equal(np.asarray(o), np.arange(8, dtype=np.float32) + i)
    assert len({id(o._alloc) for o in outs}) == 5


def test_empty_result_after_an_operand_cast_compiles_nothing():
    """int32 / int32 casts both operands to the float result first. Where the result is empty
    only the non-empty operand's cast is recorded, and that dispatch is not this call's: a
    plan made from it indexed past its operands (IndexError) on the second call."""
    a = xp.zeros((0, 1), dtype=xp.int32)
    b = xp.ones((1,), dtype=xp.int32)
    for _ in range(3):
        out = a / b
        assert out.shape == (0, 1) and out.dtype == FLOAT
    c = xp.asarray(np.arange(4, dtype=np.int32).reshape(4, 1))
    np.testing.assert_array_equal(np.asarray(c / b), np.arange(4).reshape(4, 1) / 1.0)


def test_compiled_plans_are_bounded():
    op = ew.negative
    op._compiled.clear()
    for n in range(1, ew._MAX_COMPILED + 20):
        op(xp.ones(n, dtype=xp.float32))
    assert len(op._compiled) <= ew._MAX_COMPILED


@pytest.mark.parametrize("dtype", [param(d, dtypes=[d]) for d in ("float32", "int8", "float64")])
def test_where_compiled(monkeypatch, dtype):
    """where keeps a compiled plan per layout as the elementwise functions do (its bool
    condition first): the second call of a layout is one C++ call, for arrays and scalars, and
    agrees with the general path; a scalar out of the dtype's range takes the general path."""
    from array_api_vulkan import _searching_functions as sf

    if not computes_natively("bool"):
        pytest.skip("bool computed through the host fallback (no 8-bit storage)")
    monkeypatch.setattr(sf, "_where_plans", ew.LayoutPlans())
    rng = np.random.default_rng(1)
    host = (rng.random(41) * 100).astype(dtype)
    cond = xp.asarray(rng.random(41) < 0.5)
    x, y = xp.asarray(host), xp.asarray(host[::-1].copy())
    want = [np.where(np.asarray(cond)[1:], host[1:], 7), np.where(np.asarray(cond)[:40], host[:40], host[::-1][1:])]
    for k in range(2):
        call = xp.where if k == 0 else (lambda *a: compiled_call(xp.where, *a))
        np.testing.assert_array_equal(np.asarray(call(cond[1:], x[1:], 7)), want[0])
        np.testing.assert_array_equal(np.asarray(call(cond[:40], x[:40], y[1:])), want[1])
    assert len(sf._where_plans._compiled) == 2
    if dtype == "int8":
        with pytest.raises((OverflowError, TypeError, ValueError)):
            xp.where(cond[1:], x[1:], 300)  # (the plan declines it; the general path raises)


@pytest.mark.parametrize("dtype", [param(d, dtypes=[d]) for d in ("float32", "int16")])
def test_clip_compiled(dtype):
    """clip with both bounds keeps a compiled plan per layout: the second call of a layout is
    one C++ call and agrees with numpy; an integer bound past the dtype's range (which the
    general path clamps to the range) takes the general path."""
    rng = np.random.default_rng(2)
    host = (rng.random(33) * 200 - 100).astype(dtype)
    x, lo = xp.asarray(host), xp.asarray(np.full(32, -5, dtype))
    ew._clip_plans._drop_plans()
    for k in range(2):
        call = xp.clip if k == 0 else (lambda *a: compiled_call(xp.clip, *a))
        np.testing.assert_array_equal(np.asarray(call(x[1:], -20 - k, 30 + k)), np.clip(host[1:], -20 - k, 30 + k))
        np.testing.assert_array_equal(np.asarray(call(x[:32], lo, 40)), np.clip(host[:32], -5, 40))
    assert len(ew._clip_plans._compiled) == 2
    if dtype == "int16":
        np.testing.assert_array_equal(np.asarray(xp.clip(x[1:], -70000, 30)), np.clip(host[1:], -32768, 30))


def test_astype_compiled():
    """astype(x, dtype) (copy=True, no device=) keeps a compiled plan per layout and target
    dtype: the second call is one C++ call, a copy even to x's own dtype, and agrees with numpy;
    copy=False to x's own dtype still returns x itself."""
    from array_api_vulkan import _data_type_functions as dtf

    dtf._astype_plans._drop_plans()
    host = np.linspace(-40, 40, 33).astype(np.float32)
    x = xp.asarray(host)
    for k in range(2):
        call = xp.astype if k == 0 else (lambda *a: compiled_call(xp.astype, *a))
        np.testing.assert_array_equal(np.asarray(call(x[1:], xp.int32)), host[1:].astype(np.int32))
        y = call(x[:32], xp.float32)
        assert y._alloc is not x._alloc
        np.testing.assert_array_equal(np.asarray(y), host[:32])
    assert len(dtf._astype_plans._compiled) == 2
    assert xp.astype(x, xp.float32, copy=False) is x


def test_asarray_copy_compiled():
    """asarray(x, copy=True) of a device array (no dtype or device change) takes astype's plan
    from a layout's second call (which makes it) on: from the third it is one C++ call, and it is
    a new array, never x's memory (strided and reversed views included)."""
    host = np.arange(60, dtype=np.float32).reshape(6, 10)
    x = xp.asarray(host)
    for view, want in ((x, host), (x[::2, 1:], host[::2, 1:]), (x[:, ::-1], host[:, ::-1])):
        for k in range(3):
            copy = lambda v: xp.asarray(v, copy=True)  # noqa: E731
            y = copy(view) if k < 2 else compiled_call(copy, view)
            assert y._alloc is not x._alloc and y.shape == want.shape
            np.testing.assert_array_equal(np.asarray(y), want)
    y = xp.asarray(x, copy=True)
    x[0, 0] = -1.0
    assert float(y[0, 0]) == 0.0


def test_fills_compiled():
    """zeros, ones, full and the *_like functions keep a compiled plan per call (arguments as
    given), made on its second time: the third call is one C++ call giving a fresh array; -0.0 and 0.0, True and 1, 1 and
    1.0 are different calls; NaN, a bare bool shape and list shapes take the general path."""
    from array_api_vulkan import _creation_functions as cf

    if not computes_natively(xp.bool):
        pytest.skip("bool fills are host fallbacks on this device")
    cf._fill_plans.clear()
    x = xp.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    calls = [(xp.zeros, (5,), {}), (xp.ones, ((2, 3),), dict(dtype=xp.int32)),
             (xp.full, (4, -0.0), {}), (xp.full, (4, 0.0), {}), (xp.full, (3, True), {}),
             (xp.full, (3, 1), {}), (xp.full, (3, 1.0), {}), (xp.zeros_like, (x,), {}),
             (xp.ones_like, (x,), dict(dtype=xp.uint32)), (xp.full_like, (x, 2.5), {}),
             (xp.full_like, (x, -0.0), {})]
    defaults = xp.__array_namespace_info__().default_dtypes()
    fd, idt = defaults["real floating"]._np, defaults["integral"]._np
    want = [np.zeros(5, fd), np.ones((2, 3), np.int32), np.full(4, -0.0, fd),
            np.zeros(4, fd), np.full(3, True), np.full(3, 1, idt),
            np.full(3, 1.0, fd), np.zeros((2, 3), np.float32), np.ones((2, 3), np.uint32),
            np.full((2, 3), 2.5, np.float32), np.full((2, 3), -0.0, np.float32)]
    for k in range(3):  # (a call's plan is made on its second time, replayed from the third)
        seen = []
        for (fn, args, kw), w in zip(calls, want):
            out = fn(*args, **kw) if k < 2 else compiled_call(lambda: fn(*args, **kw))
            got = np.asarray(out)
            assert got.dtype == w.dtype and got.shape == w.shape
            assert np.array_equal(got.view(np.uint8), w.view(np.uint8)), (fn, args, got)
            assert all(out._alloc is not s._alloc for s in seen)
            seen.append(out)
    assert len(cf._fill_plans) == len(calls)
    np.testing.assert_array_equal(np.asarray(xp.full(2, float("nan"))), [np.nan, np.nan])
    np.testing.assert_array_equal(np.asarray(xp.zeros([2])), [0, 0])
    assert len(cf._fill_plans) == len(calls)
    with pytest.raises(TypeError):
        xp.zeros(True)
    with pytest.raises(ValueError):
        xp.zeros((-1,))


def test_linspace_repeated_from_the_spec_layer():
    """A linspace repeated with the same arguments replays the kernels layer's plan straight from
    the spec layer from its third call (the kernels layer keeps one on the second): the same
    values as numpy's, -0.0 bounds kept apart from 0.0, a fresh array each call, and the spec
    checks still run for other arguments."""
    from array_api_vulkan import _creation_functions as cf

    for k in [k for k in cf._fill_plans if k[0] == "linspace"]:
        del cf._fill_plans[k]
    dt = xp.float32
    for args in ((0, 1, 33), (-0.0, 2.5, 9), (0.0, 2.5, 9)):
        outs = []
        for k in range(4):
            call = (lambda a=args: xp.linspace(*a, dtype=dt, endpoint=False))
            outs.append(call() if k < 3 else compiled_call(call))
            want = np.linspace(*args[:2], args[2], endpoint=False).astype(np.float32)
            np.testing.assert_array_equal(np.asarray(outs[-1]), want)
            assert np.signbit(np.asarray(outs[-1])[0]) == np.signbit(want[0])
        assert len({id(o._alloc) for o in outs}) == len(outs)
    assert len([k for k in cf._fill_plans if k[0] == "linspace"]) == 3
    with pytest.raises(TypeError):
        xp.linspace(0, 1, 33.0, dtype=dt, endpoint=False)
    with pytest.raises(TypeError):
        xp.linspace(True, 1, 33, dtype=dt, endpoint=False)


def test_workgroup_order_alternates():
    """Successive elementwise dispatches take the workgroups in opposite orders (the device's
    alternating bit in w[2], _launch.ORDER_WORD), through map_op's general path, its cached
    layouts, compiled plans and assignments; every order gives the same values."""
    rng = np.random.default_rng(3)
    n = 7 * 256 * 4 + 5  # several workgroups, a ragged end
    ha, hb = rng.random(n).astype(np.float32), rng.random(n).astype(np.float32)
    a, b = xp.asarray(ha), xp.asarray(hb)
    rec = a.device._rec
    cases = (((a, b), ha + hb),                          # vector path
             ((a[1:], b[:-1]), ha[1:] + hb[:-1]),        # offsets off the vectors' alignment
             ((a[::3], b[::3]), ha[::3] + hb[::3]),      # strided
             ((a, 2.5), ha + np.float32(2.5)))          # a scalar operand
    for args, want in cases:
        ew.add._compiled.clear()
        ew.add._plans.clear()
        orders = []
        for _ in range(5):  # general path, then the compiled plan
            before = rec.alternate_state
            out = ew.add(*args)
            assert rec.alternate_state != before, "one dispatch flips the bit once"
            orders.append(1 - before)
            np.testing.assert_array_equal(np.asarray(out), want)
        assert set(orders) == {0, 1}
    dst = xp.zeros(n, dtype=xp.float32)
    for k in range(4):
        before = rec.alternate_state
        dst[k::4] = a[k::4]
        assert rec.alternate_state != before
    np.testing.assert_array_equal(np.asarray(dst), ha)
