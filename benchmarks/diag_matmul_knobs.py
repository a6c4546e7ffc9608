"""GPU time and the driver's register count of the matmul fast path under module-knob settings of
_kernels._matmul, alternating the settings over rounds in one process (A/B without a rebuild).

    python3 benchmarks/diag_matmul_knobs.py [--quick] [--rounds 3] [--only f32_4096,f64_4096]
        [--variants 'static={"STATIC_MODES": true};dynamic={"STATIC_MODES": false}']

Each variant is label=JSON of knobs (FORCE_FAST given as {"4": [wx, wy, rm, rn, tk]} or "8").
Prints one JSON object: per case and variant the median GPU microseconds a product, TFLOP/s,
the largest error of a sample against float64, and (ARRAY_API_VULKAN_PIPELINE_STATS=1 before
the device opens, set here) the registers of the pipelines it records.
"""
import os
import statistics

os.environ.setdefault("ARRAY_API_VULKAN_PIPELINE_STATS", "1")

import numpy as np  # noqa: E402

from _common import emit, knob_variants, ours_gpu, parser, set_knobs, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _matmul  # noqa: E402
from diag_pipelines import recorded  # noqa: E402

CASES = {"f32_4096": ("float32", 4096), "f64_4096": ("float64", 4096),
         "f32_1024": ("float32", 1024), "f64_1024": ("float64", 1024),
         "f32_4000": ("float32", 4000), "f64_4000": ("float64", 4000)}
DEFAULT_VARIANTS = 'static={"STATIC_MODES": true};dynamic={"STATIC_MODES": false}'


def parse_variants(text):
    """knob_variants, with FORCE_FAST's element widths as ints and its tiles as tuples."""
    out = knob_variants(text)
    for _, knobs in out:
        if "FORCE_FAST" in knobs:
            knobs["FORCE_FAST"] = {int(w): tuple(c) for w, c in knobs["FORCE_FAST"].items()}
    return out


def main():
    ap = parser(__doc__, libs=None)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--variants", default=DEFAULT_VARIANTS)
    args = ap.parse_args()
    variants = parse_variants(args.variants)
    names = [n for n in (args.only.split(",") if args.only else ["f32_4096", "f64_4096"]) if n]
    dev = xp.__array_namespace_info__().default_device()
    defaults = {k: getattr(_matmul, k) for _, kn in variants for k in kn}
    rng = np.random.default_rng(0)
    res = {"device": str(dev), "variants": dict(variants), "cases": {}}
    for name in names:
        dt, n = CASES[name]
        if args.quick:
            n = n // 16
        a = rng.standard_normal((n, n)).astype(dt)
        b = rng.standard_normal((n, n)).astype(dt)
        xa, xb = xp.asarray(a), xp.asarray(b)
        ref = a[:16].astype(np.float64) @ b.astype(np.float64)
        rows = {lab: {"us": []} for lab, _ in variants}
        for rnd in range(args.rounds):
            for lab, knobs in variants:
                set_knobs(_matmul, defaults, knobs)
                _matmul._plans.clear()
                if rnd == 0:
                    seen = recorded(lambda: xa @ xb)
                    regs = []
                    for shader, spec in seen:
                        st = dev.pipeline_statistics(shader, spec)
                        if st:
                            regs.append([shader, list(spec), st[0][1].get("Register Count")])
                    rows[lab]["pipelines"] = regs
                    got = np.asarray(xp.asarray(xa @ xb)[:16])
                    rows[lab]["err"] = float(np.max(np.abs(got - ref)) / np.max(np.abs(ref)))
                (xa @ xb)
                xp.synchronize()
                rows[lab]["us"].append(statistics.median(ours_gpu(lambda: xa @ xb) for _ in range(5)) * 1e6)
        for lab in rows:
            t = statistics.median(rows[lab]["us"])
            rows[lab]["median_us"] = t
            rows[lab]["tflops"] = 2 * n ** 3 / (t * 1e-6) / 1e12
        res["cases"][name] = rows
    set_knobs(_matmul, defaults, {})
    emit(res)


if __name__ == "__main__":
    main()
