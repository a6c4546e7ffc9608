"""The cross-library benchmark suite (issue 10): the same workloads, written once against the
Python Array API, timed through array_api_vulkan ("ours"), numpy, and where importable CuPy,
torch and JAX (through array-api-compat / jax.numpy), each synchronised its own way.

    python benchmarks/suite.py [--quick] [--libs ours,cupy,torch,jax,numpy] [--only a,b] [--out DIR]
    python benchmarks/suite.py --replot DIR     # the report and plot again from DIR/suite.json
    python benchmarks/suite.py --combine DIR1,DIR2 --out DIR   # runs of different libraries, merged

--only takes workload names or group names (elementwise, chain, dataops, linalg, transfer,
startup, e2e). Each workload is warmed up once, then timed in two modes, each the median over
repeats of a few calls: "sync" (synchronise after every call: the latency a caller sees) and
"batched" (the calls back to back, one synchronise at the end: throughput). Writes DIR/suite.json
(every figure), DIR/suite.md (device, driver, date, versions and the tables, with each library's
ratio to the fastest) and DIR/suite.png (ratios to the fastest library per workload, log scale;
skipped, saying so, where matplotlib is missing). A row where array_api_vulkan went through a
host fallback (runtime_stats()["host_fallbacks"] grew during that workload) is marked "host".
A library or workload that fails is recorded as "error: ..." and the run goes on. Not a test:
tests/test_bench_suite.py runs it with --quick as a smoke test.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dataops  # noqa: E402  (the data-op and matmul table, shared with benchmarks/dataops.py)
import workloads as wl  # noqa: E402
from _common import cpu_now, grew as _grew, torch_cuda  # noqa: E402

LIBS = ("ours", "cupy", "torch", "jax", "numpy")  # numpy (host) last: the slowest to run
GROUPS = ("elementwise", "chain", "dataops", "linalg", "transfer", "startup", "e2e")

FULL = dict(n=16 << 20, k=4096, k_small=1024, batch=64, k_batch=256, k_la=1024, rhs=16, fft_n=1 << 24,
            transfer_bytes=256 << 20, chain=1000, **wl.FULL)
QUICK = dict(n=1 << 14, k=128, k_small=64, batch=4, k_batch=32, k_la=64, rhs=4, fft_n=1 << 12,
             transfer_bytes=1 << 20, chain=200, **wl.QUICK)


# ----------------------------------------------------------------------------------- libraries

class Lib:
    """One library: its array-API namespace `xp`, put (numpy -> device array), get (-> numpy),
    sync(result) (wait for the device; JAX blocks on the result), and what to report about it."""

    def __init__(self, name, xp, put, get, sync, versions, device, asynchronous=True, dtypes=None,
                 release=None):
        self.name, self.xp, self.put, self.get, self.sync = name, xp, put, get, sync
        self.versions, self.device, self.asynchronous = versions, device, asynchronous
        self.dtypes = dtypes  # names of the dtypes it has, or None for all
        self.release = release or (lambda: None)  # gives its memory pool back (before the next library)

    def has(self, *names):
        return self.dtypes is None or all(n in self.dtypes for n in names)


def _compat(module_name, fallback):
    try:
        import importlib

        return importlib.import_module(f"array_api_compat.{module_name}")
    except ImportError:
        return fallback


def load(name):
    """The Lib for `name`; raises (ImportError, RuntimeError...) where it is not available."""
    if name == "ours":
        import array_api_vulkan as m

        info = m.__array_namespace_info__()
        dev = info.default_device()
        return Lib(name, m, m.asarray, np.asarray, lambda r=None: m.synchronize(),
                   {"array_api_vulkan": m.__version__}, _ours_device(dev),
                   dtypes=set(info.dtypes(device=dev)))
    if name == "numpy":
        m = _compat("numpy", np)  # numpy 2.0 lacks cumulative_sum, which the wrapper adds
        return Lib(name, m, lambda a: np.array(a, copy=True), lambda a: np.array(a, copy=True), lambda r=None: None,
                   {"numpy": np.__version__, **_compat_version(m)}, f"host CPU ({platform.processor() or platform.machine()}, "
                   f"{os.cpu_count()} logical cores)", asynchronous=False)
    if name == "cupy":
        import cupy

        m = _compat("cupy", cupy)
        dev = cupy.cuda.Device()
        props = cupy.cuda.runtime.getDeviceProperties(dev.id)
        return Lib(name, m, cupy.asarray, cupy.asnumpy, lambda r=None: dev.synchronize(),
                   {"cupy": cupy.__version__, **_compat_version(m)}, _decode(props.get("name", b"?")),
                   release=lambda: cupy.get_default_memory_pool().free_all_blocks())
    if name == "torch":
        torch = torch_cuda()
        m = _compat("torch", torch)
        return Lib(name, m, lambda a: torch.from_numpy(np.ascontiguousarray(a)).to("cuda"),
                   lambda t: t.cpu().numpy(), lambda r=None: torch.cuda.synchronize(),
                   {"torch": torch.__version__, "cuda": str(torch.version.cuda), **_compat_version(m)},
                   torch.cuda.get_device_name(), release=torch.cuda.empty_cache)
    if name == "jax":
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # share the GPU with the others
        import jax

        jax.config.update("jax_enable_x64", True)
        import jax.numpy as m

        return Lib(name, m, jax.device_put, np.asarray,
                   lambda r=None: jax.block_until_ready(r) if r is not None else None,
                   {"jax": jax.__version__}, str(jax.devices()[0]))
    raise ValueError(f"unknown library {name!r}; known: {', '.join(LIBS)}")


def _decode(b):
    return b.decode() if isinstance(b, bytes) else str(b)


def _compat_version(m):
    try:
        import array_api_compat

        return {"array_api_compat": array_api_compat.__version__} if "array_api_compat" in m.__name__ else {}
    except ImportError:
        return {}


def _ours_device(dev):
    """The Vulkan device in words: name, type, API version, decoded driver version."""
    info = dev.info
    v = info.get("driver_version", 0)
    if info.get("vendor_id") == 0x10DE:  # NVIDIA packs 10.8.8.6 bits
        driver = f"{v >> 22}.{(v >> 14) & 0xFF}.{(v >> 6) & 0xFF}"
    else:
        driver = f"{v >> 22}.{(v >> 12) & 0x3FF}.{v & 0xFFF}"
    uuid = info.get("uuid", b"")
    if isinstance(uuid, bytes) and uuid[:4].isalpha():  # Mesa puts its version there
        driver += f" ({uuid.rstrip(bytes(1)).decode(errors='replace')})"
    api = ".".join(map(str, info.get("api_version", ())))
    text = f"{info.get('name', dev.name)} ({info.get('type', '?')}, Vulkan {api}, driver {driver}"
    if info.get("disabled_features"):
        text += f", disabled features: {','.join(info['disabled_features'])}"
    return text + ")"


# ----------------------------------------------------------------------------------- workloads

class Workload:
    """setup(lib) -> args (device arrays; not timed); fn(xp, *args) -> result; flops and nbytes
    turn the time into TFLOP/s and GB/s; needs: dtype names the library must have."""

    def __init__(self, name, group, setup, fn, flops=None, nbytes=None, needs=()):
        self.name, self.group, self.setup, self.fn = name, group, setup, fn
        self.flops, self.nbytes, self.needs = flops, nbytes, tuple(needs)


def _rand(lib, shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return lib.put(rng.random(shape, dtype=np.float64).astype(dtype))


def _spd(k, seed=1):
    a = np.random.default_rng(seed).random((k, k))
    return a @ a.T + k * np.eye(k)


def workload_table(s):
    """Every timed-per-call workload for sizes s, in report order."""
    n, k_la, fn_ = s["n"], s["k_la"], s["fft_n"]
    w = []

    def add(*a, **kw):
        w.append(Workload(*a, **kw))

    # elementwise, 16M
    add("add_f32_16M", "elementwise", lambda L: (_rand(L, n, "float32"), _rand(L, n, "float32", 1)),
        lambda xp, a, b: xp.add(a, b), nbytes=3 * 4 * n)
    add("add_f64_16M", "elementwise", lambda L: (_rand(L, n, "float64"), _rand(L, n, "float64", 1)),
        lambda xp, a, b: xp.add(a, b), nbytes=3 * 8 * n, needs=("float64",))
    add("exp_f32_16M", "elementwise", lambda L: (_rand(L, n, "float32"),), lambda xp, a: xp.exp(a),
        nbytes=2 * 4 * n)
    add("exp_f64_16M", "elementwise", lambda L: (_rand(L, n, "float64"),), lambda xp, a: xp.exp(a),
        nbytes=2 * 8 * n, needs=("float64",))
    add("chain5_f32_16M", "elementwise", lambda L: (_rand(L, n, "float32"),),
        lambda xp, a: xp.sqrt(xp.abs(xp.sin(a) * 3.0 + a) + 1.0), nbytes=2 * 4 * n)

    # data ops and matmul: benchmarks/dataops.py's table, in each library's namespace (below)
    for name in dataops.workloads(np, None):
        group = "linalg" if "matmul" in name else "dataops"
        add(name, group, ("dataops", name), None,
            needs=("float64",) if "f64" in name else ())
    add("take_i64idx_16M", "dataops",
        lambda L: (_rand(L, n, "float32"), L.put(np.random.default_rng(2).integers(0, n, n, dtype=np.int64))),
        lambda xp, a, i: xp.take(a, i), needs=("int64",))
    add("unique_values_i32_16M", "dataops",
        lambda L: (L.put(np.random.default_rng(3).integers(0, 1000, n).astype(np.int32)),),
        lambda xp, a: xp.unique_values(a))

    # linalg and fft
    add("cholesky_f64_1024", "linalg", lambda L: (L.put(_spd(k_la)),), lambda xp, a: xp.linalg.cholesky(a),
        flops=k_la ** 3 / 3, needs=("float64",))
    add("solve_f64_1024_16rhs", "linalg",
        lambda L: (L.put(_spd(k_la)), L.put(np.random.default_rng(4).random((k_la, s["rhs"])))),
        lambda xp, a, b: xp.linalg.solve(a, b), flops=2 * k_la ** 3 / 3 + 2 * k_la ** 2 * s["rhs"],
        needs=("float64",))
    add("qr_f64_1024", "linalg", lambda L: (_rand(L, (k_la, k_la), "float64"),), lambda xp, a: xp.linalg.qr(a),
        flops=4 * k_la ** 3 / 3, needs=("float64",))
    add("fft_c64_16M", "linalg",
        lambda L: (L.put((np.random.default_rng(5).random(fn_) + 1j * np.random.default_rng(6).random(fn_))
                         .astype(np.complex64)),),
        lambda xp, a: xp.fft.fft(a), flops=5 * fn_ * np.log2(fn_), needs=("complex64",))
    add("rfftn_f32_4096sq", "linalg", lambda L: (_rand(L, (s["k"], s["k"]), "float32"),),
        lambda xp, a: xp.fft.rfftn(a), flops=2.5 * s["k"] ** 2 * np.log2(s["k"] ** 2))

    # end to end, xp code only (benchmarks/workloads.py)
    for name, (f, kw) in wl.E2E.items():
        add(name, "e2e", _e2e_setup(name, s), _e2e_fn(f, kw(s)))
    return w


def _e2e_setup(name, s):
    def setup(L):
        return ({k: L.put(v) for k, v in wl.make_data(name, s, np.random.default_rng(7)).items()},)
    return setup


def _e2e_fn(f, kw):
    return lambda xp, data: f(xp, data, **kw)


def _bind(w, lib, s):
    """(setup() -> args, call(*args)) of workload w for lib."""
    if isinstance(w.setup, tuple):  # from dataops.workloads, which builds its own closures
        table = dataops.workloads(lib.xp, lambda n, dt: _rand(lib, n, dt), n=s["n"], k=s["k"],
                                  k_small=s["k_small"], batch=s["batch"], k_batch=s["k_batch"])
        setup, fn, flops = table[w.setup[1]]
        w.flops = flops
        return setup, fn
    return (lambda: w.setup(lib)), (lambda *a: w.fn(lib.xp, *a))


# ----------------------------------------------------------------------------------- timing

WARM_S, WARM_CALLS = 0.25, 3


def measure(call, sync, asynchronous, repeats, target_s=0.05, gpu_seconds=None):
    """Per-call median seconds {"batched": ..., "sync": ...} of call() after a warm-up, with `inner`
    calls per repeat (as many as fit target_s, 1 to 20); where gpu_seconds() (ours: the
    runtime's GPU seconds so far) is given, also the GPU seconds per call in each mode
    ("gpu_batched", "gpu_sync"), so that a slow row says whether its GPU work or its host was."""
    r = call()
    sync(r)
    # More warm-up, for at least WARM_S and WARM_CALLS calls: on the H100 (session 7) the first
    # timed mode of k-means ran at 34 ms a call and the second at 10, one call a repeat in both
    # (benchmarks/diag_batched.py, in its own process, found batched no slower than synchronised).
    t, n = time.perf_counter(), 0
    while n < WARM_CALLS or (time.perf_counter() - t < WARM_S and n < 50):
        r = call()
        sync(r)
        n += 1
    # The calls a repeat come from a call after the warm-up: the second call can still compile
    # (a fused chain's first op is held from the second call on, a kernel of its own), and one
    # call a repeat then timed each mode as the other (session 9: 5-op chain, inner 1).
    t = time.perf_counter()
    r = call()
    sync(r)
    one = time.perf_counter() - t
    inner = max(1, min(20, int(target_s / max(one, 1e-6))))
    reps = repeats if one < 0.5 else max(1, min(repeats, 3))
    out = {"inner": inner, "repeats": reps}
    for mode in ("batched", "sync") if asynchronous else ("batched",):
        ts = []
        g0 = gpu_seconds() if gpu_seconds else 0.0
        for _ in range(reps):
            # every result is kept until the final synchronise: with fusion (ours) a result
            # nobody holds is never computed, and timing it would time nothing
            rs = []
            t = time.perf_counter()
            for _ in range(inner):
                r = call()
                if mode == "sync":
                    sync(r)
                rs.append(r)
            sync(r)
            ts.append((time.perf_counter() - t) / inner)
            del r, rs
            r = None
        out[mode] = statistics.median(ts)
        if gpu_seconds:  # (0 unless GPU timing is on: ARRAY_API_VULKAN_GPU_TIMING=1)
            g = (gpu_seconds() - g0) / (reps * inner)
            if g > 0:
                out["gpu_" + mode] = g
    if not asynchronous:
        out["sync"] = out["batched"]
    return out


def _host_fallbacks(lib):
    if lib.name != "ours":
        return None
    return dict(lib.xp.runtime_stats()["host_fallbacks"])


# Seconds of large products each library runs before its first workload: a GPU that idled
# clocks down, and on the H100 the first timed heavy work of a fresh machine ran up to 5x slower
# (session 8: float32 4096^2 products at 6.7 TFLOP/s, then 38 in the next process).
GPU_WARM_S = 3.0


def warm_gpu(lib, table, s, seconds):
    """Runs the 4096^2 float32 product (the largest compute workload) synchronised for about
    `seconds` (nothing where that workload is missing or seconds is 0)."""
    w = table.get("matmul_f32_4096")
    if not seconds or not lib.asynchronous or w is None or any(not lib.has(d) for d in w.needs):
        return
    setup, call = _bind(w, lib, s)
    args = setup()
    t = time.perf_counter()
    while time.perf_counter() - t < seconds:
        r = call(*args)
        lib.sync(r)
        del r


def run_workload(w, lib, s, repeats):
    missing = [d for d in w.needs if not lib.has(d)]
    if missing:
        return {"skipped": f"no {', '.join(missing)} on this device"}
    setup, call = _bind(w, lib, s)
    args = setup()
    lib.sync(args)
    before = _host_fallbacks(lib)
    gpu = (lambda: lib.xp.runtime_stats()["gpu_seconds"]) if lib.name == "ours" else None
    row = measure(lambda: call(*args), lib.sync, lib.asynchronous, repeats, gpu_seconds=gpu)
    if before is not None:
        host = _grew(before, _host_fallbacks(lib))
        if host:
            row["host"] = host
    if w.flops:
        row["TFLOPs"] = w.flops / row["sync"] / 1e12
    if w.nbytes:
        row["GBps"] = w.nbytes / row["sync"] / 1e9
    return row


def run_chain(lib, s, repeats):
    """`chain` dependent `x = x + 1.0` on a 1000-element array then one element read, per op;
    batched (one read at the end) and with a synchronise after every op."""
    small = lib.put(np.ones(1000, dtype=np.float32))
    steps = s["chain"]
    before = _host_fallbacks(lib)
    out = {"ops": steps}
    for mode in ("batched", "sync") if lib.asynchronous else ("batched",):
        def chain():
            x = small
            for _ in range(steps):
                x = x + 1.0
                if mode == "sync":
                    lib.sync(x)
            return float(x[0])
        assert chain() == 1.0 + steps
        ts = []
        for _ in range(repeats):
            t = time.perf_counter()
            chain()
            ts.append((time.perf_counter() - t) / steps)
        out[mode] = statistics.median(ts)
    if not lib.asynchronous:
        out["sync"] = out["batched"]
    if before is not None:
        host = _grew(before, _host_fallbacks(lib))
        if host:
            out["host"] = host
    return out


def run_transfer(lib, s, repeats, direction):
    """Upload (put + sync) or download (get) of s["transfer_bytes"] of float32; a download reads a
    freshly uploaded array each time, so that no library's cached host copy is timed."""
    nbytes = s["transfer_bytes"]
    host = np.random.default_rng(8).random(nbytes // 4, dtype=np.float32)
    before = _host_fallbacks(lib)

    def once():
        if direction == "upload":
            t = time.perf_counter()
            lib.sync(lib.put(host))
            return time.perf_counter() - t
        dev = lib.put(host)
        lib.sync(dev)
        t = time.perf_counter()
        got = lib.get(dev)
        t = time.perf_counter() - t
        assert np.array_equal(np.asarray(got), host)
        return t

    once()
    t = statistics.median([once() for _ in range(repeats)])
    row = {"batched": t, "sync": t, "GBps": nbytes / t / 1e9, "bytes": nbytes}
    if before is not None:
        grown = _grew(before, _host_fallbacks(lib))
        if grown:
            row["host"] = grown
    return row


STARTUP = r"""
import json, sys, time
t0 = time.perf_counter()
lib = sys.argv[1]
import numpy as np
host = np.ones(1000, dtype=np.float32)
if lib == "ours":
    import array_api_vulkan as m
    x = m.asarray(host)
elif lib == "numpy":
    m = np
    x = host.copy()
elif lib == "cupy":
    import cupy as m
    x = m.asarray(host)
elif lib == "torch":
    import torch as m
    x = m.from_numpy(host).to("cuda")
elif lib == "jax":
    import jax.numpy as m
    import jax
    x = jax.device_put(host)
t1 = time.perf_counter()
y = m.exp(x) * 2.0 + x
v = float(y[0])
t2 = time.perf_counter()
extra = {}
if lib == "ours":
    st = m.runtime_stats()
    extra = {k: st[k] for k in ("pipelines_created", "pipeline_cache_hits") if k in st}
print(json.dumps(dict(import_and_first_array_s=t1 - t0, first_ops_s=t2 - t1, total_s=t2 - t0, **extra)))
"""


def run_startup(lib_name, state, cache_dir):
    """Import plus a first op in a fresh process (ours: with ARRAY_API_VULKAN_CACHE_DIR=cache_dir,
    empty for "cold", filled by the cold run for "warm")."""
    env = dict(os.environ, ARRAY_API_VULKAN_CACHE_DIR=cache_dir)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", STARTUP, lib_name], env=env, capture_output=True, text=True,
                       timeout=600)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}")
    got = json.loads(r.stdout.strip().splitlines()[-1])
    return {"batched": got["total_s"], "sync": got["total_s"], "process_wall_s": wall, **got}


