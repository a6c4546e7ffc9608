"""The kernel engine's figures (issue 7) against CuPy and torch on the same GPU, in one run:
upload and download of 256 MB, add float32 16M batched and synchronised after every call, the
1000-op dependent chain, and first-call latency in a fresh process with a cold and a warm
pipeline cache. Not a test; prints JSON.

    python benchmarks/engine.py [--out results.json] [--quick]
"""
import json
import os

# (reads runtime_stats()["gpu_seconds"]: GPU timestamps on, off by default)
os.environ.setdefault("ARRAY_API_VULKAN_GPU_TIMING", "1")
import subprocess
import sys
import tempfile

import numpy as np

import array_api_vulkan as xp

from _common import chain_per_op, cupy_device, emit, median_time, parser, per_op, torch_cuda

MB256 = 256 << 20


def library(name):
    if name == "ours":
        host = np.random.default_rng(0).random(MB256 // 4, dtype=np.float32)
        return dict(
            upload=lambda: (xp.asarray(host), xp.synchronize()),
            download_src=xp.asarray(host), download=lambda a: np.asarray(a),
            sync=xp.synchronize, rand=lambda n: xp.asarray(np.random.default_rng(1).random(n, dtype=np.float32)),
            add=xp.add, ones=lambda n: xp.ones(n, dtype=xp.float32), host=host)
    if name == "cupy":
        cp, sync = cupy_device()
        host = np.random.default_rng(0).random(MB256 // 4, dtype=np.float32)
        return dict(upload=lambda: (cp.asarray(host), sync()), download_src=cp.asarray(host),
                    download=lambda a: cp.asnumpy(a), sync=sync,
                    rand=lambda n: cp.random.random(n, dtype=cp.float32), add=cp.add,
                    ones=lambda n: cp.ones(n, dtype=cp.float32), host=host)
    if name == "torch":
        torch = torch_cuda()
        host = np.random.default_rng(0).random(MB256 // 4, dtype=np.float32)
        th = torch.from_numpy(host)
        sync = torch.cuda.synchronize
        return dict(upload=lambda: (th.to("cuda"), sync()), download_src=th.to("cuda"),
                    download=lambda a: a.cpu().numpy(), sync=sync,
                    rand=lambda n: torch.rand(n, device="cuda"), add=torch.add,
                    ones=lambda n: torch.ones(n, device="cuda"), host=host)
    raise ValueError(name)


def bench(name, res, quick):
    lib = library(name)
    t = median_time(lib["upload"], 3 if quick else 7)
    res[f"{name}_upload_256MB_GBps"] = MB256 / t / 1e9
    src = lib["download_src"]
    lib["sync"]()
    t = median_time(lambda: lib["download"](src), 3 if quick else 7)
    res[f"{name}_download_256MB_GBps"] = MB256 / t / 1e9
    assert np.array_equal(np.asarray(lib["download"](src)), lib["host"])
    n = 16 << 20
    a, b = lib["rand"](n), lib["rand"](n)
    if name == "ours":
        xp.synchronize()
        xp.reset_runtime_stats()
    batched, each = per_op(lambda: lib["add"](a, b), lib["sync"])
    res[f"{name}_add_f32_16M_batched_us"] = batched * 1e6
    res[f"{name}_add_f32_16M_sync_each_us"] = each * 1e6
    if name == "ours":  # what the runtime did for those 2 x 8 x 20 adds
        s = xp.runtime_stats()
        res["ours_add_stats"] = {k: s[k] for k in ("submits", "dispatches", "barriers", "gpu_seconds",
                                                   "pipelines_created")}
        res["ours_add_gpu_us_per_op"] = s["gpu_seconds"] / s["dispatches"] * 1e6
    small = lib["ones"](1000)
    res[f"{name}_chain1000_per_op_us"] = chain_per_op(small, lambda x: float(x[0])) * 1e6


FIRST_CALL = r"""
import json, sys, time
t0 = time.perf_counter()
lib = sys.argv[1]
if lib == "ours":
    import array_api_vulkan as m
    x = m.ones(1000, dtype=m.float32)
    t1 = time.perf_counter()
    y = m.exp(x) * 2.0 + x
    float(y[0])
    s = m.runtime_stats()
    extra = {k: s[k] for k in ("pipelines_created", "pipeline_cache_hits", "pipeline_seconds")}
elif lib == "cupy":
    import cupy as m
    x = m.ones(1000, dtype=m.float32)
    t1 = time.perf_counter()
    y = m.exp(x) * 2.0 + x
    float(y[0])
    extra = {}
else:
    import torch as m
    x = m.ones(1000, device="cuda")
    t1 = time.perf_counter()
    y = m.exp(x) * 2.0 + x
    float(y[0])
    extra = {}
t2 = time.perf_counter()
print(json.dumps(dict(import_and_first_array_s=t1 - t0, first_ops_s=t2 - t1, total_s=t2 - t0, **extra)))
"""


def first_call(name, res):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ARRAY_API_VULKAN_CACHE_DIR=cache)
        for state in ("cold", "warm"):
            r = subprocess.run([sys.executable, "-c", FIRST_CALL, name], env=env, capture_output=True, text=True,
                               timeout=600)
            if r.returncode != 0:
                res[f"{name}_first_call_{state}"] = f"failed: {r.stderr[-500:]}"
                continue
            res[f"{name}_first_call_{state}"] = json.loads(r.stdout.strip().splitlines()[-1])


def main():
    args = parser(__doc__, only=False).parse_args()
    res = {"device": str(xp.__array_namespace_info__().default_device()),
           "device_name": xp.__array_namespace_info__().default_device().name}
    for name in args.libs.split(","):
        try:
            bench(name, res, args.quick)
        except Exception as e:  # CuPy or torch may be missing
            res[name] = f"unavailable: {type(e).__name__}: {e}"
        try:
            first_call(name, res)
        except Exception as e:
            res[f"{name}_first_call"] = f"failed: {type(e).__name__}: {e}"
    res["ours_host_fallbacks"] = xp.runtime_stats()["host_fallbacks"]
    emit(res, args.out)


if __name__ == "__main__":
    main()
