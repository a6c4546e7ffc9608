"""Diagnostics on the default device (not a test; prints JSON): (1) add float32 16M and the
1000-op chain in a fresh process, then again after large uploads and downloads, with the
runtime's counters; (2) 256 MB upload and download bandwidth over staging chunk sizes and host
copy threads (Recorder.transfer_chunk / transfer_threads)."""
import os

# (reads runtime_stats()["gpu_seconds"]: GPU timestamps on, off by default)
os.environ.setdefault("ARRAY_API_VULKAN_GPU_TIMING", "1")

import numpy as np

import array_api_vulkan as xp

from _common import emit, median_time, parser


def med(fn, k=7):
    return median_time(fn, k)


N, HOST = 16 << 20, 64 << 20  # --quick: 1M and 1M, a smoke test on lavapipe


def add_and_chain(tag, out):
    n = N
    a = xp.asarray(np.random.default_rng(1).random(n, dtype=np.float32))
    b = xp.asarray(np.random.default_rng(2).random(n, dtype=np.float32))
    xp.synchronize()
    xp.reset_runtime_stats()

    def adds():
        for _ in range(20):
            xp.add(a, b)
        xp.synchronize()

    t = med(adds) / 20
    s = xp.runtime_stats()
    out[f"{tag}_add_us"] = t * 1e6
    out[f"{tag}_add_stats"] = {k: s[k] for k in ("submits", "dispatches", "barriers", "gpu_seconds")}
    small = xp.ones(1000, dtype=xp.float32)

    def chain():
        x = small
        for _ in range(1000):
            x = x + 1.0
        float(x[0])

    out[f"{tag}_chain_us"] = med(chain, 5) / 1000 * 1e6


def main():
    global N, HOST
    if parser(__doc__, only=False, libs=None).parse_args().quick:
        N = HOST = 1 << 20
    out = {"device": xp.__array_namespace_info__().default_device().name}
    add_and_chain("fresh", out)
    host = np.random.default_rng(0).random(HOST, dtype=np.float32)
    dev = xp.__array_namespace_info__().default_device()
    dev._ensure()
    rec = dev._rec
    default = (rec.transfer_chunk, rec.transfer_threads, dev.upload_staging)
    for staging in ("wc", "cached"):
        dev.upload_staging = dev.staging_wc if staging == "wc" else dev.staging
        for chunk in (16, 32, 64):
            for threads in (4, 8):
                rec.transfer_chunk = chunk << 20
                rec.transfer_threads = threads
                up = med(lambda: (xp.asarray(host), xp.synchronize()), 3)
                src = xp.asarray(host)
                down = med(lambda: np.asarray(src), 3)
                out[f"upload_staging_{staging}_chunk{chunk}MiB_threads{threads}"] = {
                    "up_GBps": round(host.nbytes / up / 1e9, 2), "down_GBps": round(host.nbytes / down / 1e9, 2)}
    rec.transfer_chunk, rec.transfer_threads, dev.upload_staging = default
    add_and_chain("after_transfers", out)
    s = xp.runtime_stats()
    out["pool_MiB"] = (s["pool_bytes_reserved"] >> 20, s["pool_bytes_in_use"] >> 20)
    emit(out)


if __name__ == "__main__":
    main()
