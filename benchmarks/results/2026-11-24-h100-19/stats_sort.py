import json, os, sys
sys.path.insert(0, "benchmarks")
os.environ["ARRAY_API_VULKAN_PIPELINE_STATS"] = "1"
import numpy as np
from diag_pipelines import recorded, LOCAL_BASE
import array_api_vulkan as xp
from array_api_vulkan._kernels import _sort
dev = xp.__array_namespace_info__().default_device()
x = xp.asarray(np.random.default_rng(0).random(1 << 22, dtype=np.float32))
names = {c: nm for nm, c in _sort.CODES.items()}
for kpt in (8, 12, 16):
    _sort.KPT = _sort.KPT_GPU = kpt
    for shader, spec in recorded(lambda: xp.sort(x)):
        if names.get(spec[0]) == "sort_scatter":
            for exe, st in dev.pipeline_statistics(shader, spec):
                print(kpt, shader, st.get("Register Count"), st.get("Local Memory Size", LOCAL_BASE) - LOCAL_BASE)
