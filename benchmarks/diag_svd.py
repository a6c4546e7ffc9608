"""Where the native svd's time goes (session 30): GPU time of the whole call and of its steps
(the QR of a tall matrix, the Jacobi kernel with 1 and 2 sweeps and with the default cap),
against numpy's svd of the same matrix on this host (with the download and upload a host
fallback adds). Not a test; prints one line a case and the JSON.

    python3 benchmarks/diag_svd.py [--quick]
"""
import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ours_gpu, parser, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _linalg as kl  # noqa: E402


def med(fn, n=5):
    fn()
    return statistics.median(fn() for _ in range(n)) * 1e6


def wall(fn, n=5):
    def one():
        t = time.perf_counter()
        fn()
        xp.synchronize()
        return time.perf_counter() - t
    return med(one, n)


def main():
    ap = parser(__doc__, libs=None, only=False)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    cases = [((256, 256), "float64"), ((128, 128), "float64"), ((64, 64), "float64"),
             ((4096, 64), "float64"), ((256, 256), "float32"), ((1000, 32, 32), "float32"),
             ((100, 64, 64), "float64")]
    if args.quick:
        cases = [((16, 16), "float32"), ((200, 8), "float32"), ((10, 8, 8), "float32")]
    res = {}
    for shape, dt in cases:
        a = rng.standard_normal(shape).astype(dt)
        x = xp.asarray(a)
        row = {}
        row["svd_gpu_us"] = med(lambda: ours_gpu(lambda: xp.linalg.svd(x, full_matrices=False)))
        row["svd_wall_us"] = wall(lambda: xp.linalg.svd(x, full_matrices=False))
        row["svdvals_gpu_us"] = med(lambda: ours_gpu(lambda: xp.linalg.svdvals(x)))
        row["numpy_svd_us"] = wall(lambda: np.linalg.svd(np.asarray(x), full_matrices=False))
        m, n = shape[-2:]
        r = x
        if m > n:
            row["qr_gpu_us"] = med(lambda: ours_gpu(lambda: kl.qr(x, False)))
            r = kl.qr(x, False)[1][..., :n, :]
        sq = r
        for sweeps in (1, 2, kl.SVD_SWEEPS):
            kl.SVD_SWEEPS = sweeps
            kl._plans.clear()
            row[f"jacobi_vec_{sweeps}sw_us"] = med(lambda: ours_gpu(lambda: kl.svd(sq, True)))
            st = kl.svd(sq, True)[3]
            row[f"status_{sweeps}sw"] = int(np.max(st))
        kl.SVD_SWEEPS = 60
        kl._plans.clear()
        row["jacobi_novec_us"] = med(lambda: ours_gpu(lambda: kl.svd(sq, False)))
        s = np.asarray(xp.linalg.svdvals(x))
        row["err"] = float(np.max(np.abs(s - np.linalg.svdvals(a.astype(np.float64)))) /
                           np.max(np.linalg.svdvals(a.astype(np.float64))))
        key = f"{dt}_{'x'.join(map(str, shape))}"
        res[key] = row
        print(key, " ".join(f"{k}={v:.0f}" if isinstance(v, float) and v > 1 else f"{k}={v:.2g}"
                            for k, v in row.items()), flush=True)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
