"""Batched small svds with W and V in shared memory (_linalg.SVD_SHARED) or in device memory,
GPU time, against CuPy and torch (synchronised wall time). Not a test; prints a line a case.

    python3 benchmarks/diag_svd_shared.py [--quick] [--ours-only]
"""
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ours_gpu, parser, timed, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _linalg as kl  # noqa: E402


def main():
    ap = parser(__doc__, libs=None, only=False)
    ap.add_argument("--ours-only", action="store_true", help="no CuPy or torch rows")
    args = ap.parse_args()
    cases = [((1000, 32, 32), "float32"), ((1000, 16, 16), "float64"), ((200, 48, 48), "float32"),
             ((1000, 32, 32), "float64"), ((10000, 8, 8), "float32"), ((1000, 24, 24), "float64"),
             ((1000, 40, 40), "float32"), ((100, 32, 32), "float64")]
    if args.quick:
        cases = [((10, 8, 8), "float32")]
    others = {}
    try:
        if args.ours_only:
            raise ImportError
        import cupy
        others["cupy"] = (cupy.asarray, lambda x: cupy.linalg.svd(x), cupy.cuda.Device().synchronize)
    except Exception:
        pass
    try:
        if args.ours_only:
            raise ImportError
        import torch
        others["torch"] = (lambda a: torch.as_tensor(a, device="cuda"), lambda x: torch.linalg.svd(x),
                           torch.cuda.synchronize)
    except Exception:
        pass
    for shape, dt in cases:
        a = np.random.default_rng(0).standard_normal(shape).astype(dt)
        x = xp.asarray(a)
        row = []
        rule = kl._svd_gs(x._alloc.device, x._dtype, shape[-1], kl._eigh_nt(shape[-1]), True, shape[0])[1]
        row.append("default=" + ("shared" if rule else "device"))
        cap = kl.SVD_SHARED_BYTES
        for on in (True, False):
            kl.SVD_SHARED = on
            kl.SVD_SHARED_BYTES = 1 << 30 if on else cap  # (shared wherever it fits)
            kl._plans.clear()
            fn = lambda: xp.linalg.svd(x)
            fn()
            t = statistics.median(ours_gpu(fn) for _ in range(5))
            used = kl._svd_gs(x._alloc.device, x._dtype, shape[-1], kl._eigh_nt(shape[-1]), True, shape[0])[1]
            row.append(f"{'shared' if on else 'device'}{'' if used or not on else '(n/a)'}={t * 1e6:.0f}us")
        kl.SVD_SHARED, kl.SVD_SHARED_BYTES = True, cap
        kl._plans.clear()
        for lib, (to, fn, sync) in others.items():
            row.append(f"{lib}={timed(fn, (to(a),), sync, 5) * 1e6:.0f}us")
        print(dt, "x".join(map(str, shape)), " ".join(row), flush=True)


if __name__ == "__main__":
    main()
