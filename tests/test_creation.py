"""Creation functions: dtypes inferred as the standard says, copy= semantics, numpy values."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import array_api_vulkan as xp
from conftest import COMPLEX, FLOAT, first

FAST = settings(max_examples=40, deadline=None)


def host(x):
    return np.asarray(x)


def test_asarray_default_dtypes():
    d = xp.__array_namespace_info__().default_dtypes()
    assert xp.asarray(True).dtype == xp.bool
    assert xp.asarray(1).dtype == d["integral"]
    assert xp.asarray([1, True]).dtype == d["integral"]
    assert xp.asarray(0.5).dtype == d["real floating"]
    assert xp.asarray([1, 2.5]).dtype == d["real floating"]
    assert xp.asarray([1, 1j]).dtype == d["complex floating"]
    # numpy data keeps its dtype, or takes the narrowest one at least as wide the device has
    assert xp.asarray(np.arange(3, dtype=np.uint16)).dtype == first("uint16", "uint32")
    assert xp.asarray(np.arange(3, dtype=np.int8)).dtype == first("int8", "int16", "int32")
    assert xp.asarray(np.arange(3.0)).dtype == FLOAT  # float64 data: float32 without float64
    assert xp.asarray(3).shape == ()


def test_asarray_copy_semantics():
    x = xp.asarray([1.0, 2.0], dtype=xp.float32)
    assert xp.asarray(x) is x
    assert xp.asarray(x, copy=False) is x
    y = xp.asarray(x, copy=True)
    assert y._alloc is not x._alloc
    y[0] = 5.0
    assert float(x[0]) == 1.0
    with pytest.raises(ValueError):
        xp.asarray(x, dtype=xp.complex64, copy=False)
    with pytest.raises(ValueError):
        xp.asarray([1, 2], copy=False)
    assert xp.asarray(x, dtype=xp.complex64).dtype == xp.complex64
    assert xp.asarray(x, dtype=xp.float32, copy=False) is x


def test_asarray_errors():
    with pytest.raises(OverflowError):
        xp.asarray(2**70)
    for bad in (lambda: xp.eye(-1), lambda: xp.eye(3, -2), lambda: xp.zeros((2, -1))):
        with pytest.raises(ValueError, match="negative"):
            bad()
    with pytest.raises(ZeroDivisionError):  # (numpy's type for it)
        xp.arange(0, 5, 0)
    with pytest.raises(TypeError, match="complex fill_value"):
        xp.full((2,), 1j, dtype=xp.float32)
    with pytest.raises(TypeError, match="complex fill_value"):
        xp.full_like(xp.ones(2, dtype=xp.int32), 1 + 2j)
    with pytest.raises(TypeError):
        xp.asarray([1, 2], dtype="float32")
    with pytest.raises(ValueError):
        xp.asarray(1, device="vulkan:99")


@FAST
@given(start=st.integers(-20, 20), stop=st.integers(-20, 20),
       step=st.integers(-5, 5).filter(bool))
def test_arange_int_matches_numpy(start, stop, step):
    np.testing.assert_array_equal(host(xp.arange(start, stop, step)),
                                  np.arange(start, stop, step))


@FAST
@given(start=st.floats(-10, 10), stop=st.floats(-10, 10),
       step=st.floats(0.1, 3) | st.floats(-3, -0.1))
def test_arange_float_length(start, stop, step):
    x = xp.arange(start, stop, step)
    assert x.dtype == FLOAT
    assert x.shape == (max(0, int(np.ceil((stop - start) / step))),)
    if x.size:
        assert float(x[0]) == float(FLOAT._np.type(start))


def test_full_zeros_ones_empty():
    assert host(xp.full((2, 2), 3)).tolist() == [[3, 3], [3, 3]]
    assert xp.full(2, True).dtype == xp.bool
    assert xp.full(2, 1j).dtype == COMPLEX
    assert xp.zeros((0, 3)).shape == (0, 3)
    assert host(xp.ones(3, dtype=first("uint8", "uint32"))).tolist() == [1, 1, 1]
    small = first("int16", "int32")
    e = xp.empty((4, 5), dtype=small)
    assert e.shape == (4, 5) and e.dtype == small
    like = xp.full_like(e, 7)
    assert like.dtype == small and int(like[3, 4]) == 7
    assert xp.zeros_like(e, dtype=xp.float32).dtype == xp.float32
    with pytest.raises(ValueError):
        xp.zeros((-1,))
    with pytest.raises(TypeError):
        xp.full(2, "a")


@pytest.mark.parametrize("args", [(3,), (3, 5), (5, 3)])
@pytest.mark.parametrize("k", [-2, 0, 1, 4])
def test_eye_and_triangles(args, k):
    np.testing.assert_array_equal(host(xp.eye(*args, k=k)), np.eye(*args, k=k))
    a = np.arange(20.0).reshape(4, 5)
    np.testing.assert_array_equal(host(xp.tril(xp.asarray(a), k=k)), np.tril(a, k))
    np.testing.assert_array_equal(host(xp.triu(xp.asarray(a), k=k)), np.triu(a, k))


def test_linspace():
    np.testing.assert_allclose(host(xp.linspace(0, 1, 5)), np.linspace(0, 1, 5))
    np.testing.assert_allclose(host(xp.linspace(0, 1, 5, endpoint=False)),
                               np.linspace(0, 1, 5, endpoint=False))
    assert xp.linspace(0, 1j, 3).dtype == COMPLEX
    assert xp.linspace(0, 1, 0).shape == (0,)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_matches_numpy(indexing):
    a, b, c = np.arange(3.0), np.arange(4.0), np.arange(2.0)
    got = xp.meshgrid(xp.asarray(a), xp.asarray(b), xp.asarray(c), indexing=indexing)
    assert isinstance(got, tuple)
    for g, w in zip(got, np.meshgrid(a, b, c, indexing=indexing)):
        np.testing.assert_array_equal(host(g), w)
    with pytest.raises(ValueError):
        xp.meshgrid(xp.asarray(a), xp.asarray([1, 2]))


def test_from_dlpack():
    small = first("int16", "int32")
    a = np.arange(5, dtype=small._np)
    x = xp.from_dlpack(a)
    assert x.dtype == small and host(x).tolist() == a.tolist()
    assert xp.from_dlpack(x) is x
    with pytest.raises(ValueError):
        xp.from_dlpack(a, copy=False)


def test_astype_copy_and_device():
    x = xp.asarray([1.5, -2.5], dtype=xp.float32)
    assert xp.astype(x, xp.float32, copy=False) is x
    y = xp.astype(x, xp.float32)
    assert y is not x and y._alloc is not x._alloc
    assert host(xp.astype(x, xp.int32)).tolist() == [1, -2]
    assert xp.astype(x, xp.complex64).dtype == xp.complex64
    assert xp.astype(x, xp.float32, device=x.device, copy=False) is x
    with pytest.raises(TypeError):
        xp.astype(x, "int32")
    # complex to a real dtype: the standard does not permit it (to bool it does)
    z = xp.asarray([1 + 2j, 0j], dtype=xp.complex64)
    have = xp.__array_namespace_info__().dtypes(device=z.device).values()
    for dt in have:
        if dt.kind in "iuf":
            with pytest.raises(TypeError, match="imaginary"):
                xp.astype(z, dt)
        elif dt.kind == "c":
            assert xp.astype(z, dt).dtype == dt
    assert host(xp.astype(z, xp.bool)).tolist() == [True, False]
