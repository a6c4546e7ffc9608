"""Whether the GPU's clocks or power state explain why our synchronised times vary (run 11: the
same commit's add f32 16M took 99.6 and 207 us on two machines, and one process saw our GPU time
double after an idle spell). nvidia-smi samples the clocks, performance state, power and
throttle reasons every 20 ms while the script times add and sum of 16M float32 (ours, GPU time
from the runtime's timestamps; torch in the same process where importable, CUDA events) after
phases of load and of idling. Writes JSON with the phases and the samples.

    python3 benchmarks/diag_clocks.py [--out F] [--libs ours,torch] [--quick]
"""
import statistics
import subprocess
import time

from _common import cuda_gpu, emit, ours_gpu, parser, torch_cuda, use_checkout

use_checkout()

SMI_FIELDS = ("timestamp,pstate,clocks.sm,clocks.mem,clocks.gr,power.draw,temperature.gpu,"
              "utilization.gpu,utilization.memory,clocks_event_reasons.active")


def smi_text(*args):
    try:
        return subprocess.run(["nvidia-smi", *args], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as e:
        return f"nvidia-smi: {e}"


def main():
    ap = parser(__doc__, only=False, libs="ours,torch")
    args = ap.parse_args()
    n = 1 << (14 if args.quick else 24)
    calls = 5 if args.quick else 30
    res = {"n": n, "smi_start": smi_text("-q", "-d", "CLOCK,PERFORMANCE,POWER,TEMPERATURE,COMPUTE")}
    t_origin = time.time()
    try:
        logger = subprocess.Popen(["nvidia-smi", f"--query-gpu={SMI_FIELDS}", "--format=csv,noheader,nounits",
                                   "-lms", "20"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError:
        logger = None

    import array_api_vulkan as xp
    import numpy as np

    a = xp.asarray(np.random.rand(n).astype(np.float32))
    b = a + 1.0
    m = 4096 if not args.quick else 64
    p = xp.asarray(np.random.rand(m, m).astype(np.float32))
    xp.synchronize()
    libs = args.libs.split(",")
    torch = None
    if "torch" in libs:
        try:
            torch = torch_cuda()
            ta = torch.rand(n, device="cuda")
            tb = ta + 1.0
            tp = torch.rand(m, m, device="cuda")
            tgpu = cuda_gpu(lambda: torch.cuda.Event(enable_timing=True), torch.cuda.synchronize)
        except Exception as e:
            res["torch"] = f"unavailable: {e}"
            torch = None

    def measure(tag):
        row = {"t": round(time.time() - t_origin, 3)}
        for name, fn in (("add", lambda: a + b), ("sum", lambda: xp.sum(a))):
            walls, gpus = [], []
            for _ in range(calls):
                t = time.perf_counter()
                g = ours_gpu(lambda: [fn()])
                walls.append(time.perf_counter() - t)
                gpus.append(g)
            row[f"ours_{name}_wall_us"] = round(statistics.median(walls) * 1e6, 1)
            row[f"ours_{name}_gpu_us"] = round(statistics.median(gpus) * 1e6, 1)
        if torch is not None:
            for name, fn in (("add", lambda: ta + tb), ("sum", lambda: torch.sum(ta))):
                walls, gpus = [], []
                for _ in range(calls):
                    t = time.perf_counter()
                    g = tgpu(lambda: [fn()])
                    walls.append(time.perf_counter() - t)
                    gpus.append(g)
                row[f"torch_{name}_wall_us"] = round(statistics.median(walls) * 1e6, 1)
                row[f"torch_{name}_gpu_us"] = round(statistics.median(gpus) * 1e6, 1)
        row["t_end"] = round(time.time() - t_origin, 3)
        res.setdefault("phases", []).append([tag, row])
        print(tag, row, flush=True)

    def load(lib, seconds):
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if lib == "ours":
                r = p @ p
                xp.synchronize()
            else:
                r = tp @ tp
                torch.cuda.synchronize()
            del r

    scale = 0.1 if args.quick else 1.0
    plan = [("start", 0, None), ("after 3 s ours products", 0, "ours"), ("idle 1 s", 1, None),
            ("idle 3 s", 3, None), ("idle 10 s", 10, None), ("after 3 s ours products", 0, "ours"),
            ("after 3 s torch products", 0, "torch"), ("idle 3 s", 3, None), ("again", 0, None)]
    for tag, idle, lib in plan:
        if lib == "torch" and torch is None:
            continue
        if lib:
            load(lib, 3 * scale)
        time.sleep(idle * scale)
        measure(tag)
    res["smi_end"] = smi_text("-q", "-d", "CLOCK,PERFORMANCE,POWER,TEMPERATURE,COMPUTE")
    if logger is not None:
        logger.terminate()
        out, _ = logger.communicate(timeout=10)
        res["smi_fields"] = SMI_FIELDS
        res["smi_samples"] = out.splitlines()
    emit(res, args.out)


if __name__ == "__main__":
    main()
