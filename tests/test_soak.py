"""A short soak: tens of thousands of small ops keep memory flat (pool, pipelines, host RSS)."""
import resource

import pytest

import array_api_vulkan as xp

# Memory held over many float32 ops: the same whatever features are masked.
pytestmark = pytest.mark.feature_independent


def rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_30k_small_ops_keep_memory_flat():
    x = xp.ones(1000, dtype=xp.float32)
    for _ in range(2000):  # warm-up: pipelines, arenas, batches
        x = x * 1.0001 + 0.5
    float(x[0])
    before = xp.runtime_stats()
    rss = rss_mib()
    for _ in range(15000):
        x = x * 1.0001 + 0.5
    float(x[0])
    after = xp.runtime_stats()
    assert after["pool_bytes_reserved"] == before["pool_bytes_reserved"]
    assert after["pool_bytes_in_use"] == before["pool_bytes_in_use"]
    assert after["pipelines_created"] == before["pipelines_created"]
    assert after["submits"] > before["submits"]  # it really ran, in several batches
    assert rss_mib() - rss < 16, "host memory grew over 30k ops"


def test_threads_20k_small_ops_keep_memory_flat():
    import threading

    def chain(n):
        x = xp.ones(1000, dtype=xp.float32)
        for _ in range(n):
            x = x * 1.0001 + 0.5
        float(x[0])

    def in_threads(n):
        threads = [threading.Thread(target=chain, args=(n,)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    # warm-up: as many ops as measured, so that fused chains (cut every 32 ops, and at the end)
    # have all been seen
    in_threads(2500)
    xp.synchronize()
    before = xp.runtime_stats()
    rss = rss_mib()
    in_threads(2500)  # 4 threads x 2 ops x 2500
    xp.synchronize()
    after = xp.runtime_stats()
    assert after["pool_bytes_reserved"] == before["pool_bytes_reserved"]
    assert after["pool_bytes_in_use"] == before["pool_bytes_in_use"]
    assert after["pipelines_created"] == before["pipelines_created"]
    ops = after["dispatches"] - after["fused_kernels"] + after["fused_ops"]
    assert ops - (before["dispatches"] - before["fused_kernels"] + before["fused_ops"]) >= 20000
    assert rss_mib() - rss < 16, "host memory grew over 20k ops in 4 threads"
