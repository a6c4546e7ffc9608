"""Where a 256 MB upload spends its time: host copies into staging against waits on the
device's copies, over chunk sizes and host threads;
and plain host memcpy bandwidth for reference. JSON on stdout. Not a test.

    python benchmarks/diag_upload.py [--quick]   (each setting in a fresh process)
"""
import json
import os
import subprocess
import sys
import time

import numpy as np

from _common import emit

N = int(os.environ.get("DIAG_UPLOAD_BYTES", 256 << 20))  # --quick: 8 MiB, a lavapipe smoke test


def one():
    import array_api_vulkan as xp
    from array_api_vulkan._runtime import runtime_stats, reset_runtime_stats

    host = np.ones(N // 4, np.float32)
    x = xp.asarray(host)
    dev = x.device
    rec = dev._rec
    rec.transfer_chunk = int(os.environ.get("CHUNK_MB", "32")) << 20
    rec.transfer_threads = int(os.environ.get("THREADS", "8"))
    xp.synchronize()
    del x
    ts = []
    for _ in range(5):
        reset_runtime_stats()
        t = time.perf_counter()
        y = xp.asarray(host)
        xp.synchronize()
        ts.append(time.perf_counter() - t)
        s = runtime_stats()
        del y
    med = sorted(ts)[2]
    return {"GBps": N / med / 1e9, "host_s": s["transfer_host_seconds"], "wait_s": s["transfer_wait_seconds"],
            "total_s": ts[-1]}


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "one":
        print(json.dumps(one()))
        return
    global N
    if "--quick" in sys.argv[1:]:
        N = 8 << 20
        os.environ["DIAG_UPLOAD_BYTES"] = str(N)
    a = np.ones(N // 4, np.float32)
    b = np.empty_like(a)
    np.copyto(b, a)
    t = time.perf_counter()
    np.copyto(b, a)
    res = {"host_memcpy_1thread_GBps": N / (time.perf_counter() - t) / 1e9}
    for chunk in ("8", "32", "64"):
        for threads in ("1", "4", "8"):
            env = dict(os.environ, CHUNK_MB=chunk, THREADS=threads)
            r = subprocess.run([sys.executable, __file__, "one"], env=env, capture_output=True, text=True)
            key = f"chunk{chunk}MB_threads{threads}"
            try:
                res[key] = json.loads(r.stdout.strip().splitlines()[-1])
            except Exception:  # noqa: BLE001
                res[key] = "error: " + r.stderr[-400:]
    emit(res)


if __name__ == "__main__":
    main()
