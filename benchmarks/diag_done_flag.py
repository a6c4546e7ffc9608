"""Whether a synchronised call could return sooner if its kernel told the host it had finished,
rather than the host waiting for the batch's fence: `c = a + b` on float32 (compiled at run
time, one 16-byte vector an invocation, as the package's add) whose last workgroup to finish
(a device counter, one atomic a workgroup) writes a word into host memory, which the host
polls. Wall µs a call, from the launch (submitted at once: the first op after a wait) until
the host sees the word (`flag`), or until `synchronize()` returns (`fence`; `plain`: the same
kernel without the counter); torch's `a + b` synchronised beside them. Medians of interleaved
blocks, at 2^16 ... 2^26 elements. Not a test; prints JSON.

    python3 benchmarks/diag_done_flag.py [--quick] [--out F]
"""
import ctypes
import statistics
import time

import numpy as np

from _common import emit, parser, torch_cuda, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._runtime import compiler  # noqa: E402

SOURCE = """#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 16) restrict readonly buffer In { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) restrict writeonly buffer Out { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer Word { uint v[]; };
layout(push_constant) uniform Push {
    uvec2 a; uvec2 b; uvec2 c; uvec2 ctr; uvec2 flag; uint n4; uint groups; uint value; uint signal;
} p;
void main()
{
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint t = g * 256u + gl_LocalInvocationID.x;
    if (t < p.n4)
        Out(p.c).v[t] = In(p.a).v[t] + In(p.b).v[t];
    if (p.signal != 0u) {
        // every invocation's store issued before the workgroup counts itself done
        memoryBarrierBuffer();
        barrier();
        if (gl_LocalInvocationID.x == 0u) {
            uint done = atomicAdd(Word(p.ctr).v[0], 1u);
            if (done == p.groups - 1u) {
                Word(p.ctr).v[0] = 0u;
                memoryBarrierBuffer();
                Word(p.flag).v[0] = p.value;
            }
        }
    }
}
"""


def _grid(groups):
    if groups <= 65535:
        return (groups,)
    rows = -(-groups // 65535)
    return (-(-groups // rows), rows)


def _words(addr):
    return [addr & 0xFFFFFFFF, addr >> 32]


def main():
    ap = parser(__doc__, only=False, libs=None)
    args = ap.parse_args()
    exps, rounds = ((12, 14), 30) if args.quick else ((16, 20, 22, 24, 26), 300)
    try:
        torch = torch_cuda()
    except Exception:
        torch = None
    name = compiler.shader(SOURCE, tag="doneflag")
    rng = np.random.default_rng(0)
    res = {"rounds": rounds}
    for e in exps:
        n = 1 << e
        a_np, b_np = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        a, b = xp.asarray(a_np), xp.asarray(b_np)
        c = xp.empty(n, dtype=xp.float32)
        ctr = xp.zeros(4, dtype=xp.uint32)
        dev = a.device
        flag = dev.staging.alloc(16)
        word = ctypes.c_uint32.from_address(flag.host_pointer)
        word.value = 0
        groups = n // 4 // 256
        bufs = [a._alloc, b._alloc, c._alloc, ctr._alloc, flag]
        writes = [False, False, True, True, True]
        value = [0]

        def push(signal):
            value[0] += 1
            return np.array(_words(a._alloc.address) + _words(b._alloc.address) + _words(c._alloc.address)
                            + _words(ctr._alloc.address) + _words(flag.address)
                            + [n // 4, groups, value[0], signal], np.uint32)

        def run(mode):
            xp.synchronize()
            pw = push(0 if mode == "plain" else 1)
            v = value[0]
            t = time.perf_counter()
            dev.launch(name, (), bufs, writes, pw, groups=_grid(groups), local_size=256)
            if mode == "flag":
                while word.value != v:
                    pass
            else:
                xp.synchronize()
            w = (time.perf_counter() - t) * 1e6
            xp.synchronize()
            return w

        run("flag")
        ok = bool(np.array_equal(np.asarray(c), a_np + b_np)) and word.value == value[0]
        walls = {"flag": [], "fence": [], "plain": []}
        for _ in range(3):  # interleaved blocks
            for mode in walls:
                walls[mode] += [run(mode) for _ in range(rounds // 3)]
        for mode, ws in walls.items():
            res[f"{mode}_2^{e}"] = round(statistics.median(ws), 2)
        res[f"correct_2^{e}"] = ok
        if torch is not None:
            ta, tb = torch.from_numpy(a_np).cuda(), torch.from_numpy(b_np).cuda()
            held = [ta + tb]
            torch.cuda.synchronize()
            ws = []
            for _ in range(rounds):
                t = time.perf_counter()
                r = ta + tb
                torch.cuda.synchronize()
                ws.append((time.perf_counter() - t) * 1e6)
                held[0] = r
            res[f"torch_2^{e}"] = round(statistics.median(ws), 2)
            del ta, tb, held
        del a, b, c, ctr, flag
        xp.synchronize()
    emit(res, args.out)


if __name__ == "__main__":
    main()
