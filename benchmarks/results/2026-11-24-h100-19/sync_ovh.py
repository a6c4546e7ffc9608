"""Per synchronised call: host time of the call (record + submit), the wait, the wall total,
and the GPU time (timestamps), for sum, sort and argsort of float32 16M."""
import json, statistics, sys, time
sys.path.insert(0, "benchmarks")
import numpy as np
import array_api_vulkan as xp
x = xp.asarray(np.random.default_rng(0).random(1 << 24, dtype=np.float32))
res = {}
for name, f in [("sum", lambda: xp.sum(x)), ("sort", lambda: xp.sort(x)), ("argsort", lambda: xp.argsort(x))]:
    for _ in range(3):
        r = f(); xp.synchronize(); del r
    for timing in (False, True):
        xp.set_gpu_timing(timing)
        host, wall, gpu = [], [], []
        for _ in range(15):
            g0 = xp.runtime_stats()["gpu_seconds"]
            t0 = time.perf_counter(); r = f(); t1 = time.perf_counter(); xp.synchronize(); t2 = time.perf_counter()
            del r
            host.append(t1 - t0); wall.append(t2 - t0); gpu.append(xp.runtime_stats()["gpu_seconds"] - g0)
        med = lambda v: round(statistics.median(v) * 1e6, 1)
        res[f"{name}_{'timed' if timing else 'plain'}"] = dict(host=med(host), wall=med(wall), gpu=med(gpu))
    xp.set_gpu_timing(False)
print(json.dumps(res))
st = xp.runtime_stats()
print({k: st[k] for k in ("submits", "dispatches", "pool_bytes_reserved", "pool_bytes_in_use")})
