"""Several Python threads using one device at once: the recorder and the pools take a lock that
releases the GIL while it waits, so submits and waits in one thread (which release the GIL) do
not let another thread record into a batch being submitted."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import array_api_vulkan as xp
from conftest import FLOAT

# The recorder's locking across threads: the same whatever features are masked.
pytestmark = pytest.mark.feature_independent


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
            a = xp.full((k % 13 + 1, 64), float(i), dtype=FLOAT)
            b = a + 1.0
            assert float(b[0, 0]) == i + 1.0
            del a, b

    run_threads(work, 4)
    xp.synchronize()


FIRST_USE = """
import threading
import numpy as np
import array_api_vulkan as xp
from array_api_vulkan import _runtime as rt

out = {}
def work(i):
    x = xp.asarray(np.arange(1000, dtype=np.float32) + i)
    for _ in range(50):
        x = x + 1.0
    out[i] = (np.asarray(x), x.device)
threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
for i, (got, dev) in out.items():
    np.testing.assert_array_equal(got, np.arange(1000, dtype=np.float32) + i + 50)
assert len({id(d) for _, d in out.values()}) == 1
assert len({id(d._core) for d in rt.devices() if d._core is not None}) == 1
print("ok")
"""


def test_threads_first_use_of_the_runtime_in_a_fresh_process():
    """Threads that are the first to use the runtime make one Device object and one Vulkan
    device between them (not one each, with memory of one bound to pipelines of another)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # Not under a validation run's layer: its log file is the parent process's.
    env = {k: v for k, v in os.environ.items() if k not in ("VK_INSTANCE_LAYERS", "VK_LAYER_SETTINGS_PATH")}
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", FIRST_USE], cwd=root, capture_output=True, text=True,
                           timeout=300, env=env)
        assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]
