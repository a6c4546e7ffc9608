"""Issue 7, ask first: the spec layer asks the kernels layer (`_kernels.supports_*`) whether a
call is native and calls the kernel only on a yes. Where the answer is no, the call is one
counted host fallback and no kernel is tried; where a kernel cannot serve after a yes, it raises
`NotNative` (never a silent None). One entry set: the spec layer and the kernels layer's own
families call the same `_kernels` entries, none of which answers None / False for "not native"."""
import os
import subprocess
import sys

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import _elementwise_functions as ew, _kernels

from conftest import FLOAT, INT, computes_natively

ENTRIES = ("elementwise", "astype", "full", "arange", "eye", "assign", "gather", "scatter",
           "compact", "compact_values", "mask_fill", "mask_count", "mask_scatter", "linspace",
           "tri", "copy", "contiguous")


def fallbacks():
    return dict(xp.runtime_stats()["host_fallbacks"])


@pytest.fixture
def all_no(monkeypatch):
    """Every supports_* answers no and every native entry fails the test if called."""
    for name in ("supports_cast", "supports_elementwise", "supports_fill", "supports_linspace",
                 "supports_gather", "supports_compact", "supports_compact_values"):
        monkeypatch.setattr(_kernels, name, lambda *a, **k: False)

    def tried(*a, **k):
        raise AssertionError("a kernel was tried after its supports_* answered no")

    for name in ENTRIES:
        monkeypatch.setattr(_kernels, name, tried)
    # the elementwise functions' memo of earlier yes answers (per signature and layout) goes
    for op in vars(ew).values():
        if isinstance(op, ew.ElementwiseOp):
            monkeypatch.setattr(op, "_compiled", {})
            monkeypatch.setattr(op, "_plans", {})


def test_no_means_one_counted_fallback_and_no_kernel(all_no):
    a_h = np.arange(24, dtype=FLOAT._np).reshape(2, 3, 4)
    a = xp.asarray(a_h)
    m_h = np.array([True, False])
    m = xp.asarray(m_h)
    i = xp.asarray(np.array([2, 0], INT._np))
    cases = [
        ("add", lambda: a + 1.0, a_h + 1.0),
        ("astype", lambda: xp.astype(a, INT), a_h.astype(INT._np)),
        ("full", lambda: xp.full((2, 2), 3.0, dtype=FLOAT), np.full((2, 2), 3.0, FLOAT._np)),
        ("arange", lambda: xp.arange(5, dtype=INT), np.arange(5, dtype=INT._np)),
        ("eye", lambda: xp.eye(3, dtype=FLOAT), np.eye(3, dtype=FLOAT._np)),
        ("linspace", lambda: xp.linspace(0.0, 1.0, 5, dtype=FLOAT),
         np.linspace(0.0, 1.0, 5).astype(FLOAT._np)),
        ("tril", lambda: xp.tril(a), np.tril(a_h)),
        ("clip", lambda: xp.clip(a, 2.0, 5.0), np.clip(a_h, 2.0, 5.0)),
        ("where", lambda: xp.where(a > 3.0, a, 0.0), np.where(a_h > 3.0, a_h, 0.0)),
        ("take", lambda: xp.take(a, i, axis=2), np.take(a_h, [2, 0], axis=2)),
        ("__getitem__", lambda: a[m, 1:3], a_h[m_h, 1:3]),
        ("__getitem__", lambda: a[:, :, i], a_h[:, :, [2, 0]]),
        ("nonzero", lambda: xp.nonzero(a > 10.0)[1], np.nonzero(a_h > 10.0)[1]),
    ]
    for name, fn, want in cases:
        before = fallbacks()
        got = np.asarray(fn())
        np.testing.assert_array_equal(got, want)
        after = fallbacks()
        assert after.get(name, 0) > before.get(name, 0), name
    before = fallbacks()
    b = xp.asarray(a_h)
    b[m, 1:3] = 7.0
    b[0, 0, 0] = -1.0
    h = a_h.copy()
    h[m_h, 1:3] = 7.0
    h[0, 0, 0] = -1.0
    np.testing.assert_array_equal(np.asarray(b), h)
    assert fallbacks().get("__setitem__", 0) == before.get("__setitem__", 0) + 2


