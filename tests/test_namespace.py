"""The namespace: every 2025.12 name, signatures with the standard's markers, inspection API."""
import inspect

import pytest

import array_api_vulkan as xp
from array_api_vulkan import _dtypes

# The names of the 2025.12 standard, by chapter.
NAMES = """
e inf nan newaxis pi
arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like
tril triu zeros zeros_like
astype can_cast finfo iinfo isdtype result_type
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert
bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp
expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal
log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum
multiply negative nextafter not_equal positive pow real reciprocal remainder round sign signbit
sin sinh square sqrt subtract tan tanh trunc
take take_along_axis
matmul matrix_transpose tensordot vecdot
broadcast_arrays broadcast_shapes broadcast_to concat expand_dims flip moveaxis permute_dims
repeat reshape roll squeeze stack tile unstack
argmax argmin count_nonzero nonzero searchsorted where
isin unique_all unique_counts unique_inverse unique_values
argsort sort
cumulative_prod cumulative_sum max mean min prod std sum var
all any diff
bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128
__array_namespace_info__ runtime_stats reset_runtime_stats synchronize
""".split()
LINALG = """cholesky cross det diagonal eigh eigvalsh eig eigvals inv matmul matrix_norm
matrix_power matrix_rank matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot
trace vecdot vector_norm""".split()
FFT = """fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift
ifftshift""".split()

P = inspect.Parameter


def test_version():
    assert xp.__array_api_version__ == "2025.12"


@pytest.mark.parametrize("mod, names", [(xp, NAMES), (xp.linalg, LINALG), (xp.fft, FFT)])
def test_every_name(mod, names):
    missing = [n for n in names if not hasattr(mod, n)]
    assert not missing


def kinds(f):
    return {n: p.kind for n, p in inspect.signature(f).parameters.items()}


def test_signature_markers():
    assert kinds(xp.asarray) == {"obj": P.POSITIONAL_ONLY, "dtype": P.KEYWORD_ONLY,
                                 "device": P.KEYWORD_ONLY, "copy": P.KEYWORD_ONLY}
    assert kinds(xp.add) == {"x1": P.POSITIONAL_ONLY, "x2": P.POSITIONAL_ONLY}
    assert kinds(xp.sin) == {"x": P.POSITIONAL_ONLY}
    assert kinds(xp.squeeze)["axis"] == P.POSITIONAL_OR_KEYWORD
    assert kinds(xp.clip)["min"] == P.POSITIONAL_OR_KEYWORD
    assert kinds(xp.eye)["n_cols"] == P.POSITIONAL_ONLY
    assert kinds(xp.linalg.svd)["full_matrices"] == P.KEYWORD_ONLY
    assert kinds(xp.fft.fftshift)["axes"] == P.KEYWORD_ONLY
    assert kinds(xp.ones(1).__dlpack__) == {k: P.KEYWORD_ONLY for k in
                                            ("stream", "max_version", "dl_device", "copy")}


def test_elementwise_ops_are_table_objects():
    op = xp.floor_divide
    assert op.__name__ == "floor_divide" and op.nargs == 2
    assert op.category == "real numeric" and op.result == "same"


def test_info_for_the_default_device():
    info = xp.__array_namespace_info__()
    caps = info.capabilities()
    assert caps["boolean indexing"] and caps["data-dependent shapes"]
    devs = info.devices()
    assert isinstance(devs, tuple) and info.default_device() in devs
    d = info.dtypes(kind="real floating")
    assert set(d) <= {"float32", "float64"} and "float32" in d
    assert all(isinstance(v, _dtypes.DType) for v in info.dtypes().values())
    assert set(info.default_dtypes()) == {"real floating", "complex floating", "integral",
                                          "indexing"}
    assert info.dtypes(kind=("bool", "signed integer")).keys() <= {
        "bool", "int8", "int16", "int32", "int64"}


class FakeDevice:
    supports_float64 = supports_int64 = supports_int16 = supports_int8 = False


