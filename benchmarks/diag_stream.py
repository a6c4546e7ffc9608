"""What a streaming kernel (c = a + b, float32, 16M) reaches through Vulkan, against the
package's own add and torch's: GPU time of kernels compiled at run time, one shape of the
elementwise kernel's work at a time (issue 10's synchronised add).

Variants (labels): `ls<W>_v<V>` an invocation of a W-wide workgroup takes V 16-byte vectors a
grid apart, in one-shot grids (V = 1 is the package's shape); `ls<W>_c<V>` V consecutive
vectors; `persist<G>_u<U>` G workgroups of 256 in a grid-stride loop, U vectors loaded before
any is used; `*_plain` the same without `restrict readonly`; `copy` and `read` one-operand
ceilings (c = a; a sum of a into one word a workgroup).

    python3 benchmarks/diag_stream.py [--quick] [--rounds 3]

Prints one JSON object: per kernel the GPU microseconds of a call (20 calls a batch, median of 5
batches, best of the rounds) and GB/s; `ours_add` is `a + b` of the package (fusion off, so each
call is its own dispatch), `torch_add` and
`torch_copy` torch's through CUDA events.
"""
import json
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import cuda_gpu, ours_gpu, parser, sync_wall_us, torch_cuda, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._kernels import _fuse  # noqa: E402
from array_api_vulkan._runtime import compiler  # noqa: E402

HEAD = """#version 450
#extension GL_EXT_spirv_intrinsics : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = NT) in;
layout(buffer_reference, std430, buffer_reference_align = 16) QIN buffer In { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) QOUT buffer Out { vec4 v[]; };
layout(push_constant) uniform Push { uvec2 a; uvec2 b; uvec2 c; uint n4; } p;
uint group() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
// OpStore with MemoryAccess Aligned (16) | Nontemporal: a streaming store
spirv_instruction(id = 62) void store_nt(spirv_by_reference vec4 dst, vec4 v, spirv_literal int access,
                                         spirv_literal int align);
#if NT_STORE
#define STORE(I, VAL) store_nt(Out(p.c).v[I], VAL, 6, 16)
#else
#define STORE(I, VAL) Out(p.c).v[I] = VAL
#endif
"""

# V vectors a grid apart (SPREAD) or consecutive, one-shot grid
ONESHOT = HEAD + """
void main()
{
    uint grid = gl_NumWorkGroups.x * gl_NumWorkGroups.y * NT;
    uint t = group() * NT + gl_LocalInvocationID.x;
    vec4 x[V], y[V];
    [[unroll]] for (uint k = 0u; k < V; k++) {
        uint i = SPREAD ? t + k * grid : t * V + k;
        if (i < p.n4) { x[k] = In(p.a).v[i]; y[k] = In(p.b).v[i]; }
    }
    [[unroll]] for (uint k = 0u; k < V; k++) {
        uint i = SPREAD ? t + k * grid : t * V + k;
        if (i < p.n4) STORE(i, x[k] + y[k]);
    }
}
"""

PERSIST = HEAD + """
void main()
{
    uint grid = gl_NumWorkGroups.x * gl_NumWorkGroups.y * NT;
    uint t = group() * NT + gl_LocalInvocationID.x;
    for (uint i0 = t; i0 < p.n4; i0 += V * grid) {
        vec4 x[V], y[V];
        [[unroll]] for (uint k = 0u; k < V; k++) {
            uint i = i0 + k * grid;
            if (i < p.n4) { x[k] = In(p.a).v[i]; y[k] = In(p.b).v[i]; }
        }
        [[unroll]] for (uint k = 0u; k < V; k++) {
            uint i = i0 + k * grid;
            if (i < p.n4) Out(p.c).v[i] = x[k] + y[k];
        }
    }
}
"""

COPY = HEAD + """
void main()
{
    uint t = group() * NT + gl_LocalInvocationID.x;
    if (t < p.n4) Out(p.c).v[t] = In(p.a).v[t];
}
"""

READ = HEAD + """
shared float part[NT];
void main()
{
    uint t = group() * NT + gl_LocalInvocationID.x;
    vec4 x = t < p.n4 ? In(p.a).v[t] : vec4(0);
    part[gl_LocalInvocationID.x] = x.x + x.y + x.z + x.w;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        float s = 0.0;
        for (uint j = 0u; j < NT; j++) s += part[j];
        Out(p.c).v[group()] = vec4(s);
    }
}
"""


def source(body, nt, v=1, spread=True, plain=False, nt_store=False):
    defs = (f"#define NT {nt}u\n#define V {v}u\n#define SPREAD {'true' if spread else 'false'}\n"
            f"#define NT_STORE {int(nt_store)}\n"
            f"#define QIN {'' if plain else 'restrict readonly'}\n"
            f"#define QOUT {'' if plain else 'restrict writeonly'}\n")
    return body.replace("#version 450\n", "#version 450\n" + defs, 1)


