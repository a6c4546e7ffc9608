"""What a first call costs: each case runs in a fresh process, its inputs made and synchronised
first, then the call timed twice (first and second, each synchronised), with the pipelines it
created and the seconds the driver spent making them (runtime_stats()). Run cold (an empty
pipeline cache directory per case, and NVIDIA's own shader disk cache off) and then warm (the
same directory again). Not a test; prints one JSON object.

    python3 benchmarks/diag_first_call.py [--quick] [--only matmul_f32_4096,...]
"""
import json
import os
import subprocess
import sys
import tempfile

from _common import emit, parser

CASES = {
    "add_f32_16M": ("x = rnd((1 << 24,), 'float32'); y = rnd((1 << 24,), 'float32')", "x + y"),
    "sum_f32_16M": ("x = rnd((1 << 24,), 'float32')", "xp.sum(x)"),
    "matmul_f32_4096": ("a = rnd((4096, 4096), 'float32'); b = rnd((4096, 4096), 'float32')", "a @ b"),
    "matmul_f32_4096_TN": ("a = rnd((4096, 4096), 'float32'); b = rnd((4096, 4096), 'float32')",
                           "xp.matrix_transpose(a) @ b"),
    "matmul_f32_ragged": ("a = rnd((1000, 1001), 'float32'); b = rnd((1001, 999), 'float32')", "a @ b"),
    "matmul_f32_1024": ("a = rnd((1024, 1024), 'float32'); b = rnd((1024, 1024), 'float32')", "a @ b"),
    "matmul_f32_batched": ("a = rnd((64, 256, 256), 'float32'); b = rnd((64, 256, 256), 'float32')",
                           "a @ b"),
    "matmul_f64_4096": ("a = rnd((4096, 4096), 'float64'); b = rnd((4096, 4096), 'float64')", "a @ b"),
    "sort_f32_16M": ("x = rnd((1 << 24,), 'float32')", "xp.sort(x)"),
    "fft_c64_2^24": ("x = xp.astype(rnd((1 << 24,), 'float32'), xp.complex64)", "xp.fft.fft(x)"),
    "cholesky_f64_1024": ("m = rnd((1024, 1024), 'float64'); "
                          "a = m @ xp.matrix_transpose(m) + 1024 * xp.eye(1024, dtype=xp.float64)",
                          "xp.linalg.cholesky(a)"),
}
QUICK = {"add_f32_16M": ("x = rnd((1 << 10,), 'float32'); y = rnd((1 << 10,), 'float32')", "x + y"),
         "matmul_f32_256": ("a = rnd((256, 256), 'float32'); b = rnd((256, 256), 'float32')", "a @ b")}

CHILD = r"""
import json, sys, time
import numpy as np
sys.path.insert(0, {root!r})
import array_api_vulkan as xp
rng = np.random.default_rng(0)
def rnd(shape, dt):
    return xp.asarray(rng.random(shape).astype(dt))
{setup}
xp.synchronize()
def sync(r):
    xp.synchronize()
keys = ("pipelines_created", "pipeline_seconds", "pipeline_cache_hits", "shaders_compiled",
        "shader_compile_seconds", "host_fallbacks")
s0 = xp.runtime_stats()
out = {{}}
for name in ("first", "second"):
    t = time.perf_counter(); r = {call}; sync(r); out[name + "_s"] = time.perf_counter() - t
    if name == "first":
        s1 = xp.runtime_stats()
        for k in keys:
            v0, v1 = s0.get(k), s1.get(k)
            out[k] = (v1 - v0) if isinstance(v1, (int, float)) else v1
print("RESULT " + json.dumps(out, default=str))
"""


def run_case(root, setup, call, cache_dir):
    env = dict(os.environ, ARRAY_API_VULKAN_CACHE_DIR=cache_dir, __GL_SHADER_DISK_CACHE="0")
    code = CHILD.format(root=root, setup=setup, call=call)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    return {"error": (p.stderr or p.stdout)[-800:]}


def main():
    ap = parser(__doc__, libs=None)
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cases = QUICK if args.quick else CASES
    only = [s for s in args.only.split(",") if s]
    res = {}
    for name, (setup, call) in cases.items():
        if only and name not in only:
            continue
        with tempfile.TemporaryDirectory() as cache:
            res[name] = {"cold": run_case(root, setup, call, cache),
                         "warm": run_case(root, setup, call, cache)}
        print(name, json.dumps(res[name]), file=sys.stderr, flush=True)
    emit(res, args.out)


if __name__ == "__main__":
    main()