def test_dtypes_follow_device_capabilities():
    dev = FakeDevice()
    names = [d.name for d in _dtypes.supported(dev)]
    assert names == ["bool", "int32", "uint32", "float32", "complex64"]
    dd = _dtypes.defaults(dev)
    assert dd["real floating"] == xp.float32 and dd["integral"] == xp.int32
    assert dd["complex floating"] == xp.complex64
    assert _dtypes.nearest_supported(xp.float64, dev) == xp.float32
    assert _dtypes.nearest_supported(xp.int8, dev) == xp.int32  # at least as wide, if there is one
    assert _dtypes.nearest_supported(xp.uint16, dev) == xp.uint32
    with pytest.raises(ValueError):
        _dtypes.check_supported(xp.int8, dev)
    dev.supports_float64 = True
    # the float64 kernels need 64-bit integers too
    assert "float64" not in [d.name for d in _dtypes.supported(dev)]
    assert _dtypes.defaults(dev)["real floating"] == xp.float32
    dev.supports_int64 = True
    assert _dtypes.defaults(dev)["real floating"] == xp.float64
    assert _dtypes.nearest_supported(xp.int8, dev) == xp.int32
    dev.supports_float64 = False
    assert _dtypes.nearest_supported(xp.float64, dev) == xp.float32
    assert [d.name for d in _dtypes.supported(dev)] == ["bool", "int32", "int64", "uint32", "uint64",
                                                        "float32", "complex64"]


def test_dtype_objects():
    assert xp.float32 == xp.float32 and xp.float32 != xp.float64
    assert xp.float32 != "float32"
    assert {xp.int8: 1}[xp.int8] == 1
    assert repr(xp.uint8) == "array_api_vulkan.uint8"
    import pickle
    assert pickle.loads(pickle.dumps(xp.complex64)) is xp.complex64


def test_numpy_dtypes_are_taken_as_dtype_arguments():
    """As CuPy does: numpy dtypes and scalar types of our dtypes' names stand for them wherever
    a dtype is an argument; strings, Python types and other numpy dtypes do not."""
    import numpy as np
    from conftest import FLOAT, INT
    f, i = FLOAT._np.type, INT._np
    assert xp.zeros(2, dtype=f).dtype is FLOAT and xp.full(2, 3, dtype=i).dtype is INT
    assert xp.asarray([1, 2], dtype=np.dtype("int32")).dtype is xp.int32
    assert xp.arange(3, dtype=np.int32).dtype is xp.int32
    assert xp.astype(xp.ones(2, dtype=xp.float32), np.int32).dtype is xp.int32
    assert xp.sum(xp.ones(3, dtype=xp.int32), dtype=i).dtype is INT
    assert xp.isdtype(np.dtype("int64"), "integral") and not xp.isdtype(np.float32, "integral")
    assert xp.isdtype(xp.float32, np.float32)
    assert xp.can_cast(np.int8, np.int16) and xp.result_type(np.int8, xp.uint8) is xp.int16
    assert xp.finfo(np.float32).dtype is xp.float32 and xp.iinfo(np.dtype("uint8")).max == 255
    for bad in ("float32", float, np.dtype("O"), np.float16, np.str_):
        with pytest.raises(TypeError):
            xp.zeros(2, dtype=bad)
        with pytest.raises(TypeError):
            xp.isdtype(bad, "integral")


def test_runtime_stats_reexported():
    xp.reset_runtime_stats()
    from array_api_vulkan import _fallback
    import numpy as np
    _fallback.call("probe", np.copy, xp.asarray([2, 1]))  # one host round trip
    s = xp.runtime_stats()
    assert s["host_fallbacks"] == {"probe": 1}  # uploading host data is not a fallback
    assert s["bytes_uploaded"] >= 16
    xp.synchronize()


def test_device_without_float64(monkeypatch):
    import numpy as np
    dev = xp.__array_namespace_info__().default_device()
    monkeypatch.setattr(dev, "supports_float64", False)
    info = xp.__array_namespace_info__()
    assert "float64" not in info.dtypes() and "complex128" not in info.dtypes()
    assert info.default_dtypes()["real floating"] == xp.float32
    assert xp.asarray(0.0).dtype == xp.float32
    assert xp.asarray([1j]).dtype == xp.complex64
    assert xp.zeros(2).dtype == xp.float32 and xp.linspace(0, 1, 3).dtype == xp.float32
    assert xp.asarray(np.ones(2)).dtype == xp.float32  # host float64 data is narrowed
    assert xp.mean(xp.asarray([1, 2])).dtype == xp.float32
    assert (xp.asarray([1, 2]) / 2).dtype == xp.float32
    with pytest.raises(ValueError):
        xp.ones(2, dtype=xp.float64)
    assert not xp.can_cast(xp.ones(1, dtype=xp.float32), xp.float64)
