"""Sort-family settings compared on one GPU (issue 8): the single sweep a pass (ONESWEEP) against
the tile histogram and scan passes, keys per invocation (KPT), digit matching by
subgroupPartitionNV (USE_PARTITIONED) and the look-back's polling (LOOKBACK_POLL_GPU), on sort
and argsort of float32 16M, sort of int32 16M and unique_values of int32 16M with 1000 distinct
values. The configurations take turns over
ROUNDS rounds (so that a slow spell of the GPU hits them all); each figure is the best round's
median GPU time per call (runtime_stats()["gpu_seconds"], synchronised calls). Each result is
checked against numpy once. With --stats, each configuration's scatter pipeline's registers and
local memory (the driver's statistics) too. Not a test; prints one JSON object.

    python3 benchmarks/diag_sort.py [--quick] [--stats] [--configs onesweep_kpt8,onesweep_kpt16]
"""
import os
import statistics
import sys

if "--stats" in sys.argv:  # (read at import by the runtime)
    os.environ["ARRAY_API_VULKAN_PIPELINE_STATS"] = "1"

import numpy as np

from _common import emit, ours_gpu, parser, use_checkout, warm_up

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _sort  # noqa: E402

ROUNDS = 3
REPS = 5
CONFIGS = {
    "defaults": {},
    # the look-back reading 2, 3, 4 or 8 earlier tiles' words at once (WALK_WINDOW_GPU)
    "walk2": dict(WALK_WINDOW_GPU=2),
    "walk3": dict(WALK_WINDOW_GPU=3),
    # the histogram pass in 512, 2048 or 4096 workgroups (GHIST_GROUPS; at the defaults)
    "gh512": dict(GHIST_GROUPS=512),
    "gh2048": dict(GHIST_GROUPS=2048),
    "gh4096": dict(GHIST_GROUPS=4096),
    "walk4": dict(WALK_WINDOW_GPU=4),
    "walk8": dict(WALK_WINDOW_GPU=8),
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
    # the scatter reordering key words, not digits (KEY_REORDER_GPU), and wider workgroups
    # (RADIX_LOCAL_GPU: tiles of LS x KPT keys)
    "ls256_kpt8": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=256, KEY_REORDER_GPU=0),
    "onesweep_kpt8_kr": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=256, KEY_REORDER_GPU=1),
    "ls512_kpt8": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=512, KEY_REORDER_GPU=0),
    "ls512_kpt8_kr": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=512, KEY_REORDER_GPU=1),
    "ls768_kpt8_kr": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=768, KEY_REORDER_GPU=1),
    "ls1024_kpt8": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=1024, KEY_REORDER_GPU=0),
    "ls1024_kpt8_kr": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=1024, KEY_REORDER_GPU=1),
    "ls512_kpt6_kr": dict(ONESWEEP=True, KPT=6, RADIX_LOCAL_GPU=512, KEY_REORDER_GPU=1),
    "ls512_kpt12_kr": dict(ONESWEEP=True, KPT=12, RADIX_LOCAL_GPU=512, KEY_REORDER_GPU=1),
    "ls1024_kpt4_kr": dict(ONESWEEP=True, KPT=4, RADIX_LOCAL_GPU=1024, KEY_REORDER_GPU=1),
    "ls384_kpt8_kr": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=384, KEY_REORDER_GPU=1),
    "ls384_kpt12_kr": dict(ONESWEEP=True, KPT=12, RADIX_LOCAL_GPU=384, KEY_REORDER_GPU=1),
    "ls384_kpt10_kr": dict(ONESWEEP=True, KPT=10, RADIX_LOCAL_GPU=384, KEY_REORDER_GPU=1),
    "ls320_kpt8_kr": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=320, KEY_REORDER_GPU=1),
    "ls352_kpt8": dict(KPT=8, RADIX_LOCAL_GPU=352),
    "ls352_kpt10": dict(KPT=10, RADIX_LOCAL_GPU=352),
    "ls416_kpt8": dict(KPT=8, RADIX_LOCAL_GPU=416),
    "ls416_kpt10": dict(KPT=10, RADIX_LOCAL_GPU=416),
    "ls384_kpt9": dict(KPT=9, RADIX_LOCAL_GPU=384),
    "ls448_kpt8_kr": dict(ONESWEEP=True, KPT=8, RADIX_LOCAL_GPU=448, KEY_REORDER_GPU=1),
    "ls512_kpt10_kr": dict(ONESWEEP=True, KPT=10, RADIX_LOCAL_GPU=512, KEY_REORDER_GPU=1),
    "ls512_kpt16_kr": dict(ONESWEEP=True, KPT=16, RADIX_LOCAL_GPU=512, KEY_REORDER_GPU=1),
    # the defaults' scatter built wrong on purpose, without parts of its work (DIAG_PARTS; the
    # results are not checked): no look-back walk, no global writes, neither, keys not loaded
    # (and no writes), no payload, no ranking (and no writes), none of them
    "parts_nowalk": dict(ONESWEEP=True, KPT=8, DIAG_PARTS=1),
    "parts_nowrite": dict(ONESWEEP=True, KPT=8, DIAG_PARTS=2),
    "parts_nowalk_nowrite": dict(ONESWEEP=True, KPT=8, DIAG_PARTS=3),
    "parts_noload_nowrite": dict(ONESWEEP=True, KPT=8, DIAG_PARTS=6),
    "parts_nopayload": dict(ONESWEEP=True, KPT=8, DIAG_PARTS=8),
    "parts_norank_nowrite": dict(ONESWEEP=True, KPT=8, DIAG_PARTS=18),
    "parts_bare": dict(ONESWEEP=True, KPT=8, DIAG_PARTS=31),
}


