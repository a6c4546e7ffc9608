"""Whether holding a CUDA context keeps an NVIDIA GPU's clocks up for our Vulkan work (run 13:
with only a Vulkan device open the driver drops the SM clock from 1980 to 345 MHz about 1.5 s
after the GPU goes idle and needs about 0.7 s of load to raise it again, while a process with a
CUDA context keeps 1980 MHz). Phases: nothing, cuInit only, the device's primary context
retained, then released; each runs our work for 1 s, idles, and times exp and add of 16M
float32 (GPU time from the runtime's timestamps), with nvidia-smi sampling the SM clock and
the process's memory. Not a test; prints one JSON object.

    python3 benchmarks/diag_cuda_hold.py [--idle SECONDS]
"""
import ctypes
import statistics
import subprocess
import time

from _common import emit, ours_gpu, parser, use_checkout

use_checkout()


def smi(*args):
    try:
        return subprocess.run(["nvidia-smi", *args], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"nvidia-smi: {e}"


def main():
    ap = parser(__doc__, quick=False, only=False, libs=None)
    ap.add_argument("--idle", type=float, default=6.0)
    args = ap.parse_args()
    import numpy as np

    import array_api_vulkan as xp

    a = xp.asarray(np.random.default_rng(0).random(1 << 24, dtype=np.float32))
    ws = {"exp_f32": lambda: [xp.exp(a)], "add_f32": lambda: [a + a]}
    logger = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm", "--format=csv,noheader,nounits",
                               "-lms", "50"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    cuda = ctypes.CDLL("libcuda.so.1")
    res = {"phases": []}

    def phase(label):
        t = time.perf_counter()
        while time.perf_counter() - t < 1.0:
            [f() for f in ws.values()]
            xp.synchronize()
        time.sleep(args.idle)
        row = {"phase": label, "wall": round(time.time(), 2)}
        row["gpu_us"] = {k: round(statistics.median([ours_gpu(f) for _ in range(12)][2:]) * 1e6, 1)
                         for k, f in ws.items()}
        row["clock_now"] = smi("--query-gpu=clocks.sm", "--format=csv,noheader")
        row["apps"] = smi("--query-compute-apps=pid,used_memory", "--format=csv,noheader")
        res["phases"].append(row)

    phase("nothing")
    t = time.perf_counter()
    rc = cuda.cuInit(0)
    res["cuInit"] = {"rc": rc, "seconds": round(time.perf_counter() - t, 3)}
    phase("after cuInit")
    dev = ctypes.c_int()
    cuda.cuDeviceGet(ctypes.byref(dev), 0)
    ctx = ctypes.c_void_p()
    t = time.perf_counter()
    rc = cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev)
    res["retain"] = {"rc": rc, "seconds": round(time.perf_counter() - t, 3)}
    phase("primary context retained")
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    cuda.cuCtxSetCurrent(ctx)
    cuda.cuMemGetInfo_v2(ctypes.byref(free), ctypes.byref(total))
    res["cuda_mem_used_mib"] = round((total.value - free.value) / 2**20)
    rc = cuda.cuDevicePrimaryCtxRelease_v2(dev)
    res["release_rc"] = rc
    phase("primary context released")
    logger.terminate()
    out, _ = logger.communicate(timeout=10)
    res["smi_samples"] = out.splitlines()
    emit(res)


if __name__ == "__main__":
    main()
