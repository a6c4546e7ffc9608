"""Where a compiled plan's GPU time goes, dispatch by dispatch: the plan of a dataops.py workload
made again keeping only its first k steps, for every k (each a prefix of the real plan, so each
step finds what the steps before it made), and the GPU time of each prefix (median of 5
synchronised calls; runtime_stats()["gpu_seconds"]). A step's cost is its prefix's time less
the one before it. The results of a cut plan are garbage; only the timing is used.

    python3 benchmarks/diag_plan_steps.py --only sort_f32_16M,argsort_f32_16M [--quick]
        [--set '_sort.GHIST_GROUPS=4096;_reduce.FINAL_IN_PASS=false']
    python3 benchmarks/diag_plan_steps.py --linalg --only solve_f64_1024_16rhs   (linalg.py's
        workloads; a cut factorization may report a singular matrix, which is ignored, and each
        op code's steps are summed: "by_op")

Prints one JSON object: per workload, per k, the step's shader and op code and the times.
"""
import importlib
import json
import statistics

import numpy as np

from _common import emit, ours_gpu, parser, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
import dataops  # noqa: E402
import linalg  # noqa: E402
from array_api_vulkan._kernels import _linalg, _matmul, _reduce, _sort  # noqa: E402
from array_api_vulkan._runtime import device as rt_device  # noqa: E402


def _clear_plans():
    for mod in (_sort, _reduce, _matmul, _linalg):
        plans = getattr(mod, "_plans", None)
        if isinstance(plans, dict):
            plans.clear()
    _reduce._scan_plans.clear()


def main():
    ap = parser(__doc__, libs=None)
    ap.add_argument("--set", default="", help="module.NAME=JSON;... knobs of array_api_vulkan._kernels")
    ap.add_argument("--linalg", action="store_true", help="linalg.py's workloads")
    args = ap.parse_args()
    for part in args.set.split(";"):
        if part.strip():
            name, _, value = part.partition("=")
            mod, _, attr = name.strip().rpartition(".")
            setattr(importlib.import_module("array_api_vulkan._kernels." + mod), attr, json.loads(value))
    rng = np.random.default_rng(0)

    def arr(n, dt):
        return xp.asarray(rng.random(n).astype(dt))

    sizes = dict(n=1 << 16, k=256, k_small=64, batch=4, k_batch=32) if args.quick else {}
    table = dataops.workloads(xp, arr, **sizes)
    if args.linalg:
        def tolerant(f):
            def call(*a):
                try:
                    return f(*a)
                except np.linalg.LinAlgError:  # (a cut plan's status words are garbage)
                    return None
            return call

        table = {k: (st, tolerant(f), fl)
                 for k, (st, f, fl) in linalg.ours_workloads(args.quick).items()}
    names = [n for n in args.only.split(",") if n] if args.only else ["sort_f32_16M"]
    real = rt_device.Device.compile_plan
    state = {"keep": None, "steps": None}

    def cut(self, array_type, plan_args, outputs, temps, steps):
        state["steps"] = [(st[0], st[1][0] if st[1] else None, tuple(st[3])) for st in steps]
        if state["keep"] is not None:
            steps = steps[:state["keep"]]
        return real(self, array_type, plan_args, outputs, temps, steps)

    rt_device.Device.compile_plan = cut
    res = {"device": str(xp.__array_namespace_info__().default_device()), "cases": {}}
    try:
        for name in names:
            setup, fn, _ = table[name]
            a = setup()
            state["keep"] = None
            _clear_plans()
            r = fn(*a)
            xp.synchronize()
            del r
            full = state["steps"]
            rows, prev = [], 0.0
            for k in range(1, len(full) + 1):
                state["keep"] = k
                _clear_plans()
                r = fn(*a)  # (makes the cut plan; its first run)
                xp.synchronize()
                del r
                t = statistics.median(ours_gpu(lambda: fn(*a)) for _ in range(5)) * 1e6
                shader, code, groups = full[k - 1]
                rows.append({"k": k, "shader": shader, "op_code": code, "groups": groups,
                             "prefix_us": round(t, 1), "step_us": round(t - prev, 1)})
                prev = t
            res["cases"][name] = rows
            by_op = {}
            for r in rows:
                key = f"{r['shader']}:{r['op_code']}"
                by_op[key] = round(by_op.get(key, 0.0) + r["step_us"], 1)
            res["by_op"] = {**res.get("by_op", {}), name: by_op}
    finally:
        rt_device.Device.compile_plan = real
        state["keep"] = None
        _clear_plans()
    emit(res)


if __name__ == "__main__":
    main()
