"""Runtime-level costs on the default device: recording a dispatch, one submit+wait, a chain
of dependent dispatches, and a large copy's bandwidth. Prints one JSON object."""
import json
import statistics
import time

import numpy as np

from array_api_vulkan import _runtime as rt


def copy(d, dst, src, n):
    d.launch("copy_words", (), [dst, src], [True, False],
             np.array([dst.offset // 4, src.offset // 4, n], np.uint32), n)


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
    # Where a flush's time goes: a new kp::Sequence, recording, submit, fence wait.
    core = d._core
    pipe = core.create_pipeline(rt.device.load_spirv("copy_words"), [], 3, [a.buffer, bufs[1].buffer])
    push = np.array([bufs[1].offset // 4, a.offset // 4, 1024], np.uint32)
    parts = {"new_batch": [], "record": [], "submit": [], "wait": []}
    for _ in range(50):
        t0 = time.perf_counter()
        b = core.new_batch()
        t1 = time.perf_counter()
        b.dispatch(pipe, push, 4)
        t2 = time.perf_counter()
        b.submit()
        t3 = time.perf_counter()
        b.wait()
        t4 = time.perf_counter()
        for k, v in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            parts[k].append(v)
    out["flush_parts_us"] = {k: statistics.median(v) * 1e6 for k, v in parts.items()}
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
    host = np.random.rand(8 << 20)
    t = time.perf_counter()
    al = d.upload(host)
    d.synchronize()
    out["upload_64MiB_ms"] = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    d.download(al, np.float64, host.shape, (1,), 0)
    out["download_64MiB_ms"] = (time.perf_counter() - t) * 1e3
    out["stats"] = rt.runtime_stats()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
