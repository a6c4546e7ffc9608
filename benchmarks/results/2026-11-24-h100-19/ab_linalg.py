import json, os, statistics, sys
sys.path.insert(0, "benchmarks")
os.environ["ARRAY_API_VULKAN_PIPELINE_STATS"] = "1"
import numpy as np
from _common import ours_gpu, use_checkout, warm_up
use_checkout()
import array_api_vulkan as xp
rng = np.random.default_rng(0)
g = xp.asarray(rng.random((1024, 1024)))
spd = g @ g.T + 1024 * xp.eye(1024)
rhs = xp.asarray(rng.random((1024, 16)))
calls = {"cholesky": lambda: xp.linalg.cholesky(spd), "qr": lambda: xp.linalg.qr(g),
         "solve": lambda: xp.linalg.solve(spd, rhs), "inv": lambda: xp.linalg.inv(g),
         "det": lambda: xp.linalg.det(g)}
res = {}
for _ in range(2):
    for k, f in calls.items():
        warm_up(f, (), xp.synchronize, n=2)
        t = statistics.median(ours_gpu(f) for _ in range(7))
        res[k] = min(res.get(k, 1e9), round(t * 1e6, 1))
print(json.dumps(res))
from diag_pipelines import recorded, LOCAL_BASE
dev = xp.__array_namespace_info__().default_device()
loc = []
for k, f in calls.items():
    for shader, spec in recorded(f):
        for exe, st in dev.pipeline_statistics(shader, spec):
            loc.append((k, shader, list(spec), st.get("Register Count"), st.get("Local Memory Size", LOCAL_BASE) - LOCAL_BASE))
print(json.dumps(loc))
