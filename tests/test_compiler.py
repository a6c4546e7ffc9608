"""The run-time GLSL compiler (_runtime/compiler.py): compiles, launches, caches on disk by hash."""
import os
import subprocess
import sys

import numpy as np
import pytest

import array_api_vulkan as xp
from array_api_vulkan._runtime import compiler, device as rt_device

# (the run-time compiler and its disk cache: the same whatever features are masked)
pytestmark = [pytest.mark.skipif(not compiler.available(), reason="built without glslang"),
              pytest.mark.feature_independent]

SCALE = """#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "common.glsl"
layout(buffer_reference, std430, buffer_reference_align = 4) buffer F { float v[]; };
layout(push_constant) uniform Push { uvec2 dst; uvec2 src; uint count; } p;
void main()
{
    uint i = avk_index();
    if (i < p.count)
        F(p.dst).v[i] = F(p.src).v[i] * SCALE_BY;
}
"""


def _push(dst, src, n):
    return np.array([dst.address & 0xFFFFFFFF, dst.address >> 32, src.address & 0xFFFFFFFF, src.address >> 32, n],
                    np.uint32)


def test_compiled_shader_runs():
    dev = xp.asarray([0.0]).device
    name = compiler.shader(SCALE.replace("SCALE_BY", "3.0"), tag="test")
    assert name.startswith("test-")
    assert compiler.shader(SCALE.replace("SCALE_BY", "3.0"), tag="test") == name  # memoised
    n = 1000
    host = np.arange(n, dtype=np.float32)
    src = dev.upload(host)
    dst = dev.alloc(4 * n)
    dev.launch(name, (), [dst, src], [True, False], _push(dst, src, n), n)
    out = dev.download(dst, np.dtype(np.float32), (n,), (1,), 0)
    assert np.array_equal(np.asarray(out), host * 3)


def test_compile_error_is_value_error():
    with pytest.raises(ValueError, match="undeclared identifier"):
        compiler.shader("#version 450\nvoid main() { nonsense_name += 1; }\n", tag="bad")


def test_missing_include_is_file_not_found():
    with pytest.raises(FileNotFoundError):
        compiler.shader('#version 450\n#include "no_such_file.glsl"\nvoid main() {}\n')


def test_second_process_reads_the_disk_cache(tmp_path):
    code = f"""
import sys
sys.path.insert(0, {os.path.dirname(os.path.dirname(__file__))!r})
from array_api_vulkan._runtime import compiler, stats
src = {SCALE.replace('SCALE_BY', '7.0')!r}
compiler.shader(src, tag='test')
print(stats.counters['shaders_compiled'], stats.counters['shaders_cache_hits'])
"""
    env = dict(os.environ, ARRAY_API_VULKAN_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            .stdout.split() for _ in range(2)]
    assert runs == [["1", "0"], ["0", "1"]]
    assert len(os.listdir(tmp_path / "spirv")) == 1


def test_no_disk_cache_when_disabled(tmp_path, monkeypatch):
    monkeypatch.setenv("ARRAY_API_VULKAN_CACHE_DIR", "")
    assert rt_device.cache_dir() is None
    compiler.shader(SCALE.replace("SCALE_BY", "5.0"), tag="test")  # compiles, writes nothing
