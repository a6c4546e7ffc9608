"""Prints the first mismatches of float32 ops against numpy on the default device (diagnosis
of driver differences, e.g. division/sqrt rounding or denormal flushing)."""
import json

import numpy as np

import array_api_vulkan as xp
from array_api_vulkan._runtime import _vkcore

rng = np.random.default_rng(1)
special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1.5e-45, 3.4e38, 1.0, -1.0, 2.0, 0.5, 7.0, -3.0],
                   np.float32)
a = np.concatenate([special, rng.standard_normal(2000).astype(np.float32) * 10,
                    (rng.random(500) * 1e-37).astype(np.float32)])
b = np.concatenate([special[::-1], rng.standard_normal(2000).astype(np.float32),
                    (rng.random(500) * 3).astype(np.float32)])
print(json.dumps(_vkcore.enumerate_devices()[0].get("float_controls")))
ops = {
    "divide": (lambda x, y: xp.divide(x, y), np.divide, 2),
    "multiply": (lambda x, y: xp.multiply(x, y), np.multiply, 2),
    "sqrt": (lambda x, y: xp.sqrt(x), np.sqrt, 1),
    "reciprocal": (lambda x, y: xp.reciprocal(x), np.reciprocal, 1),
    "exp": (lambda x, y: xp.exp(x), np.exp, 1),
    "pow": (lambda x, y: xp.pow(x, y), np.power, 2),
    "floor_divide": (lambda x, y: xp.floor_divide(x, y), np.floor_divide, 2),
    "clip": (lambda x, y: xp.clip(x, -1.0, 1.0), lambda x: np.clip(x, -1, 1), 1),
    "add": (lambda x, y: xp.add(x, y), np.add, 2),
}
xa, xb = xp.asarray(a), xp.asarray(b)
with np.errstate(all="ignore"):
    for name, (ours, ref, nargs) in ops.items():
        got = np.asarray(ours(xa, xb))
        want = (ref(a, b) if nargs == 2 else ref(a)).astype(np.float32)
        same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
        bad = np.nonzero(~same)[0]
        print(f"{name}: {len(bad)} of {len(a)} differ")
        for i in bad[:4]:
            print(f"   a={a[i]!r} b={b[i]!r} got={got[i]!r} want={want[i]!r}")
