"""Sort-family settings compared on one GPU (issue 8): the single sweep a pass (ONESWEEP) against
the tile histogram and scan passes, keys per invocation (KPT), digit matching by
subgroupPartitionNV (USE_PARTITIONED) and the look-back's polling (LOOKBACK_POLL_GPU), on sort
and argsort of float32 16M, sort of int32 16M and unique_values of int32 16M with 1000 distinct
values. The configurations take turns over
ROUNDS rounds (so that a slow spell of the GPU hits them all); each figure is the best round's
median GPU time per call (runtime_stats()["gpu_seconds"], synchronised calls). Each result is
checked against numpy once. Not a test; prints one JSON object.

    python3 benchmarks/diag_sort.py [--quick] [--configs onesweep_kpt8,onesweep_kpt16]
"""
import statistics

import numpy as np

from _common import emit, ours_gpu, parser, use_checkout, warm_up

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _sort  # noqa: E402

ROUNDS = 3
REPS = 5
CONFIGS = {
    "twopass_kpt8": dict(ONESWEEP=False, KPT=8, USE_PARTITIONED=False),
    "onesweep_kpt8": dict(ONESWEEP=True, KPT=8, USE_PARTITIONED=False),
    "onesweep_kpt8_sgp": dict(ONESWEEP=True, KPT=8, USE_PARTITIONED=True),
    "onesweep_kpt12": dict(ONESWEEP=True, KPT=12, USE_PARTITIONED=False),
    "onesweep_kpt16": dict(ONESWEEP=True, KPT=16, USE_PARTITIONED=False),
    "onesweep_kpt4": dict(ONESWEEP=True, KPT=4, USE_PARTITIONED=False),
    "onesweep_kpt8_ghagg": dict(ONESWEEP=True, KPT=8, USE_PARTITIONED=False, GH_AGG=1),
    "onesweep_kpt8_gh4096": dict(ONESWEEP=True, KPT=8, USE_PARTITIONED=False, GHIST_GROUPS=4096),
    "onesweep_kpt8_gh256": dict(ONESWEEP=True, KPT=8, USE_PARTITIONED=False, GHIST_GROUPS=256),
    "onesweep_kpt6": dict(ONESWEEP=True, KPT=6, USE_PARTITIONED=False),
    # the look-back polling by atomicAdd of 0, as before run 13 (the others: loads)
    "onesweep_kpt8_atomicpoll": dict(ONESWEEP=True, KPT=8, USE_PARTITIONED=False, LOOKBACK_POLL_GPU=0),
}


# the module's own values of the knobs some configurations change, for the others
DEFAULTS = {k: getattr(_sort, k) for k in ("GH_AGG", "LOOKBACK_POLL_GPU", "GHIST_GROUPS")}


def setup(cfg):
    cfg = dict(DEFAULTS, **cfg)
    for k, v in cfg.items():
        setattr(_sort, k, v)
    _sort.KPT_GPU = _sort.KPT


def gpu_per_call(fn, reps):
    warm_up(fn, (), xp.synchronize, n=2)
    return statistics.median(ours_gpu(fn) for _ in range(reps))


def main():
    ap = parser(__doc__, only=False, libs=None)
    ap.add_argument("--configs", default="", help="comma-separated names from CONFIGS (default all)")
    args = ap.parse_args()
    configs = {k: CONFIGS[k] for k in args.configs.split(",")} if args.configs else CONFIGS
    n = (1 << 16) if args.quick else (16 << 20)
    rounds, reps = (1, 2) if args.quick else (ROUNDS, REPS)
    rng = np.random.default_rng(0)
    h = {"f32": rng.random(n, dtype=np.float32),
         "i32": rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32),
         "u": rng.integers(0, 1000, n).astype(np.int32)}
    d = {k: xp.asarray(v) for k, v in h.items()}
    cases = {"sort_f32": (lambda: xp.sort(d["f32"]), lambda: np.sort(h["f32"])),
             "argsort_f32": (lambda: xp.argsort(d["f32"]), lambda: np.argsort(h["f32"], kind="stable")),
             "sort_i32": (lambda: xp.sort(d["i32"]), lambda: np.sort(h["i32"])),
             "unique_i32_1000": (lambda: xp.unique_values(d["u"]), lambda: np.unique(h["u"]))}
    dev = xp.__array_namespace_info__().default_device()
    res = {"device": dev.name, "n": n, "us": {}, "ok": {}}
    for name, cfg in configs.items():
        setup(cfg)
        res["ok"][name] = all(np.array_equal(np.asarray(f()), ref()) for f, ref in cases.values())
    best = {}
    for _ in range(rounds):
        for name, cfg in configs.items():
            setup(cfg)
            for case, (f, _ref) in cases.items():
                t = gpu_per_call(f, reps)
                key = (name, case)
                best[key] = min(best.get(key, t), t)
    for (name, case), t in best.items():
        res["us"].setdefault(case, {})[name] = round(t * 1e6, 1)
    emit(res)


if __name__ == "__main__":
    main()
