"""Automatic elementwise fusion (array_api_vulkan/_kernels/_fuse.py, docs/design.md "Fusion").

Chains of elementwise ops are held and recorded as one generated kernel; the values must be those
of the unfused dispatches, bit for bit, and runtime_stats() must show the single dispatch.
"""
import math
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan import _fallback, _runtime
from array_api_vulkan._kernels import _fuse

from conftest import computes_natively, has

pytestmark = pytest.mark.skipif(not _fuse.enabled(), reason="fusion is off (no run-time compiler, "
                                "or ARRAY_API_VULKAN_FUSION=0)")


@pytest.fixture(autouse=True)
def fuse_small_arrays(monkeypatch):
    """These tests' arrays are small: hold every op, whatever the size threshold, and also the
    first from an idle GPU (test_eager_first_op covers that one)."""
    monkeypatch.setattr(_fuse, "MIN_ELEMENTS", 0)
    monkeypatch.setattr(_fuse, "EAGER", False)
    monkeypatch.setattr(_fuse, "_solo", {})  # (what first ops did is learned per process)


def host(x):
    return _fallback.to_host(x)


def bits(x):
    h = np.ascontiguousarray(host(x))
    return h.view(np.uint8) if h.dtype.kind != "b" else h


class unfused:
    def __enter__(self):
        self.prev = _fuse.set_enabled(False)

    def __exit__(self, *exc):
        _fuse.set_enabled(self.prev)


def both(fn, *args):
    """fn(*args) fused and unfused: (fused result, unfused result, dispatches fused, unfused)."""
    xp.synchronize()
    xp.reset_runtime_stats()
    r1 = fn(*args)
    d1 = xp.runtime_stats()["dispatches"]
    h1 = [host(r) for r in (r1 if isinstance(r1, tuple) else (r1,))]
    with unfused():
        xp.synchronize()
        xp.reset_runtime_stats()
        r2 = fn(*args)
        d2 = xp.runtime_stats()["dispatches"]
        h2 = [host(r) for r in (r2 if isinstance(r2, tuple) else (r2,))]
    for a, b in zip(h1, h2):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(np.ascontiguousarray(a).view(np.uint8),
                                      np.ascontiguousarray(b).view(np.uint8))
    return h1, d1, d2


def chain5(a):
    return xp.sqrt(xp.abs(xp.sin(a) * 3.0 + a) + 1.0)


def test_five_op_chain_is_one_dispatch_with_the_same_bits():
    x = np.linspace(-50, 50, 100003, dtype=np.float32)
    a = xp.asarray(x)
    (h,), d1, d2 = both(chain5, a)
    assert d1 == 1 and d2 == 6  # sin, multiply, add, abs, add, sqrt
    np.testing.assert_allclose(h, np.sqrt(np.abs(np.sin(x) * 3 + x) + 1), rtol=1e-5)
    s = xp.runtime_stats()
    assert not s["host_fallbacks"]


def test_a_chain_seen_again_replays_from_the_cache():
    a = xp.asarray(np.arange(1000, dtype=np.float32))
    host(chain5(a))
    xp.reset_runtime_stats()
    host(chain5(a))
    s = xp.runtime_stats()
    assert s["fused_kernels"] == 1 and s["fusion_cache_hits"] == 1
    assert s["shaders_compiled"] == 0 and s["pipelines_created"] == 0


