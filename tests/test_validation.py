"""Runs the runtime and thread tests again under the Khronos validation layer with
synchronization validation; any validation message fails."""
import os
import subprocess
import sys

import pytest

# The runtime's barriers under the validation layer: what masks change is tested elsewhere.
pytestmark = pytest.mark.feature_independent

HERE = os.path.dirname(os.path.abspath(__file__))
LAYER_JSON_DIRS = ("/usr/share/vulkan/explicit_layer.d", "/etc/vulkan/explicit_layer.d")
LAYER = "VK_LAYER_KHRONOS_validation"


def layer_installed():
    for d in LAYER_JSON_DIRS:
        if os.path.isdir(d) and any("khronos_validation" in f.lower() for f in os.listdir(d)):
            return True
    return False


def run_under_validation(tmp_path, pytest_args, extra_env=None):
    log = tmp_path / "validation.log"
    settings = tmp_path / "vk_layer_settings.txt"
    settings.write_text(
        "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n"
        "khronos_validation.report_flags = error,warn\n"
        f"khronos_validation.log_filename = {log}\n"
        "khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT\n")
    # (NVIDIA's float32 DenormPreserve variants are outside the spec: see _launch.denorm_preserve)
    env = dict(os.environ, VK_INSTANCE_LAYERS=LAYER, VK_LAYER_SETTINGS_PATH=str(settings),
               ARRAY_API_VULKAN_NVIDIA_DENORM_PRESERVE="0", **(extra_env or {}))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args],
                       env=env, cwd=os.path.dirname(HERE), capture_output=True, text=True, timeout=900)
    messages = log.read_text() if log.exists() else ""
    return r, messages


needs_layer = pytest.mark.skipif(not layer_installed(), reason="Khronos validation layer not installed")


@needs_layer
def test_runtime_tests_are_clean_under_synchronization_validation(tmp_path):
    # The layer takes each dispatch as touching its whole arena (it cannot see which elements a
    # shader uses), so the runtime tracks hazards per arena here; see device.HAZARDS_PER_BUFFER.
    r, messages = run_under_validation(tmp_path, [os.path.join(HERE, "test_runtime.py"),
                                                  os.path.join(HERE, "test_threads.py")],
                                       {"ARRAY_API_VULKAN_HAZARDS": "buffer"})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert messages == "", messages[:5000]


@needs_layer
def test_validation_catches_a_missing_barrier(tmp_path):
    """The negative control: with barriers switched off, the layer must report hazards. Kernels
    reach memory through device addresses, which the layer cannot follow, so the control uses
    the recorder's buffer copies, which it sees (the same barriers order both)."""
    script = tmp_path / "test_no_barrier.py"
    script.write_text(
        "import numpy as np\n"
        "from array_api_vulkan import _runtime as rt\n"
        "from array_api_vulkan._runtime import _vkcore\n"
        "def test_chain():\n"
        "    d = rt.default_device()\n"
        "    d._ensure()\n"
        "    d._rec.omit_barriers = True\n"
        "    a = d.upload(np.arange(256, dtype=np.float32))\n"
        "    b, c = d.alloc(1024), d.alloc(1024)\n"
        "    for dst, src in ((b, a), (c, b)):\n"
        "        d.copy(src, 0, dst, 0, 1024)\n"
        "    d.download(c, np.float32, (256,), (1,), 0)\n")
    r, messages = run_under_validation(tmp_path, [str(script)])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "SYNC-HAZARD-READ-AFTER-WRITE" in messages