# the module's own values of the knobs some configurations change, for the others
DEFAULTS = {k: getattr(_sort, k) for k in ("GH_AGG", "LOOKBACK_POLL_GPU", "GHIST_GROUPS",
                                           "RADIX_LOCAL_GPU", "KEY_REORDER_GPU", "USE_PARTITIONED",
                                           "DIAG_PARTS", "KPT_GPU", "WALK_WINDOW_GPU")}


def setup(cfg):
    """The module's knobs as cfg says (its KPT for every radix plan on a GPU too), the module's
    own values for the others ("defaults": {} is the module as shipped)."""
    cfg = dict(DEFAULTS, **cfg)
    for k, v in cfg.items():
        setattr(_sort, k, v)
    if "KPT" in cfg:
        _sort.KPT_GPU = _sort.KPT


def gpu_per_call(fn, reps):
    warm_up(fn, (), xp.synchronize, n=2)
    return statistics.median(ours_gpu(fn) for _ in range(reps))


def main():
    ap = parser(__doc__, only=False, libs=None)
    ap.add_argument("--configs", default="", help="comma-separated names from CONFIGS (default all)")
    ap.add_argument("--stats", action="store_true", help="the scatter pipelines' driver statistics")
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
             "unique_i32_1000": (lambda: xp.unique_values(d["u"]), lambda: np.unique(h["u"])),
             "argsort_i32_1000": (lambda: xp.argsort(d["u"]), lambda: np.argsort(h["u"], kind="stable"))}
    dev = xp.__array_namespace_info__().default_device()
    res = {"device": dev.name, "n": n, "us": {}, "ok": {}}
    for name, cfg in configs.items():
        setup(cfg)
        if cfg.get("DIAG_PARTS"):
            res["ok"][name] = "not checked (built wrong on purpose)"
            continue
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
    if args.stats:
        from diag_pipelines import LOCAL_BASE, recorded
        dev = d["f32"]._alloc.device
        res["scatter_stats"] = {}
        for name, cfg in configs.items():
            setup(cfg)
            for case in ("sort_f32", "argsort_f32"):
                _sort._plans.clear()  # (a kept plan records no new steps)
                for shader, spec in recorded(cases[case][0]):
                    if spec[0] != _sort.CODES["sort_scatter"]:
                        continue
                    for _exe, st in dev.pipeline_statistics(shader, spec):
                        res["scatter_stats"][f"{name} {case}"] = {
                            "registers": st.get("Register Count"),
                            "local_bytes": st.get("Local Memory Size", LOCAL_BASE) - LOCAL_BASE}
    emit(res)


if __name__ == "__main__":
    main()
