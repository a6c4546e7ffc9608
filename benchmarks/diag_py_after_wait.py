"""Whether Python runs slower right after a host wait (issue 10's synchronised calls): the same
host work timed right after `a + b; synchronize()` (the wait polls the fence) and right after a
Python busy loop of about the same length with the device idle and `after_wait()` true alike.

    python3 benchmarks/diag_py_after_wait.py [--quick] [--rounds 300]

Prints one JSON object: per case, the median µs of the timed work. Work: `py` (a fixed pure
Python function: dict lookups, attribute reads, calls, a small object), `gt` (`a > 0.5`: held
for fusion where the window says so, else recorded at once), `add` (`a + b`, the call only).
Before it: `wait` (the op `a + b` on 2^24 float32 and synchronize(): a wait of about the
kernel's length), `spin` (synchronize() of nothing, then a Python busy loop of `--spin-us`),
`sleep` (synchronize() of nothing, then time.sleep of the same length).
"""
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import emit, parser, use_checkout, where_steps  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402


class _Probe:
    __slots__ = ("a", "b", "c", "d")


_TABLE = {("add", i): i for i in range(64)}


def _step(x, k):
    return _TABLE.get(("add", k & 63), 0) + x


def py_work():
    """About a held op's worth of plain Python."""
    acc = 0
    items = []
    for k in range(40):
        acc = _step(acc, k)
        p = _Probe()
        p.a, p.b, p.c, p.d = k, acc, items, None
        items.append((p.a, p.b))
    return acc + len(items)


def threads():
    """{tid: (name, ns run, nonvoluntary switches)} of this process's threads (Linux)."""
    res = {}
    base = "/proc/self/task"
    try:
        tids = os.listdir(base)
    except OSError:
        return res
    for t in tids:
        try:
            with open(f"{base}/{t}/comm") as f:
                name = f.read().strip()
            with open(f"{base}/{t}/schedstat") as f:
                ns = int(f.read().split()[0])
            nv = 0
            with open(f"{base}/{t}/status") as f:
                for line in f:
                    if line.startswith("nonvoluntary_ctxt_switches"):
                        nv = int(line.split()[1])
        except (OSError, ValueError, IndexError):
            continue
        res[t] = (name, ns, nv)
    return res


def main():
    ap = parser(__doc__, libs=None, only=False)
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--spin-us", type=float, default=60.0)
    args = ap.parse_args()
    n = (1 << 16) if args.quick else (1 << 24)
    a = xp.asarray(np.random.default_rng(0).random(n, dtype=np.float32))
    b = xp.asarray(np.random.default_rng(1).random(n, dtype=np.float32))
    clock = time.perf_counter
    spin = args.spin_us * 1e-6
    box = [None, None]
    env = {k: v for k, v in os.environ.items() if k.startswith("ARRAY_API_VULKAN_")}
    out = {"n": n, "device": str(a.device), "env": env, "spin_us": args.spin_us, "cases": {}}

    def before(kind):
        if kind == "wait":
            box[0] = a + b
            xp.synchronize()
        else:
            xp.synchronize()
            if kind == "spin":
                t = clock() + spin
                while clock() < t:
                    pass
            else:
                time.sleep(spin)

    def work(kind):
        if kind == "py":
            py_work()
        elif kind == "gt":
            box[1] = a > 0.5
        else:
            box[1] = a + b

    th0 = threads()
    t_start = clock()
    for w in ("py", "gt", "add"):
        for kind in ("wait", "spin", "sleep"):
            work(w)
            xp.synchronize()
            rows = []
            for i in range(args.rounds):
                before(kind)
                t0 = clock()
                work(w)
                t1 = clock()
                work(w) if w == "py" else None
                t2 = clock()
                rows.append((t1 - t0, t2 - t1))
                box[1] = None
            xp.synchronize()
            rows = rows[10:]
            med = [round(statistics.median(r[k] for r in rows) * 1e6, 2) for k in range(2)]
            out["cases"][f"{w}_after_{kind}"] = med[0] if w != "py" else med
    # the suite's where row, a step at a time, after each kind
    kept = [None]  # (where's result, kept until the next round's)
    for kind in ("wait", "spin"):
        rows = where_steps(xp, a, b, args.rounds, lambda: before(kind), kept)[10:]
        out["cases"][f"where_steps_after_{kind}"] = [
            round(statistics.median(r[k] for r in rows) * 1e6, 2) for k in range(3)]
    th1 = threads()
    span = clock() - t_start
    # each thread's share of the run (the main thread is this one), and its preemptions
    out["threads"] = {
        f"{v[0]}:{t}": {"run_ms": round((v[1] - th0.get(t, (0, 0, 0))[1]) / 1e6, 2),
                        "preempted": v[2] - th0.get(t, (0, 0, 0))[2]}
        for t, v in th1.items()}
    out["span_ms"] = round(span * 1e3, 1)
    out["rounds_total"] = args.rounds * 11
    # the suite's add row: wall time of a synchronised call (ours, and torch where present)
    libs = [("ours", lambda: a + b, xp.synchronize)]
    try:
        from _common import torch_cuda

        torch = torch_cuda()
        ta = torch.from_numpy(np.random.default_rng(0).random(n, dtype=np.float32)).cuda()
        tb = torch.from_numpy(np.random.default_rng(1).random(n, dtype=np.float32)).cuda()
        libs.append(("torch", lambda: ta + tb, torch.cuda.synchronize))
    except Exception:
        pass
    for rnd in range(2):
        for name, op, sync in libs:
            rows = []
            for i in range(args.rounds):
                t0 = clock()
                box[1] = op()
                sync()
                rows.append(clock() - t0)
            out["cases"][f"sync_add_{name}_{rnd}"] = round(statistics.median(rows[10:]) * 1e6, 2)
    emit(out, args.out)


if __name__ == "__main__":
    main()
