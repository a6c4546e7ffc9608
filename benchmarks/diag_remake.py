"""Why a process whose pipelines the driver compiles from SPIR-V runs some kernels 2-5x slower
(docs/benchmarks.md, run 12): a few workloads' GPU time per call (synchronised, median of 15),
then again after every pipeline is made anew from each source (Device.remake_pipelines: the
device's VkPipelineCache, a new empty one, a new one holding its data, none), then after a
pause, and the driver's statistics of each workload's pipelines (with --stats). With --clocks it
goes on: after two seconds of back-to-back work, after a pause with a CUDA context open (torch),
and torch's own times after a pause, each step with its wall time (time.time()) so that an
nvidia-smi clock log taken beside it lines up. Run it twice
with the same fresh cache directories (ARRAY_API_VULKAN_CACHE_DIR and the NVIDIA driver's
__GL_SHADER_DISK_CACHE_PATH): the first process compiles, the second loads. Not a test; prints
one JSON object.

    python3 benchmarks/diag_remake.py [--quick] [--stats] [--clocks] [--pause SECONDS]
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


def clocks(args, ws, step, steps):
    """Whether the slow steps are the GPU's clocks: load, a CUDA context, torch's own times."""
    t = time.perf_counter()
    while time.perf_counter() - t < 2.0:
        rs = [fn() for fn in ws.values()]
        xp.synchronize()
        del rs
    step("after 2 s of back-to-back work")
    time.sleep(args.pause)
    step(f"after another pause of {args.pause} s")
    from _common import cuda_gpu, torch_cuda

    torch = torch_cuda()
    a = torch.rand(1 << 24, device="cuda")
    gpu = cuda_gpu(lambda: torch.cuda.Event(enable_timing=True),
                   torch.cuda.synchronize)
    tw = {"exp_f32": lambda: [torch.exp(a)], "add_f32": lambda: [a + a], "sum_f32": lambda: [torch.sum(a)]}

    def torch_step(label):
        row = {"step": label, "wall": round(time.time(), 2)}
        row["torch_gpu_us"] = {k: round(statistics.median([gpu(f) for _ in range(18)][3:]) * 1e6, 1)
                               for k, f in tw.items()}
        steps.append(row)

    torch_step("torch, CUDA context just opened")
    time.sleep(args.pause)
    torch_step(f"torch after a pause of {args.pause} s")
    step(f"ours after that pause, with a CUDA context open")
    time.sleep(args.pause)
    step(f"ours after a pause of {args.pause} s with a CUDA context open")


def main():
    p = parser(__doc__, libs=None)
    p.add_argument("--stats", action="store_true")
    p.add_argument("--pause", type=float, default=20.0)
    p.add_argument("--clocks", action="store_true")
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
        row = {"step": label, "t_s": round(time.perf_counter() - t0, 1), "wall": round(time.time(), 2),
               "gpu_us": measure(ws)}
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
    if args.clocks:
        clocks(args, ws, step, steps)
    if args.stats:
        stats = res["stats"] = {}
        for name, fn in ws.items():
            for shader, spec in recorded(fn):
                for exe, st in dev.pipeline_statistics(shader, spec):
                    stats[f"{name}: {shader} {list(spec)} {exe}"] = st
    emit(res)


if __name__ == "__main__":
    main()
