"""The runtime layer on its own: flush points, barrier placement, pool reuse and lifetimes, stats.

These tests also run under the Khronos validation layer with synchronization validation
(tests/test_validation.py), where any validation message fails them.
"""
import gc
import os

import numpy as np
import pytest

from array_api_vulkan import _runtime as rt
from array_api_vulkan._runtime import device as device_mod
from conftest import FEATURES, no_kick_after_wait, run_python


@pytest.fixture
def dev(monkeypatch):
    d = rt.default_device()
    no_kick_after_wait(monkeypatch, d)
    rt.reset_runtime_stats()
    return d


def copy_push(dst, src, n):
    """The push words of the runtime's word copy: both device addresses, then the count."""
    return np.array([dst.address & 0xFFFFFFFF, dst.address >> 32, src.address & 0xFFFFFFFF,
                     src.address >> 32, n], np.uint32)


def copy(dev, dst, src, nwords=None):
    """One dispatch of the runtime's word copy: dst <- src."""
    n = nwords if nwords is not None else src.nbytes // 4
    dev.launch("copy_words", (), [dst, src], [True, False], copy_push(dst, src, n), n)


def stat(key):
    return rt.runtime_stats()[key]


def test_launch_addressed_rejects_bad_lists(dev):
    """Device.launch_addressed (fusion's launch: the runtime adds each buffer's address and byte
    offset to the push words) raises ValueError, recording nothing, for a list it cannot take;
    tests/test_fusion.py runs it for every fused kernel."""
    a, b = dev.upload(np.zeros(8, np.float32)), dev.upload(np.zeros(8, np.float32))
    before = stat("dispatches")
    with pytest.raises(ValueError, match="offset"):
        dev.launch_addressed("copy_words", [a, b], [0], 1, 8, [], 8)        # one offset for two
    with pytest.raises(ValueError, match="offset"):
        dev.launch_addressed("copy_words", [a, b], [0, 0], 3, 8, [], 8)     # more reads than buffers
    with pytest.raises(ValueError, match="push words"):
        dev.launch_addressed("copy_words", [a, b], [0, 0], 1, 8, [0] * 80, 8)
    with pytest.raises(ValueError, match="offset"):
        dev.launch_addressed("copy_words", [a] * 17, [0] * 17, 1, 8, [], 8)  # past 16 buffers
    assert stat("dispatches") == before


def test_upload_download_round_trip_all_dtypes(dev):
    for dt in (np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
               np.int64, np.uint64, np.float32, np.float64, np.complex64, np.complex128):
        host = (np.arange(37) % 5).astype(dt)
        a = dev.upload(host)
        np.testing.assert_array_equal(dev.download(a, dt, (37,), (1,), 0), host)


