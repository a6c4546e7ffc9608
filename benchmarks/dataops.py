"""Data-op, matmul and FFT workloads of issues 8 and 9 against CuPy and torch on the same GPU,
each timed with a synchronize after every call (median of repeats). Each row of ours says
whether it ran natively or through a host fallback. Not a test; prints JSON.

    python benchmarks/dataops.py [--out results.json] [--quick] [--only name,name]
"""
import numpy as np

import array_api_vulkan as xp

from _common import lib_namespace, parser, run_libs, run_table

N = 16 << 20


def workloads(m, rng_arr, n=N, k=4096, k_small=1024, batch=64, k_batch=256):
    """name -> (setup() -> args, fn(*args), flops or None); m: the namespace (ours, cupy, torch,
    or any array-API namespace: benchmarks/suite.py passes numpy's and array-api-compat's too).
    n, k, k_small, batch, k_batch: the sizes (the names keep the defaults': --quick shrinks them)."""
    def v32(n=n):
        return rng_arr(n, "float32")

    # torch itself (benchmarks/dataops.py) or array-api-compat's torch (benchmarks/suite.py)
    raw_torch = m.__name__ == "torch"
    torch_like = raw_torch or m.__name__ == "array_api_compat.torch"

    def shaped(a, shape):
        return xp.reshape(a, shape) if m is xp else a.reshape(shape)

    def sq(k, dt="float32"):
        return shaped(rng_arr(k * k, dt), (k, k))

    w = {
        "sum_f32_16M": (lambda: (v32(),), lambda a: m.sum(a), None),
        "max_f32_16M": (lambda: (v32(),), lambda a: m.max(a), None),
        "argmax_f32_16M": (lambda: (v32(),), lambda a: m.argmax(a), None),
        "mean_var_f32_16M": (lambda: (v32(),), lambda a: (m.mean(a), m.var(a)), None),
        "sum_axis0_4096sq": (lambda: (sq(k),), lambda a: m.sum(a, axis=0), None),
        "sum_axis1_4096sq": (lambda: (sq(k),), lambda a: m.sum(a, axis=1), None),
        "cumsum_f32_16M": (lambda: (v32(),), lambda a: m.cumulative_sum(a) if hasattr(m, "cumulative_sum")
                           else m.cumsum(a), None),
        "sort_f32_16M": (lambda: (v32(),), lambda a: m.sort(a), None),
        "argsort_f32_16M": (lambda: (v32(),), lambda a: m.argsort(a), None),
        "where_f32_16M": (lambda: (v32(), v32()), lambda a, b: m.where(a > 0.5, a, b), None),
        "mask_f32_16M": (lambda: (v32(),), lambda a: a[a > 0.5], None),
        "nonzero_bool_16M": (lambda: (v32() > 0.5,), lambda m_: m.nonzero(m_), None),
        "concat_2x16M": (lambda: (v32(), v32()), lambda a, b: m.concat((a, b)) if hasattr(m, "concat")
                         else m.concatenate((a, b)), None),
        "transpose_copy_4096sq": (lambda: (sq(k),), lambda a: m.asarray(a.T, copy=True) if m is xp
                                  else (a.T.copy() if hasattr(a.T, "copy") else a.T.contiguous()), None),
        "stack_2x16M": (lambda: (v32(), v32()), lambda a, b: m.stack((a, b)), None),
        "roll_f32_16M": (lambda: (v32(),), lambda a: m.roll(a, 12345), None),
        "roll2d_4096sq": (lambda: (sq(k),), lambda a: m.roll(a, (7, -9), axis=(0, 1))
                          if not raw_torch else m.roll(a, (7, -9), dims=(0, 1)), None),
        "repeat_f32_8M_x2": (lambda: (v32(n // 2),), lambda a: m.repeat_interleave(a, 2)
                             if raw_torch else m.repeat(a, 2), None),
        "tile_2048sq_2x2": (lambda: (sq(k // 2),), lambda a: m.tile(a, (2, 2)), None),
        # (torch's flip always copies; numpy's and CuPy's give a view)
        "flip_copy_f32_16M": (lambda: (v32(),), lambda a: m.asarray(m.flip(a), copy=True) if m is xp
                              else (m.flip(a, (0,)) if raw_torch else m.flip(a) if torch_like
                                    else m.flip(a).copy()),
                              None),
        "tril_4096sq": (lambda: (sq(k),), lambda a: m.tril(a), None),
        "linspace_f32_16M": (lambda: (), lambda: m.linspace(0.0, 1.0, n, dtype=m.float32, device="cuda")
                             if torch_like else m.linspace(0.0, 1.0, n, dtype=m.float32), None),
        "matmul_f32_1024": (lambda: (sq(k_small), sq(k_small)), lambda a, b: a @ b, 2 * k_small ** 3),
        "matmul_f32_4096": (lambda: (sq(k), sq(k)), lambda a, b: a @ b, 2 * k ** 3),
        "matmul_f64_4096": (lambda: (sq(k, "float64"), sq(k, "float64")), lambda a, b: a @ b, 2 * k ** 3),
        "batched_matmul_64x256_f32": (lambda: (shaped(rng_arr(batch * k_batch ** 2, "float32"),
                                                      (batch, k_batch, k_batch)),) * 2,
                                      lambda a, b: a @ b, 2 * batch * k_batch ** 3),
    }
    return w


def run_lib(name, res, only, repeats):
    m, sync = lib_namespace(name)
    if name == "ours":
        rng = np.random.default_rng(0)

        def arr(n, dt):
            return xp.asarray(rng.random(n, dtype=np.float64).astype(dt))
    elif name == "cupy":
        def arr(n, dt):
            return m.random.random(n).astype(dt)
    else:
        def arr(n, dt):
            return m.rand(n, device="cuda", dtype=getattr(m, dt))
    run_table(name, workloads(m, arr), sync, res, only, repeats)


def main():
    run_libs(parser(__doc__).parse_args(), run_lib)


if __name__ == "__main__":
    main()