def grid(groups):
    if groups <= 65535:
        return (groups,)
    rows = -(-groups // 65535)
    return (-(-groups // rows), rows)


def main():
    ap = parser(__doc__, libs=None, only=False)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sync", default="ls256_v1,ls256_v1_ntstore",
                    help="kernels also timed one call at a time, synchronised after each (wall, "
                         "median of 7 repeats of 20), beside ours_add and torch_add")
    args = ap.parse_args()
    n = (1 << 16) if args.quick else (1 << 24)
    n4 = n // 4
    rng = np.random.default_rng(0)
    a = xp.asarray(rng.random(n, dtype=np.float32))
    b = xp.asarray(rng.random(n, dtype=np.float32))
    dev = a.device
    c = xp.empty(n, dtype=xp.float32)
    want = np.asarray(a) + np.asarray(b)
    addr = lambda x: x._alloc.address + x._offset * 4  # noqa: E731

    variants = {}
    for nt in (64, 128, 256, 512, 1024):
        variants[f"ls{nt}_v1"] = (source(ONESHOT, nt), nt, n4 // nt)
    for nt, v in ((256, 2), (256, 4), (128, 2), (512, 2)):
        variants[f"ls{nt}_v{v}"] = (source(ONESHOT, nt, v), nt, -(-n4 // (nt * v)))
        variants[f"ls{nt}_c{v}"] = (source(ONESHOT, nt, v, spread=False), nt, -(-n4 // (nt * v)))
    variants["ls256_v1_plain"] = (source(ONESHOT, 256, plain=True), 256, n4 // 256)
    variants["ls256_v1_ntstore"] = (source(ONESHOT, 256, nt_store=True), 256, n4 // 256)
    for g in (132 * 4, 132 * 8, 132 * 16, 132 * 32):
        for u in (1, 2, 4):
            variants[f"persist{g}_u{u}"] = (source(PERSIST, 256, u), 256, g)
    variants["copy"] = (source(COPY, 256), 256, n4 // 256)
    variants["read"] = (source(READ, 256), 256, n4 // 256)

    compiled = {}
    out = {"device": str(dev), "n": n, "kernels": {}, "errors": {}}
    for label, (src, nt, groups) in variants.items():
        try:
            compiled[label] = (compiler.shader(src, tag="stream"), nt, groups)
        except Exception as e:  # one kernel failing must not lose the others
            out["errors"][label] = f"{type(e).__name__}: {e}"[:300]
    push = np.array([addr(a) & 0xFFFFFFFF, addr(a) >> 32, addr(b) & 0xFFFFFFFF, addr(b) >> 32,
                     addr(c) & 0xFFFFFFFF, addr(c) >> 32, n4, 0], np.uint32)
    bufs = [a._alloc, b._alloc, c._alloc]

    def batch(name, nt, groups):
        def run():
            for _ in range(20):
                dev.launch(name, (), bufs, [False, False, True], push,
                           groups=grid(groups), local_size=nt)
        return run

    def check(label):
        if label in ("copy", "read"):
            return True
        ok = bool(np.array_equal(np.asarray(c), want))
        zero = xp.zeros(1, dtype=xp.float32)  # (c's next reads see the next kernel's values)
        c[:1] = zero[0]
        return ok

    best = {}
    for r in range(args.rounds):
        for label, (name, nt, groups) in compiled.items():
            run = batch(name, nt, groups)
            run()
            xp.synchronize()
            if r == 0:
                out.setdefault("correct", {})[label] = check(label)
            t = statistics.median(ours_gpu(run) for _ in range(5)) / 20
            best[label] = min(best.get(label, 1e9), t)
        # (unfused: held, 20 independent adds would be one kernel reading a and b once)
        was = _fuse.set_enabled(False)
        try:
            t = statistics.median(ours_gpu(lambda: [a + b for _ in range(20)]) for _ in range(5)) / 20
        finally:
            _fuse.set_enabled(was)
        best["ours_add"] = min(best.get("ours_add", 1e9), t)
    for label, t in best.items():
        moved = 8 if label in ("copy",) else (4 if label == "read" else 12)
        out["kernels"][label] = {"us": round(t * 1e6, 2), "GBps": round(moved * n / t / 1e9, 1)}
        stats = dev.pipeline_statistics(compiled[label][0], []) if label in compiled else None
        if stats:
            out["kernels"][label]["stats"] = stats[0][1]
    wall = sync_wall_us

    sync_rows = {}
    try:
        torch = torch_cuda()
        ta = torch.rand(n, device="cuda")
        tb = torch.rand(n, device="cuda")
        torch_add = (lambda: ta + tb, torch.cuda.synchronize)
    except Exception:
        torch_add = None
    for r in range(args.rounds):
        for label in [x for x in args.sync.split(",") if x in compiled]:
            name, nt, groups = compiled[label]
            one = (lambda name=name, nt=nt, groups=groups: dev.launch(
                name, (), bufs, [False, False, True], push, groups=grid(groups), local_size=nt))
            sync_rows.setdefault(label, []).append(wall(one, xp.synchronize))
        sync_rows.setdefault("ours_add", []).append(wall(lambda: a + b, xp.synchronize))
        if torch_add:
            sync_rows.setdefault("torch_add", []).append(wall(*torch_add))
    out["sync_wall_us"] = sync_rows
    try:
        torch = torch_cuda()
        ta = torch.rand(n, device="cuda")
        tb = torch.rand(n, device="cuda")
        gpu = cuda_gpu(lambda: torch.cuda.Event(enable_timing=True), torch.cuda.synchronize)
        for label, fn in (("torch_add", lambda: [ta + tb for _ in range(20)]),
                          ("torch_copy", lambda: [ta.clone() for _ in range(20)])):
            fn()
            ts = [gpu(fn) / 20 for _ in range(5 * args.rounds)]
            t = statistics.median(ts)
            moved = 8 if label == "torch_copy" else 12
            out["kernels"][label] = {"us": round(t * 1e6, 2), "GBps": round(moved * n / t / 1e9, 1)}
    except Exception as e:
        out["errors"]["torch"] = f"{type(e).__name__}: {e}"[:300]
    print(json.dumps(out, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