def test_download_strided_views(dev):
    host = np.arange(60, dtype=np.int16).reshape(3, 4, 5)
    a = dev.upload(host)
    view = host[::-1, 1::2, ::-2]
    strides = tuple(s // 2 for s in view.strides)
    offset = (view.__array_interface__["data"][0] - host.__array_interface__["data"][0]) // 2
    np.testing.assert_array_equal(dev.download(a, np.int16, view.shape, strides, offset), view)


def test_write_keeps_bytes_past_its_end(dev):
    a = dev.upload(np.arange(7, dtype=np.int8))
    dev.write(a, np.array([9, 8, 7], np.int8))
    np.testing.assert_array_equal(dev.download(a, np.int8, (7,), (1,), 0), [9, 8, 7, 3, 4, 5, 6])


def test_nothing_is_submitted_until_the_host_needs_data(dev):
    a = dev.upload(np.arange(256, dtype=np.float32))
    b, c = dev.alloc(1024), dev.alloc(1024)
    copy(dev, b, a)
    copy(dev, c, b)
    assert stat("submits") == 0
    assert stat("copies") == 1  # the upload: a buffer copy from staging
    assert stat("dispatches") == 2  # the two copy kernels
    out = dev.download(c, np.float32, (256,), (1,), 0)
    assert stat("submits") == 1
    np.testing.assert_array_equal(out, np.arange(256, dtype=np.float32))


def test_synchronize_submits_pending_work(dev):
    a = dev.alloc(64)
    dev.write(a, np.zeros(16, np.float32))
    assert stat("submits") == 0
    rt.synchronize()
    assert stat("submits") == 1
    rt.synchronize()  # nothing pending: no empty submit
    assert stat("submits") == 1


def test_count_threshold_submits_without_waiting(dev, monkeypatch):
    monkeypatch.setattr(dev._rec, "max_pending_dispatches", 8)
    a = dev.upload(np.arange(64, dtype=np.float32))
    bufs = [dev.alloc(256) for _ in range(20)]
    for b in bufs:
        copy(dev, b, a)
    assert stat("submits") == 2  # 21 dispatches: two full batches of 8, 5 still pending
    np.testing.assert_array_equal(dev.download(bufs[-1], np.float32, (64,), (1,), 0), np.arange(64))
    assert stat("submits") == 3


def test_early_submit_when_the_gpu_is_idle(dev, monkeypatch):
    monkeypatch.setattr(dev._rec, "early_dispatches", 4)
    a = dev.upload(np.arange(64, dtype=np.float32))
    rt.synchronize()
    rt.reset_runtime_stats()
    bufs = [dev.alloc(256) for _ in range(4)]
    for b in bufs[:3]:
        copy(dev, b, a)
    assert stat("submits") == 0
    copy(dev, bufs[3], bufs[2])  # the 4th pending op, nothing in flight: submitted at once
    assert stat("submits") == 1
    assert dev._rec.batch is None and dev._rec.inflight == 1
    np.testing.assert_array_equal(dev.download(bufs[3], np.float32, (64,), (1,), 0), np.arange(64))


def test_gpu_seconds_are_counted_while_timing_is_on(dev):
    n = 1 << 20
    a, b = dev.alloc(4 * n), dev.alloc(4 * n)
    rt.synchronize()
    rt.reset_runtime_stats()
    copy(dev, b, a, n)
    rt.synchronize()
    assert stat("gpu_seconds") == 0  # off by default: timestamps cost every synchronised call
    assert rt.set_gpu_timing(True) is False
    try:
        if not dev._ensure().timestamps:
            pytest.skip("the queue has no timestamps")
        for _ in range(4):
            copy(dev, b, a, n)
        rt.synchronize()
        assert 0 < stat("gpu_seconds") < 10
    finally:
        assert rt.set_gpu_timing(False) is True
    assert not dev._ensure().timestamps
    g = stat("gpu_seconds")
    copy(dev, b, a, n)
    rt.synchronize()
    assert stat("gpu_seconds") == g


@pytest.mark.skipif(device_mod.HAZARDS_PER_BUFFER, reason="counts are for per-allocation hazards")
def test_barriers_only_between_dependent_ops(dev):
    a = dev.upload(np.arange(64, dtype=np.float32))
    rt.synchronize()
    b, c, d, e = (dev.alloc(256) for _ in range(4))
    rt.reset_runtime_stats()
    copy(dev, b, a)  # first op after a wait: one barrier orders it after earlier batches
    copy(dev, c, a)  # reads what b's copy read: no hazard
    assert stat("barriers") == 1
    copy(dev, d, b)  # reads b, written above: read after write
    assert stat("barriers") == 2
    copy(dev, e, a)  # independent of everything since that barrier
    assert stat("barriers") == 2
    copy(dev, a, c)  # writes a, which the op before read: write after read
    assert stat("barriers") == 3
    copy(dev, a, e)  # writes a again: write after write
    assert stat("barriers") == 4
    out = dev.download(d, np.float32, (64,), (1,), 0)
    np.testing.assert_array_equal(out, np.arange(64))


def test_dependent_chain_is_correct(dev):
    n = 1 << 14
    host = np.random.default_rng(0).integers(0, 1 << 30, n, dtype=np.uint32)
    a = dev.upload(host)
    bufs = [a] + [dev.alloc(4 * n) for _ in range(50)]
    for src, dst in zip(bufs, bufs[1:]):
        copy(dev, dst, src)
    np.testing.assert_array_equal(dev.download(bufs[-1], np.uint32, (n,), (1,), 0), host)
    assert stat("barriers") >= 50


def test_large_dispatch_uses_a_2d_grid(dev):
    n = 65535 * 256 + 1000  # more groups than one grid dimension allows
    host = np.arange(n, dtype=np.uint32)
    a = dev.upload(host)
    b = dev.alloc(4 * n)
    copy(dev, b, a)
    out = dev.download(b, np.uint32, (n,), (1,), 0)
    np.testing.assert_array_equal(out[-5:], host[-5:])
    assert out.sum(dtype=np.uint64) == host.sum(dtype=np.uint64)


def test_pool_reuses_freed_blocks(dev):
    a = dev.alloc(1000)
    key = (a.arena, a.offset)
    del a
    gc.collect()
    dev.synchronize()
    b = dev.alloc(1000)
    assert (b.arena, b.offset) == key
    reserved = stat("pool_bytes_reserved")
    for _ in range(200):
        x = dev.upload(np.ones(4096, np.float32))
        del x
    dev.synchronize()
    assert stat("pool_bytes_reserved") == reserved  # steady state: no growth


def test_block_freed_while_pending_work_reads_it_is_reused_in_order(dev):
    """Stream-ordered reuse: the block comes back at once, and the next write to it waits
    (by a barrier) for the pending op that still reads it."""
    a = dev.upload(np.arange(256, dtype=np.float32))
    b = dev.alloc(1024)
    copy(dev, b, a)  # pending: reads a
    key = (a.arena, a.offset)
    del a
    gc.collect()
    c = dev.alloc(1024)
    assert (c.arena, c.offset) == key
    barriers = stat("barriers")
    dev.write(c, np.full(256, 7, np.float32))  # must not clobber a before the copy has read it
    assert stat("barriers") == barriers + 1
    np.testing.assert_array_equal(dev.download(b, np.float32, (256,), (1,), 0), np.arange(256))
    np.testing.assert_array_equal(dev.download(c, np.float32, (256,), (1,), 0), np.full(256, 7))


def test_staging_block_is_not_reused_before_its_batch_finishes(dev):
    """The host writes staging memory directly, so only finished work may give it back."""
    a = dev.upload(np.arange(256, dtype=np.float32))  # pending: a copy reads its staging block
    gc.collect()
    stage_blocks = {(arena, off) for _, arena, off, _ in dev.upload_staging.deferred}
    assert stage_blocks  # the upload's staging block is waiting for its batch
    s = dev.upload_staging.alloc(1024)
    assert (s.arena, s.offset) not in stage_blocks
    np.testing.assert_array_equal(dev.download(a, np.float32, (256,), (1,), 0), np.arange(256))


def test_pool_stats_track_use(dev):
    before = stat("pool_bytes_in_use")
    a = dev.alloc(1 << 20)
    assert stat("pool_bytes_in_use") == before + (1 << 20)
    assert stat("pool_bytes_reserved") >= stat("pool_bytes_in_use")
    del a
    gc.collect()
    dev.synchronize()
    dev.pool.reclaim()
    assert stat("pool_bytes_in_use") == before


def test_array_larger_than_a_buffer_raises_memory_error(dev):
    with pytest.raises(MemoryError, match="largest buffer"):
        dev.alloc(dev._core.max_buffer_bytes + 16)


def test_allocation_beyond_the_arena_size_gets_its_own_buffer(dev):
    big = dev.pool.max_arena + (1 << 20)
    a = dev.alloc(big)
    assert a.arena.size >= big and a.offset == 0
    assert a.address == a.arena.buffer.address


def test_pipelines_are_keyed_by_code_and_constants_not_memory(dev):
    """One pipeline serves every buffer: kernels reach memory through device addresses."""
    a = dev.upload(np.arange(64, dtype=np.float32))
    copy(dev, dev.alloc(256), a)  # the pipeline exists from here on
    dev.synchronize()
    rt.reset_runtime_stats()
    # Blocks in new arenas (each larger than what is left) and the old one.
    bufs = [dev.alloc(256) for _ in range(50)] + [dev.alloc(dev.pool.next_arena) for _ in range(2)]
    assert len({b.arena.serial for b in bufs}) >= 3
    for b in bufs:
        copy(dev, b, a, 64)
    dev.synchronize()
    assert stat("pipelines_created") == 0
    assert stat("dispatches") == len(bufs)


def test_pipelines_made_again_from_each_source_compute_the_same():
    """Device.remake_pipelines (the diagnostic of benchmarks/diag_remake.py) replaces every
    pipeline by one made again from the named source; later work records with it, unchanged.
    In a process of its own: it remakes every pipeline the process has, and on lavapipe each is
    a compile (after the rest of the suite, hundreds of them, some of them large)."""
    code = ("import sys\n"
            f"sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})\n"
            "import numpy as np\n"
            "from array_api_vulkan import _runtime as rt\n"
            "from test_runtime import copy\n"
            "dev = rt.default_device()\n"
            "h = np.arange(64, dtype=np.float32)\n"
            "a = dev.upload(h)\n"
            "copy(dev, dev.alloc(256), a)\n"
            "dev.synchronize()\n"
            "for source in ('same', 'fresh', 'blob', 'null'):\n"
            "    assert dev.remake_pipelines(source) >= 1\n"
            "    b = dev.alloc(256)\n"
            "    copy(dev, b, a, 64)\n"
            "    np.testing.assert_array_equal(dev.download(b, np.float32, (64,), (1,), 0), h)\n"
            "try:\n"
            "    dev.remake_pipelines('disk')\n"
            "except ValueError as e:\n"
            "    assert 'source' in str(e)\n"
            "    print('ok')\n")
    assert run_python(code).strip().endswith("ok")


def test_own_arenas_give_every_allocation_a_buffer_of_its_own():
    """ARRAY_API_VULKAN_ARENAS=own (a debugging aid for the validation layer's GPU-assisted
    checks): every allocation its own buffer, so an access past an array's end leaves it."""
    code = ("from array_api_vulkan import _runtime as rt\n"
            "d = rt.default_device()\n"
            "a = [d.alloc(n) for n in (16, 100, 4096, 1 << 20)]\n"
            "print(len({b.arena.serial for b in a}), [b.offset for b in a])\n")
    out = run_python(code, ARRAY_API_VULKAN_ARENAS="own")
    assert out.split("[")[0].strip() == "4" and "[0, 0, 0, 0]" in out


def test_timeline_semaphore_waits_give_the_same_results():
    """ARRAY_API_VULKAN_TIMELINE=1: batches signal a timeline semaphore instead of fences and
    waits poll its counter; a mix of synchronised, background-submitted and host-read batches
    gives the same results, in a process where the device reports it uses the timeline."""
    code = ("import numpy as np, array_api_vulkan as xp\n"
            "from array_api_vulkan import _runtime as rt\n"
            "h = np.arange(1 << 18, dtype=np.float32)\n"
            "a = xp.asarray(h)\n"
            "acc = 0.0\n"
            "for i in range(200):\n"
            "    b = a * 2.0 + float(i)\n"
            "    if i % 7 == 0: xp.synchronize()\n"
            "    if i % 31 == 0: acc += float(xp.sum(b))\n"
            "want = sum(float(np.sum(h * 2.0 + i, dtype=np.float64)) for i in range(0, 200, 31))\n"
            "print(rt.default_device()._core.timeline, abs(acc - want) / want < 1e-6,\n"
            "      np.array_equal(np.asarray(b), h * 2.0 + 199.0))\n")
    out = run_python(code, timeout=300, ARRAY_API_VULKAN_TIMELINE="1")
    assert out.split() == ["True", "True", "True"], out


def test_stats_reset_and_keys(dev):
    s = rt.runtime_stats()
    for key in ("submits", "dispatches", "barriers", "pipelines_created", "bytes_uploaded",
                "bytes_downloaded", "pool_bytes_reserved", "pool_bytes_in_use", "host_fallbacks"):
        assert key in s
    dev.upload(np.zeros(10, np.float64))
    assert stat("bytes_uploaded") == 80
    rt.count_fallback("sort")
    rt.count_fallback("sort")
    assert rt.runtime_stats()["host_fallbacks"] == {"sort": 2}
    rt.reset_runtime_stats()
    s = rt.runtime_stats()
    assert s["bytes_uploaded"] == 0 and s["host_fallbacks"] == {}


def test_devices_best_first_and_lookup():
    devs = rt.devices()
    ranks = [d.rank for d in devs]
    assert ranks == sorted(ranks)
    d = devs[0]
    assert rt.get_device(repr(d)) is d
    assert rt.get_device(d.index) is d
    assert rt.get_device(d.name.split()[0]) in devs
    with pytest.raises(ValueError):
        rt.get_device("vulkan:99")
    assert len({d, rt.get_device(d.index)}) == 1


def test_host_bytes_are_cached_until_a_write(dev):
    a = dev.upload(np.arange(16, dtype=np.int32))
    first = dev.host_bytes(a)
    submits = stat("submits")
    assert dev.host_bytes(a) is first and stat("submits") == submits  # no new read-back
    assert not first.flags.writeable
    dev.write(a, np.full(16, 5, np.int32))  # a recorded write drops the copy
    np.testing.assert_array_equal(dev.host_bytes(a).view(np.int32), np.full(16, 5))
    b = dev.alloc(64)
    copy(dev, a, dev.upload(np.arange(16, dtype=np.int32) * 2))
    np.testing.assert_array_equal(dev.host_bytes(a).view(np.int32), np.arange(16) * 2)
    del b


def test_no_vulkan_driver_gives_a_clear_error():
    import subprocess
    import sys

    env = dict(os.environ, VK_ICD_FILENAMES="/nonexistent.json", VK_DRIVER_FILES="/nonexistent.json")
    r = subprocess.run([sys.executable, "-c", "import array_api_vulkan as xp; xp.ones(3)"],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert "NoVulkanDeviceError: no Vulkan driver could be loaded" in r.stderr
    assert "Segmentation" not in r.stderr


def test_dlpack_export_describes_the_device_region(dev):
    from array_api_vulkan._runtime import _vkcore

    a = dev.upload(np.arange(12, dtype=np.float64))
    cap = dev.dlpack(a, np.float64, (3, 2), (4, 1), 1)
    kind, dev_id, shape, strides, byte_offset, code, bits, data = _vkcore.dlpack_info(cap)
    assert (kind, dev_id) == (7, dev.index)  # kDLVulkan
    assert (shape, strides) == ([3, 2], [4, 1])
    assert byte_offset == a.offset + 8 and (code, bits) == (2, 64) and data != 0
    empty = dev.dlpack(dev.alloc(0), np.int8, (0,), (1,), 0, versioned=False)
    assert _vkcore.dlpack_info(empty)[-1] == 0


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.float32, np.float64])
def test_write_at_an_offset_touches_only_those_bytes(dev, dtype):
    host = np.arange(23).astype(dtype)
    a = dev.upload(host)
    item = np.dtype(dtype).itemsize
    dev.write(a, np.array([100], dtype), 5 * item)
    dev.write(a, np.array([101, 102, 103], dtype), 17 * item)
    want = host.copy()
    want[5], want[17:20] = 100, [101, 102, 103]
    rt.synchronize()
    a.host = None  # read the device, not the cache
    np.testing.assert_array_equal(dev.download(a, dtype, (23,), (1,), 0), want)


