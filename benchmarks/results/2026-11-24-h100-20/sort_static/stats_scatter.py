"""Registers and local memory of each sort_scatter pipeline that sort and argsort of float32
record, with the layout words static (per pass) and pushed (run 20)."""
import os
import sys

sys.path.insert(0, "benchmarks")
os.environ["ARRAY_API_VULKAN_PIPELINE_STATS"] = "1"
import numpy as np  # noqa: E402
from diag_pipelines import LOCAL_BASE, recorded  # noqa: E402
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _sort  # noqa: E402

dev = xp.__array_namespace_info__().default_device()
x = xp.asarray(np.random.default_rng(0).random(1 << 22, dtype=np.float32))
names = {c: nm for nm, c in _sort.CODES.items()}
for static in (True, False):
    _sort.STATIC_SCATTER = static
    _sort._plans.clear()
    for call in ("sort", "argsort"):
        for shader, spec in recorded(lambda: getattr(xp, call)(x)):
            if names.get(spec[0]) == "sort_scatter":
                for exe, st in dev.pipeline_statistics(shader, spec):
                    print("static" if static else "pushed", call, spec[5:] and hex(spec[5]),
                          st.get("Register Count"), st.get("Local Memory Size", LOCAL_BASE) - LOCAL_BASE)
