"""What the device's arithmetic reaches through Vulkan, as ceilings for the matmul kernels
(issue 9's float64 4096^2 goal of 25 TFLOP/s): GPU time of synthetic kernels compiled at run time.

- fma_{f32,f64}: each invocation runs C independent fma chains for ITERS rounds (no memory but
  one store): the fused multiply-add peak.
- inner_{f32,f64}: the matmul fast path's inner loop alone (glsl/matmul.comp fast(): 16 x 16
  invocations, 8 x 8 accumulators each, a 32-wide subgroup as 8 x 4 invocations, 16-byte
  vectors read from two shared k-major tiles of TK rows), over shared tiles filled once; with
  and without a barrier after every TK steps. Its gap to fma_* is what reading the shared tiles
  costs; the real kernel's gap to it is the global loads, stores and K-step bookkeeping.
- matmul_{f32,f64}_4096: the package's own product, for comparison in the same process.

    python3 benchmarks/diag_fma_peak.py [--quick] [--blocks 8x8,12x8]

Prints one JSON object: per kernel the GPU microseconds of a launch (median of 5), TFLOP/s,
and with ARRAY_API_VULKAN_PIPELINE_STATS=1 the driver's register count.
"""
import json
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import ours_gpu, parser, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._runtime import compiler  # noqa: E402

HEAD = """#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = NT) in;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Out { T v[]; };
layout(push_constant) uniform Push { uvec2 dst; uint iters; uint seed; } p;
"""

FMA = HEAD + """
const uint C = 16u;
void main()
{
    T a = T(1.0) + T(p.seed) * T(1e-9);
    T b = T(1e-7);
    T acc[C];
    [[unroll]] for (uint j = 0u; j < C; j++)
        acc[j] = T(gl_GlobalInvocationID.x + j);
    for (uint i = 0u; i < p.iters; i++) {
        [[unroll]] for (uint u = 0u; u < 4u; u++)
            [[unroll]] for (uint j = 0u; j < C; j++)
                acc[j] = fma(acc[j], a, b);
    }
    T s = T(0);
    [[unroll]] for (uint j = 0u; j < C; j++)
        s += acc[j];
    Out(p.dst).v[gl_GlobalInvocationID.x] = s;
}
"""

INNER = HEAD + """
const uint WX = BWX, WY = NT / BWX, RM = BRM, RN = BRN;
const uint TMV = WY * RM / VW + 1u, TNV = WX * RN / VW + 1u;
shared TV As[TK * TMV];
shared TV Bs[TK * TNV];
void main()
{
    uint lid = gl_LocalInvocationIndex;
#if LANES_X
    // a 32-wide subgroup is one row of invocations: its reads of A are one address
    uint tx = lid % WX, ty = lid / WX;
#else
    uint wg = lid / 32u, lane = lid - wg * 32u;
    uint tx = (wg % (WX / 8u)) * 8u + (lane & 7u);
    uint ty = (wg / (WX / 8u)) * 4u + (lane >> 3u);
#endif
    for (uint i = lid; i < TK * TMV; i += NT)
        As[i] = TV(T(i % 7u) * T(0.25) + T(p.seed));
    for (uint i = lid; i < TK * TNV; i += NT)
        Bs[i] = TV(T(i % 5u) * T(0.125));
    barrier();
    T acc[RM][RN];
    [[unroll]] for (uint i = 0u; i < RM; i++)
        [[unroll]] for (uint j = 0u; j < RN; j++)
            acc[i][j] = T(0);
#if PREFETCH
    TV fa[RM / VW], fb[RN / VW];
    [[unroll]] for (uint q = 0u; q < RM / VW; q++)
        fa[q] = As[q * WY + ty];
    [[unroll]] for (uint q = 0u; q < RN / VW; q++)
        fb[q] = Bs[q * WX + tx];
#endif
    for (uint it = 0u; it < p.iters; it++) {
        [[unroll]] for (uint kk = 0u; kk < TK; kk++) {
#if PREFETCH
            // the next step's fragments read before this step's products (the tiles are the
            // same every round here, so step TK wraps to step 0)
            TV av[RM / VW], bv[RN / VW];
            [[unroll]] for (uint q = 0u; q < RM / VW; q++)
                av[q] = fa[q];
            [[unroll]] for (uint q = 0u; q < RN / VW; q++)
                bv[q] = fb[q];
            uint kn = (kk + 1u) % TK;
            [[unroll]] for (uint q = 0u; q < RM / VW; q++)
                fa[q] = As[kn * TMV + q * WY + ty];
            [[unroll]] for (uint q = 0u; q < RN / VW; q++)
                fb[q] = Bs[kn * TNV + q * WX + tx];
#else
            TV av[RM / VW];
            TV bv[RN / VW];
            [[unroll]] for (uint q = 0u; q < RM / VW; q++)
                av[q] = As[kk * TMV + q * WY + ty];
            [[unroll]] for (uint q = 0u; q < RN / VW; q++)
                bv[q] = Bs[kk * TNV + q * WX + tx];
#endif
            [[unroll]] for (uint q = 0u; q < RM / VW; q++)
                [[unroll]] for (uint r = 0u; r < VW; r++)
                    [[unroll]] for (uint pq = 0u; pq < RN / VW; pq++)
                        [[unroll]] for (uint c = 0u; c < VW; c++)
                            acc[q * VW + r][pq * VW + c] =
                                fma(av[q][r], bv[pq][c], acc[q * VW + r][pq * VW + c]);
        }
        BARRIER
    }
    T s = T(0);
    [[unroll]] for (uint i = 0u; i < RM; i++)
        [[unroll]] for (uint j = 0u; j < RN; j++)
            s += acc[i][j];
    Out(p.dst).v[gl_GlobalInvocationID.x] = s;
}
"""