@pytest.mark.parametrize("dt", [np.int32, pytest.param(np.int8, marks=pytest.mark.skipif(
    "storage8" not in FEATURES, reason="byte writes without 8-bit storage read the surrounding "
    "words back (test_unaligned_write_without_8bit_storage)"))])
def test_writes_keep_the_host_copy_current(dev, dt):
    a = dev.upload(np.zeros(9, dt))
    dev.host_bytes(a)
    submits = stat("submits")
    for i in range(9):
        dev.write(a, np.array([i], dt), i * np.dtype(dt).itemsize)
        assert dev.host_bytes(a).view(dt)[i] == i  # no read-back: the cache was patched
    assert stat("submits") == submits
    a.host = None
    np.testing.assert_array_equal(dev.host_bytes(a).view(dt), np.arange(9))


def test_a_finished_batch_refuses_more_work(dev):
    a = dev.upload(np.arange(4, dtype=np.float32))
    batch = dev._rec.batch
    dev.synchronize()
    with pytest.raises(RuntimeError, match="already submitted"):
        batch.barrier()
    np.testing.assert_array_equal(dev.download(a, np.float32, (4,), (1,), 0), np.arange(4))


def test_unaligned_write_without_8bit_storage(dev, monkeypatch):
    """Devices without 8-bit storage rewrite the surrounding words instead."""
    monkeypatch.setattr(dev, "supports_int8", False)
    a = dev.upload(np.arange(10, dtype=np.uint8))
    dev.write(a, np.array([200, 201, 202], np.uint8), 3)
    a.host = None
    np.testing.assert_array_equal(dev.download(a, np.uint8, (10,), (1,), 0),
                                  [0, 1, 2, 200, 201, 202, 6, 7, 8, 9])