# ----------------------------------------------------------------------------------- runner

def all_names(s):
    names = [(w.name, w.group) for w in workload_table(s)]
    names.insert(5, ("chain1000_small", "chain"))
    names += [("upload_256MB", "transfer"), ("download_256MB", "transfer"),
              ("startup_cold", "startup"), ("startup_warm", "startup")]
    return names


def _selected(name, group, only):
    return not only or name in only or group in only


def run(libs, sizes, only=(), repeats=5, log=print, progress=None):
    """The results dict: meta, workloads (name, group) and rows {workload: {lib: row}};
    progress(res) is called after each library (to save partial results)."""
    table = {w.name: w for w in workload_table(sizes)}
    names = [(n, g) for n, g in all_names(sizes) if _selected(n, g, only)]
    res = {"meta": meta(sizes), "workloads": [{"name": n, "group": g} for n, g in names], "libs": [],
           "rows": {n: {} for n, _ in names}}
    startup_cache = tempfile.mkdtemp(prefix="avk-suite-cache-")
    for name in libs:
        try:
            lib = load(name)
        except Exception as e:  # not installed, no GPU...
            res["meta"]["libraries"][name] = f"unavailable: {type(e).__name__}: {e}"
            log(f"{name}: unavailable ({type(e).__name__}: {e})")
            continue
        res["libs"].append(name)
        res["meta"]["libraries"][name] = {"versions": lib.versions, "device": lib.device}
        log(f"{name}: {lib.device}")
        try:
            warm_gpu(lib, table, sizes, GPU_WARM_S)
        except Exception as e:
            log(f"  (GPU warm-up failed: {type(e).__name__}: {e})")
        for wname, group in names:
            t0 = time.perf_counter()
            try:
                if group == "chain":
                    row = run_chain(lib, sizes, repeats)
                elif group == "transfer":
                    row = run_transfer(lib, sizes, repeats, wname.split("_")[0])
                elif group == "startup":
                    row = run_startup(name, wname.split("_")[1], startup_cache)
                else:
                    row = run_workload(table[wname], lib, sizes, repeats)
            except Exception as e:
                row = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
            row["bench_s"] = time.perf_counter() - t0
            res["rows"][wname][name] = row
            log(f"  {wname:24s} {_cell(row)}  [{row['bench_s']:.1f} s]")
        # the CPU the main thread ended this library's workloads on (see _common.cpu_now)
        res["meta"]["libraries"][name]["main_thread_cpu"] = cpu_now()
        if name == "ours":  # whether the GPU's clocks were held up (array_api_vulkan/_runtime/clocks.py)
            res["meta"]["libraries"][name]["cuda_clock_hold"] = lib.xp.runtime_stats().get("cuda_clock_hold")
        try:
            lib.release()
        except Exception:
            pass
        del lib
        if progress:
            progress(res)
    shutil.rmtree(startup_cache, ignore_errors=True)
    res["meta"]["finished"] = _now()
    return res


