import numpy as np, array_api_vulkan as xp
from array_api_vulkan._kernels import _sort
_sort.ONESWEEP_CPU = True
rng = np.random.default_rng(3)
bad = 0
for n in (5000, 70000, 1 << 20, 3 << 20):
    for dt in ("float32", "int32", "float64", "int64"):
        h = (rng.standard_normal(n) * 1000).astype(dt)
        x = xp.asarray(h)
        ok1 = np.array_equal(np.asarray(xp.sort(x)), np.sort(h))
        ok2 = np.array_equal(np.asarray(xp.argsort(x)), np.argsort(h, kind="stable"))
        ok3 = np.array_equal(np.asarray(xp.sort(x, descending=True)), np.sort(h)[::-1])
        if not (ok1 and ok2 and ok3):
            bad += 1
            print("BAD", n, dt, ok1, ok2, ok3)
print("bad", bad)