class FakeCuda:
    """libcuda's five entry points that clocks.hold() uses, over two devices with given UUIDs."""

    def __init__(self, uuids):
        self.uuids = uuids
        self.retained = []

    def cuInit(self, flags):
        return 0

    def cuDeviceGetCount(self, count):
        count._obj.value = len(self.uuids)
        return 0

    def cuDeviceGet(self, dev, ordinal):
        dev._obj.value = ordinal
        return 0

    def cuDeviceGetUuid_v2(self, buf, dev):
        buf.raw = self.uuids[dev.value]
        return 0

    def cuDevicePrimaryCtxRetain(self, ctx, dev):
        self.retained.append(dev.value)
        return 0

    def cuDevicePrimaryCtxRelease_v2(self, dev):
        self.retained.remove(dev.value)
        return 0


def test_clock_hold_retains_the_primary_context_of_the_gpu_with_the_same_uuid(monkeypatch):
    from array_api_vulkan._runtime import clocks

    fake = FakeCuda([b"a" * 16, b"b" * 16])
    monkeypatch.setattr(clocks, "_libcuda", lambda: fake)
    monkeypatch.delenv(clocks.ENV, raising=False)
    h100 = {"vendor_id": clocks.NVIDIA_VENDOR_ID, "name": "NVIDIA H100 80GB HBM3", "uuid": b"b" * 16}
    assert clocks.hold(h100) == "held (CUDA device 1)" and fake.retained == [1]
    clocks.release_all()
    assert fake.retained == []
    assert clocks.hold(dict(h100, uuid=b"c" * 16)) == "off (no CUDA device has this GPU's UUID)"
    geforce = dict(h100, name="NVIDIA GeForce RTX 4090")
    assert clocks.hold(geforce).startswith("off (GeForce")
    monkeypatch.setenv(clocks.ENV, "1")
    assert clocks.hold(geforce) == "held (CUDA device 1)"
    clocks.release_all()
    monkeypatch.setenv(clocks.ENV, "0")
    assert clocks.hold(h100).startswith("off (") and fake.retained == []
    monkeypatch.setenv(clocks.ENV, "auto")
    assert clocks.hold(dict(h100, vendor_id=0x10005)) == "off (not an NVIDIA GPU)"
    monkeypatch.setattr(clocks, "_libcuda", lambda: None)
    assert clocks.hold(h100) == "off (no CUDA driver library)"


