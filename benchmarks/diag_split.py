"""Where a synchronised call's time goes, op by op: GPU time against the rest (run 8's question).

For each workload, in each library (ours, CuPy, torch), it times a call followed by a
synchronize (median wall) and the GPU time of one such call: ours from the runtime's per-batch
timestamps (runtime_stats()["gpu_seconds"]), CuPy's and torch's from CUDA events around the
call. wall - gpu is what the call costs beyond its kernels: host work, submission, waiting.
It also reports our call's host time alone (before the synchronize), and per call the host
time spent in vkQueueSubmit and in fence waits, and the submits. Prints one JSON object.

    python3 benchmarks/diag_split.py [--quick] [--libs ours,cupy,torch] [--only sort_f32,fft_c64]
"""
import statistics
import sys
import time

import numpy as np

from _common import cuda_gpu, emit, lib_namespace, ours_gpu, parser, use_checkout

use_checkout()


def workloads(m, n):
    """name -> (function of the inputs, inputs) in namespace m (numpy inputs converted)."""
    rng = np.random.default_rng(0)
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    idx = rng.integers(0, n, n).astype(np.int64)
    k = 1024
    ma = rng.random((k, k), dtype=np.float32)
    small = rng.random(1000, dtype=np.float32)
    c = (rng.random(n) + 1j * rng.random(n)).astype(np.complex64)
    sq = rng.random((4096, 4096) if n >= (1 << 24) else (512, 512), dtype=np.float32)
    if m.__name__ == "torch":
        conv = lambda v: m.asarray(v, device="cuda")  # noqa: E731
        cumsum = lambda x: m.cumsum(x, 0)  # noqa: E731
        argmax = m.argmax
    else:
        conv = m.asarray
        cumsum = getattr(m, "cumulative_sum", getattr(m, "cumsum", None))
        argmax = m.argmax
    A, B, I, M, S, C, Q = conv(a), conv(b), conv(idx), conv(ma), conv(small), conv(c), conv(sq)
    H = conv(np.ascontiguousarray(sq[:sq.shape[0] // 2, :sq.shape[1] // 2]))
    SM, S2 = S > 0.5, conv(small[::-1].copy())
    clip = (lambda x, lo, hi: m.clamp(x, lo, hi)) if m.__name__ == "torch" else m.clip
    take = (lambda x, i: m.take(x, i)) if m.__name__ != "torch" else (lambda x, i: x[i])
    return {
        "add_f32": (lambda: A + B),
        "small_add": (lambda: S + 1.0),
        "small_where": (lambda: m.where(SM, S, S2)),
        "small_where_scalar": (lambda: m.where(SM, S, 0.0)),
        "small_clip": (lambda: clip(S, 0.1, 0.9)),
        "chain5_f32": (lambda: m.sqrt(m.abs(m.sin(A) * 3.0 + A) + 1.0)),
        "sum_f32": (lambda: m.sum(A)),
        "argmax_f32": (lambda: argmax(A)),
        "cumsum_f32": (lambda: cumsum(A)),
        "where_f32": (lambda: m.where(A > 0.5, A, B)),
        "mask_f32": (lambda: A[A > 0.5]),
        "take_i64": (lambda: take(A, I)),
        "sort_f32": (lambda: m.sort(A)),
        "argsort_f32": (lambda: m.argsort(A)),
        "fft_c64": (lambda: m.fft.fft(C)),
        "rfftn_f32": (lambda: m.fft.rfftn(Q)),
        "matmul_f32_1024": (lambda: M @ M),
        # (the suite's tile_2048sq_2x2 and roll2d_4096sq: a quarter of Q tiled 2 x 2, Q rolled)
        "tile_sq": (lambda: m.tile(H, (2, 2))),
        "roll2d_sq": (lambda: m.roll(Q, (5, -7), axis=(0, 1))),
    }


def measure(call, sync, gpu, reps, ours_stats=None):
    r = call()
    sync()
    del r
    walls, hosts = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = call()
        t1 = time.perf_counter()
        sync()
        walls.append(time.perf_counter() - t0)
        hosts.append(t1 - t0)
        del r
    gpus = [gpu(lambda: [call()]) for _ in range(max(3, reps // 3))]
    w, g, h = statistics.median(walls), statistics.median(gpus), statistics.median(hosts)
    row = {"wall_us": round(w * 1e6, 1), "gpu_us": round(g * 1e6, 1),
           "rest_us": round((w - g) * 1e6, 1), "call_us": round(h * 1e6, 1)}
    if ours_stats is not None:  # ours: host time in vkQueueSubmit and fence waits per call
        from array_api_vulkan._runtime import _vkcore
        _vkcore.host_profile(True)
        s0 = ours_stats()
        syncs = []
        for _ in range(reps):
            r = call()
            t0 = time.perf_counter()
            sync()
            syncs.append(time.perf_counter() - t0)
            del r
        s1 = ours_stats()
        for k in ("submit", "wait"):
            row[f"{k}_us"] = round((s1[f"{k}_seconds"] - s0[f"{k}_seconds"]) / reps * 1e6, 1)
        row["submits"] = round((s1["submits"] - s0["submits"]) / reps, 2)
        row["sync_us"] = round(statistics.median(syncs) * 1e6, 1)
        on, stages = _vkcore.host_profile(True)
        if on:  # ARRAY_API_VULKAN_PROFILE_HOST=1: the C++ hot path's stages, us per call
            row["host_stages_us"] = {k: round(v[0] / reps * 1e6, 2) for k, v in stages.items() if v[1]}
    return row


def main():
    p = parser(__doc__, libs="ours,cupy,torch")
    args = p.parse_args()
    n = (1 << 24) // (64 if args.quick else 1)
    reps = 5 if args.quick else 25
    out = {"n": n, "libs": {}}
    for lib in args.libs.split(","):
        try:
            m, sync = lib_namespace(lib)
            gpu = gpu_timer(lib, sync)
        except Exception as e:  # a library missing here
            out["libs"][lib] = {"error": repr(e)}
            continue
        if lib == "ours":
            out["device"] = str(m.asarray(0).device)
        rows = {}
        only = set(filter(None, args.only.split(",")))
        for name, call in workloads(m, n).items():
            if only and name not in only:
                continue
            try:
                rows[name] = measure(call, sync, gpu, reps,
                                     m.runtime_stats if lib == "ours" else None)
            except Exception as e:
                rows[name] = {"error": repr(e)[:200]}
            print(lib, name, rows[name], file=sys.stderr)
        out["libs"][lib] = rows
    emit(out, args.out)
    print_table(out["libs"], "workload: per library wall / gpu / rest / call (us); ours: submit / "
                "wait (us), submits", ("wall_us", "gpu_us", "rest_us", "call_us", "submit_us",
                                       "wait_us", "submits"), 16)


def gpu_timer(lib, sync):
    """The GPU time of a batch in library `lib` ("ours", "cupy" or "torch"): ours from the
    runtime's timestamps, CuPy's and torch's from CUDA events."""
    if lib == "ours":
        return ours_gpu
    if lib == "cupy":
        import cupy
        return cuda_gpu(cupy.cuda.Event, sync)
    import torch
    return cuda_gpu(lambda: torch.cuda.Event(enable_timing=True), sync)


def print_table(libs_rows, title, keys, width):
    """To stderr: per row, each library's figures `keys` (those it has); libs_rows: library ->
    row name -> figures, or {"error": ...} for a library that was missing."""
    libs = [k for k, v in libs_rows.items() if "error" not in v]
    print(title, file=sys.stderr)
    for w in libs_rows.get(libs[0], {}) if libs else ():
        print(w.ljust(width), "  ".join(f"{lib} " + " ".join(str(libs_rows[lib].get(w, {}).get(k))
                                                          for k in keys if k in libs_rows[lib].get(w, {}))
                                       for lib in libs), file=sys.stderr)


if __name__ == "__main__":
    main()
