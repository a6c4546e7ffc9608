"""cProfile of our workloads (diag_split.py's) each synchronised after every call: where the
host time of a call goes, function by function (the time in C++ shows as its Python caller's).

    python3 benchmarks/diag_profile.py [--quick] [--only sum_f32,where_f32] [--top 12] [--steps] [--with-sync]

--steps profiles diag_steps.py's end-to-end steps instead (--only: their names' first words,
e.g. "lr sigmoid").
"""
import cProfile
import pstats

from _common import parser, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from diag_split import workloads  # noqa: E402


def main():
    ap = parser(__doc__, libs=None)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--steps", action="store_true")
    ap.add_argument("--with-sync", action="store_true", help="profile the synchronize too")
    args = ap.parse_args()
    n = (1 << 24) // (64 if args.quick else 1)
    reps = 20 if args.quick else 200
    only = set(filter(None, args.only.split(",")))
    if args.steps:
        from diag_steps import steps
        from workloads import FULL, QUICK
        calls = {name: op for name, op in steps(xp, xp.asarray, QUICK if args.quick else FULL)
                 if not only or any(name.startswith(o) for o in only)}
        only = set()
    else:
        calls = workloads(xp, n)
    for name, call in calls.items():
        if only and name not in only:
            continue
        for _ in range(3):
            r = call()
            xp.synchronize()
            del r
        pr = cProfile.Profile()
        for _ in range(reps):
            pr.enable()
            r = call()
            if args.with_sync:
                xp.synchronize()
            pr.disable()
            xp.synchronize()
            del r
        st = pstats.Stats(pr).stats  # (file, line, function) -> (cc, calls, tottime, cumtime, callers)
        rows = sorted(st.items(), key=lambda kv: -kv[1][2])[:args.top]
        print(f"== {name}: us per call (own, with callees), calls per call; {reps} calls")
        for (f, line, fn), (_, nc, tt, ct, _) in rows:
            where = f"{f.rsplit('/', 1)[-1]}:{line}({fn})" if line else fn
            print(f"{tt / reps * 1e6:9.1f} {ct / reps * 1e6:9.1f} {nc / reps:6.1f}  {where}")

if __name__ == "__main__":
    main()
