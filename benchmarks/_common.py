"""Shared by the benchmark scripts: loading CuPy / torch on their GPU (TF32 off), timing (the
median over repeats after a warm-up, each result kept alive until the synchronize that ends its
timing: with fusion, a result nobody holds is never computed, and timing it would time
nothing), whether a row of ours went through a host fallback, and the command line and JSON
output. Not a benchmark itself.

    from _common import timed, lib_namespace, ...   (scripts run from benchmarks/, or with it
                                                     on sys.path, as benchmarks/suite.py does)
    use_checkout()                                  (before importing array_api_vulkan: this
                                                     checkout's, installed or not)
"""
import argparse
import json
import os
import statistics
import sys
import time


def use_checkout():
    """Puts this checkout's root first on sys.path, so that array_api_vulkan imports from it
    (the tuning scripts run as `python3 benchmarks/X.py`, installed or not)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _xp():
    import array_api_vulkan  # (imported on use: diag_upload's parent process never opens the device)

    return array_api_vulkan


# ------------------------------------------------------------------------------ libraries
def torch_cuda():
    """torch, with a CUDA device and TF32 off (float32 matmuls compute in float32, as ours do);
    raises where torch or its CUDA device is missing."""
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError("torch has no CUDA device")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return torch


def cupy_device():
    """cupy and the synchronize of its current device; raises where CuPy is missing."""
    import cupy

    cupy.cuda.runtime.getDeviceCount()  # (raises where CUDA has no device)
    return cupy, cupy.cuda.Device().synchronize


def lib_namespace(name):
    """(namespace, synchronize) of "ours", "cupy" or "torch"; raises where not available."""
    if name == "ours":
        xp = _xp()
        return xp, xp.synchronize
    if name == "cupy":
        return cupy_device()
    if name == "torch":
        torch = torch_cuda()
        return torch, torch.cuda.synchronize
    raise ValueError(f"unknown library {name!r}")


def random_arrays(m):
    """arr(size, dtype name) of uniform [0, 1) values (complex: both parts) made on the GPU by
    CuPy (m.__name__ == "cupy") or torch (otherwise), in that dtype."""
    if m.__name__ == "cupy":
        def arr(size, dt):
            a = m.random.random(size)
            if dt.startswith("complex"):
                a = a + 1j * m.random.random(size)
            return a.astype(dt)
    else:
        def arr(size, dt):
            if dt.startswith("complex"):
                real = getattr(m, "float64" if dt == "complex128" else "float32")
                return m.complex(m.rand(size, device="cuda", dtype=real),
                                 m.rand(size, device="cuda", dtype=real))
            return m.rand(size, device="cuda", dtype=getattr(m, dt))
    return arr


# ------------------------------------------------------------------------------ timing
def median_time(fn, repeats=7):
    """Median wall seconds of fn() after one untimed call."""
    fn()
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def warm_up(fn, args, sync, n=1, keep=False):
    """n untimed calls fn(*args), each result kept until its synchronize; the last result where
    `keep` (else None)."""
    r = None
    for _ in range(n):
        r = fn(*args)
        sync()
    return r if keep else None


def timed_calls(fn, args, sync, repeats, warmups=1, keep=False, budget=None):
    """(seconds of each call then sync(), seconds of each call alone, the last warm-up's result
    where `keep`) of `repeats` calls fn(*args) after `warmups` untimed ones, each result kept
    until its synchronize. `budget`: seconds after the warm-up past which it stops (three calls
    at least)."""
    first = warm_up(fn, args, sync, warmups, keep)
    end = None if budget is None else time.perf_counter() + budget
    walls, calls = [], []
    for i in range(repeats):
        t0 = time.perf_counter()
        r = fn(*args)
        t1 = time.perf_counter()
        sync()
        walls.append(time.perf_counter() - t0)
        calls.append(t1 - t0)
        del r
        if end is not None and i >= 2 and time.perf_counter() > end:
            break
    return walls, calls, first


def timed(fn, args, sync, repeats):
    """Median seconds of fn(*args) then sync(), after a warm-up; each result kept until its
    synchronize."""
    return statistics.median(timed_calls(fn, args, sync, repeats)[0])


def per_op(fn, sync, inner=20, repeats=7):
    """Median seconds per call over `inner` calls then one synchronize (batched), and with a
    synchronize after every call: (batched, each)."""
    def batched():
        rs = [fn() for _ in range(inner)]
        sync()
        del rs

    def each():
        for _ in range(inner):
            r = fn()
            sync()
            del r

    return median_time(batched, repeats) / inner, median_time(each, repeats) / inner


def sync_wall_us(call, sync, inner=20, repeats=7):
    """Median µs of call() then sync(), over `repeats` timed runs of `inner` such pairs after
    one untimed run (each call's result dropped at once)."""
    return round(median_time(lambda: [(call(), sync()) for _ in range(inner)], repeats) / inner * 1e6, 2)


def per_op_batch(fn, sync, repeats=7, inner=20, warmup=True):
    """Median seconds per call over `inner` calls then one synchronize, after a warm-up call
    where `warmup` (else the first timed batch includes it)."""
    if warmup:
        warm_up(fn, (), sync)
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        rs = [fn() for _ in range(inner)]
        sync()
        ts.append((time.perf_counter() - t) / inner)
        del rs
    return statistics.median(ts)


def chain_per_op(small, read, steps=1000, repeats=5):
    """Seconds per op of `steps` dependent `x = x + 1.0` from `small`, then read(x) (one
    element read): the median over repeats after a warm-up."""
    def run():
        x = small
        for _ in range(steps):
            x = x + 1.0
        read(x)

    return median_time(run, repeats) / steps


def ours_gpu(batch):
    """GPU seconds of one batch of our ops (batch() returns the results, kept until the
    synchronize), from the runtime's per-batch timestamps."""
    xp = _xp()
    xp.synchronize()
    was = xp.set_gpu_timing(True)  # (off by default: it adds to a synchronised call's time)
    before = xp.runtime_stats()["gpu_seconds"]
    rs = batch()
    xp.synchronize()
    del rs
    xp.set_gpu_timing(was)
    return xp.runtime_stats()["gpu_seconds"] - before


def where_steps(xp, a, b, rounds, before, box):
    """The suite's where row a step at a time (issue 10's diagnostics): per round, before(),
    then the seconds of `m = a > 0.5`, of `where(m, a, b)` (kept in box[0]) and of the
    synchronize after them; a list of those triples."""
    clock = time.perf_counter
    rows = []
    for _ in range(rounds):
        before()
        t0 = clock()
        m = a > 0.5
        t1 = clock()
        box[0] = xp.where(m, a, b)
        t2 = clock()
        del m
        xp.synchronize()
        t3 = clock()
        rows.append((t1 - t0, t2 - t1, t3 - t2))
    return rows


def cuda_gpu(event_cls, sync):
    """A function timing a batch on the GPU through CUDA events (CuPy's or torch's)."""
    def gpu(batch):
        sync()
        start, end = event_cls(), event_cls()
        start.record()
        rs = batch()
        end.record()
        end.synchronize()
        del rs
        return start_end_seconds(start, end)

    return gpu


def start_end_seconds(start, end):
    try:
        import cupy

        if isinstance(start, cupy.cuda.Event):
            return cupy.cuda.get_elapsed_time(start, end) / 1e3
    except ImportError:
        pass
    return start.elapsed_time(end) / 1e3  # torch.cuda.Event


# ------------------------------------------------------------------------------ host fallbacks
def fallbacks():
    """A copy of ours' host fallback counts so far."""
    return dict(_xp().runtime_stats()["host_fallbacks"])


def grew(before, after):
    """The fallback counts that grew from `before` to `after`, by how much."""
    return {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}


def mark_native(row, before):
    """row["native"] (and row["host"], the fallbacks that ran) since the snapshot `before`."""
    host = grew(before, fallbacks())
    row["native"] = not host
    if host:
        row["host"] = host
    return row


def run_table(name, table, sync, res, only, repeats, rate=("TFLOPs", 1e12, 2)):
    """Times each workload of table (name -> (setup() -> args, fn(*args), flops or None)) with a
    synchronize after every call into res[f"{name}_{workload}"]: {"us", rate, and for ours
    "native" / "host"}; a workload that fails is recorded as "failed: ..."."""
    key, scale, digits = rate
    for wname, (setup, fn, flops) in table.items():
        if only and wname not in only:
            continue
        try:
            args = setup()
            before = fallbacks() if name == "ours" else None
            t = timed(fn, args, sync, repeats)
            row = {"us": round(t * 1e6, 1)}
            if flops:
                row[key] = round(flops / t / scale, digits)
            if before is not None:
                mark_native(row, before)
            res[f"{name}_{wname}"] = row
        except Exception as e:
            res[f"{name}_{wname}"] = f"failed: {type(e).__name__}: {str(e)[:200]}"


# ------------------------------------------------------------------------------ command line
def parser(doc, quick=True, only=True, libs="ours,cupy,torch"):
    """The scripts' argument parser: --out (the JSON also written there), and where asked
    --quick (fewer repeats / small sizes, a smoke test on lavapipe), --only and --libs."""
    ap = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    ap.add_argument("--out")
    if quick:
        ap.add_argument("--quick", action="store_true",
                        help="fewer repeats / smaller sizes (a smoke test on lavapipe)")
    if only:
        ap.add_argument("--only", default="", help="comma-separated workload names")
    if libs:
        ap.add_argument("--libs", default=libs)
    return ap


def knob_variants(text):
    """[(label, knobs)] from a diagnostic's --variants, "label=JSON;label=JSON": each JSON object
    names module attributes and their values."""
    out = []
    for part in text.split(";"):
        if part.strip():
            label, _, js = part.partition("=")
            out.append((label.strip(), json.loads(js)))
    return out


def set_knobs(module, defaults, knobs):
    """module's attributes named in `defaults` back to those values, then `knobs` set (a variant
    of knob_variants; {} restores the defaults)."""
    for k, v in defaults.items():
        setattr(module, k, v)
    for k, v in knobs.items():
        setattr(module, k, v)


def only_set(args):
    return set(filter(None, args.only.split(",")))


def device_name():
    return _xp().__array_namespace_info__().default_device().name


def for_each_lib(libs, fn, res):
    """fn(name) for each comma-separated library; one that raises (CuPy or torch missing) is
    recorded as res[name] = "unavailable: ..."."""
    for name in libs.split(","):
        try:
            fn(name)
        except Exception as e:
            res[name] = f"unavailable: {type(e).__name__}: {e}"


def run_libs(args, run_lib, *extra):
    """The table scripts' main: run_lib(lib, res, only, repeats, *extra) for each of --libs
    (7 repeats, 3 with --quick), then the JSON."""
    res = {"device": device_name()}
    for_each_lib(args.libs, lambda lib: run_lib(lib, res, only_set(args), 3 if args.quick else 7, *extra),
                 res)
    emit(res, args.out)


def emit(res, out=None, indent=1):
    """Prints res as JSON, and writes it to `out` where given."""
    text = json.dumps(res, indent=indent, default=str)
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text)


def cpu_now():
    """The CPU this thread last ran on (field 39 of /proc/thread-self/stat), or -1. On the
    lent H100 VM a process whose main thread sits on one CPU (14, which takes the host's I/O)
    waits about 40 us longer per synchronised call (docs/benchmarks.md, run 22)."""
    try:
        with open("/proc/thread-self/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[36])
    except (OSError, IndexError, ValueError):
        return -1

