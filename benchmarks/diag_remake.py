"""Why a process whose pipelines the driver compiles from SPIR-V runs some kernels 2-5x slower
(docs/benchmarks.md, run 12): a few workloads' GPU time per call (synchronised, median of 15),
then again after every pipeline is made anew from each source (Device.remake_pipelines: the
device's VkPipelineCache, a new empty one, a new one holding its data, none), then after a
pause, and the driver's statistics of each workload's pipelines (with --stats). Run it twice
with the same fresh cache directories (ARRAY_API_VULKAN_CACHE_DIR and the NVIDIA driver's
__GL_SHADER_DISK_CACHE_PATH): the first process compiles, the second loads. Not a test; prints
one JSON object.

    python3 benchmarks/diag_remake.py [--quick] [--stats] [--pause SECONDS]
"""
import os
import statistics
import sys
import time

if "--stats" in sys.argv:
    os.environ["ARRAY_API_VULKAN_PIPELINE_STATS"] = "1"

import numpy as np  # noqa: E402

from _common import emit, ours_gpu, parser, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from diag_pipelines import recorded  # noqa: E402


def workloads(n):
    rng = np.random.default_rng(0)
    f32 = xp.asarray(rng.random(n, dtype=np.float32))
    f64 = xp.asarray(rng.random(n, dtype=np.float64))
    return {
        "exp_f64": lambda: xp.exp(f64),
        "exp_f32": lambda: xp.exp(f32),
        "chain5_f32": lambda: xp.sqrt(xp.abs(xp.sin(f32) * 3.0 + f32) + 1.0),
        "sum_f32": lambda: xp.sum(f32),
        "mean_var_f32": lambda: (xp.mean(f32), xp.var(f32)),
        "add_f32": lambda: f32 + f32,
    }


def measure(ws):
    out = {}
    for name, fn in ws.items():
        gpus = [ours_gpu(lambda: [fn()]) for _ in range(18)]
        out[name] = round(statistics.median(gpus[3:]) * 1e6, 1)
    return out


def main():
    p = parser(__doc__, libs=None)
    p.add_argument("--stats", action="store_true")
    p.add_argument("--pause", type=float, default=20.0)
    args = p.parse_args()
    n = 1 << (14 if args.quick else 24)
    ws = workloads(n)
    dev = xp.asarray(0.0)._alloc.device
    t0 = time.perf_counter()
    res = {"n": n, "env": {k: os.environ.get(k) for k in ("ARRAY_API_VULKAN_CACHE_DIR",
                                                           "__GL_SHADER_DISK_CACHE_PATH")}}
    steps = res["steps"] = []

    def step(label):
        before = xp.runtime_stats()
        row = {"step": label, "t_s": round(time.perf_counter() - t0, 1), "gpu_us": measure(ws)}
        st = xp.runtime_stats()
        row["pipelines_created"] = st["pipelines_created"] - before["pipelines_created"]
        steps.append(row)

    step("first")
    for source in ("same", "fresh", "blob", "null"):
        t = time.perf_counter()
        k = dev.remake_pipelines(source)
        steps.append({"remade": source, "pipelines": k, "seconds": round(time.perf_counter() - t, 2)})
        step(f"after remake {source}")
    time.sleep(args.pause)
    step(f"after a pause of {args.pause} s")
    for source in ("blob", "null"):
        dev.remake_pipelines(source)
        step(f"after the pause, remake {source}")
    if args.stats:
        stats = res["stats"] = {}
        for name, fn in ws.items():
            for shader, spec in recorded(fn):
                for exe, st in dev.pipeline_statistics(shader, spec):
                    stats[f"{name}: {shader} {list(spec)} {exe}"] = st
    emit(res)


if __name__ == "__main__":
    main()