def test_yes_then_cannot_serve_raises(monkeypatch):
    """A kernel that cannot serve after a yes raises NotNative: no silent fallback."""
    a = xp.asarray(np.arange(6, dtype=FLOAT._np))
    # supports_* say yes, the kernels find nothing to run
    monkeypatch.setattr(_kernels, "supports_elementwise", lambda *args: True)
    monkeypatch.setattr(_kernels, "_resolve", lambda *args: False)
    monkeypatch.setattr(_kernels, "_resolved", {})
    monkeypatch.setattr(ew.sin, "_compiled", {})
    monkeypatch.setattr(ew.sin, "_plans", {})
    with pytest.raises(_kernels.NotNative):
        xp.sin(a)
    monkeypatch.setattr(_kernels, "supports_fill", lambda *args: True)
    monkeypatch.setattr(_kernels, "_fill_variant", lambda *args: None)
    # (the general path: no call kept from before)
    from array_api_vulkan import _creation_functions

    monkeypatch.setattr(_creation_functions, "_fill_plans", {})
    monkeypatch.setattr(_kernels, "_full_plans", {})
    with pytest.raises(_kernels.NotNative):
        xp.zeros(3, dtype=FLOAT)


def test_supports_cast_is_the_one_answer():
    """astype, assign and copies ask one question (_launch.cast_variant)."""
    from array_api_vulkan._kernels import _launch

    dev = xp.__array_namespace_info__().default_device()
    for src in xp.__array_namespace_info__().dtypes(device=dev).values():
        for dst in (xp.bool, INT, FLOAT):
            code = _launch.table.DTYPES
            want = _launch.cast_variant(code[src.name][0], code[dst.name][0], dev) is not None
            assert _kernels.supports_cast(src, dst, dev) == want
    assert _kernels.supports_cast(xp.bool, xp.bool, dev) == computes_natively(xp.bool)


_MASKED = r"""
import numpy as np
import array_api_vulkan as xp
from array_api_vulkan import _kernels

def tried(*a, **k):
    raise AssertionError("tried")

# without 8-bit storage no kernel touches bool: comparisons, masks and bool casts are asked,
# answered no, and fall back counted without a kernel being tried
a = xp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
m = xp.asarray(np.array([True, False, True]))
real = _kernels.elementwise
for name in ("elementwise", "compact", "compact_values", "gather", "astype"):
    setattr(_kernels, name, tried)
xp.reset_runtime_stats()
got = [np.asarray(a > 5.0), np.asarray(a[m, 1:3]), np.asarray(xp.astype(a, xp.bool))]
h = np.arange(12, dtype=np.float32).reshape(3, 4)
assert (got[0] == (h > 5)).all() and (got[1] == h[[0, 2], 1:3]).all() and (got[2] == h.astype(bool)).all()
fb = xp.runtime_stats()["host_fallbacks"]
assert fb == {"greater": 1, "__getitem__": 1, "astype": 1}, fb
_kernels.elementwise = real
assert np.asarray(a + 1.0)[0, 0] == 1.0  # float32 stays native
assert xp.runtime_stats()["host_fallbacks"] == fb
print("ok")
"""