def combine(paths):
    """One results dict from several runs' suite.json: their libraries side by side (a library in
    more than one keeps its first run's rows), workloads in first-seen order."""
    out = None
    for p in paths:
        with open(p) as f:
            r = json.load(f)
        if out is None:
            out = r
            out["meta"]["combined_from"] = [p]
            continue
        out["meta"]["combined_from"].append(p)
        known = {w["name"] for w in out["workloads"]}
        out["workloads"] += [w for w in r["workloads"] if w["name"] not in known]
        for lib in r["libs"]:
            if lib in out["libs"]:
                continue
            out["libs"].append(lib)
            out["meta"]["libraries"][lib] = r["meta"]["libraries"][lib]
            for name, by_lib in r["rows"].items():
                if lib in by_lib:
                    out["rows"].setdefault(name, {})[lib] = by_lib[lib]
        for lib, v in r["meta"]["libraries"].items():
            out["meta"]["libraries"].setdefault(lib, v)
    out.pop("plot", None)
    out.pop("plot_skipped", None)
    return out


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def meta(sizes):
    m = {"date": _now(), "python": platform.python_version(), "platform": platform.platform(),
         "host": platform.node(), "sizes": sizes, "libraries": {}}
    try:
        m["commit"] = subprocess.run(["git", "log", "-1", "--format=%h %<(72,trunc)%s"], capture_output=True, text=True,
                                     cwd=os.path.dirname(os.path.abspath(__file__)), timeout=10).stdout.strip()
    except Exception:
        pass
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30)
        if r.returncode == 0:
            m["nvidia_smi"] = r.stdout.strip()
    except Exception:
        pass
    try:
        import array_api_compat

        m["array_api_compat"] = array_api_compat.__version__
    except ImportError:
        pass
    return m


