"""Where a fused chain's GPU time goes: each chain of 16M float32 (the suite's 5-op chain, the
same without its sine, the sine alone, ...) timed synchronised after every call, fused and
unfused (GPU time from the runtime's timestamps, the median of 20 calls), with the driver's
compiler statistics (registers, local memory) of the pipelines each records. Not a test; prints
one JSON object.

    python3 benchmarks/diag_fused.py [--quick]
"""
import os
import statistics

os.environ["ARRAY_API_VULKAN_PIPELINE_STATS"] = "1"

import numpy as np  # noqa: E402

from _common import emit, ours_gpu, parser, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _fuse  # noqa: E402
from diag_pipelines import LOCAL_BASE, recorded  # noqa: E402

CHAINS = {
    "chain5": lambda a: xp.sqrt(xp.abs(xp.sin(a) * 3.0 + a) + 1.0),
    "chain5_no_sin": lambda a: xp.sqrt(xp.abs(a * 3.0 + a) + 1.0),
    "sin": lambda a: xp.sin(a),
    "sin_plus_1": lambda a: xp.sin(a) + 1.0,
    "cos_plus_1": lambda a: xp.cos(a) + 1.0,
    "exp_plus_1": lambda a: xp.exp(a) + 1.0,
    "plus_1_times_2": lambda a: (a + 1.0) * 2.0,
    "add": lambda a: a + a,
}


def stats(dev, fn):
    out = {}
    for shader, spec in recorded(fn):
        for exe, st in dev.pipeline_statistics(shader, spec):
            keep = {k: v for k, v in st.items() if "Register" in k or "Local" in k or "Shared" in k}
            if "Local Memory Size" in keep:
                keep["Local Memory Size"] -= LOCAL_BASE
            out[f"{shader}/{exe}"] = keep
    return out


def main():
    args = parser(__doc__, libs=None).parse_args()
    n = 1 << (14 if args.quick else 24)
    a = xp.asarray(np.random.default_rng(0).random(n, dtype=np.float32))
    dev = a._alloc.device
    res = {"n": n}
    for fused in (True, False):
        _fuse.set_enabled(fused)
        for name, fn in CHAINS.items():
            gpus = []
            for _ in range(23):
                gpus.append(ours_gpu(lambda: [fn(a)]))
            row = res.setdefault(name, {})
            row["fused_gpu_us" if fused else "unfused_gpu_us"] = round(statistics.median(gpus[3:]) * 1e6, 1)
            if fused:
                row["pipelines"] = stats(dev, lambda: fn(a))
            print(name, {k: v for k, v in row.items() if k != "pipelines"}, flush=True)
    _fuse.set_enabled(True)
    emit(res, args.out)


if __name__ == "__main__":
    main()
