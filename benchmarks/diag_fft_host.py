"""Where a synchronised FFT call's time goes: the call's host time (median), the synchronize
after it, the wall time of both, GPU time (timestamps), and a cProfile of the calls (the
functions with the most own time). Ours only.

    python3 benchmarks/diag_fft_host.py [--quick] [--out FILE]
"""
import cProfile
import io
import pstats
import statistics
import time

import numpy as np

from _common import emit, ours_gpu, parser, use_checkout

use_checkout()


def main():
    args = parser(__doc__, only=False).parse_args()
    import array_api_vulkan as xp

    n, k = (1 << 16, 256) if args.quick else (1 << 24, 4096)
    rng = np.random.default_rng(0)
    c = xp.asarray((rng.random(n) + 1j * rng.random(n)).astype(np.complex64))
    r = xp.asarray(rng.random((k, k), dtype=np.float32))
    out = {}
    for name, fn in (("fft_c64", lambda: xp.fft.fft(c)), ("rfftn_f32", lambda: xp.fft.rfftn(r))):
        for _ in range(3):
            y = fn()
            xp.synchronize()
        calls, syncs = [], []
        for _ in range(30):
            t0 = time.perf_counter()
            y = fn()
            t1 = time.perf_counter()
            xp.synchronize()
            calls.append(t1 - t0)
            syncs.append(time.perf_counter() - t1)
            del y
        gpu = statistics.median(ours_gpu(lambda: [fn()]) for _ in range(7))
        t0 = time.perf_counter()
        ys = [fn() for _ in range(20)]
        xp.synchronize()
        batched = (time.perf_counter() - t0) / 20
        del ys
        # inclusive host time of the call's stages (wrapped functions), us per call
        from array_api_vulkan._kernels import _fft
        from array_api_vulkan._runtime import device as _device
        spent = {}

        def timed(owner, attr):
            f = getattr(owner, attr)

            def w(*a, **k):
                t = time.perf_counter()
                try:
                    return f(*a, **k)
                finally:
                    spent[attr] = spent.get(attr, 0.0) + time.perf_counter() - t
            setattr(owner, attr, w)
            return f

        wrapped = [(o, a, timed(o, a)) for o, a in ((_fft, "_run"), (_fft, "_plan"), (_fft, "_one"),
                                                    (_device.Device, "alloc_bound"))]
        from array_api_vulkan._runtime import _vkcore
        _vkcore.host_profile(True)
        for _ in range(30):
            y = fn()
            xp.synchronize()
            del y
        on, cpp = _vkcore.host_profile(True)
        for o, a, f in wrapped:
            setattr(o, a, f)
        stages = {k: round(v / 30 * 1e6, 1) for k, v in spent.items()}
        if on:  # ARRAY_API_VULKAN_PROFILE_HOST=1: the C++ stages too
            stages.update({"cpp_" + k: round(v[0] / 30 * 1e6, 1) for k, v in cpp.items() if v[1]})
        pr = cProfile.Profile()
        for _ in range(30):
            pr.enable()
            y = fn()
            pr.disable()
            xp.synchronize()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(12)
        med = statistics.median
        out[name] = {"call_us": round(med(calls) * 1e6, 1), "sync_us": round(med(syncs) * 1e6, 1),
                     "wall_us": round(med(a + b for a, b in zip(calls, syncs)) * 1e6, 1),
                     "gpu_us": round(gpu * 1e6, 1), "batched_us": round(batched * 1e6, 1), "stages_us": stages,
                     "profile": s.getvalue().splitlines()[-16:]}
    emit(out, args.out)


if __name__ == "__main__":
    main()