def test_masked_device_falls_back_without_trying():
    env = dict(os.environ, ARRAY_API_VULKAN_DISABLE_FEATURES="storage8,storage16")
    r = subprocess.run([sys.executable, "-c", _MASKED], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout[-2000:] + r.stderr[-2000:]


def test_one_entry_set():
    """native.py's duplicated wrappers are gone: the spec layer calls the `_kernels` entries."""
    import importlib.util

    assert importlib.util.find_spec("array_api_vulkan._kernels.native") is None
    from array_api_vulkan._kernels import _fft, _index, _launch, _manip, _reduce

    assert _reduce.NotNative is _launch.NotNative is _kernels.NotNative
    assert _kernels.contiguous is _launch.contiguous
    assert _kernels.gather is _index.gather and _kernels.tri is _manip.tri
    assert _kernels.supports_fft_shift is _fft.supports_shift


@pytest.mark.skipif(not computes_natively(FLOAT), reason="needs native FLOAT")
def test_entries_raise_rather_than_answer_none(monkeypatch):
    """Every entry raises NotNative where it cannot serve; none returns None / False."""
    from array_api_vulkan._kernels import _index, _launch

    a = xp.asarray(np.arange(12, dtype=FLOAT._np).reshape(3, 4))
    dev = a._alloc.device
    monkeypatch.setattr(_launch, "cast_variant", lambda *args: None)
    calls = [
        lambda: _kernels.astype(a, FLOAT),
        lambda: _kernels.copy(a),
        lambda: _kernels.assign(a, 1.0),
        lambda: _kernels.contiguous(a.mT),
        lambda: _kernels.copy_into(a, a),
        lambda: _kernels.tri(a, 0, False),
    ]
    for call in calls:
        with pytest.raises(_kernels.NotNative):
            call()
    monkeypatch.undo()
    monkeypatch.setattr(_kernels, "_fill_variant", lambda *args: None)
    monkeypatch.setattr(_kernels, "_full_plans", {})  # (no plan kept from before)
    for call in (lambda: _kernels.full((2,), 0.0, FLOAT, dev),
                 lambda: _kernels.arange(0, 3, 1, 3, FLOAT, dev),
                 lambda: _kernels.eye(2, 2, 0, FLOAT, dev)):
        with pytest.raises(_kernels.NotNative):
            call()
    monkeypatch.undo()
    with pytest.raises(_kernels.NotNative):
        _kernels.elementwise("add", [1.0, 2.0], FLOAT, ())  # no Array operand
    with pytest.raises(_kernels.NotNative):
        _kernels.transpose_copy(a)  # not a transposed layout: supports_transpose_copy says no
    assert not _kernels.supports_transpose_copy(a)
    idx = xp.asarray(np.array([0, 2], INT._np))
    with pytest.raises(_kernels.NotNative):  # scatter into its own source
        _kernels.scatter(a, a, (2,), (4,), 0, [(idx, (1,), 3, 4)])
    monkeypatch.setattr(_index, "_chunks_ok", lambda *args: False)
    with pytest.raises(_kernels.NotNative):
        _kernels.compact(xp.asarray(np.array([True, False])), (2,), INT)


@pytest.mark.skipif(not computes_natively(FLOAT), reason="needs native FLOAT")
def test_copies_beyond_the_push_block():
    """contiguous copies and assignments of views of more dimensions than one dispatch's push
    block describes are split, never refused (supports_cast's yes covers every rank)."""
    shape = (2,) * 13
    h = np.arange(2 ** 13, dtype=FLOAT._np).reshape(shape)
    x = xp.asarray(h)
    perm = tuple(range(12, -1, -1))
    before = fallbacks()
    v = xp.permute_dims(x, perm)
    np.testing.assert_array_equal(np.asarray(_kernels.contiguous(v)), h.transpose(perm))
    np.testing.assert_array_equal(np.asarray(xp.asarray(v, copy=True)), h.transpose(perm))
    y = xp.zeros(shape, dtype=FLOAT)
    y[...] = v  # both sides strided
    np.testing.assert_array_equal(np.asarray(y), h.transpose(perm))
    z = xp.asarray(h)
    z[1:] = z[:-1][..., ::-1]  # overlapping source, split
    hz = h.copy()
    hz[1:] = hz[:-1][..., ::-1].copy()
    np.testing.assert_array_equal(np.asarray(z), hz)
    assert fallbacks() == before


def test_fft_shift_and_freq_ask_first(monkeypatch):
    """fftshift / fftfreq ask supports_fft_shift / supports_fft_freq: a no is one counted
    fallback and no kernel is tried."""
    from array_api_vulkan import fft as xfft

    monkeypatch.setattr(_kernels, "supports_fft_shift", lambda *a: False)
    monkeypatch.setattr(_kernels, "supports_fft_freq", lambda *a: False)

    def tried(*a, **k):
        raise AssertionError("a kernel was tried after its supports_* answered no")

    monkeypatch.setattr(_kernels, "fft_shift", tried)
    monkeypatch.setattr(_kernels, "fft_freq", tried)
    h = np.arange(6, dtype=FLOAT._np)
    before = fallbacks()
    np.testing.assert_array_equal(np.asarray(xfft.fftshift(xp.asarray(h))), np.fft.fftshift(h))
    np.testing.assert_allclose(np.asarray(xfft.fftfreq(6, dtype=FLOAT)), np.fft.fftfreq(6))
    after = fallbacks()
    assert after.get("fftshift", 0) == before.get("fftshift", 0) + 1
    assert after.get("fftfreq", 0) == before.get("fftfreq", 0) + 1
