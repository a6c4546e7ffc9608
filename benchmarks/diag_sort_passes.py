"""Where a radix sort's GPU time goes, pass by pass (issue 8): sort of 16M int32 keys whose range
needs 1, 2, 3 or 4 of the 8-bit passes (sort_info skips a pass whose digit is the same for every
key), and float32 16M (4 passes), each the median GPU time of synchronised calls
(runtime_stats()["gpu_seconds"]); the differences are the per-pass costs, the 1-pass figure
minus one pass the fixed part (histograms, info). Not a test; prints one JSON object.

    python3 benchmarks/diag_sort_passes.py [--quick]
"""
import statistics

import numpy as np

from _common import emit, ours_gpu, parser, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402


def main():
    args = parser(__doc__, only=False, libs=None).parse_args()
    n = 1 << (16 if args.quick else 24)
    rng = np.random.default_rng(0)
    cases = {f"int32_{b}bit": rng.integers(0, 1 << b, n, dtype=np.int64).astype(np.uint32).view(np.int32)
             for b in (8, 16, 24, 32)}
    cases["float32"] = rng.standard_normal(n).astype(np.float32)
    res = {"n": n, "gpu_us": {}}
    for name, h in cases.items():
        x = xp.asarray(h)
        r = xp.sort(x)
        assert np.array_equal(np.asarray(r), np.sort(h)), name
        ts = [ours_gpu(lambda: [xp.sort(x)]) for _ in range(12)]
        res["gpu_us"][name] = round(statistics.median(ts[2:]) * 1e6, 1)
        ts = [ours_gpu(lambda: [xp.argsort(x)]) for _ in range(12)]
        res["gpu_us"][name + "_argsort"] = round(statistics.median(ts[2:]) * 1e6, 1)
    emit(res)


if __name__ == "__main__":
    main()
