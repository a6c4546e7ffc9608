"""GPU time (and wall, synchronised) of eager elementwise kernels of 16M elements (the binary,
unary, math, cast and fill families), for A/B runs of their shaders in alternating processes
(ARRAY_API_VULKAN_SPV_DIR at the other SPIR-V, or a knob's environment variable). Prints one
JSON line. (Run 22: elements per invocation 4, 8, 16; 64-bit vector loads by pairs.)

    python3 benchmarks/diag_elems.py
"""
import json
import os
import statistics
import time

import numpy as np

from _common import ours_gpu, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _launch  # noqa: E402


def main():
    rng = np.random.default_rng(0)
    n = 1 << 24
    a32, b32 = (xp.asarray(rng.random(n, dtype=np.float32)) for _ in range(2))
    a64, b64 = (xp.asarray(rng.random(n)) for _ in range(2))
    i64 = xp.asarray(rng.integers(0, 1000, n))
    calls = {"add_f32": lambda: a32 + b32, "mul_scalar_f32": lambda: a32 * 2.0,
             "add_f64": lambda: a64 + b64, "abs_f32": lambda: xp.abs(a32),
             "exp_f32": lambda: xp.exp(a32), "sqrt_f64": lambda: xp.sqrt(a64),
             "exp_f64": lambda: xp.exp(a64), "astype_f32_f64": lambda: xp.astype(a32, xp.float64),
             "full_f64": lambda: xp.full(n, 1.5, dtype=xp.float64),
             "astype_f64_f32": lambda: xp.astype(a64, xp.float32), "add_i64": lambda: i64 + i64}
    out = {"elems": _launch.ELEMS, "spv_dir": os.environ.get("ARRAY_API_VULKAN_SPV_DIR")}
    for name, fn in calls.items():
        for _ in range(3):
            fn()
        xp.synchronize()
        gpu = statistics.median(ours_gpu(lambda: [fn()]) for _ in range(9))
        walls = []
        for _ in range(50):
            t0 = time.perf_counter()
            r = fn()
            xp.synchronize()
            walls.append(time.perf_counter() - t0)
            del r
        out[name] = {"gpu_us": round(gpu * 1e6, 2), "sync_us": round(statistics.median(walls) * 1e6, 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
