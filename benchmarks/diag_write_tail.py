"""What a synchronised add pays past its GPU time, by the size it writes: `c = a + b` then a
synchronize, for float32 arrays of 2^16 to 2^26 elements, wall and GPU time
(runtime_stats()["gpu_seconds"]) per call, medians, and the wall of torch's same call. If the
fence waits for the written bytes to leave the GPU's cache, wall minus GPU grows with the bytes
written up to the cache's size. Run it once per shader build (ARRAY_API_VULKAN_SPV_DIR) to
compare their stores. Not a test; prints JSON.

    python3 benchmarks/diag_write_tail.py [--quick] [--libs ours,torch]
"""
import os

os.environ["ARRAY_API_VULKAN_FUSION"] = "0"
os.environ.setdefault("ARRAY_API_VULKAN_GPU_TIMING", "1")

import statistics  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from _common import emit, lib_namespace, parser, use_checkout  # noqa: E402

use_checkout()


def rounds_of(lib, n, rounds):
    ns, sync = lib_namespace(lib)
    rng = np.random.default_rng(0)
    host = [rng.random(n, dtype=np.float32) for _ in range(2)]
    if lib == "torch":
        a, b = (ns.from_numpy(h).cuda() for h in host)
    else:
        a, b = (ns.asarray(h) for h in host)
    walls, gpus = [], []
    held = None
    for i in range(rounds + 5):
        held = None
        sync()
        g0 = ns.runtime_stats()["gpu_seconds"] if lib == "ours" else 0.0
        t = time.perf_counter()
        held = a + b
        sync()
        w = time.perf_counter() - t
        if i >= 5:
            walls.append(w * 1e6)
            if lib == "ours":
                gpus.append((ns.runtime_stats()["gpu_seconds"] - g0) * 1e6)
    del held
    row = {"wall_us": round(statistics.median(walls), 2)}
    if gpus:
        g = statistics.median(gpus)
        row.update(gpu_us=round(g, 2), wall_minus_gpu_us=round(row["wall_us"] - g, 2))
    return row


def main():
    ap = parser(__doc__, only=False, libs="ours")
    args = ap.parse_args()
    libs = args.libs.split(",")
    sizes = [1 << 12, 1 << 14] if args.quick else [1 << k for k in (16, 20, 22, 23, 24, 25, 26)]
    rounds = 20 if args.quick else 200
    res = {"spv_dir": os.environ.get("ARRAY_API_VULKAN_SPV_DIR", ""),
           "gpu_timing": os.environ["ARRAY_API_VULKAN_GPU_TIMING"]}
    for lib in libs:
        res[lib] = {str(n): rounds_of(lib, n, rounds) for n in sizes}
    emit(res, args.out)


if __name__ == "__main__":
    main()
