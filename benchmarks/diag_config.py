"""Which matmul configuration (path, tiles, split-K) a product gets, and its GPU time, for the
same shapes with different operands: PCA's Xc.T @ Xc on its own data and on standard-normal
data, k-means' onehot.T @ X likewise (diag_origin.py found them 4x slower on the workloads' data
than tune_matmul.py on random data). Prints one line per case (stderr) and JSON.

    python3 benchmarks/diag_config.py [--quick]
"""
import sys

import numpy as np

from _common import emit, parser, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _matmul  # noqa: E402
from diag_origin import gpu_us  # noqa: E402
from workloads import FULL, QUICK, make_data  # noqa: E402

seen = []
_config = _matmul._config


def spy(dev, code, m, n, k, nbatch, a, b):
    r = _config(dev, code, m, n, k, nbatch, a, b)
    seen.append({"mnk": [m, n, k], "a": repr(a), "b": repr(b), "config": repr(r)})
    return r


def main():
    args = parser(__doc__, only=False, libs=None).parse_args()
    sizes = QUICK if args.quick else FULL
    rng = np.random.default_rng(0)
    _matmul._config = spy
    pc = make_data("pca", sizes, rng)["X"]
    Xc_np = pc - pc.mean(axis=0, keepdims=True)
    cases = {
        "Xc.T@Xc pca data": (Xc_np, Xc_np),
        "Xc.T@Xc normal": (rng.standard_normal(Xc_np.shape, dtype=np.float32),) * 2,
        "Xc.T@Xc pca data, scaled 1e-3": (Xc_np * 1e-3, Xc_np * 1e-3),
        "A.T@B normal distinct": (rng.standard_normal(Xc_np.shape, dtype=np.float32),
                                  rng.standard_normal(Xc_np.shape, dtype=np.float32)),
        "A.T@B pca data, normal": (Xc_np, rng.standard_normal(Xc_np.shape, dtype=np.float32)),
        "A.T@B zeros": (np.zeros_like(Xc_np), np.zeros_like(Xc_np)),
    }
    out = {}
    for name, (a, b) in cases.items():
        xa = xp.asarray(a)
        xb = xa if b is a else xp.asarray(b)
        _matmul._plans.clear()
        del seen[:]
        t = gpu_us(lambda: xp.matrix_transpose(xa) @ xb)
        out[name] = {"gpu_us": t, "configs": seen[-1:]}
        print(f"{name:34s} {t:9.1f} us  {seen[-1:]}", file=sys.stderr)
    emit(out, args.out)


if __name__ == "__main__":
    main()
