"""spv/ must match glsl/ and the op table: scripts/build_spv.py --check needs no compiler."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# spv/ against glsl/: files, not the device.
pytestmark = pytest.mark.feature_independent


def test_spv_is_fresh():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "build_spv.py"), "--check"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, (r.stdout + r.stderr
                               + "\nspv/ is stale: run `make spv` (scripts/build_spv.py) and commit spv/")


def test_every_variant_the_table_needs_exists():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "_avk_variants_check", os.path.join(ROOT, "array_api_vulkan", "_kernels", "variants.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    missing = [n for n in mod.VARIANTS if not os.path.exists(os.path.join(ROOT, "spv", n + ".spv"))]
    assert not missing, missing[:10]
