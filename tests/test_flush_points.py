"""The spec layer records lazily and submits only where the host needs data; and the structure
of a long chain of small dependent ops (one submit, few pipelines)."""
import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan._kernels import _reduce

from conftest import no_kick_after_wait


@pytest.fixture(autouse=True)
def _no_kick_after_wait(monkeypatch):
    """These tests count submits of held-back work: without the submit of the first op after
    a wait (test_first_op_after_a_wait_is_submitted_at_once tests it)."""
    no_kick_after_wait(monkeypatch, xp.asarray(0.0).device)


def pending(value=2.0, shape=(), dtype=None):
    """An array whose value depends on recorded, unsubmitted work."""
    x = xp.full(shape, value - 1, dtype=dtype or xp.float32)
    xp.synchronize()
    xp.reset_runtime_stats()
    y = x + 1
    assert xp.runtime_stats()["submits"] == 0
    return y


def submits():
    return xp.runtime_stats()["submits"]


@pytest.mark.parametrize("convert, expected", [
    (bool, True), (float, 2.0), (complex, 2 + 0j),
])
def test_scalar_conversions_flush(convert, expected):
    y = pending()
    assert convert(y) == expected
    assert submits() == 1


@pytest.mark.parametrize("convert", [int, lambda a: a.__index__(), lambda a: [10, 20, 30, 40][a]])
def test_integer_conversions_flush(convert):
    y = pending(3, dtype=xp.int32)
    assert convert(y) in (3, 40)
    assert submits() == 1


def test_array_protocol_flushes():
    y = pending(shape=(4,))
    np.testing.assert_array_equal(np.asarray(y), np.full(4, 2.0, np.float32))
    assert submits() == 1


def test_dlpack_to_host_flushes():
    y = pending(shape=(3,))
    h = np.from_dlpack(y, device="cpu")
    np.testing.assert_array_equal(h, np.full(3, 2.0, np.float32))
    assert submits() == 1


def test_data_dependent_shape_flushes():
    y = pending(shape=(5,))
    mask = y > 1.5
    assert xp.nonzero(mask)[0].shape == (5,)
    assert submits() >= 1


def test_synchronize_flushes():
    pending(shape=(5,))
    xp.synchronize()
    assert submits() == 1


def test_1000_small_dependent_ops_then_one_read_is_one_submit(monkeypatch):
    x = xp.ones(1000, dtype=xp.float32)
    xp.synchronize()
    rec = x.device._rec
    # (without the early submit, which on a fast GPU sends the chain's first ops ahead every
    # EARLY_SUBMIT_DISPATCHES: tests/test_runtime.py tests that)
    monkeypatch.setattr(rec, "early_dispatches", 1 << 20)
    xp.reset_runtime_stats()
    for _ in range(1000):
        x = x + 1.0
    value = float(x[999])
    s = xp.runtime_stats()
    assert value == 1001.0
    assert s["submits"] == 1
    # every op recorded: one dispatch each, or within fused kernels (tests/test_fusion.py)
    assert s["dispatches"] - s["fused_kernels"] + s["fused_ops"] >= 1000
    assert s["pipelines_created"] <= 4
    assert s["host_fallbacks"] == {}
    # Stream-ordered memory: the chain reuses the same few blocks.
    assert s["pool_bytes_in_use"] <= 64 * 4096


def test_first_op_after_a_wait_is_submitted_at_once(monkeypatch):
    """With kick_after_wait, the first op after a synchronize is submitted as it is recorded
    (one submit, nothing pending), the ops after it are held for the next submit; a plan of
    several dispatches (a reduction) is submitted after its last."""
    x = xp.ones(1000, dtype=xp.float32)
    rec = x.device._rec
    monkeypatch.setattr(rec, "kick_after_wait", True)
    monkeypatch.setattr(rec, "early_dispatches", 1 << 20)
    # (a reduction of two passes: without its last workgroup's final, and its counters' fill)
    monkeypatch.setattr(_reduce, "FINAL_IN_PASS", False)
    for _ in range(2):  # (the second time: the reduction's compiled plan)
        xp.synchronize()
        assert x.device.after_wait()
        xp.reset_runtime_stats()
        y = x + 1.0
        assert (submits(), rec.pending) == (1, 0)
        assert not x.device.after_wait()
        z = y * 2.0
        assert (submits(), rec.pending) == (1, 1)
        assert float(z[3]) == 4.0
        big = xp.ones(1 << 16, dtype=xp.float32)
        xp.synchronize()
        xp.reset_runtime_stats()
        s = xp.sum(big)
        assert (submits(), xp.runtime_stats()["dispatches"], rec.pending) == (1, 2, 0)
        assert float(s) == 65536.0

