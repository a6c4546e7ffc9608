"""The kernel engine (issue 7): pipelines made ahead of time and kept on disk across processes,
and arrays larger than one descriptor's reach (maxStorageBufferRange)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import array_api_vulkan as xp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIRST_OPS = (
    "import json, array_api_vulkan as xp\n"
    "x = xp.ones(100, dtype=xp.float32)\n"
    "y = xp.exp(x) * 2.0 + x\n"
    "assert abs(float(y[0]) - 6.43656365691809) < 1e-5\n"
    "s = xp.runtime_stats()\n"
    "print(json.dumps({k: s[k] for k in ('pipelines_created', 'pipeline_cache_hits')}))\n")


def run_fresh(env_extra):
    env = dict(os.environ, **env_extra)
    r = subprocess.run([sys.executable, "-c", FIRST_OPS], env=env, cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_warmup_makes_the_common_pipelines_once():
    xp.warmup()
    assert xp.warmup() == 0  # all made already
    xp.reset_runtime_stats()
    x = xp.ones(10, dtype=xp.float32)
    float(xp.sum(x * 2.0 + 1.0))
    assert xp.runtime_stats()["pipelines_created"] == 0
    assert xp.runtime_stats()["host_fallbacks"] == {}


def test_pipeline_cache_is_saved_and_loaded_by_a_second_process(tmp_path):
    cache = tmp_path / "cache"
    first = run_fresh({"ARRAY_API_VULKAN_CACHE_DIR": str(cache)})
    # (beside it, spirv/: shaders compiled at run time, e.g. fused elementwise kernels)
    files = [f for f in cache.iterdir() if f.name != "spirv"]
    assert len(files) == 1, files
    blob = files[0].read_bytes()
    # The driver's header (VkPipelineCacheHeaderVersionOne): its length, version 1, vendor.
    size, version, vendor = np.frombuffer(blob[:12], np.uint32)
    info = xp.__array_namespace_info__().default_device().info
    assert size >= 32 and version == 1 and vendor == info["vendor_id"]
    assert files[0].name.startswith(f"pipelines-{info['vendor_id']:04x}-{info['uuid'].hex()}-")
    second = run_fresh({"ARRAY_API_VULKAN_CACHE_DIR": str(cache)})
    assert second["pipelines_created"] == first["pipelines_created"] > 0
    if len(blob) > size:
        # A driver that keeps pipeline binaries (NVIDIA's does) finds every one of them.
        assert second["pipeline_cache_hits"] == second["pipelines_created"]
    else:
        # lavapipe (Mesa 22.3) keeps only the header: nothing to find, and nothing wrong.
        assert second["pipeline_cache_hits"] == 0


def test_empty_cache_dir_disables_the_disk_cache(tmp_path):
    home = tmp_path / "home"
    run_fresh({"ARRAY_API_VULKAN_CACHE_DIR": "", "HOME": str(home), "XDG_CACHE_HOME": str(home / "c")})
    # Nothing of ours under HOME (the default cache would be $XDG_CACHE_HOME/array_api_vulkan).
    # NVIDIA's drivers keep caches of their own there (libcuda's ~/.nv, from the CUDA context
    # that holds the clocks up): those are not ours to prevent.
    ours = [p for p in home.rglob("*") if "array_api_vulkan" in p.parts or p.name.startswith("pipelines-")
            or p.name == "spirv"]
    assert not ours, ours


@pytest.mark.feature_independent  # (float32 beyond one descriptor's range: masks change nothing here)
def test_array_of_512_mib_end_to_end():
    """Beyond lavapipe's 128 MiB maxStorageBufferRange: upload, elementwise, a reduction, a
    copy and a download of one 512 MiB array, all native."""
    dev = xp.__array_namespace_info__().default_device()
    n = (512 << 20) // 4
    # (beyond one descriptor's reach where the device's range is smaller, as lavapipe's 128 MiB)
    host = (np.arange(n, dtype=np.uint32) % 7).astype(np.float32)
    xp.reset_runtime_stats()
    x = xp.asarray(host)
    y = x * 2.0 + 1.0
    total = float(xp.sum(y))
    # the exact total, rounded once to float32 (the compensated sum gets it exactly)
    assert total == float(np.float32(np.sum(host.astype(np.float64) * 2 + 1)))
    z = xp.asarray(y[n // 2:], copy=True)
    back = np.asarray(z)
    np.testing.assert_array_equal(back[-7:], host[-7:] * 2 + 1)
    np.testing.assert_array_equal(back[:7], host[n // 2:n // 2 + 7] * 2 + 1)
    assert np.array_equal(back, host[n // 2:] * 2 + 1)
    assert xp.runtime_stats()["host_fallbacks"] == {}
