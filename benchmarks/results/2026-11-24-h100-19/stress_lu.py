"""Repeat det/slogdet/solve/inv of float32 and float64 matrices of several sizes many times on
the device and count results off numpy's by more than the tests' tolerance (a race shows as
an occasional wrong result)."""
import json, sys
import numpy as np
import array_api_vulkan as xp
reps = int(sys.argv[1]) if len(sys.argv) > 1 else 50
rng = np.random.default_rng(5)
bad = {}
for dt in ("float32", "float64"):
    tol = 2e-4 if dt == "float32" else 1e-10
    for n in (7, 33, 64, 65, 130, 300):
        a = (rng.standard_normal((n, n)) / n ** 0.5).astype(dt)
        b = rng.standard_normal((n, 3)).astype(dt)
        s0, l0 = np.linalg.slogdet(a.astype(np.float64))
        x0 = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
        xa, xb = xp.asarray(a), xp.asarray(b)
        t = tol * n ** 0.5
        cnt = 0
        for _ in range(reps):
            s, l = xp.linalg.slogdet(xa)
            x = np.asarray(xp.linalg.solve(xa, xb))
            if float(s) != s0 or abs(float(l) - l0) > t * max(1, abs(l0)) * 10 or \
                    not np.allclose(x, x0, rtol=t * 100 * np.linalg.cond(a), atol=t * 100 * np.linalg.cond(a)):
                cnt += 1
        bad[f"{dt}_{n}"] = cnt
print(json.dumps({"reps": reps, "bad": bad}))
