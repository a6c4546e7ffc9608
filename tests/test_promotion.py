"""Type promotion: the standard's table, Python scalars, and numpy's rules where it is silent."""
import itertools

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import _dtypes
from conftest import FLOAT, first, has, param

# A few rows of the standard's promotion table, written out by hand.
SPEC = {
    ("int8", "uint8"): "int16", ("int8", "uint16"): "int32", ("int16", "uint32"): "int64",
    ("int64", "uint32"): "int64", ("uint8", "uint64"): "uint64", ("int32", "int64"): "int64",
    ("float32", "float64"): "float64", ("float32", "complex64"): "complex64",
    ("float64", "complex64"): "complex128", ("float32", "complex128"): "complex128",
    ("bool", "bool"): "bool", ("uint16", "uint8"): "uint16",
}


@pytest.mark.parametrize("pair", sorted(SPEC))
def test_promotion_table(pair):
    a, b = (getattr(xp, n) for n in pair)
    want = getattr(xp, SPEC[pair])
    assert xp.result_type(a, b) == want and xp.result_type(b, a) == want
    if a != xp.bool and has(a, b, want):  # (arrays only of the dtypes the device has)
        assert (xp.ones(1, dtype=a) + xp.ones(1, dtype=b)).dtype == want


def test_same_kind_matches_numpy_everywhere_it_is_defined():
    for a, b in itertools.product(_dtypes._all_dtypes, repeat=2):
        if _dtypes.is_promotable(a, b):
            assert _dtypes.promote(a, b)._np == np.promote_types(a._np, b._np), (a, b)


def test_mixed_kinds_follow_numpy():
    assert xp.result_type(xp.int32, xp.float32) == xp.float64
    assert xp.result_type(xp.uint64, xp.int64) == xp.float64
    assert not xp.can_cast(xp.int32, xp.float64)  # not in the standard's graph


@pytest.mark.parametrize("dtype", [param(d, dtypes=[d]) for d in (xp.int8, xp.uint16, xp.float32,
                                                                  xp.complex64)])
def test_python_scalars_keep_the_array_dtype(dtype):
    x = xp.ones(2, dtype=dtype)
    for s in (1, 2.0 if dtype.kind in "fc" else 2, 1j if dtype.kind == "c" else 3):
        assert (x + s).dtype == dtype and (s * x).dtype == dtype
    assert xp.result_type(dtype, 1) == dtype


def test_scalar_rules_errors_and_numpy_fallbacks():
    small = first("int8", "int16", "int32")
    with pytest.raises(OverflowError):
        xp.ones(2, dtype=small) + (int(np.iinfo(small._np).max) + 45)  # 300 for int8
    assert (xp.ones(2, dtype=xp.float32) + 1j).dtype == xp.complex64
    # numpy's rule: int32 with a Python float gives float64 (without it: the widest float there is)
    assert (xp.ones(2, dtype=xp.int32) + 1.5).dtype == FLOAT
    with pytest.raises(TypeError):
        xp.add(1, 2)
    with pytest.raises(TypeError):
        xp.add(xp.ones(2), "1")
    # as numpy: an integer array to a negative integer power
    ints = xp.asarray([2, 3], dtype=small)
    for power in (lambda: ints ** -1, lambda: xp.pow(ints, -2)):
        with pytest.raises(ValueError):
            power()
    assert np.asarray(ints ** 2).tolist() == [4, 9]
    with pytest.raises(OverflowError):  # numpy's: -1 is out of range for an unsigned array
        xp.ones(2, dtype=first("uint8", "uint32")) ** -1
    assert np.asarray(xp.asarray([2.0]) ** -1).tolist() == [0.5]
    # the input dtype is checked before the scalar: a function that takes no unsigned input
    # says so, whatever the scalar
    unsigned = xp.ones(2, dtype=first("uint8", "uint32"))
    for f in (xp.logical_or, xp.nextafter, xp.atan2):
        with pytest.raises(TypeError, match="does not accept"):
            f(unsigned, -2)


