"""Which float32 ops flush subnormals on this device: each op on inputs holding subnormals,
against numpy, printed as JSON (op -> "ok" or the first differing values). Not a test."""
import numpy as np

import array_api_vulkan as xp

from _common import emit

tiny = np.float32(2.4e-44)
a = np.array([tiny, -tiny, 3 * tiny, 0.5, 1e-40], np.float32)
m = np.stack([a, a[::-1]])
cases = {
    "copy": (lambda x: xp.asarray(x, copy=True), lambda h: h.copy(), a),
    "add0": (lambda x: x + 0.0, lambda h: h + np.float32(0), a),
    "max": (lambda x: xp.max(x), lambda h: np.max(h), a),
    "min": (lambda x: xp.min(x), lambda h: np.min(h), a),
    "max_axis0": (lambda x: xp.max(x, axis=0), lambda h: np.max(h, axis=0), m),
    "sum": (lambda x: xp.sum(x[:3]), lambda h: np.sum(h[:3]), a),
    "cumsum": (lambda x: xp.cumulative_sum(x), lambda h: np.cumsum(h, dtype=np.float32), a),
    "cumsum_axis0": (lambda x: xp.cumulative_sum(x, axis=0), lambda h: np.cumsum(h, axis=0, dtype=np.float32), m),
    "sort": (lambda x: xp.sort(x), lambda h: np.sort(h), a),
    "take": (lambda x: xp.take(x, xp.asarray([0, 2])), lambda h: h[[0, 2]], a),
    "transpose": (lambda x: xp.asarray(x.T, copy=True), lambda h: h.T.copy(), m),
}
out = {}
for name, (f, g, h) in cases.items():
    try:
        got, want = np.asarray(f(xp.asarray(h))), g(h)
        out[name] = "ok" if np.array_equal(got, want) else f"got {got.ravel()[:6].tolist()} want {np.ravel(want)[:6].tolist()}"
    except Exception as e:  # noqa: BLE001 - a diagnostic reports everything
        out[name] = f"error {type(e).__name__}: {e}"
emit(out)