def test_an_intermediate_the_user_keeps_is_written():
    x = np.linspace(-2, 2, 4099, dtype=np.float32)
    a = xp.asarray(x)

    def fn(a):
        t = xp.exp(a)
        y = t * 2.0 - 1.0
        return t, y

    (t, y), d1, _ = both(fn, a)
    assert d1 == 1
    np.testing.assert_allclose(t, np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(y, np.exp(x) * 2 - 1, rtol=1e-5, atol=1e-6)


def test_results_nobody_holds_are_not_computed():
    a = xp.asarray(np.ones(100, np.float32))
    xp.synchronize()
    xp.reset_runtime_stats()
    xp.sin(a) + 1.0
    assert xp.runtime_stats()["dispatches"] == 0


def test_views_of_intermediates_keep_them():
    x = np.arange(12, dtype=np.float32)
    a = xp.asarray(x)
    y = (a + 1.0) * 2.0
    v = xp.reshape(y, (3, 4))
    del y
    z = v[1] + 1.0  # a view of a held result: it is written, then read
    np.testing.assert_array_equal(host(z), ((x + 1) * 2).reshape(3, 4)[1] + 1)
    np.testing.assert_array_equal(host(v), ((x + 1) * 2).reshape(3, 4))


@pytest.mark.skipif(not computes_natively("int8", "int16", "bool"), reason="needs int8/int16 and bool")
def test_small_integers_wrap_between_ops_as_unfused():
    x = np.arange(-128, 128, dtype=np.int8)
    a = xp.asarray(x)

    def fn(a):
        b = (a + 100) * 3        # wraps in int8 after each op
        c = xp.astype(b, xp.int16) * 300
        return c, (b > 0) & (c < 0)

    (c, m), d1, d2 = both(fn, a)
    assert d1 == 1 and d2 > 1
    b = ((x + np.int8(100)) * np.int8(3)).astype(np.int8)
    np.testing.assert_array_equal(c, b.astype(np.int16) * np.int16(300))


@pytest.mark.skipif(not computes_natively("bool"), reason="comparisons and where need 8-bit storage")
def test_mixed_dtypes_and_scalars():
    xf = np.linspace(-3, 3, 5000, dtype=np.float32)
    xi = np.arange(5000, dtype=np.int32) % 17 - 8
    af, ai = xp.asarray(xf), xp.asarray(xi)

    def fn(af, ai):
        m = ai * 2 + 1                      # int32, scalars
        y = xp.astype(m, xp.float32) / 3.0 + af
        w = xp.where(y > 0.5, y, -y)        # bool condition, select
        return xp.clip(w, -1.0, 2.5), m

    (r, m), d1, _ = both(fn, af, ai)
    assert d1 == 1
    y = (xi * 2 + 1).astype(np.float32) / np.float32(3) + xf
    np.testing.assert_allclose(r, np.clip(np.where(y > 0.5, y, -y), -1, 2.5), rtol=1e-6)


@pytest.mark.skipif(not has("float64", "complex128"), reason="needs float64")
def test_float64_and_complex_chains():
    x = np.linspace(-3, 3, 3001)
    a = xp.asarray(x)

    def fn(a):
        z = xp.astype(a, xp.complex128) * (1 + 2j)
        return xp.abs(xp.exp(z) + 1.0), xp.log1p(xp.abs(a)) * xp.tanh(a)

    (r, s), d1, _ = both(fn, a)
    assert d1 == 1
    np.testing.assert_allclose(r, np.abs(np.exp(x * (1 + 2j)) + 1), rtol=1e-12)
    np.testing.assert_allclose(s, np.log1p(np.abs(x)) * np.tanh(x), rtol=1e-12, atol=1e-300)


def test_broadcasting_and_strided_operands_fuse():
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = xp.asarray(x)
    one = xp.asarray(np.float32(2.5))
    col = xp.asarray(np.arange(4, dtype=np.float32).reshape(4, 1))

    def fn(a, one, col):
        y = a * one + 1.0      # a 0-d operand
        z = y - col            # a column broadcast along the rows
        return xp.exp(z * 0.1) + y, a.T + 1.0  # (a transposed view: another shape)

    (r, t), d1, _ = both(fn, a, one, col)
    assert d1 == 2
    y = x * np.float32(2.5) + 1
    np.testing.assert_allclose(r, np.exp((y - np.arange(4, dtype=np.float32)[:, None]) * np.float32(0.1)) + y,
                               rtol=1e-6)
    np.testing.assert_array_equal(t, x.T + 1)


def test_chains_interleaved_with_reductions_indexing_and_host_reads():
    x = np.linspace(0, 1, 1000, dtype=np.float32)
    a = xp.asarray(x)
    y = a * 2.0 + 1.0
    s = xp.sum(y)                      # a reduction records the chain first
    z = (y[::2] + 1.0) * y[1::2]       # strided views of a written result
    first = float(y[0])                # a host read
    w = y * 3.0
    w[0] = 7.0                         # a write into a held result
    xs = x * np.float32(2) + np.float32(1)
    np.testing.assert_allclose(float(s), xs.sum(dtype=np.float64), rtol=1e-5)
    np.testing.assert_array_equal(host(z), (xs[::2] + 1) * xs[1::2])
    assert first == xs[0]
    expect = xs * np.float32(3)
    expect[0] = 7
    np.testing.assert_array_equal(host(w), expect)


def test_in_place_reuse():
    x = np.arange(1000, dtype=np.float32)
    a = xp.asarray(x)
    for _ in range(3):
        a = a * 2.0
        a += 1.0                        # assign records the held ops first
        a = xp.sqrt(a) + a
    e = x
    for _ in range(3):
        e = e * np.float32(2)
        e += np.float32(1)
        e = np.sqrt(e) + e
    np.testing.assert_allclose(host(a), e, rtol=1e-6)


def test_long_chains_split_into_several_kernels():
    a = xp.asarray(np.zeros(256, np.float32))
    xp.synchronize()
    xp.reset_runtime_stats()
    x = a
    for _ in range(200):
        x = x + 1.0
    assert float(x[3]) == 200.0
    s = xp.runtime_stats()
    assert 1 < s["dispatches"] <= 200 // 16 + 2
    assert s["fused_ops"] == 200


def test_threads_fuse_and_stay_correct():
    x = np.linspace(-1, 1, 2048, dtype=np.float32)
    errors = []

    def work(i):
        try:
            a = xp.asarray(x + i)
            for _ in range(20):
                r = host(chain5(a) * float(i))
                np.testing.assert_allclose(r, np.sqrt(np.abs(np.sin(x + i) * 3 + (x + i)) + 1) * i,
                                           rtol=1e-5)
        except Exception as e:  # pragma: no cover
            errors.append(e)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_a_held_result_shared_with_another_thread():
    a = xp.asarray(np.arange(100, dtype=np.float32))
    y = a * 2.0 + 1.0
    out = []
    t = threading.Thread(target=lambda: out.append(host(xp.sum(y))))
    t.start()
    t.join()
    assert float(out[0]) == float(np.sum(np.arange(100) * 2 + 1))


def test_no_compiler_runs_unfused(monkeypatch):
    prev = _fuse.set_enabled(False)
    try:
        monkeypatch.setattr(_fuse._compiler, "available", lambda: False)
        assert _fuse.set_enabled(True) is False
        assert not _fuse.enabled()
        a = xp.asarray(np.ones(64, np.float32))
        xp.synchronize()
        xp.reset_runtime_stats()
        y = chain5(a)
        assert xp.runtime_stats()["dispatches"] == 6
        np.testing.assert_allclose(host(y), np.sqrt(np.abs(np.sin(1) * 3 + 1) + 1), rtol=1e-6)
    finally:
        monkeypatch.undo()
        _fuse.set_enabled(prev)


def test_env_switch_turns_fusion_off_in_a_fresh_process():
    code = ("import numpy as np, array_api_vulkan as xp\n"
            "from array_api_vulkan._kernels import _fuse\n"
            "a = xp.asarray(np.ones(64, np.float32)); xp.synchronize(); xp.reset_runtime_stats()\n"
            "y = xp.sqrt(xp.abs(xp.sin(a) * 3.0 + a) + 1.0)\n"
            "print(_fuse.enabled(), xp.runtime_stats()['dispatches'])\n")
    env = dict(os.environ, ARRAY_API_VULKAN_FUSION="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "6"]


def test_another_thread_writing_an_operand_records_the_held_ops_first():
    x = xp.asarray(np.arange(8, dtype=np.float32))
    xp.synchronize()
    y = x * 2.0 + 1.0                  # held by this thread
    t = threading.Thread(target=lambda: x.__setitem__(0, 100.0))
    t.start()
    t.join()
    z = xp.exp(x * 0.0)                # held: reads the new x
    np.testing.assert_array_equal(host(y), np.arange(8, dtype=np.float32) * 2 + 1)
    assert float(x[0]) == 100.0
    np.testing.assert_array_equal(host(z), np.ones(8, np.float32))


def test_another_threads_unrelated_work_does_not_cut_a_chain():
    a = xp.asarray(np.ones(64, np.float32))
    b = xp.asarray(np.ones(32, np.float32))
    xp.synchronize()
    xp.reset_runtime_stats()
    y = xp.sin(a) * 2.0
    t = threading.Thread(target=lambda: host(b + 1.0))
    t.start()
    t.join()
    y = xp.sqrt(y + 1.0)
    s = xp.runtime_stats()
    assert s["fused_kernels"] == 1 and s["fused_ops"] == 4
    np.testing.assert_allclose(host(y), np.sqrt(np.sin(np.float32(1)) * 2 + 1), rtol=1e-6)


def test_row_broadcast_in_three_dimensions_and_reversed_views():
    x = np.arange(2 * 3 * 5, dtype=np.float32).reshape(2, 3, 5)
    a = xp.asarray(x)
    row = xp.asarray(np.linspace(0, 1, 5, dtype=np.float32))
    mid = xp.asarray(np.arange(3, dtype=np.float32).reshape(3, 1))

    def fn(a, row, mid):
        y = xp.maximum(a * row + mid, 2.0)
        return y * a[:, ::2, :].shape[0], xp.flip(a, axis=2) - y   # (a reversed view: unfused)

    (r, f), d1, _ = both(fn, a, row, mid)
    y = np.maximum(x * np.linspace(0, 1, 5, dtype=np.float32) + np.arange(3, dtype=np.float32).reshape(3, 1), 2)
    np.testing.assert_array_equal(r, y * 2)
    np.testing.assert_array_equal(f, x[:, :, ::-1] - y)


def test_threshold_per_device_kind(monkeypatch):
    # GPUs hold from MIN_ELEMENTS_GPU elements, CPU devices (lavapipe) from MIN_ELEMENTS_CPU;
    # MIN_ELEMENTS, where set (the environment variable), is the threshold on every device
    from types import SimpleNamespace

    monkeypatch.setattr(_fuse, "MIN_ELEMENTS", None)
    gpu, cpu = SimpleNamespace(kind="discrete"), SimpleNamespace(kind="cpu")
    assert _fuse.min_elements(gpu) == _fuse.MIN_ELEMENTS_GPU > _fuse.MIN_ELEMENTS_CPU
    assert _fuse.min_elements(cpu) == _fuse.MIN_ELEMENTS_CPU
    dev = xp.asarray(1.0).device
    want = _fuse.MIN_ELEMENTS_CPU if _fuse._launch.on_cpu(dev) else _fuse.MIN_ELEMENTS_GPU
    assert _fuse.min_elements(dev) == want
    monkeypatch.setattr(_fuse, "MIN_ELEMENTS", 12)
    assert _fuse.min_elements(gpu) == _fuse.min_elements(cpu) == 12


def test_warmup_runs_the_fused_chain(monkeypatch):
    # warmup() holds x * 2.0 + 1.0 per float dtype at the device's own threshold, with the first
    # op after a host wait recorded at once as by default: one fused kernel each
    monkeypatch.setattr(_fuse, "MIN_ELEMENTS", None)
    monkeypatch.setattr(_fuse, "EAGER", "wait")
    xp.synchronize()
    xp.reset_runtime_stats()
    xp.warmup()
    assert xp.runtime_stats()["fused_kernels"] >= 1


def test_small_results_are_not_held(monkeypatch):
    monkeypatch.setattr(_fuse, "MIN_ELEMENTS", 1000)

    def dispatches(n):
        a = xp.asarray(np.ones(n, np.float32))
        xp.synchronize()
        xp.reset_runtime_stats()
        y = xp.sqrt(xp.abs(xp.sin(a) * 3.0 + a) + 1.0)
        host(y)
        return xp.runtime_stats()["dispatches"]

    assert dispatches(64) == 6  # below the threshold: a dispatch per op (compiled plans)
    assert dispatches(4096) == 1


def test_eager_first_op(monkeypatch):
    """From an idle GPU the first op is recorded and submitted at once; the ops after it, made
    while the GPU is busy, are held and fused, reading its result. Values stay bit for bit."""
    monkeypatch.setattr(_fuse, "EAGER", True)
    a = xp.asarray(np.linspace(-3, 3, 4099, dtype=np.float32))
    xp.synchronize()
    dev = a._alloc.device
    calls = []

    def idle_once(self):  # idle for the first op only: later ones find the GPU busy
        calls.append(1)
        return len(calls) == 1

    monkeypatch.setattr(type(dev), "gpu_idle", idle_once)
    (h,), d1, d2 = both(chain5, a)  # (both() compares the bits)
    assert (d1, d2) == (2, 6)  # sin at once, then the other five as one kernel; unfused: six
    assert len(calls) == 2  # asked once per queue start: sin (idle), then multiply (busy)


def test_eager_after_a_wait_takes_the_first_op_only(monkeypatch):
    """EAGER "wait" (the default): the first op after a synchronize is recorded and submitted
    at once; the rest of the chain is held and fused, whether or not the GPU is idle."""
    monkeypatch.setattr(_fuse, "EAGER", "wait")
    a = xp.asarray(np.linspace(-3, 3, 4099, dtype=np.float32))
    dev = a._alloc.device
    monkeypatch.setattr(dev._rec, "kick_after_wait", True)
    monkeypatch.setattr(type(dev), "gpu_idle", lambda self: True)  # (ignored in this mode)
    (h,), d1, d2 = both(chain5, a)
    assert (d1, d2) == (2, 6)
    xp.synchronize()
    xp.reset_runtime_stats()
    monkeypatch.setattr(dev._rec, "kick_after_wait", False)  # no wait flag: everything held
    xp.synchronize()
    b = chain5(a)
    xp.synchronize()
    assert xp.runtime_stats()["dispatches"] == 1 and bits(b).tobytes() == h.tobytes()


def test_a_first_op_with_company_is_held_next_time(monkeypatch):
    """EAGER "wait": a first op after a synchronize that more ops of its shape followed is held
    from then on, so that a chain synchronised after every call is one dispatch; one that was
    alone is recorded at once again (a + b then a synchronize), and so is a held one found
    alone at the flush."""
    monkeypatch.setattr(_fuse, "EAGER", "wait")
    a = xp.asarray(np.linspace(-3, 3, 4099, dtype=np.float32))
    b = xp.asarray(np.linspace(1, 2, 4099, dtype=np.float32))
    dev = a._alloc.device
    monkeypatch.setattr(dev._rec, "kick_after_wait", True)
    with unfused():
        want = bits(chain5(a)).tobytes()
    got = []
    for _ in range(3):
        xp.synchronize()
        xp.reset_runtime_stats()
        r = chain5(a)
        xp.synchronize()
        got.append((xp.runtime_stats()["dispatches"], xp.runtime_stats()["fusion_eager_ops"]))
        assert bits(r).tobytes() == want
    assert got == [(2, 1), (1, 0), (1, 0)]  # sin at once, then the six as one kernel
    for _ in range(3):
        xp.synchronize()
        xp.reset_runtime_stats()
        r = a + b
        xp.synchronize()
        assert xp.runtime_stats()["fusion_eager_ops"] == 1
    np.testing.assert_array_equal(host(r), host(a) + host(b))
    eager = []
    for _ in range(2):  # sin alone now: held (learned above), found alone, then at once
        xp.synchronize()
        xp.reset_runtime_stats()
        r = xp.sin(a)
        xp.synchronize()
        eager.append(xp.runtime_stats()["fusion_eager_ops"])
    assert eager == [0, 1]


@pytest.mark.skipif(not computes_natively("int8", "bool"), reason="needs int8 and bool")
def test_held_calls_replay_their_layouts_plans(monkeypatch):
    """The second and later calls of a layout fusion holds take the spec layer's hold plan
    (_fuse.hold_plan): scalars of each kind, a broadcast row, a strided view, int8 wrapping
    and a select, on new values each round, bit for bit as unfused."""
    monkeypatch.setattr(_fuse, "HOLD_PLANS", True)
    rng = np.random.default_rng(7)

    def fn(x, row, t, k):
        y = (x + 1.5) * row - t          # float scalar, broadcast row, transposed view
        z = xp.where(y > 0.0, y, -y)     # select
        w = (k + 100) * 3                # int8 wraps between ops
        return xp.sqrt(z + 1.0), w, z > 2.0

    for _ in range(3):
        x = rng.standard_normal((64, 48)).astype(np.float32)
        row = rng.standard_normal(48).astype(np.float32)
        t = rng.standard_normal((48, 64)).astype(np.float32)
        k = rng.integers(-128, 128, (64, 48)).astype(np.int8)
        (r, w, m), d1, d2 = both(fn, xp.asarray(x), xp.asarray(row), xp.asarray(t).T, xp.asarray(k))
        assert d1 == 1 and d2 > 2  # (both chains have one shape: one kernel)
        y = (x + np.float32(1.5)) * row - t.T
        np.testing.assert_allclose(r, np.sqrt(np.abs(y) + 1), rtol=1e-6)
        np.testing.assert_array_equal(w, ((k + np.int8(100)) * np.int8(3)).astype(np.int8))
    args = xp.asarray(x), xp.asarray(row), xp.asarray(t).T, xp.asarray(k)
    host(fn(*args)[0])  # (both() ends unfused, which drops the plans: made again here)
    assert xp.multiply._held and xp.add._held and xp.subtract._held
    np.testing.assert_array_equal(host(fn(*args)[0]), r)


@pytest.mark.parametrize("dt", ["int8", "int16", "float32", "float64"])
def test_held_calls_read_views_at_their_offsets(monkeypatch, dt):
    """Operands that start inside their allocation (x[1:], a row of a matrix) are read from their
    first element, by the general path and by hold plans (whose leaves carry the byte offset
    fusion's launch adds to the allocation's address), for dtypes of 1 to 8 bytes."""
    if not computes_natively(dt):
        pytest.skip(f"{dt} is not computed natively on this device")
    monkeypatch.setattr(_fuse, "HOLD_PLANS", True)
    rng = np.random.default_rng(11)
    for _ in range(3):  # the first call takes the general path, the later ones the hold plans
        x = rng.integers(-50, 50, (5, 301)).astype(dt)
        y = rng.integers(-50, 50, 302).astype(dt)
        a, b = xp.asarray(x), xp.asarray(y)
        r = (a[3, 1:] + b[2:]) * a[1, :-1] - b[1:-1]
        expect = (x[3, 1:] + y[2:]) * x[1, :-1] - y[1:-1]
        np.testing.assert_array_equal(host(r), expect)
    assert xp.add._held and xp.multiply._held and xp.subtract._held


def test_the_unrolled_kernel_gives_the_same_bits(monkeypatch):
    """GPUs' fused kernels load every element's inputs first and unroll their loops
    (_fuse.UNROLL); lavapipe's keep them rolled. The unrolled form, forced here, gives the
    same bits as unfused: chains of mixed dtypes, scalars, selects, broadcast and strided
    operands, and a held reduction."""
    monkeypatch.setattr(_fuse, "_unroll", lambda dev: True)
    monkeypatch.setattr(_fuse, "_layouts", {})
    monkeypatch.setattr(_fuse, "_cache", {})
    test_five_op_chain_is_one_dispatch_with_the_same_bits()
    if computes_natively("int8", "bool"):  # (its skipif does not apply to a direct call)
        test_held_calls_replay_their_layouts_plans(monkeypatch)
    test_broadcasting_and_strided_operands_fuse()
    test_row_broadcast_in_three_dimensions_and_reversed_views()
    if computes_natively("int8", "int16", "bool"):
        test_small_integers_wrap_between_ops_as_unfused()
    x = np.linspace(-3, 3, 70001, dtype=np.float32)  # (not a multiple of 4 elements a lane)
    a = xp.asarray(x)
    (s,), d1, _ = both(lambda a: xp.sum(xp.exp(a) * a), a)
    assert d1 == 2  # the chain with its partials, then the second pass
    np.testing.assert_allclose(s, math.fsum((np.exp(x.astype(np.float64)) * x).tolist()), rtol=1e-5)
    assert any(k[0][3] for k in _fuse._cache)


# -- reductions with a fused elementwise prologue (_fuse.hold_reduce) ------------------------

def _stats(*keys):
    s = xp.runtime_stats()
    return tuple(s[k] for k in keys)


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_sum_of_a_product_is_one_fused_kernel(dt):
    if not has(dt):
        pytest.skip(f"no {dt}")
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((2, 3, 33335)).astype(dt)
    a, b = xp.asarray(x), xp.asarray(y)
    xp.synchronize()
    xp.reset_runtime_stats()
    s = xp.sum(a * b)
    got = float(s)
    fused, ops, unf = _stats("fused_kernels", "fused_ops", "fusion_unfused")
    assert (fused, ops, unf) == (1, 2, 0)  # the multiply and the sum, in one kernel
    want = math.fsum((x.astype(np.float64) * y).ravel())
    assert s.shape == () and s.dtype == getattr(xp, dt)
    assert abs(got - want) <= (1e-5 if dt == "float32" else 1e-12) * np.abs(x * y).sum()
    assert float(xp.sum(a * b)) == got  # the same bits every run
    assert not xp.runtime_stats()["host_fallbacks"]


def test_mean_of_squared_deviations_fuses_the_chain():
    rng = np.random.default_rng(2)
    x = (rng.standard_normal((64, 1000)) + 3).astype(np.float32)
    a = xp.asarray(x)
    m = float(xp.mean(a))
    xp.synchronize()
    xp.reset_runtime_stats()
    v = xp.mean((a - m) ** 2, keepdims=True)
    assert v.shape == (1, 1)
    assert _stats("fused_kernels", "fused_ops") == (1, 3)  # subtract, power, mean
    np.testing.assert_allclose(host(v), np.mean((x.astype(np.float64) - m) ** 2, keepdims=True),
                               rtol=1e-5)


@pytest.mark.parametrize("op", ["min", "max", "prod", "sum", "mean"])
def test_held_reductions_match_the_unfused_ones(op):
    x = np.linspace(-2, 2, 5001, dtype=np.float32)
    x[1234] = np.nan if op in ("min", "max") else x[1234]
    a = xp.asarray(x)

    c = 1e-4 if op == "prod" else 0.5  # (a product near 1: no order-dependent overflow)

    def fn(v):
        return getattr(xp, op)(v * c + 1.0)

    # min/max exactly; a product's rounding errors add up with its order (n * eps at worst)
    rtol = 0 if op in ("min", "max") else 1e-4
    (h,), d1, d2 = _both_close(fn, a, rtol=rtol)
    ref = getattr(np, op)(x * np.float32(c) + np.float32(1.0))
    np.testing.assert_allclose(h, ref, rtol=rtol or 1e-7, equal_nan=True)


def _both_close(fn, *args, rtol):
    """fn(*args) fused and unfused: values equal up to the reduction's order."""
    xp.synchronize()
    xp.reset_runtime_stats()
    h1 = host(fn(*args))
    d1 = xp.runtime_stats()["fused_kernels"]
    with unfused():
        h2 = host(fn(*args))
    np.testing.assert_allclose(h1, h2, rtol=rtol, equal_nan=True)
    assert d1 == 1
    return (h1,), d1, None


def test_a_held_operand_the_caller_keeps_is_still_written():
    x = np.arange(4096, dtype=np.float32)
    a = xp.asarray(x)
    t = a * 2.0
    s = xp.sum(t)
    assert float(s) == float(np.sum(x * 2))
    np.testing.assert_array_equal(host(t), x * 2)


def test_held_reduction_when_the_chain_cannot_compile(monkeypatch):
    """A chain the generator refuses runs unfused: the reduction then reads the written
    operand, with the same value."""
    monkeypatch.setattr(_fuse, "_build", lambda dev, sig: None)
    monkeypatch.setattr(_fuse, "_cache", {})
    x = np.linspace(0, 1, 3000, dtype=np.float32)
    a = xp.asarray(x)
    xp.synchronize()
    xp.reset_runtime_stats()
    s = xp.sum(a * a)
    assert abs(float(s) - math.fsum((x.astype(np.float64) ** 2))) < 1e-3
    assert xp.runtime_stats()["fused_kernels"] == 0


def test_integer_and_axis_reductions_are_not_held():
    x = np.arange(3000, dtype=np.int32).reshape(30, 100)
    a = xp.asarray(x)
    assert int(xp.sum(a * 2)) == int(np.sum(x * 2))
    np.testing.assert_array_equal(host(xp.sum(a * 2, axis=1)), np.sum(x * 2, axis=1))
    f = xp.asarray(x.astype(np.float32))
    np.testing.assert_allclose(host(xp.max(f + 1.0, axis=0)), np.max(x + 1.0, axis=0))


def test_held_reduction_partials_cover_a_two_dimensional_grid():
    """Past 65535 workgroups the runtime's 1-D grid has rows of equal length, so a few more
    groups than the elements need: each writes a partial, and all must be reduced (else the
    sum loses elements and writes past its buffer). test_engine's 512 MiB array sums through
    this path on lavapipe; here, the count itself."""
    per_group = 256 * _fuse.ELEMS
    for g in (1, 65535, 65536, 65537, 131071, 200001):
        rows = -(-g // 65535)
        launched = g if g <= 65535 else rows * -(-g // rows)
        assert _fuse._groups(g * per_group) == launched
        assert _fuse._groups(g * per_group - per_group + 1) == launched
    assert _fuse._groups(65537 * per_group) == 65538
