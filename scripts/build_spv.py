#!/usr/bin/env python3
"""Compiles glsl/ into spv/.

Every glsl/<family>.comp is one shader family. The dtype variants of a family come from the op
table (array_api_vulkan/_kernels/variants.py: VARIANTS maps a variant name to its family and its
preprocessor defines) and, for the runtime's own shaders, from RUNTIME_VARIANTS below; a family
with no variants is compiled once, as spv/<family>.spv.
spv/MANIFEST.json records a hash of each variant's inputs (source, includes, defines, flags), so a
test can tell when spv/ is stale without a compiler.

    scripts/build_spv.py            rebuild what changed
    scripts/build_spv.py --check    exit 1 if spv/ is stale (no compiler needed)
"""
import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLSL = os.path.join(ROOT, "glsl")
SPV = os.path.join(ROOT, "spv")
INCLUDE = os.path.join(GLSL, "include")
VARIANTS_PY = os.path.join(ROOT, "array_api_vulkan", "_kernels", "variants.py")
# The runtime's own shaders (array_api_vulkan/_runtime): its word copy, a dispatch for its tests
# and micro-benchmarks (transfers themselves are the queue's buffer copies).
RUNTIME_VARIANTS = {"copy_words": ("copy", {})}
FLAGS = ["-V", "--target-env", "vulkan1.1", "-Os"]
# Variants whose defines have AVK_FREEZE ("id:value id:value ..."): their specialisation constants
# are fixed to those values and their loops unrolled at the SPIR-V level by spirv-opt, after
# glslang. NVIDIA's compiler left the 64-bit accumulators of matmul.comp's tiled path an indexed
# array in local memory, at a seventh of the speed (docs/kernels.md); unrolled here, it does not.
FREEZE_PASSES = ["--freeze-spec-const", "--fold-spec-const-op-composite",
                 "--eliminate-dead-code-aggressive", "--loop-unroll", "--scalar-replacement=0",
                 "--ssa-rewrite", "--eliminate-local-multi-store", "-O"]


def load_variants():
    """{variant name: (family, {define: value})}, families without table entries included."""
    table = dict(RUNTIME_VARIANTS)
    if os.path.exists(VARIANTS_PY):
        spec = importlib.util.spec_from_file_location("_avk_variants", VARIANTS_PY)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        table.update(mod.VARIANTS)
    families_with_variants = {fam for fam, _ in table.values()}
    for name in sorted(os.listdir(GLSL)):
        if name.endswith(".comp") and name[:-5] not in families_with_variants:
            table[name[:-5]] = (name[:-5], {})
    return table


def inputs_hash(family, defines):
    h = hashlib.sha256()
    h.update(" ".join(FLAGS).encode())
    for k in sorted(defines):
        h.update(f"-D{k}={defines[k]}\n".encode())
    if "AVK_FREEZE" in defines:
        h.update(" ".join(FREEZE_PASSES).encode())
    h.update(open(os.path.join(GLSL, family + ".comp"), "rb").read())
    # Any include may be used; hashing all of them is simpler than parsing and always safe.
    for inc in sorted(os.listdir(INCLUDE)):
        h.update(inc.encode())
        h.update(open(os.path.join(INCLUDE, inc), "rb").read())
    return h.hexdigest()


def expected_manifest():
    return {name: inputs_hash(fam, defs) for name, (fam, defs) in load_variants().items()}


def compile_one(name, family, defines):
    out = os.path.join(SPV, name + ".spv")
    freeze = defines.get("AVK_FREEZE")
    defines = {k: v for k, v in defines.items() if k != "AVK_FREEZE"}
    cmd = ["glslangValidator", *FLAGS, f"-I{INCLUDE}", *[f"-D{k}={v}" for k, v in defines.items()],
           os.path.join(GLSL, family + ".comp"), "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{name}: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    if freeze:
        for cmd in (["spirv-opt", "--set-spec-const-default-value", freeze, out, "-o", out],
                    ["spirv-opt", *FREEZE_PASSES, out, "-o", out],
                    ["spirv-val", "--target-env", "vulkan1.1", out]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise SystemExit(f"{name}: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    manifest_path = os.path.join(SPV, "MANIFEST.json")
    old = json.load(open(manifest_path)) if os.path.exists(manifest_path) else {}
    want = expected_manifest()
    stale = sorted(n for n in want if old.get(n) != want[n] or not os.path.exists(os.path.join(SPV, n + ".spv")))
    extra = sorted(set(old) - set(want))
    if args.check:
        if stale or extra:
            print(f"spv/ is stale: {len(stale)} to rebuild, {len(extra)} to remove "
                  f"(e.g. {(stale + extra)[:5]}); run scripts/build_spv.py")
            return 1
        print(f"spv/ is up to date ({len(want)} variants)")
        return 0
    os.makedirs(SPV, exist_ok=True)
    variants = load_variants()
    with ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        list(ex.map(lambda n: compile_one(n, *variants[n]), stale))
    for n in extra:
        p = os.path.join(SPV, n + ".spv")
        if os.path.exists(p):
            os.remove(p)
    with open(manifest_path, "w") as f:
        json.dump(want, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"spv/: {len(stale)} compiled, {len(extra)} removed, {len(want)} in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
