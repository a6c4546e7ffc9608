"""Runtime-level costs on the default device: recording a dispatch, one submit+wait, a chain
of dependent dispatches, and a large copy's bandwidth. Prints one JSON object."""
import statistics
import time

import numpy as np

from array_api_vulkan import _runtime as rt

from _common import emit


def copy(d, dst, src, n):
    """One dispatch of the runtime's word copy kernel (device addresses in the push block)."""
    d.launch("copy_words", (), [dst, src], [True, False],
             np.array([dst.address & 0xFFFFFFFF, dst.address >> 32, src.address & 0xFFFFFFFF,
                       src.address >> 32, n], np.uint32), n)


def main():
    d = rt.default_device()
    out = {"device": str(d)}
    a = d.upload(np.arange(1024, dtype=np.float32))
    bufs = [d.alloc(4096) for _ in range(2)]
    copy(d, bufs[0], a, 1024)
    d.synchronize()
    # One tiny dispatch, submitted and waited for.
    lat = []
    for _ in range(50):
        t = time.perf_counter()
        copy(d, bufs[1], a, 1024)
        d.synchronize()
        lat.append(time.perf_counter() - t)
    out["submit_wait_one_dispatch_us"] = statistics.median(lat) * 1e6
    # 1000 dependent tiny dispatches (ping-pong), one submit.
    for trial in range(3):
        t = time.perf_counter()
        for i in range(1000):
            copy(d, bufs[i % 2], bufs[(i + 1) % 2], 1024)
        t_rec = time.perf_counter() - t
        d.synchronize()
        t_all = time.perf_counter() - t
    out["chain1000_record_per_op_us"] = t_rec / 1000 * 1e6
    out["chain1000_total_per_op_us"] = t_all / 1000 * 1e6
    # Bandwidth of the copy kernel over 64 MiB.
    n = 16 << 20
    big_a, big_b = d.alloc(4 * n), d.alloc(4 * n)
    copy(d, big_a, big_b, n)
    d.synchronize()
    ts = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(10):
            copy(d, big_a, big_b, n)
            copy(d, big_b, big_a, n)
        d.synchronize()
        ts.append((time.perf_counter() - t) / 20)
    out["copy_64MiB_us"] = min(ts) * 1e6
    out["copy_GBps"] = 2 * 4 * n / min(ts) / 1e9
    # The same through the queue's buffer copy (what uploads and downloads use).
    ts = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(10):
            d.copy(big_b, 0, big_a, 0, 4 * n)
            d.copy(big_a, 0, big_b, 0, 4 * n)
        d.synchronize()
        ts.append((time.perf_counter() - t) / 20)
    out["buffer_copy_GBps"] = 2 * 4 * n / min(ts) / 1e9
    host = np.random.rand(8 << 20)
    t = time.perf_counter()
    al = d.upload(host)
    d.synchronize()
    out["upload_64MiB_ms"] = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    d.download(al, np.float64, host.shape, (1,), 0)
    out["download_64MiB_ms"] = (time.perf_counter() - t) * 1e3
    out["stats"] = rt.runtime_stats()
    emit(out)


if __name__ == "__main__":
    main()
