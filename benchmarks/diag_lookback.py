"""The single sweep's look-back polling (issue 8): sort and argsort of float32 16M with
_sort.LOOKBACK_POLL_GPU 0 (atomicAdd of 0) and 1 (coherent volatile loads), alternating over 3
rounds, each the median GPU time of synchronised calls and checked against numpy. Not a test.

    python3 benchmarks/diag_lookback.py
"""
import sys, statistics, numpy as np
sys.path.insert(0, "benchmarks")
from _common import ours_gpu
import array_api_vulkan as xp
from array_api_vulkan._kernels import _sort
h = np.random.default_rng(0).standard_normal(1 << 24).astype(np.float32)
x = xp.asarray(h)
ws = np.sort(h); wa = np.argsort(h, kind="stable")
res = {0: [], 1: []}
for rnd in range(3):
    for poll in (0, 1):
        _sort.LOOKBACK_POLL_GPU = poll
        ok = np.array_equal(np.asarray(xp.sort(x)), ws) and np.array_equal(np.asarray(xp.argsort(x)), wa)
        ts = [ours_gpu(lambda: [xp.sort(x)]) for _ in range(8)]
        ta = [ours_gpu(lambda: [xp.argsort(x)]) for _ in range(8)]
        res[poll].append((round(statistics.median(ts[2:]) * 1e6, 1), round(statistics.median(ta[2:]) * 1e6, 1), ok))
for k, v in res.items():
    print("LOOKBACK_POLL_GPU", k, "(sort us, argsort us, correct) by round:", v)
