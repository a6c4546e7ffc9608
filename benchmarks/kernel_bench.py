"""Per-dispatch time of the big contiguous elementwise kernels (and the runtime's word copy).

    python benchmarks/kernel_bench.py [--n 16777216] [--reps 50] [--repeats 5]

For each case: record --reps dispatches, synchronize(), divide; the median of --repeats such
batches, in microseconds, with the bandwidth that implies (bytes read + written). Prints JSON.
The *_off1 cases read views starting one element in, which the shaders cannot take with 4-wide
vector loads (glsl/include/elementwise.glsl): the same kernel on its ELEMS-apart path.
Use a small --n on lavapipe (a CPU: a sanity check only). Needs no CuPy or torch.
"""
import argparse

import numpy as np

import array_api_vulkan as xp

from _common import emit, per_op_batch


def per_dispatch(fn, reps, repeats):
    """Median seconds per dispatch over batches of `reps` then one synchronize (results kept)."""
    return per_op_batch(fn, xp.synchronize, repeats, reps)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=16 << 20, help="elements per array")
    ap.add_argument("--reps", type=int, default=50, help="dispatches per timed batch")
    ap.add_argument("--repeats", type=int, default=5, help="batches; the median is reported")
    args = ap.parse_args()
    n = args.n
    rng = np.random.default_rng(0)
    a = xp.asarray(rng.random(n, dtype=np.float32))
    b = xp.asarray(rng.random(n, dtype=np.float32))
    x = xp.asarray(rng.random(n) * 10 - 5)
    a1, b1, x1 = a[1:], b[1:], x[1:]
    xp.synchronize()

    from array_api_vulkan import _runtime as rt

    dev = rt.default_device()
    src, dst = dev.alloc(4 * n), dev.alloc(4 * n)
    words = np.array([dst.address & 0xFFFFFFFF, dst.address >> 32, src.address & 0xFFFFFFFF,
                      src.address >> 32, n], np.uint32)

    def copy_words():  # the runtime's word copy kernel
        dev.launch("copy_words", (), [dst, src], [True, False], words, n)

    def buffer_copy():  # the queue's buffer copy (uploads and downloads use it)
        dev.copy(src, 0, dst, 0, 4 * n)

    # name: (fn, bytes moved per dispatch)
    cases = {
        "add_f32": (lambda: xp.add(a, b), 12 * n),
        "multiply_f64": (lambda: xp.multiply(x, x), 24 * n),
        "exp_f64": (lambda: xp.exp(x), 16 * n),
        "astype_copy_f32": (lambda: xp.astype(a, xp.float32, copy=True), 8 * n),
        "add_f32_off1": (lambda: xp.add(a1, b1), 12 * (n - 1)),
        "multiply_f64_off1": (lambda: xp.multiply(x1, x1), 24 * (n - 1)),
        "astype_copy_f32_off1": (lambda: xp.astype(a1, xp.float32, copy=True), 8 * (n - 1)),
        "copy_words": (copy_words, 8 * n),
        "buffer_copy": (buffer_copy, 8 * n),
    }
    out = {"device": str(dev), "n": n, "reps": args.reps, "repeats": args.repeats}
    for name, (fn, nbytes) in cases.items():
        s = per_dispatch(fn, args.reps, args.repeats)
        out[name] = {"us": round(s * 1e6, 2), "GBps": round(nbytes / s / 1e9, 1)}
    emit(out)


if __name__ == "__main__":
    main()
