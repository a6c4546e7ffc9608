"""Tall-skinny QR on the device (session 30): GPU time of the reduced QR through the
one-workgroup small path, the blocked path, and a TSQR built from the batched small path and
batched matmul (row chunks QR'd at once, their stacked R's QR'd again, Q multiplied back), against
CuPy and torch where importable. Not a test; prints a line a case.

    python3 benchmarks/diag_qr_tall.py [--quick] [--cross]

--cross: the small path against the blocked one over rows, columns and batch sizes (where
_linalg.QR_SMALL_ROWS_GPU and QR_SMALL_BATCH_GPU come from).
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


def tsqr(x, chunk):
    m, n = x.shape
    if m <= chunk or m % chunk:
        return kl.qr(x, False)
    c = m // chunk
    q1, r1 = kl.qr(xp.reshape(x, (c, chunk, n)), False)
    q2, r = tsqr(xp.reshape(r1, (c * n, n)), chunk)
    return xp.reshape(q1 @ xp.reshape(q2, (c, n, n)), (m, n)), r


def cross(quick):
    """GPU us of the reduced QR by each path, forced, over a grid of shapes."""
    small_fits = kl._small_fits
    ms, ns, bs = ((64, 256), (8,), (1, 4)) if quick else ((64, 128, 256, 512, 1024, 2048), (8, 32, 64), (1, 16, 64, 256))
    for dt in ("float64", "float32"):
        for n in ns:
            for b in bs:
                line = []
                for m in ms:
                    if m < n:
                        continue
                    a = np.random.default_rng(0).standard_normal((b, m, n)).astype(dt)
                    x = xp.asarray(a)
                    t = {}
                    for name, fits in (("small", lambda *a: True), ("blocked", lambda *a: False)):
                        kl._small_fits = fits
                        kl._plans.clear()
                        fn = lambda: kl.qr(x, False)
                        fn()
                        t[name] = statistics.median(ours_gpu(fn) for _ in range(3)) * 1e6
                    line.append(f"m{m}:{t['small']:.0f}/{t['blocked']:.0f}")
                kl._small_fits = small_fits
                print(dt, f"n{n} batch{b} small/blocked us:", " ".join(line), flush=True)


def main():
    ap = parser(__doc__, libs=None, only=False)
    ap.add_argument("--cross", action="store_true")
    args = ap.parse_args()
    if args.cross:
        return cross(args.quick)
    cases = [(4096, 64), (32768, 64), (131072, 16), (8192, 128), (4096, 256)]
    if args.quick:
        cases = [(1024, 16)]
    small_fits = kl._small_fits
    others = {}
    try:
        import cupy
        others["cupy"] = (lambda a: cupy.asarray(a), lambda x: cupy.linalg.qr(x), cupy.cuda.Device().synchronize)
    except Exception:
        pass
    try:
        import torch
        others["torch"] = (lambda a: torch.as_tensor(a, device="cuda"), lambda x: torch.linalg.qr(x), torch.cuda.synchronize)
    except Exception:
        pass
    for dt in ("float64", "float32"):
        for m, n in cases:
            a = np.random.default_rng(0).standard_normal((m, n)).astype(dt)
            x = xp.asarray(a)
            row = {}
            paths = {"small": lambda: kl.qr(x, False), "blocked": lambda: kl.qr(x, False)}
            for ch in (128, 256, 512):
                if ch > n and m % ch == 0:
                    paths[f"tsqr{ch}"] = (lambda ch=ch: tsqr(x, ch))
            for name, fn in paths.items():
                kl._small_fits = (lambda *a: False) if name == "blocked" else small_fits
                kl._plans.clear()
                try:
                    q, r = fn()
                    err = float(np.max(np.abs(np.asarray(q) @ np.asarray(r) - a)) / np.max(np.abs(a)))
                    orth = float(np.max(np.abs(np.asarray(q).T @ np.asarray(q) - np.eye(n))))
                    ts = [ours_gpu(fn) for _ in range(5)]
                    row[name] = f"{statistics.median(ts) * 1e6:.0f}us(err {err:.0e} orth {orth:.0e})"
                except Exception as e:
                    row[name] = f"{type(e).__name__}: {str(e)[:80]}"
            kl._small_fits = small_fits
            for lib, (to, fn, sync) in others.items():
                row[lib] = f"{timed(fn, (to(a),), sync, 5) * 1e6:.0f}us"
            print(dt, m, n, " ".join(f"{k}={v}" for k, v in row.items()), flush=True)


if __name__ == "__main__":
    main()
