"""A/B of a kernels module's knobs on benchmarks/dataops.py's workloads, alternated over rounds in
one process: per variant the GPU time of a synchronised call (runtime_stats()["gpu_seconds"],
median of 5) and its wall time synchronised after every call (median of 3 repeats of 20 calls).

    python3 benchmarks/diag_knobs_ab.py --module _reduce --only sum_f32_16M,argmax_f32_16M
        --variants 'static={"STATIC_MODE": true};pushed={"STATIC_MODE": false}' [--rounds 3] [--quick]
        [--e2e]   (workloads.py's end-to-end workloads instead: logistic_regression, kmeans, ...)
        [--linalg] (linalg.py's factorization workloads instead: batched_inv_f32_4096x32, ...)

Each variant is label=JSON of module attributes. Prints one JSON object.
"""
import importlib
import statistics
import time

import numpy as np

from _common import emit, knob_variants, ours_gpu, parser, set_knobs, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
import dataops  # noqa: E402
import linalg  # noqa: E402
import workloads  # noqa: E402


def main():
    ap = parser(__doc__, libs=None)
    ap.add_argument("--module", required=True, help="a module of array_api_vulkan._kernels, e.g. _reduce, "
                    "or 'recorder' (the default device's Recorder)")
    ap.add_argument("--variants", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--e2e", action="store_true", help="workloads.py's end-to-end workloads")
    ap.add_argument("--linalg", action="store_true", help="linalg.py's factorization workloads")
    args = ap.parse_args()
    if args.module == "recorder":  # (the default device's Recorder: early_ahead, early_bytes, ...)
        mod = xp.ones(1)._alloc.device._rec
    else:
        mod = importlib.import_module("array_api_vulkan._kernels." + args.module)
    variants = knob_variants(args.variants)
    defaults = {k: getattr(mod, k) for _, kn in variants for k in kn}
    rng = np.random.default_rng(0)

    def arr(n, dt):
        return xp.asarray(rng.random(n).astype(dt))

    sizes = dict(n=1 << 16, k=256, k_small=64, batch=4, k_batch=32) if args.quick else {}
    table = dataops.workloads(xp, arr, **sizes)
    if args.e2e:
        s = workloads.QUICK if args.quick else workloads.FULL

        def e2e(f, data, kw):
            return lambda: (data,), lambda d: f(xp, d, **kw), None

        table = {name: e2e(f, {k: xp.asarray(v) for k, v in workloads.make_data(
                     name, s, np.random.default_rng(7)).items()}, kw(s))
                 for name, (f, kw) in workloads.E2E.items()}
    if args.linalg:
        table = linalg.ours_workloads(args.quick)
    names = [n for n in args.only.split(",") if n] if args.only else list(table)
    res = {"device": str(xp.__array_namespace_info__().default_device()), "module": args.module,
           "variants": dict(variants), "cases": {}}
    for name in names:
        setup, fn, _ = table[name]
        a = setup()
        rows = {lab: {"gpu_us": [], "sync_us": []} for lab, _ in variants}
        for _ in range(args.rounds):
            for lab, knobs in variants:
                set_knobs(mod, defaults, knobs)
                r = fn(*a)
                xp.synchronize()
                del r
                rows[lab]["gpu_us"].append(statistics.median(ours_gpu(lambda: fn(*a)) for _ in range(5)) * 1e6)
                reps = []
                for _ in range(3):
                    t0 = time.perf_counter()
                    for _ in range(20):
                        r = fn(*a)
                        xp.synchronize()
                    reps.append((time.perf_counter() - t0) / 20 * 1e6)
                    del r
                rows[lab]["sync_us"].append(statistics.median(reps))
        for lab in rows:
            rows[lab]["gpu_median"] = statistics.median(rows[lab]["gpu_us"])
            rows[lab]["sync_median"] = statistics.median(rows[lab]["sync_us"])
        res["cases"][name] = rows
    set_knobs(mod, defaults, {})
    emit(res)


if __name__ == "__main__":
    main()