def test_where_and_clip_take_scalars():
    c = xp.asarray([True, False])
    assert xp.where(c, xp.ones(2, dtype=xp.float32), 0).dtype == xp.float32
    assert xp.where(c, 1.0, xp.zeros(2, dtype=xp.float32)).dtype == xp.float32
    small = first("int16", "int32")
    assert np.asarray(xp.where(c, 1, xp.asarray([5, 6], dtype=small))).tolist() == [1, 6]
    with pytest.raises(TypeError):
        xp.where(xp.asarray([1, 0]), 1, 2)
    small = first("int8", "int16", "int32")
    x = xp.asarray([-3, 0, 9], dtype=small)
    r = xp.clip(x, 0, 5)
    assert r.dtype == small and np.asarray(r).tolist() == [0, 0, 5]
    r = xp.clip(x, max=xp.asarray(2, dtype=small))
    assert np.asarray(r).tolist() == [-3, 0, 2]


def test_elementwise_dtype_categories():
    with pytest.raises(TypeError):
        xp.sin(xp.asarray([1, 2]))
    with pytest.raises(TypeError):
        xp.logical_and(xp.asarray([1]), xp.asarray([True]))
    with pytest.raises(TypeError):
        xp.imag(xp.asarray([1.0]))
    assert xp.abs(xp.asarray([1 + 1j], dtype=xp.complex64)).dtype == xp.float32
    assert xp.real(xp.asarray([1.0], dtype=xp.float32)).dtype == xp.float32
    assert (xp.asarray([1, 2]) / xp.asarray([2, 2])).dtype == FLOAT  # (the default real floating)


def test_result_type_and_can_cast():
    small = first("int8", "int16", "int32")
    assert xp.result_type(xp.ones(1, dtype=small), xp.int16, 1) == _dtypes.promote(small, xp.int16)
    assert xp.result_type(xp.int8, xp.int16, 1) == xp.int16
    assert xp.result_type(xp.float32, 1.0, 2) == xp.float32
    with pytest.raises(TypeError):
        xp.result_type(1, 2.0)
    assert xp.can_cast(xp.int8, xp.int16) and not xp.can_cast(xp.int16, xp.int8)
    assert xp.can_cast(xp.ones(1, dtype=xp.float32), xp.complex64)
    assert not xp.can_cast(xp.bool, xp.int8)


def test_isdtype_and_info():
    assert xp.isdtype(xp.int8, "signed integer")
    assert xp.isdtype(xp.float32, ("integral", "real floating"))
    assert not xp.isdtype(xp.complex64, "real floating")
    with pytest.raises(TypeError):
        xp.isdtype("float32", "numeric")
    with pytest.raises(ValueError):
        xp.isdtype(xp.int8, "whatever")
    fi = xp.finfo(xp.complex64)
    assert fi.dtype == xp.float32 and fi.eps == float(np.finfo(np.float32).eps)
    ii = xp.iinfo(xp.uint8)
    assert (ii.min, ii.max, ii.bits, ii.dtype) == (0, 255, 8, xp.uint8)
    u = first("uint8", "uint32")
    ii = xp.iinfo(xp.ones(1, dtype=u))
    assert (ii.min, ii.max, ii.bits, ii.dtype) == (0, int(np.iinfo(u._np).max), 8 * u.itemsize, u)


def test_numpy_scalars_act_as_python_scalars():
    small = first("int16", "int32")
    x = xp.asarray([1, 2, 3], dtype=small)
    assert (x * np.int64(2)).dtype == small
    assert (np.int64(2) * x).dtype == small
    assert np.asarray(xp.where(x > 1, np.int64(5), x)).tolist() == [1, 5, 5]
    assert xp.add(x, np.int32(1)).dtype == small
    assert (xp.asarray([True]) & np.bool_(True)).dtype == xp.bool
