"""The Array object: views, writes through views, operators, conversions, interchange."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import array_api_vulkan as xp
from conftest import FLOAT, first

FAST = settings(max_examples=40, deadline=None)


def host(x):
    return np.asarray(x)


@FAST
@given(data=st.data())
def test_basic_indexing_matches_numpy(data):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    key = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    x = xp.asarray(a)
    v = x[key]
    assert v._alloc is x._alloc  # a view, no copy
    np.testing.assert_array_equal(host(v), a[key])
    assert v.shape == a[key].shape


@FAST
@given(data=st.data())
def test_setitem_through_view_matches_numpy(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    key = data.draw(hnp.basic_indices(shape))
    x = xp.asarray(a)
    view = x[::-1]
    a_view = a[::-1]
    view[key] = -1.0
    a_view[key] = -1.0
    np.testing.assert_array_equal(host(x), a)


def test_views_see_writes():
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    col = x[:, 1]
    x[1, 1] = 10.0
    assert float(col[1]) == 10.0
    col[0] = 7.0
    assert host(x).tolist() == [[1.0, 7.0], [3.0, 10.0]]


def test_boolean_and_integer_array_indexing():
    a = np.arange(12).reshape(3, 4)
    x = xp.asarray(a)
    m = a % 3 == 0
    np.testing.assert_array_equal(host(x[xp.asarray(m)]), a[m])
    i = np.array([2, 0, -1])
    np.testing.assert_array_equal(host(x[xp.asarray(i)]), a[i])
    np.testing.assert_array_equal(host(x[xp.asarray(i), 1]), a[i, 1])
    x[xp.asarray(m)] = 0
    a[m] = 0
    np.testing.assert_array_equal(host(x), a)


def test_index_errors():
    x = xp.zeros((2, 3))
    with pytest.raises(IndexError):
        x[2]
    with pytest.raises(IndexError):
        x[0, 0, 0]
    with pytest.raises(IndexError):
        x[..., ...]
    with pytest.raises(IndexError):
        x[xp.asarray([0.5])]


def test_attributes():
    dt = first("int16", "int32")
    x = xp.ones((2, 3, 4), dtype=dt)
    assert (x.dtype, x.ndim, x.shape, x.size) == (dt, 3, (2, 3, 4), 24)
    assert x.device == xp.__array_namespace_info__().default_device()
    assert x.mT.shape == (2, 4, 3)
    with pytest.raises(ValueError):
        x.T
    m = xp.asarray([[1, 2, 3]])
    assert host(m.T).tolist() == [[1], [2], [3]]


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "//", "%", "**"])
def test_arithmetic_with_scalars_and_reflected(op):
    a = np.asarray([1.5, -2.0, 3.0], dtype=np.float32)
    x = xp.asarray(a)
    for expr, ref in ((f"x {op} 2", f"a {op} np.float32(2)"), (f"2 {op} x", f"np.float32(2) {op} a"),
                      (f"x {op} x", f"a {op} a")):
        r = eval(expr)
        assert r.dtype == xp.float32
        np.testing.assert_allclose(host(r), eval(ref), rtol=1e-6)


def test_inplace_ops_write_and_check_dtype():
    x = xp.asarray([1, 2, 3], dtype=xp.int32)
    alias = x[:]
    x += 1
    assert host(alias).tolist() == [2, 3, 4]
    x *= xp.asarray([2, 2, 2], dtype=first("int8", "int16", "int32"))
    assert host(x).tolist() == [4, 6, 8]
    with pytest.raises(TypeError):
        x += 1.5
    with pytest.raises(TypeError):
        x /= 2
    y = xp.zeros((3,))
    with pytest.raises(ValueError):
        y += xp.ones((2, 3))


def test_comparisons_and_bitwise():
    x = xp.asarray([1, 2, 3])
    assert host(x == 2).tolist() == [False, True, False]
    assert host(x >= 2).dtype == np.bool_
    assert host(x & 1).tolist() == [1, 0, 1]
    assert host(~xp.asarray([True, False])).tolist() == [False, True]
    assert host(x << 1).tolist() == [2, 4, 6]
    with pytest.raises(TypeError):
        x & 1.5
    with pytest.raises(TypeError):
        xp.asarray([1.0]) & 1


def test_matmul_operator():
    a = np.arange(6.0).reshape(2, 3)
    x = xp.asarray(a)
    np.testing.assert_allclose(host(x @ x.T), a @ a.T)
    with pytest.raises(TypeError):
        x @ 2


def test_scalar_conversions():
    assert bool(xp.asarray(True)) is True
    assert int(xp.asarray(7)) == 7 and float(xp.asarray(2.5)) == 2.5
    assert complex(xp.asarray(1 + 2j)) == 1 + 2j
    assert [10, 20, 30][xp.asarray(1)] == 20
    with pytest.raises(TypeError):
        [1][xp.asarray(0.0)]
    with pytest.raises(TypeError):
        float(xp.asarray(1j))
    with pytest.raises(TypeError):
        int(xp.ones(3))
    with pytest.raises(ValueError):
        bool(xp.ones(3))
    # one element but not 0-d: int, float, complex and index raise as numpy 2's do; bool takes it
    one = xp.ones((1, 1), dtype=xp.int32)
    for convert in (int, float, complex, lambda a: [1, 2][a]):
        with pytest.raises(TypeError, match="0-d"):
            convert(one)
    assert bool(one) is True


def test_dlpack_and_array_protocol():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = xp.asarray(a)[:, ::2]
    assert x.__dlpack_device__() == (7, 0)
    np.testing.assert_array_equal(np.from_dlpack(x, device="cpu"), a[:, ::2])
    x.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=None)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(2, 0))
    # on the device: a kDLVulkan capsule, no copy needed
    for kw in ({}, {"max_version": (1, 0)}, {"copy": False}, {"copy": True},
               {"dl_device": (7, 0)}):
        assert type(x.__dlpack__(**kw)).__name__ == "PyCapsule"
    with pytest.raises((BufferError, RuntimeError)):
        np.from_dlpack(x)  # numpy cannot read Vulkan memory
    np.testing.assert_array_equal(np.asarray(x), a[:, ::2])
    assert np.asarray(x, dtype=np.float64).dtype == np.float64


def test_namespace_and_to_device_and_repr():
    x = xp.asarray([1.0, 2.0])
    assert x.__array_namespace__() is xp
    assert x.__array_namespace__(api_version="2024.12") is xp
    with pytest.raises(ValueError):
        x.__array_namespace__(api_version="1999.01")
    assert x.to_device(x.device) is x
    r = repr(x)
    assert "1." in r and FLOAT.name in r and "vulkan:0" in r


def test_iteration_of_1d():
    x = xp.asarray([3, 4])
    assert [int(v) for v in x] == [3, 4]
    with pytest.raises(TypeError):
        iter(xp.asarray(1))