TYPES = {"f32": ("float", "vec4", 4, 16), "f64": ("double", "dvec2", 2, 8)}


def source(kind, dt, barrier=False, nt=256, prefetch=False, rm=8, rn=8, wx=16, lanes_x=False):
    t, tv, vw, tk = TYPES[dt]
    defs = (f"#define T {t}\n#define TV {tv}\n#define VW {vw}u\n#define TK {tk}u\n"
            f"#define NT {nt}u\n#define PREFETCH {int(prefetch)}\n#define BRM {rm}u\n#define BRN {rn}u\n"
            f"#define BWX {wx}u\n#define LANES_X {int(lanes_x)}\n")
    body = (FMA if kind == "fma" else INNER).replace("BARRIER", "barrier();" if barrier else "")
    return body.replace("#version 450\n", "#version 450\n" + defs, 1)


def flops_per_iter(kind, dt, rm=8, rn=8):
    """FLOPs of one invocation's round."""
    if kind == "fma":
        return 2 * 16 * 4
    return 2 * rm * rn * TYPES[dt][3]


def main():
    ap = parser(__doc__, libs=None)
    ap.add_argument("--blocks", default="",
                    help="only the inner loop, float64, 128 invocations with a barrier, at these "
                         "register blocks: e.g. 8x8,12x8,10x8 (the default runs every kernel above); "
                         "a block ending in 'x' (8x8x) has 32 x 4 invocations, a subgroup one row "
                         "of them (its reads of A one address)")
    args = ap.parse_args()
    dev = xp.asarray(np.ones(1, np.float32)).device
    groups = 8 if args.quick else 132 * 16
    iters = {"fma": 16 if args.quick else 4096, "inner": 4 if args.quick else 512}
    out = {"device": str(dev), "groups": groups,
           "iters": iters, "kernels": {}}
    dst = dev.alloc(groups * 256 * 8)
    have64 = xp.float64 in xp.__array_namespace_info__().dtypes().values()
    blocks = [tuple(int(v) for v in b.rstrip("x").split("x")) + (b.endswith("x"),)
              for b in args.blocks.split(",") if b]
    for kind in ("fma", "inner") if not blocks else ():
        for dt in ("f32", "f64"):
            if dt == "f64" and not have64:
                continue
            shapes = [(False, 256, False)]
            if kind == "inner":
                shapes += [(True, 256, False), (False, 128, False), (True, 128, False),
                           (False, 256, True), (True, 128, True)]
            for barrier, nt, prefetch in shapes:
                label = (f"{kind}_{dt}" + ("_barrier" if barrier else "")
                         + (f"_nt{nt}" if nt != 256 else "") + ("_prefetch" if prefetch else ""))
                try:
                    name = compiler.shader(source(kind, dt, barrier, nt, prefetch), tag="peak")
                except Exception as e:  # one kernel failing must not lose the others
                    out["kernels"][label] = {"error": f"{type(e).__name__}: {e}"[:300]}
                    continue
                n = iters[kind]
                push = np.array([dst.address & 0xFFFFFFFF, dst.address >> 32, n, 1], np.uint32)

                def one(name=name, g=groups * 256 // nt):
                    dev.launch(name, (), [dst], [True], push, groups=(g,), local_size=nt)

                one()
                xp.synchronize()
                ts = [ours_gpu(one) for _ in range(5)]
                t = statistics.median(ts)
                fl = flops_per_iter(kind, dt) * n * groups * 256
                row = {"us": t * 1e6, "tflops": fl / t / 1e12}
                stats = dev.pipeline_statistics(name, [])
                if stats:
                    row["stats"] = stats[0][1]
                out["kernels"][label] = row
    for rm, rn, lanes_x in blocks if have64 else ():
        label = f"inner_f64_barrier_nt128_{rm}x{rn}" + ("_lanes_x" if lanes_x else "")
        try:
            name = compiler.shader(source("inner", "f64", True, 128, rm=rm, rn=rn,
                                          wx=32 if lanes_x else 16, lanes_x=lanes_x), tag="peak")
        except Exception as e:
            out["kernels"][label] = {"error": f"{type(e).__name__}: {e}"[:300]}
            continue
        n = iters["inner"]
        push = np.array([dst.address & 0xFFFFFFFF, dst.address >> 32, n, 1], np.uint32)

        def one(name=name, g=groups * 2):
            dev.launch(name, (), [dst], [True], push, groups=(g,), local_size=128)

        one()
        xp.synchronize()
        t = statistics.median(ours_gpu(one) for _ in range(5))
        row = {"us": t * 1e6, "tflops": flops_per_iter("inner", "f64", rm, rn) * n * groups * 256 / t / 1e12}
        stats = dev.pipeline_statistics(name, [])
        if stats:
            row["stats"] = stats[0][1]
        out["kernels"][label] = row
    for dt, npdt in (("f32", np.float32), ("f64", np.float64)):
        if blocks or dt == "f64" and not have64:
            continue
        n = 256 if args.quick else 4096
        a = xp.asarray(np.random.default_rng(0).standard_normal((n, n)).astype(npdt))
        b = xp.asarray(np.random.default_rng(1).standard_normal((n, n)).astype(npdt))
        (a @ b)
        xp.synchronize()
        ts = [ours_gpu(lambda: a @ b) for _ in range(5)]
        t = statistics.median(ts)
        out["kernels"][f"matmul_{dt}_{n}"] = {"us": t * 1e6, "tflops": 2 * n ** 3 / t / 1e12}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
