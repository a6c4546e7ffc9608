"""Whether the order in which a streaming kernel walks its array decides how much of it comes
from the L2 (issue 10's synchronised add). After `c = a + b` over arrays larger than the L2,
the L2 holds the ends of a, b and c; a next kernel that starts from those ends reads them from
the L2, one that starts from the beginning reads everything from memory again.

The kernel is `c = a + b` on float32, one 16-byte vector an invocation, 256 wide, compiled at
run time; push word `rev` != 0 maps workgroup g to block G - 1 - g (its lanes still ascend).

    python3 benchmarks/diag_l2_order.py [--quick] [--rounds 3]

Prints one JSON object, per size (2^22 ... 2^26 elements):
- `gpu_fwd`, `gpu_alt`: GPU µs of a call, 20 calls a batch, every call forward, or the
  direction alternating call to call (median of 5 batches, best of the rounds);
- `pair_fwd`, `pair_rev`: GPU µs of `c = a + b` then `d = c + b`, the second forward or reversed
  (producer then consumer);
- `sync_fwd`, `sync_alt`, `sync_torch`: wall µs of one call then a synchronize (median of 7
  repeats of 20), ours forward, ours alternating, and torch's `a + b`, interleaved round by
  round in one process;
- `pkg_alt`, `pkg_pinned`: the package's own `a + b` then a synchronize (wall, as above), with
  its alternating order (the default) and with the order pinned (the device's bit flipped back
  after each call, so every call takes the same order); `pkg_sum_alt`, `pkg_sum_pinned`,
  `sum_torch` the same for `sum(a)`.
"""
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import emit, ours_gpu, parser, sync_wall_us, torch_cuda, use_checkout  # noqa: E402

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from array_api_vulkan._runtime import compiler  # noqa: E402
from diag_stream import grid  # noqa: E402

ADD = """#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 16) restrict readonly buffer In { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) restrict writeonly buffer Out { vec4 v[]; };
layout(push_constant) uniform Push { uvec2 a; uvec2 b; uvec2 c; uint n4; uint rev; } p;
void main()
{
    uint G = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (p.rev != 0u)
        g = G - 1u - g;
    uint i = g * 256u + gl_LocalInvocationID.x;
    if (i < p.n4)
        Out(p.c).v[i] = In(p.a).v[i] + In(p.b).v[i];
}
"""


def main():
    ap = parser(__doc__, libs=None, only=False)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    name = compiler.shader(ADD, tag="l2order")
    logs = (16, 20) if args.quick else (22, 24, 25, 26)
    try:
        torch = torch_cuda()
    except Exception:
        torch = None
    out = {"sizes": {}}
    for lg in logs:
        n = 1 << lg
        n4 = n // 4
        rng = np.random.default_rng(lg)
        a = xp.asarray(rng.random(n, dtype=np.float32))
        b = xp.asarray(rng.random(n, dtype=np.float32))
        c = xp.empty(n, dtype=xp.float32)
        d = xp.empty(n, dtype=xp.float32)
        dev = a.device
        addr = lambda x: x._alloc.address  # noqa: E731

        def push(x, y, z, rev):
            return np.array([addr(x) & 0xFFFFFFFF, addr(x) >> 32, addr(y) & 0xFFFFFFFF,
                             addr(y) >> 32, addr(z) & 0xFFFFFFFF, addr(z) >> 32, n4, rev],
                            np.uint32)

        pushes = {(r, "c"): push(a, b, c, r) for r in (0, 1)}
        pushes.update({(r, "d"): push(c, b, d, r) for r in (0, 1)})
        groups = grid(-(-n4 // 256))

        def add(rev, dst="c"):
            bufs = [a._alloc, b._alloc, c._alloc] if dst == "c" else [c._alloc, b._alloc, d._alloc]
            dev.launch(name, (), bufs, [False, False, True], pushes[(rev, dst)], groups=groups,
                       local_size=256)

        add(1)
        xp.synchronize()
        ok = bool(np.array_equal(np.asarray(c), np.asarray(a) + np.asarray(b)))
        state = {"rev": 0}

        def alt():
            state["rev"] ^= 1
            add(state["rev"])

        best = {}
        for _ in range(args.rounds):
            for label, fn in (("gpu_fwd", lambda: [add(0) for _ in range(20)]),
                              ("gpu_alt", lambda: [alt() for _ in range(20)])):
                fn()
                xp.synchronize()
                t = statistics.median(ours_gpu(fn) for _ in range(5)) / 20
                best[label] = min(best.get(label, 1e9), t)
            for label, rev in (("pair_fwd", 0), ("pair_rev", 1)):
                def pair(rev=rev):
                    for _ in range(10):
                        add(0)
                        add(rev, "d")
                pair()
                xp.synchronize()
                t = statistics.median(ours_gpu(pair) for _ in range(5)) / 10
                best[label] = min(best.get(label, 1e9), t)
        row = {"correct": ok}
        row.update({k: round(v * 1e6, 2) for k, v in best.items()})

        wall = sync_wall_us

        if torch is not None:
            ta = torch.rand(n, device="cuda")
            tb = torch.rand(n, device="cuda")
        rec = dev._rec

        box = [None]  # (the last result held: fusion computes only what someone holds)

        def plain():
            box[0] = a + b

        def pinned():
            box[0] = a + b
            rec.alternate()  # (back: the next call takes the same order)

        def sum_plain():
            box[0] = xp.sum(a)

        def sum_pinned():
            box[0] = xp.sum(a)
            rec.alternate()

        for _ in range(args.rounds):
            row.setdefault("sync_fwd", []).append(wall(lambda: add(0), xp.synchronize))
            row.setdefault("sync_alt", []).append(wall(alt, xp.synchronize))
            row.setdefault("pkg_alt", []).append(wall(plain, xp.synchronize))
            row.setdefault("pkg_pinned", []).append(wall(pinned, xp.synchronize))
            row.setdefault("pkg_sum_alt", []).append(wall(sum_plain, xp.synchronize))
            row.setdefault("pkg_sum_pinned", []).append(wall(sum_pinned, xp.synchronize))
            if torch is not None:
                row.setdefault("sum_torch", []).append(wall(lambda: torch.sum(ta), torch.cuda.synchronize))
            if torch is not None:
                row.setdefault("sync_torch", []).append(wall(lambda: ta + tb, torch.cuda.synchronize))
        out["sizes"][f"2^{lg}"] = row
        del a, b, c, d, box
    emit(out, args.out)


if __name__ == "__main__":
    main()
