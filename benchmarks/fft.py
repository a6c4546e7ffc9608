"""FFT workloads of issue 9 against CuPy and torch on the same GPU: fft of 2^24 complex64 and
rfftn of a 4096 x 4096 float32, plus their inverses, each timed with a synchronize after every
call (median of repeats; the first call, which makes the VkFFT plan, is not timed). Each row of
ours says whether it ran natively or through a host fallback. Not a test; prints JSON.

    python benchmarks/fft.py [--out results.json] [--quick] [--only name,name] [--libs ours,cupy,torch]
"""
import argparse
import json
import statistics
import time

import numpy as np

import array_api_vulkan as xp

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


def timed(fn, args, sync, repeats):
    fn(*args)
    sync()
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args)
        sync()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def run_lib(name, res, only, repeats):
    rng = np.random.default_rng(0)
    if name == "ours":
        m = xp
        sync = xp.synchronize

        def arr(n, dt):
            a = rng.random(n, dtype=np.float64)
            if dt.startswith("complex"):
                a = a + 1j * rng.random(n, dtype=np.float64)
            return xp.asarray(a.astype(dt))
    elif name == "cupy":
        import cupy as m
        sync = m.cuda.Device().synchronize

        def arr(n, dt):
            a = m.random.random(n)
            if dt.startswith("complex"):
                a = a + 1j * m.random.random(n)
            return a.astype(dt)
    else:
        import torch as m
        assert m.cuda.is_available()
        sync = m.cuda.synchronize

        def arr(n, dt):
            if dt.startswith("complex"):
                return m.complex(m.rand(n, device="cuda"), m.rand(n, device="cuda"))
            return m.rand(n, device="cuda", dtype=getattr(m, dt))
    for wname, (setup, fn, flops) in workloads(m, arr).items():
        if only and wname not in only:
            continue
        try:
            args = setup()
            if name == "ours":
                before = dict(xp.runtime_stats()["host_fallbacks"])
            t = timed(fn, args, sync, repeats)
            row = {"us": round(t * 1e6, 1)}
            if flops:
                row["GFLOPs"] = round(flops / t / 1e9, 1)
            if name == "ours":
                after = xp.runtime_stats()["host_fallbacks"]
                host = {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}
                row["native"] = not host
                if host:
                    row["host"] = host
            res[f"{name}_{wname}"] = row
        except Exception as e:
            res[f"{name}_{wname}"] = f"failed: {type(e).__name__}: {str(e)[:200]}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--libs", default="ours,cupy,torch")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    res = {"device": xp.__array_namespace_info__().default_device().name}
    for lib in args.libs.split(","):
        try:
            run_lib(lib, res, only, 3 if args.quick else 7)
        except Exception as e:
            res[lib] = f"unavailable: {type(e).__name__}: {e}"
    text = json.dumps(res, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