# ----------------------------------------------------------------------------------- report

def _fmt_t(t):
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.3g} ms"
    return f"{t * 1e6:.3g} µs"


def _cell(row, mode="sync"):
    if "error" in row:  # the type here, the message under "Errors, skips and host fallbacks"
        return f"error: {row['error'].split(':')[0]}"
    if "skipped" in row:
        return "skipped"
    text = _fmt_t(row[mode])
    if "TFLOPs" in row and mode == "sync":
        text += f" ({row['TFLOPs']:.3g} TFLOP/s)"
    elif "GBps" in row and mode == "sync":
        text += f" ({row['GBps']:.3g} GB/s)"
    if row.get("host"):
        text += " host"
    return text


def ratios(res, mode):
    """{workload: {lib: time / fastest time}} over the libraries that produced a time."""
    out = {}
    for name, by_lib in res["rows"].items():
        times = {lib: r[mode] for lib, r in by_lib.items() if mode in r}
        if times:
            best = min(times.values())
            out[name] = {lib: t / best if best > 0 else float("nan") for lib, t in times.items()}
    return out


def markdown(res):
    m = res["meta"]
    libs = res["libs"]
    lines = ["# array_api_vulkan benchmark suite", "",
             f"Date: {m['date']}; commit: {m.get('commit', '?')}; host: {m['host']} ({m['platform']}, "
             f"Python {m['python']}).", ""]
    if "nvidia_smi" in m:
        lines += [f"nvidia-smi: {m['nvidia_smi']}", ""]
    lines += ["| library | versions | device |", "|---|---|---|"]
    for name, v in m["libraries"].items():
        if isinstance(v, str):
            lines.append(f"| {name} | {v} | |")
        else:
            lines.append(f"| {name} | {', '.join(f'{k} {x}' for k, x in v['versions'].items())} | {v['device']} |")
    lines += ["", "Each figure is the median per call over repeats after one warm-up call. "
              "**sync**: a synchronise after every call (CuPy `Device.synchronize`, torch `cuda.synchronize`, "
              "JAX `block_until_ready`, ours `synchronize()`); **batched**: the calls back to back, one "
              "synchronise at the end. `×` columns: each library's time over the fastest library's. "
              "**host**: array_api_vulkan ran a host fallback (`runtime_stats()['host_fallbacks']` grew) "
              "in that workload. chain1000_small is per op; startup is a fresh process's import plus first op "
              "(ours: cold and warm pipeline cache); upload/download are per library's way (asarray / to host).",
              ""]
    if m.get("sizes", {}).get("n") != FULL["n"]:
        lines += [f"**Quick sizes** (a smoke test; workload names keep the full sizes): {json.dumps(m['sizes'])}", ""]
    group_of = {w["name"]: w["group"] for w in res["workloads"]}
    for mode in ("sync", "batched"):
        rat = ratios(res, mode)
        lines += [f"## {'Synchronised after every call' if mode == 'sync' else 'Batched'}", "",
                  "| group | workload | " + " | ".join(libs) + " | " + " | ".join(f"{lib} ×" for lib in libs) + " |",
                  "|---|---|" + "---|" * (2 * len(libs))]
        for name, by_lib in res["rows"].items():
            cells = [_cell(by_lib[lib], mode) if lib in by_lib else "" for lib in libs]
            rcells = [f"{rat[name][lib]:.3g}" if name in rat and lib in rat[name] else "" for lib in libs]
            lines.append(f"| {group_of[name]} | {name} | " + " | ".join(cells) + " | " + " | ".join(rcells) + " |")
        lines.append("")
    notes = [(n, lib, r) for n, by in res["rows"].items() for lib, r in by.items()
             if "error" in r or "skipped" in r or r.get("host")]
    if notes:
        lines += ["## Errors, skips and host fallbacks", ""]
        for n, lib, r in notes:
            what = r.get("error") and f"error: {r['error']}" or r.get("skipped") and f"skipped: {r['skipped']}" \
                or f"host fallbacks: {r['host']}"
            lines.append(f"- {n} / {lib}: {what}")
        lines.append("")
    if res.get("plot"):
        lines += [f"![ratio to the fastest library per workload]({res['plot']})", ""]
    elif res.get("plot_skipped"):
        lines += [f"Plot skipped: {res['plot_skipped']}", ""]
    return "\n".join(lines)


