"""Several Python threads using one device at once: the recorder and the pools take a lock that
releases the GIL while it waits, so submits and waits in one thread (which release the GIL) do
not let another thread record into a batch being submitted."""
import threading

import numpy as np

import array_api_vulkan as xp


def run_threads(fn, n):
    errors = []

    def wrapped(i):
        try:
            fn(i)
        except BaseException as e:  # reported below, with the thread's index
            errors.append((i, e))

    threads = [threading.Thread(target=wrapped, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert not errors, errors


def test_threads_record_submit_and_read_at_once():
    results = {}

    def work(i):
        rng = np.random.default_rng(i)
        n = [1000, 4096, 1 << 18, 77][i % 4]
        host = rng.random(n).astype(np.float32)
        x = xp.asarray(host)
        want = host.copy()
        for k in range(150):
            x = x * 0.5 + float(k % 7)
            want = want * np.float32(0.5) + np.float32(k % 7)
            if k % 50 == 49:
                np.testing.assert_allclose(np.asarray(x), want, rtol=1e-6)  # a host read: a wait
            if k % 30 == 0:
                xp.synchronize()
        results[i] = (np.asarray(x), want)

    run_threads(work, 6)
    for got, want in results.values():
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_threads_allocate_and_free_at_once():
    def work(i):
        for k in range(200):
            a = xp.full((k % 13 + 1, 64), float(i), dtype=xp.float64)
            b = a + 1.0
            assert float(b[0, 0]) == i + 1.0
            del a, b

    run_threads(work, 4)
    xp.synchronize()
