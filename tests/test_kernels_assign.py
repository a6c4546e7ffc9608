"""_kernels.assign: in-place writes into strided views (for in-place operators and __setitem__)."""
import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import _kernels
from array_api_vulkan._array_object import Array
from array_api_vulkan._dtypes import from_np
from conftest import FLOAT, computes_natively, param

DEV = xp.__array_namespace_info__().default_device()


def dev(h):
    h = np.array(h, order="C")
    return Array._new(DEV.upload(h), from_np(h.dtype), h.shape)


VIEWS = [lambda a: a, lambda a: a[1:, ::2], lambda a: a[::-1, 1:2], lambda a: a.T[::2],
         lambda a: a[2], lambda a: a[3, 4, ...], lambda a: a[:0]]


@pytest.mark.parametrize("vi", range(len(VIEWS)))
@pytest.mark.parametrize("dt", [param(d, dtypes=[d]) for d in
                                ("float32", "int16", "uint8", "complex128", "bool", "int64")])
def test_assign_array_and_scalar(vi, dt):
    v = VIEWS[vi]
    rng = np.random.default_rng(vi)
    h = (rng.standard_normal((5, 6)) * 10).astype(dt)
    x = dev(h)
    whole = x[:, :]  # another view of the same allocation must see the writes
    target = v(x)
    src = (rng.standard_normal(v(h).shape[-1:] or ()) * 10).astype(dt)  # broadcasts
    xp.reset_runtime_stats()
    val = {"b": True, "i": -3, "u": 7, "f": 2.5, "c": 1 - 2j}[np.dtype(dt).kind]
    if not computes_natively(dt):
        # bool without 8-bit storage: no kernel writes it (the spec layer falls back)
        assert not _kernels.supports_cast(target.dtype, target.dtype, target.device)
        for v_ in (dev(src), val):
            with pytest.raises(_kernels.NotNative):
                _kernels.assign(target, v_)
        target[...] = dev(src)
        v(h)[...] = src
        np.testing.assert_array_equal(np.asarray(whole), h)
        target[...] = val
        v(h)[...] = val
        np.testing.assert_array_equal(np.asarray(x), h)
        assert xp.runtime_stats()["host_fallbacks"] == {"__setitem__": 2}
        return
    _kernels.assign(target, dev(src))
    v(h)[...] = src
    np.testing.assert_array_equal(np.asarray(whole), h)
    _kernels.assign(target, val)
    v(h)[...] = val
    np.testing.assert_array_equal(np.asarray(x), h)
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_assign_converts_and_handles_overlap():
    h = np.arange(20, dtype=FLOAT._np).reshape(4, 5)
    x = dev(h)
    _kernels.assign(x[1:], x[:-1])  # overlapping source and destination
    h[1:] = h[:-1].copy()
    np.testing.assert_array_equal(np.asarray(x), h)
    src = np.array([1, -2, 3, 4, 5], np.int32)
    _kernels.assign(x[::2], dev(src))
    h[::2] = src
    np.testing.assert_array_equal(np.asarray(x), h)
