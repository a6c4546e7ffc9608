"""FFT workloads of issue 9 against CuPy and torch on the same GPU: fft of 2^24 complex64 and
rfftn of a 4096 x 4096 float32, plus their inverses, each timed with a synchronize after every
call (median of repeats; the first call, which makes the VkFFT plan, is not timed). Each row of
ours says whether it ran natively or through a host fallback. Not a test; prints JSON.

    python benchmarks/fft.py [--out results.json] [--quick] [--only name,name] [--libs ours,cupy,torch]
"""
import numpy as np

import array_api_vulkan as xp

from _common import lib_namespace, parser, random_arrays, run_libs, run_table

N = 1 << 24
K = 4096


def workloads(m, arr):
    """name -> (setup() -> args, fn(*args), flops or None): 5 N log2 N flops per complex FFT."""
    fft = m.fft

    def cplx():
        return arr(N, "complex64")

    def sq():
        a = arr(K * K, "float32")
        return xp.reshape(a, (K, K)) if m is xp else a.reshape(K, K)

    return {
        "fft_c64_2^24": (lambda: (cplx(),), lambda a: fft.fft(a), 5 * N * 24),
        "ifft_c64_2^24": (lambda: (cplx(),), lambda a: fft.ifft(a), 5 * N * 24),
        "rfftn_f32_4096sq": (lambda: (sq(),), lambda a: fft.rfftn(a), 2.5 * K * K * 24),
        "irfftn_f32_4096sq": (lambda: (fft.rfftn(sq()),), lambda a: fft.irfftn(a, s=(K, K)), 2.5 * K * K * 24),
        "fftn_c64_4096sq": (lambda: (xp.reshape(cplx(), (K, K)) if m is xp else cplx().reshape(K, K),),
                            lambda a: fft.fftn(a), 5 * K * K * 24),
    }


def run_lib(name, res, only, repeats):
    rng = np.random.default_rng(0)
    m, sync = lib_namespace(name)
    if name == "ours":
        def arr(n, dt):
            a = rng.random(n, dtype=np.float64)
            if dt.startswith("complex"):
                a = a + 1j * rng.random(n, dtype=np.float64)
            return xp.asarray(a.astype(dt))
    else:
        arr = random_arrays(m)
    run_table(name, workloads(m, arr), sync, res, only, repeats, rate=("GFLOPs", 1e9, 1))


def main():
    run_libs(parser(__doc__).parse_args(), run_lib)


if __name__ == "__main__":
    main()