def test_runtime_stats_say_whether_each_used_device_holds_its_clocks(dev):
    dev.synchronize()
    held = rt.runtime_stats()["cuda_clock_hold"]
    assert held[repr(dev)] == dev.clock_hold
    if dev.info["vendor_id"] != 0x10DE:
        assert dev.clock_hold == "off (not an NVIDIA GPU)"


@pytest.mark.parametrize("yield_us", ["3000000", "2000"], ids=["yield_only", "yield_then_block"])
def test_waits_that_poll_with_the_core_yielded(yield_us):
    """A wait polls the fence flat out for ARRAY_API_VULKAN_SPIN_US, then with the core yielded
    between polls for ARRAY_API_VULKAN_YIELD_US, then blocks (CPU devices default to neither):
    with no spin, waits of a sort and a product (each far longer than 2 ms on lavapipe) end by
    polling alone (3 s) or by blocking after 2 ms of it, with numpy's results."""
    code = """
import numpy as np, array_api_vulkan as xp
h = np.random.default_rng(4).standard_normal(1 << 18).astype(np.float32)
m = h[:256 * 256].reshape(256, 256)
x, a = xp.asarray(h), xp.asarray(m)
s, p = xp.sort(x), a @ a
xp.synchronize()
assert np.array_equal(np.asarray(s), np.sort(h))
assert np.allclose(np.asarray(p), m.astype(np.float64) @ m, rtol=1e-4, atol=1e-3)
print(xp.runtime_stats()["wait_seconds"] > 0)
"""
    out = run_python(code, timeout=300, ARRAY_API_VULKAN_SPIN_US="0", ARRAY_API_VULKAN_YIELD_US=yield_us)
    assert out.strip().splitlines()[-1] == "True"


def test_host_pointer_maps_host_allocations(dev):
    """Allocation.host_pointer (for diagnostics) is where the host sees a host-visible
    allocation's bytes, which kernels reach at its device address; 0 for device memory."""
    import ctypes

    staged, out = dev.staging.alloc(16), dev.alloc(16)
    assert out.host_pointer == 0 and staged.host_pointer != 0
    words = (ctypes.c_uint32 * 4).from_address(staged.host_pointer)
    words[:] = [7, 8, 9, 10]
    copy(dev, out, staged)
    np.testing.assert_array_equal(dev.host_bytes(out).view(np.uint32), [7, 8, 9, 10])