def plot(res, path, mode="sync"):
    """Horizontal grouped bars: each library's time over the fastest's per workload, log scale."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rat = ratios(res, mode)
    names = [n for n in res["rows"] if n in rat]
    libs = res["libs"]
    fig, ax = plt.subplots(figsize=(10, 0.32 * len(names) * max(1, len(libs)) / 2 + 1.5))
    h = 0.8 / max(1, len(libs))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, lib in enumerate(libs):
        ys = [j + (i - (len(libs) - 1) / 2) * h for j in range(len(names))]
        vals = [rat[n].get(lib, np.nan) for n in names]
        bars = ax.barh(ys, vals, height=h, label=lib, color=colors[i % len(colors)], left=0)
        for y, v, n, bar in zip(ys, vals, names, bars):
            if lib == "ours" and res["rows"][n].get("ours", {}).get("host"):
                bar.set_hatch("//")
                ax.text(v * 1.05, y, "host", va="center", fontsize=6)
    ax.set_xscale("log")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=7)
    ax.invert_yaxis()
    ax.axvline(1.0, color="k", lw=0.5)
    ax.set_xlabel(f"time / fastest library's time ({mode}: "
                  f"{'synchronised after every call' if mode == 'sync' else 'batched'}; log scale; 1 = fastest)")
    dev = res["meta"].get("nvidia_smi") or (res["meta"]["libraries"].get("ours") or {}).get("device", "")
    quick = " (--quick sizes: a smoke test)" if res["meta"].get("sizes", {}).get("n") != FULL["n"] else ""
    ax.set_title(f"array_api_vulkan suite, {res['meta']['date']}{quick}\n{str(dev)[:110]}", fontsize=8)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(axis="x", which="both", lw=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write(res, out, with_plot=True):
    os.makedirs(out, exist_ok=True)
    if with_plot:
        try:
            plot(res, os.path.join(out, "suite.png"))
            res["plot"] = "suite.png"
        except ImportError as e:
            res["plot_skipped"] = f"matplotlib not available ({e})"
        except Exception as e:
            res["plot_skipped"] = f"{type(e).__name__}: {e}"
    with open(os.path.join(out, "suite.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)
    with open(os.path.join(out, "suite.md"), "w") as f:
        f.write(markdown(res))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes, few repeats (a smoke test on lavapipe)")
    ap.add_argument("--libs", default=",".join(LIBS))
    ap.add_argument("--only", default="", help="workload or group names, comma-separated")
    ap.add_argument("--out", default="suite-out", help="folder for suite.json, suite.md, suite.png")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--replot", metavar="DIR", help="only rewrite DIR/suite.md and suite.png from DIR/suite.json "
                    "(e.g. here, for a GPU host's results where matplotlib was missing)")
    ap.add_argument("--combine", metavar="DIR,DIR", help="merge the suite.json of runs into one report in --out "
                    "(e.g. libraries run in separate commands on the same device)")
    args = ap.parse_args(argv)
    if args.combine:
        res = combine([os.path.join(d, "suite.json") for d in args.combine.split(",") if d])
        write(res, args.out)
        print(f"wrote {args.out}/suite.json, suite.md" + (", suite.png" if res.get("plot") else ""))
        return res
    if args.replot:
        with open(os.path.join(args.replot, "suite.json")) as f:
            res = json.load(f)
        res.pop("plot_skipped", None)
        write(res, args.replot)
        print(f"wrote {args.replot}/suite.md" + (", suite.png" if res.get("plot") else ""))
        return res
    sizes = QUICK if args.quick else FULL
    repeats = args.repeats or (3 if args.quick else 7)
    if args.quick:
        global WARM_S, GPU_WARM_S
        WARM_S = GPU_WARM_S = 0.0  # (the smoke test: three warm-up calls, no GPU warm-up)
    only = set(filter(None, args.only.split(",")))
    known = {n for n, _ in all_names(sizes)} | set(GROUPS)
    if only - known:
        ap.error(f"unknown workloads or groups: {', '.join(sorted(only - known))}")
    res = run([x for x in args.libs.split(",") if x], sizes, only, repeats,
              progress=lambda r: write(r, args.out, with_plot=False))  # partial results, should it be cut off
    write(res, args.out)
    print(f"wrote {args.out}/suite.json, suite.md" + (", suite.png" if res.get("plot") else
                                                      f" (plot skipped: {res.get('plot_skipped')})"))
    return res


if __name__ == "__main__":
    main()
