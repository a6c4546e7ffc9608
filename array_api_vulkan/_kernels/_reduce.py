"""Reductions (the reduce family, glsl/reduce.comp): sum, prod, min, max, all, any, mean, var,
std, count_nonzero, argmin, argmax over any axes, as compiled plans of one or two passes.

After dpctl's _reduction_over_axis: the reduced axes go last (a permuted view), so one kernel
shape serves every axis: `rows` independent rows of `n` elements. The kept axes must collapse
to at most two dimensions and the reduced ones to one (else the permuted view is first copied
contiguous): element i of row r is at  off + (r / R1) * rs0 + (r % R1) * rs1 + i * is.
Reduced axes trailing and contiguous (is == 1): ROWS mode, workgroups along each row; leading
ones (the rows contiguous, rs1 == 1): COLS mode, one invocation per row (or per 4 adjacent rows
with vector loads), coalesced across rows, no copy. Rows and column groups that are contiguous
and 16-byte aligned are read 16 bytes a load into per-lane accumulators; _sg variants reduce a
workgroup by subgroup shuffles. A long row is split into G chunks (a fixed count from the
device kind) whose partials a second pass reduces; both passes are one compiled plan
(Device.compile_plan), kept per layout. var/std are one pass of (count, mean, M2) states merged
by Chan et al.'s formulas. docs/kernels.md, "Reductions and scans", has the details.
"""
import math

import numpy as np

from . import _launch
from ._launch import ADDRESS, ARG, OFFSET, OUT, TMP, NotNative, table

FAMILY = "reduce"
CODES = table.FAMILY_CODES[FAMILY]
LOCAL = 256
ROWS, COLS, SGROWS = 0, 1, 2
FIN_NONE, FIN_MEAN, FIN_VAR, FIN_STD = 0, 1, 2, 3
AUX_NONE, AUX_ROW, AUX_ELEM = 0, 1, 2
# push words (glsl/include/reduce.glsl): the layout words, then 4 addresses from word 24
W_IN_OFF, W_AUX_OFF = 9, 10
A_IN, A_OUT, A_AUX, A_OUT2 = 24, 26, 28, 30
PUSH_WORDS = 32
# Grid sizing: aim for about this many workgroups (ROWS) or invocations (COLS) per pass, with
# at least MIN_ROWS_CHUNK elements per ROWS workgroup and MIN_COLS_CHUNK per COLS invocation.
# (GPUs: TARGET_GROUPS_GPU / TARGET_THREADS_GPU; a fixed count, never timing-dependent.)
# TARGET_GROUPS_GPU: 512 since the row's last workgroup reduces the partials (FINAL_IN_PASS):
# fewer partials for it to read; on the H100 (run 21, 3 alternating rounds, GPU time) 512
# against 1024 took argmax float32 16M 34.2-34.3 us against 36.0-36.1, mean+var 68.1-68.8
# against 71.9-72.5, sum and max the same; 256, 384, 2048 and 4096 were slower.
TARGET_GROUPS = 512
TARGET_THREADS = 1 << 16
TARGET_GROUPS_GPU = 512
TARGET_THREADS_GPU = 1 << 17
MIN_ROWS_CHUNK = 2048
MIN_COLS_CHUNK = 64
# (GPUs, COLS with lanes: 32 with COLS_LANES_GPU 8, H200 run 36: a column sum of 4096² float32
# took 28.5 us of GPU against 30.3 with 64 and 4 lanes, and 35.0 with one lane (64 partials a
# column); without lanes, packed or not, MIN_COLS_CHUNK: 32 made 65536 x 256 5 % slower)
MIN_COLS_CHUNK_GPU = 32
MAX_GRID = 65535
# Vector loads (reduce.comp VW: 16 bytes a load of 32- and 64-bit real dtypes) where a row (ROWS)
# or a group of adjacent rows (COLS) is contiguous and aligned; tests turn it off.
USE_VEC = True
VEC_BIT = 1 << 12
# COLS with fewer row groups than LOCAL (a column sum of a tall narrow matrix): several chunks a
# workgroup, partials [row][chunk] (reduce.comp PACK_BIT). One chunk a workgroup left most of
# its invocations idle, and the second pass, over [chunk][row] partials, was one invocation per
# row through every chunk: a sum over axis 0 of 1M x 32 float32 took 5.1 ms on the H100, where
# torch took 0.11 ms (run 9, benchmarks/diag_steps.py). Tests turn it off.
USE_PACK = True
PACK_BIT = 1 << 13
# The _sg variants' subgroup tree (spec constant SG_TREE; 0: their shared-memory tree); whether
# _sg variants are taken at all is _launch.USE_SUBGROUPS (tests turn it off).
SG_TREE = 1
# Float sums: Neumaier's compensation on every element of the first pass (spec constant
# COMPENSATE; 0: plain adds in each lane, the tree still compensated).
COMPENSATE = 1
# Vector loads in flight per invocation in ROWS and vector COLS modes (reduce.comp LOADS: 2 or 4),
# on GPUs and on CPU devices. The same bits either way.
LOADS_GPU = 2
LOADS_CPU = 2
# COLS (not packed): lanes that split each chunk of a row group (reduce.comp RL_BIT, w[19]),
# merged in the workgroup, so that the second pass reads fewer partials (a column sum of 4096²
# float32 on GPUs: 16 partials a column instead of 64, with 2^17 invocations); 1: none. Taken
# where the row gives each lane a whole minimum chunk (MIN_COLS_CHUNK_GPU / MIN_COLS_CHUNK): an
# axis 0 of 64 took 28.4 us with 8 lanes of 8 elements against 27.4 with none (64 x 4096 x 64
# float32). H200 (run 36, GPU time of the 4096² sum): 1 lane 35.0 us, 4 lanes 32.5 (30.3 with
# MIN_COLS_CHUNK_GPU 32), 8 lanes 28.5 with it, 16 lanes 32.6.
COLS_LANES_GPU = 8
COLS_LANES_CPU = 4
RL_BIT = 1 << 15
# The layout word w[8] (mode, finalisation, aux kind, vector loads, packing) as specialisation
# constant 4 (| RM_STATIC), so that a plan's pipeline holds only the path it takes; False: read
# from the push block by one pipeline for every layout. GPUs only (STATIC_MODE_CPU): on lavapipe
# each pipeline is an LLVM compile, and a pipeline per layout made tests/test_reductions.py,
# test_fusion.py and test_scan_native.py take 46 s instead of 31 (session 18).
STATIC_MODE = True
STATIC_MODE_CPU = False
RM_STATIC = 1 << 20
# ROWS passes with G > 1 chunks a row whose second pass would be the same variant (float sums
# and means, min/max, argmin/argmax, var/std of T -> T): the last workgroup of each row reduces
# the partials in the same dispatch (reduce.comp FINAL_BIT), counted in by a per-row counter
# the plan keeps (zero between dispatches), instead of a second dispatch after a barrier.
FINAL_IN_PASS = True
FINAL_BIT = 1 << 14
W_COUNTER, W_FINAL_OUT = 20, 22
# var/std: elements a lane sums about its first element before a merge (bounds the cancellation
# of M2 = S2 - S1^2 / n where that element is far from the lane's mean)
VAR_LANE = 64
# SGROWS: a subgroup per row (_sg variants) where at least SG_ROWS_MIN_ROWS rows of at most
# SG_ROWS_MAX_N elements each fill the device by themselves (0: never)
SG_ROWS_MAX_N = 8192
SG_ROWS_MIN_ROWS = 256
# compiled plans kept per op
MAX_PLANS = 256

# (op, input code) -> result code of each signature of the op table's reduce rows
_SIGS = {}
for _name, _ops in table.OPS.items():
    for _op in _ops:
        if _op.family == FAMILY:
            for _t, _r in _op.sigs.items():
                _SIGS.setdefault((_name, _t), set()).add(_r)
del _name, _ops, _op, _t, _r

# the op whose pass reduces a first pass's partials, and whether partials carry a second array
_SECOND = {"sum": "sum", "prod": "prod", "min": "min", "max": "max", "all": "all", "any": "any",
           "count_nonzero": "sum", "argmax": "argmax", "argmin": "argmin", "sqdev": "sqdev"}
ORDER_FREE = frozenset(("sum", "prod", "min", "max", "all", "any", "count_nonzero", "mean", "var",
                        "std"))

_plans = {}
# the result of reducing nothing (min/max/argmin/argmax: the caller raises)
_EMPTY = {"prod": 1, "all": True, "mean": math.nan, "var": math.nan, "std": math.nan}


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _native(value, what):
    """value, which supports_reduce / supports_scan promised is not None."""
    if value is None:
        raise NotNative(f"{what}: not native here, though supports_* said it was")
    return value


def _variant(op, tc, rc, dev):
    """The spv variant of reduce op `op` for (tc -> rc) on dev, or None; its `_sg` flavour
    (the subgroup tree) where dev has subgroup shuffles and _launch.USE_SUBGROUPS."""
    if rc not in _SIGS.get((op, tc), ()):
        return None
    if not (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)):
        return None
    return _launch.subgroup_variant(_launch.variant(FAMILY, tc, rc, None, dev), dev, "shuffle")


def _f32_bits(v):
    return _launch.scalar_words(float(v), "f")[0]


def _f64_words(v):
    return _launch.scalar_words(float(v), "d")


class _Builder:
    """Collects the steps, temporaries and results of one plan."""

    def __init__(self):
        self.steps, self.temps, self.outputs = [], [], []
        # (reduce sets these; other families' passes (matmul's split-K sum) take scalar loads)
        self.dev, self.aligned, self.vw, self.vw_r, self.sg_r = None, True, 1, 1, False
        # reduce's plans: the counter operand (ARG 1) of FINAL_BIT passes, and its word count
        self.final_ok, self.counter_words = False, 0

    def temp(self, nbytes):
        self.temps.append(int(nbytes))
        return (TMP, len(self.temps) - 1)

    def out(self, nbytes, dtype, shape):
        self.outputs.append((int(nbytes), dtype, tuple(shape), _launch._c_strides(tuple(shape))))
        return (OUT, len(self.outputs) - 1)


def _choose_mode(n, rows, r1, rs1, is_):
    if rows == 1:
        return ROWS
    # Contiguous rows: a workgroup per row where rows are long or few; many short rows take a
    # thread each (65536 rows of 16 took 20 s on lavapipe as 65536 workgroups of 256 threads).
    if is_ == 1 and (n >= 128 or (n >= 16 and rows <= 256)):
        return ROWS
    if r1 > 1 and rs1 == 1:
        return COLS
    return ROWS if n >= 64 else COLS


def _targets(dev):
    if _launch.on_cpu(dev):
        return TARGET_GROUPS, TARGET_THREADS
    return TARGET_GROUPS_GPU, TARGET_THREADS_GPU


def _cols_lanes(dev, n):
    """(lanes, minimum elements a lane) of a COLS pass (not packed) over rows of n elements: the
    device's COLS_LANES_* where each lane gets a whole minimum chunk, else (1, MIN_COLS_CHUNK)."""
    if _launch.on_cpu(dev):
        lanes, least = COLS_LANES_CPU, MIN_COLS_CHUNK
    else:
        lanes, least = COLS_LANES_GPU, MIN_COLS_CHUNK_GPU
    return (lanes, least) if lanes > 1 and n >= least * lanes else (1, MIN_COLS_CHUNK)


def _chunks(mode, n, rows, single, vw=1, dev=None, lanes=1, min_cols=MIN_COLS_CHUNK):
    """(chunk length, G) for a pass: G == 1 where `single` or the rows alone fill the device.
    COLS with vector loads: rows / vw invocations (times `lanes`, each taking at least
    `min_cols` elements). Chunks are whole vectors (of 4)."""
    if single or n == 0:
        return max(n, 1), 1
    groups, threads = _targets(dev)
    if mode == ROWS:
        g = min(-(-n // MIN_ROWS_CHUNK), -(-groups // rows), MAX_GRID)
    else:
        g = min(-(-n // (min_cols * lanes)), -(-threads // (max(rows // vw, 1) * lanes)),
                MAX_GRID)
    g = max(g, 1)
    length = -(-n // g)
    if mode == ROWS and g > 1:
        length = -(-length // 4) * 4
    return length, -(-n // length)


def _vw(dtype):
    """Elements per vector load of reduce.comp (VW) for an input dtype."""
    vw = _VW.get(dtype)
    if vw is None:
        kind = table.DTYPES[dtype.name][3]
        vw = _VW[dtype] = {4: 4, 8: 2}.get(dtype.itemsize, 1) if kind in "iuf" else 1
    return vw


_VW = {}  # (asked on every call's plan key)


def _vec_ok(mode, vw, n, rows, r1, rs0, rs1, is_, aligned, auxk):
    """Whether a pass may take vector loads: every row (ROWS) or group of vw adjacent rows
    (COLS) starts vw-aligned and is contiguous."""
    if not USE_VEC or vw == 1 or not aligned or auxk == AUX_ELEM:
        return False
    if mode == ROWS:
        return (is_ == 1 or n == 1) and (rows == 1 or (rs0 % vw == 0 and rs1 % vw == 0))
    return rs1 == 1 and r1 % vw == 0 and rs0 % vw == 0 and (is_ % vw == 0 or n == 1)


def _sg_rows(b, shader, op, mode, g, n, rows, kind):
    """Rows a workgroup takes in SGROWS mode (256 / the subgroup size), or 0: not SGROWS."""
    if (mode != ROWS or g != 1 or kind != ARG or not shader.endswith("_sg") or not SG_TREE
            or rows < max(SG_ROWS_MIN_ROWS, 2) or n > SG_ROWS_MAX_N):
        return 0
    if op not in ("argmax", "argmin") and not b.sg_r:
        return 0  # (reduce.comp's SG_R: the accumulator's compute type is 32-bit)
    size = _launch.subgroup_size(b.dev)
    if size < 4 or size > LOCAL or LOCAL % size:
        return 0
    return LOCAL // size


def _grid(mode, rows, g, vw=1, rpw=1, pack=False, lanes=1):
    if pack:  # (COLS, PACK_BIT: LOCAL // row groups chunks a workgroup)
        return (1, -(-g // (LOCAL // (rows // vw))), 1)
    if mode == SGROWS:
        rows = -(-rows // rpw)
        mode, g = ROWS, 1
    if mode == ROWS:
        gy = min(rows, MAX_GRID)
        return (g, gy, -(-rows // gy))
    blocks = -(-(rows // vw) // (LOCAL // lanes))
    gx = min(blocks, MAX_GRID)
    return (gx, g, -(-blocks // gx))


def _pass(b, shader, op, src, n, rows, r1, rs0, rs1, is_, out, out2=None, aux=None, auxk=AUX_NONE,
          fin=FIN_NONE, divisor=0.0, full_n=0.0, single=False, chunk1=(0, 0)):
    """Adds one pass (or two, where the row is long) reducing src's rows into `out` (and the
    second output `out2` of argmin/argmax/sqdev partials). Returns G (1: out has the result)."""
    mode = _choose_mode(n, rows, r1, rs1, is_)
    kind = src[0]
    aligned = b.aligned if kind == ARG else True  # (temporaries start at element 0)
    vw = b.vw if kind == ARG else b.vw_r
    vec = _vec_ok(mode, vw, n, rows, r1, rs0, rs1, is_, aligned, auxk)
    gvw = vw if vec and mode == COLS else 1
    pack = USE_PACK and mode == COLS and rows // gvw < LOCAL
    lanes, min_cols = _cols_lanes(b.dev, n) if mode == COLS and not pack else (1, MIN_COLS_CHUNK)
    length, g = _chunks(mode, n, rows, single, vw if vec else 1, b.dev, lanes, min_cols)
    if op == "sqdev" and not single:
        # var: at most VAR_LANE elements a lane (each lane's sums about its first element)
        cap = VAR_LANE * (LOCAL * (vw if vec else 1) if mode == ROWS else lanes)
        if length > cap:
            g = min(-(-n // cap), MAX_GRID)
            length = -(-n // g)
            if mode == ROWS:
                length = -(-length // 4) * 4
            g = -(-n // length)
    w = [0] * PUSH_WORDS
    w[0:9] = [n, rows, max(r1, 1), rs0 & 0xFFFFFFFF, rs1 & 0xFFFFFFFF, is_ & 0xFFFFFFFF, length, g,
              mode | (fin << 4 if g == 1 else 0) | (auxk << 8) | (VEC_BIT if vec else 0)]
    w[11] = _f32_bits(divisor)
    w[12:14] = _f64_words(divisor)
    w[14] = _f32_bits(full_n)
    w[15:17] = _f64_words(full_n)
    w[17:19] = chunk1  # var's second pass: the first pass's chunk length and row length
    if pack:
        w[8] |= PACK_BIT
    if lanes > 1:
        w[8] |= RL_BIT
        w[19] = lanes
    rpw = _sg_rows(b, shader, op, mode, g, n, rows, kind)
    if rpw:
        mode = SGROWS
        w[8] = (w[8] & ~3) | SGROWS
        w[19] = rpw
    final = (g > 1 and b.final_ok and mode == ROWS and not pack and _SECOND[op] == op
             and b.second_shader == shader and kind == ARG and rows <= MAX_GRID)
    if final:
        # the row's last workgroup writes the result (reduce.comp last_of_row, final_lanes)
        w[8] |= FINAL_BIT | (fin << 16)
        if op == "sqdev":
            w[17:19] = (length, n)
    buffers, patches = [], []
    idx = src[1]
    buffers.append((kind, idx, False))
    patches.append((A_IN, ADDRESS, kind, idx))
    if kind == ARG:
        patches.append((W_IN_OFF, OFFSET, kind, idx))
    if aux is not None:
        buffers.append((aux[0], aux[1], False))
        patches.append((A_AUX, ADDRESS, aux[0], aux[1]))
    spec = [CODES[op], SG_TREE, COMPENSATE, LOADS_CPU if _launch.on_cpu(b.dev) else LOADS_GPU]
    if STATIC_MODE_CPU if _launch.on_cpu(b.dev) else STATIC_MODE:
        spec.append(w[8] | RM_STATIC)
    if g == 1:
        buffers.append((out[0], out[1], True))
        patches.append((A_OUT, ADDRESS, out[0], out[1]))
        b.steps.append((shader, spec, w, _grid(mode, rows, 1, gvw, rpw, pack, lanes), buffers,
                        patches))
        return 1
    # pass 1: partials, then pass 2 over them
    tsz, rsz = b.partial_sizes
    first = b.temp(rows * g * (tsz if op in ("argmax", "argmin") else rsz))
    second = None
    buffers.append((first[0], first[1], True))
    patches.append((A_OUT, ADDRESS, first[0], first[1]))
    if op in ("argmax", "argmin", "sqdev") or (op == "sum" and b.floating):
        # argmin/argmax: indices; var: (mean about K, M2) pairs; float sums: compensations
        second = b.temp(rows * g * rsz * (2 if op == "sqdev" else 1))
        buffers.append((second[0], second[1], True))
        patches.append((A_OUT2, ADDRESS, second[0], second[1]))
    if final:
        b.counter_words = rows
        buffers.append((ARG, 1, True))
        patches.append((W_COUNTER, ADDRESS, ARG, 1))
        buffers.append((out[0], out[1], True))
        patches.append((W_FINAL_OUT, ADDRESS, out[0], out[1]))
    b.steps.append((shader, spec, w, _grid(mode, rows, g, gvw, 1, pack, lanes), buffers, patches))
    if final:
        return g
    if mode == ROWS or pack:  # partials [row][chunk]
        p = (g, rows, rows, 0, g, 1)
    else:             # partials [chunk][row]
        p = (g, rows, rows, 0, 1, rows)
    op2 = _SECOND[op]
    shader2 = b.second_shader
    _pass(b, shader2, op2, first, *p, out, aux=second, auxk=AUX_ELEM if second else AUX_NONE,
          fin=fin, divisor=divisor, full_n=full_n, single=True,
          chunk1=(length, n) if op == "sqdev" else (0, 0))
    return g


def _layout(x, axes, order_free):
    """(n, is, rows, R1, rs0, rs1) of x's reduction over `axes`, or None where the kept or
    reduced axes do not collapse (the permuted view must be copied first)."""
    kept = [k for k in range(x.ndim) if k not in axes]
    red = list(axes)
    if order_free:
        red.sort(key=lambda k: -abs(x._strides[k]))
    rsh, rst = _launch._collapse([x._shape[k] for k in red], [[x._strides[k] for k in red]])
    ksh, kst = _launch._collapse([x._shape[k] for k in kept], [[x._strides[k] for k in kept]])
    if len(rsh) > 1 or len(ksh) > 2:
        return None
    n = rsh[0] if rsh else 1
    is_ = rst[0][0] if rsh else 0
    rows = math.prod(ksh)
    if not ksh:
        r1, rs0, rs1 = 1, 0, 0
    elif len(ksh) == 1:
        r1, rs0, rs1 = ksh[0], 0, kst[0][0]
    else:
        r1, rs0, rs1 = ksh[1], kst[0][0], kst[0][1]
    return n, is_, rows, r1, rs0, rs1


def _out_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if k in axes else m for k, m in enumerate(shape))
    return tuple(m for k, m in enumerate(shape) if k not in axes)


def _knobs():
    """The module switches a reduce plan depends on (part of its cache key)."""
    return (TARGET_GROUPS, TARGET_THREADS, TARGET_GROUPS_GPU, TARGET_THREADS_GPU, MIN_ROWS_CHUNK,
            MIN_COLS_CHUNK, MIN_COLS_CHUNK_GPU, USE_VEC, SG_TREE, COMPENSATE, VAR_LANE,
            SG_ROWS_MAX_N, SG_ROWS_MIN_ROWS,
            _launch.USE_SUBGROUPS, USE_PACK, LOADS_GPU, LOADS_CPU, STATIC_MODE, STATIC_MODE_CPU,
            FINAL_IN_PASS, COLS_LANES_GPU, COLS_LANES_CPU)


def plan_key(x, axes, keepdims, dtype, correction=0.0):
    """The key of reduce's plan cache (per op) for x's layout: whether x's first element is
    vector-aligned and the module knobs are part of it."""
    return (x._dtype, x._shape, x._strides, axes, keepdims, dtype, correction,
            x._offset % _vw(x._dtype) == 0, _knobs())


def _replay(plans, op, key, x):
    """(op's plan cache, the result of its compiled plan for layout `key` on x, or None)."""
    cache = plans.get(op)
    if cache is None:
        cache = plans[op] = {}
    plan = cache.get(key)
    return cache, (plan(x) if plan is not None else None)


def indexable(x):
    """Whether x's allocation holds fewer than 2^32 elements (the kernels index in 32 bits)."""
    return x._alloc.nbytes // x._dtype.itemsize < 1 << 32


def state(dev):
    """What supports_reduce's answer depends on besides the op, the dtypes and indexable(x):
    the device, its dtype flags and whether subgroup variants are taken."""
    return dev, _launch.features(dev), _launch.USE_SUBGROUPS


def supports_reduce(op, x, dtype):
    """Whether reduce(op, x, axes, keepdims, dtype) runs natively: the op table has the
    signatures, the device the dtypes and the compiled variants, for every pass the call needs
    (conversion first, the pass itself, the second pass or the mean, a contiguous copy of a view
    that does not collapse). The spec layer asks this first; reduce then returns the result."""
    if not indexable(x):
        return False
    dev = x._alloc.device
    # (asked on every call: the answer depends only on the key, and the tests switch features
    # and subgroups on a live device)
    key = (op, x._dtype, dtype) + state(dev)
    ok = _supported.get(key)
    if ok is None:
        if len(_supported) >= MAX_PLANS:
            _supported.clear()
        ok = _supported[key] = _supports(op, x._dtype, dtype, dev)
    return ok


_supported = {}


def _supports(op, xdt, dtype, dev):
    tc, rc = _code(xdt), _code(dtype)
    base = {"mean": "sum", "var": "sqdev", "std": "sqdev"}.get(op, op)
    if op in ("sum", "prod", "mean", "var", "std") and rc not in _SIGS.get((base, tc), ()):
        if _launch.cast_variant(tc, rc, dev) is None:
            return False
        tc = rc  # converted first
    if (_variant(base, tc, rc, dev) is None or _launch.cast_variant(tc, tc, dev) is None
            or _launch.variant("fill", None, rc, None, dev) is None):  # (an empty reduction's fill)
        return False
    if op in ("var", "std"):
        return True  # (one pass and its second pass: the same variant)
    op2 = _SECOND[base]
    return (op2 == base and base in ("argmax", "argmin")) or _variant(op2, rc, rc, dev) is not None


def reduce(op, x, axes, keepdims, dtype, correction=0.0, _copied=False):
    """op over `axes` (a sorted tuple of distinct non-negative axes; every axis for a full
    reduction) of x, keepdims as the standard; dtype: the result's (sum/prod: the accumulator,
    x is converted to it first where no signature takes x's dtype to it; mean/var/std: x's
    floating dtype, integers converted first; count_nonzero/argmin/argmax: the index dtype).
    The caller has checked the standard's rules (min/max/argmin/argmax of nothing raise) and
    supports_reduce(op, x, dtype)."""
    vw = _vw(x._dtype)
    key = plan_key(x, axes, keepdims, dtype, correction)
    cache, out = _replay(_plans, op, key, x)
    if out is not None:
        return out
    dev = x._alloc.device
    tc, rc = _code(x._dtype), _code(dtype)
    base = {"mean": "sum", "var": "sqdev", "std": "sqdev"}.get(op, op)
    if op in ("sum", "prod", "mean", "var", "std") and rc not in _SIGS.get((base, tc), ()):
        # dtype= (or an integer mean): convert first, then reduce in the result's dtype
        from . import astype

        return reduce(op, astype(x, dtype), axes, keepdims, dtype, correction)
    shader = _native(_variant(base, tc, rc, dev), f"reduce {op}")
    out_shape = _out_shape(x._shape, axes, keepdims)
    rows = math.prod(m for k, m in enumerate(x._shape) if k not in axes)
    n = math.prod(x._shape[k] for k in axes)
    if rows == 0:
        return _launch.result_type._new(dev.alloc(0), dtype, out_shape)
    if n == 0:
        # (an empty input has no memory to hand a plan): the identity, or NaN
        from . import full

        kind = table.DTYPES[dtype.name][3]
        v = _EMPTY.get(op, 0)
        if v != v and kind == "c":
            v = complex(v, v)
        v = {"b": bool, "i": int, "u": int, "f": float, "c": complex}[kind](v)
        return full(out_shape, v, dtype, dev)
    lay = _layout(x, axes, op in ORDER_FREE)
    if lay is None:
        # copy the permuted view (kept axes, then reduced ones) contiguous, then reduce its tail
        kept = [k for k in range(x.ndim) if k not in axes]
        perm = kept + list(axes)
        v = _launch.result_type._new(x._alloc, x._dtype, tuple(x._shape[k] for k in perm),
                                     tuple(x._strides[k] for k in perm), x._offset)
        if _copied:
            raise NotNative("reduce: a contiguous copy did not collapse")  # (never: it always does)
        c = _launch.contiguous(v)
        r = reduce(op, c, tuple(range(len(kept), x.ndim)), False, dtype, correction, _copied=True)
        return _launch.result_type._new(r._alloc, r._dtype, out_shape)
    n, is_, rows, r1, rs0, rs1 = lay
    b = _Builder()
    b.dev = dev
    b.aligned = x._offset % vw == 0
    b.vw, b.vw_r = vw, _vw(dtype)
    b.sg_r = rc in "?bhiBHIfF"  # (reduce.comp's SG_R)
    b.partial_sizes = (x._dtype.itemsize, dtype.itemsize)
    b.floating = table.DTYPES[dtype.name][3] in "fc"
    b.final_ok = FINAL_IN_PASS
    res = b.out(rows * dtype.itemsize, dtype, out_shape)
    src = (ARG, 0)
    if op in ("var", "std"):
        # one pass (and one over its partials): Chan et al.'s merges of (count, mean, M2)
        b.second_shader = shader
        _pass(b, shader, "sqdev", src, n, rows, r1, rs0, rs1, is_, res,
              fin=FIN_STD if op == "std" else FIN_VAR, divisor=max(n - correction, 0.0), full_n=n)
    else:
        op2 = _SECOND[base]
        shader2 = _native(shader if op2 == base and base in ("argmax", "argmin") else _variant(op2, rc, rc, dev),
                          "reduce: second pass")
        b.second_shader = shader2
        _pass(b, shader, base, src, n, rows, r1, rs0, rs1, is_, res,
              fin=FIN_MEAN if op == "mean" else FIN_NONE, divisor=n)
    args = [("array", x._dtype.itemsize)]
    if b.counter_words:
        args.append(("array", 4))
    plan = dev.compile_plan(_launch.result_type, args, b.outputs, b.temps, b.steps)
    if b.counter_words:
        plan = _with_counters(plan, b.counter_words, dev)
    if len(cache) >= MAX_PLANS:
        cache.clear()
    cache[key] = plan
    return plan(x)


def _with_counters(plan, words, dev):
    """plan(x, counters) as a function of x: the plan keeps its FINAL_BIT counters, zeroed
    once here (each dispatch leaves them zero; replays in one batch are ordered by the hazard
    on them)."""
    from . import full
    from .. import _dtypes

    counters = full((words,), 0, _dtypes.uint32, dev)
    return lambda x: plan(x, counters)


# -- scans (glsl/scan.comp) -----------------------------------------------------------------
SCAN_CODES = table.FAMILY_CODES["scan"]
_SCAN_SIGS = {}
for _name, _ops in table.OPS.items():
    for _op in _ops:
        if _op.family == "scan":
            for _t, _r in _op.sigs.items():
                _SCAN_SIGS.setdefault((_name, _t), set()).add(_r)
del _name, _ops, _op, _t, _r
_scan_plans = {}
SCAN_PARTIAL = 2
# A ROWS scan splits rows into chunks (reduce-then-scan) where the rows alone would occupy fewer
# than SCAN_TARGET_GROUPS workgroups (CPU devices: SCAN_TARGET_GROUPS_CPU, where every
# workgroup barrier is costly); a chunk is whole tiles (256 x 8 elements; 4 for 16-byte dtypes)
# and at least SCAN_MIN_TILES of them.
SCAN_TARGET_GROUPS = 2048
SCAN_TARGET_GROUPS_CPU = 32
SCAN_MIN_TILES = 2
# COLS mode (an invocation per row, in order) where the rows fill the device or are short
SCAN_COLS_ROWS = 4096


# scan.comp's STAGE for every device (tests), or None: by the device's kind (_scan_stage)
SCAN_STAGE = None


def _scan_stage(dev):
    """scan.comp's STAGE: tiles through shared memory for coalescing, except on CPU devices
    (lavapipe), where that costs twice the time and coalesces nothing."""
    if SCAN_STAGE is not None:
        return SCAN_STAGE
    return 0 if _launch.on_cpu(dev) else 1


def _scan_mode(n, rows, r1, rs1):
    if rows > 1 and (n < 64 or (r1 > 1 and rs1 == 1 and rows >= SCAN_COLS_ROWS)):
        return COLS
    return ROWS


def scan_target_groups(dev):
    return SCAN_TARGET_GROUPS_CPU if _launch.on_cpu(dev) else SCAN_TARGET_GROUPS


def _scan_chunks(n, rows, itemsize, target):
    """(L, G) of a ROWS scan: G chunks of L elements per row (L 0 and G 1: one chunk)."""
    tile = LOCAL * (4 if itemsize == 16 else 8)
    groups = -(-target // rows) if rows < target else 1
    if groups <= 1 or n <= SCAN_MIN_TILES * tile:
        return 0, 1
    L = max(-(-n // groups), SCAN_MIN_TILES * tile)
    L = -(-L // tile) * tile
    G = -(-n // L)
    if G <= 1 or G > MAX_GRID:
        return 0, 1
    return L, G


def _group(shape, strides):
    """(count, stride) of dims that collapse to one (count 1: none), or None."""
    sh, st = _launch._collapse(list(shape), [list(strides)])
    if len(sh) > 1:
        return None
    return (sh[0], st[0][0]) if sh else (1, 0)


def supports_scan(op, x, dtype):
    """Whether scan(op, x, axis, dtype, include_initial) runs natively (as supports_reduce)."""
    dev = x._alloc.device
    tc, rc = _code(x._dtype), _code(dtype)
    if x._alloc.nbytes // x._dtype.itemsize >= 1 << 32:
        return False
    if rc not in _SCAN_SIGS.get((op, tc), ()):
        if rc not in _SCAN_SIGS.get((op, rc), ()) or _launch.cast_variant(tc, rc, dev) is None:
            return False
        tc = rc
    return (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)
            and _launch.variant("scan", tc, rc, None, dev) is not None
            and _launch.cast_variant(tc, tc, dev) is not None
            and _launch.variant("fill", None, rc, None, dev) is not None  # (an empty axis's fill)
            and _launch.variant("scan", rc, rc, None, dev) is not None)  # (chunk totals of long rows)


def scan(op, x, axis, dtype, include_initial):
    """cumulative_sum / cumulative_prod of x (ndim >= 1) along `axis` (non-negative) in the
    accumulator dtype `dtype` (x is converted to it first where no signature takes x's dtype
    to it), with the identity first where include_initial. The caller has checked
    supports_scan(op, x, dtype)."""
    key = (x._dtype, x._shape, x._strides, axis, dtype, include_initial, _launch.USE_SUBGROUPS,
           SCAN_STAGE)
    cache, out = _replay(_scan_plans, op, key, x)
    if out is not None:
        return out
    dev = x._alloc.device
    tc, rc = _code(x._dtype), _code(dtype)
    if rc not in _SCAN_SIGS.get((op, tc), ()):
        from . import astype

        return scan(op, astype(x, dtype), axis, dtype, include_initial)
    shader = _native(_launch.subgroup_variant(_launch.variant("scan", tc, rc, None, dev), dev), f"scan {op}")
    inc = 1 if include_initial else 0
    n = x._shape[axis]
    m = n + inc
    out_shape = x._shape[:axis] + (m,) + x._shape[axis + 1:]
    outer = math.prod(x._shape[:axis])
    inner = math.prod(x._shape[axis + 1:])
    rows = outer * inner
    if rows == 0 or m == 0:
        return _launch.result_type._new(dev.alloc(0), dtype, out_shape)
    if n == 0:
        from . import full

        kind = table.DTYPES[dtype.name][3]
        v = {"b": bool, "i": int, "u": int, "f": float, "c": complex}[kind](
            1 if op == "cumulative_prod" else 0)
        return full(out_shape, v, dtype, dev)
    before = _group(x._shape[:axis], x._strides[:axis])
    after = _group(x._shape[axis + 1:], x._strides[axis + 1:])
    if before is None or after is None:
        c = _launch.contiguous(x)
        return scan(op, c, axis, dtype, include_initial)
    is_ = x._strides[axis] if n > 1 else 0
    r1, rs0, rs1 = inner, before[1], after[1]
    if inner == 1:
        rs1 = 0
    outputs = [(rows * m * dtype.itemsize, dtype, out_shape, _launch._c_strides(out_shape))]
    temps, steps = [], []
    lay = [n, rows, r1, rs0 & 0xFFFFFFFF, rs1 & 0xFFFFFFFF, is_ & 0xFFFFFFFF]
    mode = _scan_mode(n, rows, r1, rs1)
    L, G = _scan_chunks(n, rows, dtype.itemsize, scan_target_groups(dev)) if mode == ROWS else (0, 1)
    code = [SCAN_CODES[op], _scan_stage(dev)]
    w = [0] * PUSH_WORDS
    w[0:9] = lay + [mode, inc, m * inner]
    w[10], w[11] = 1, inner
    w[12], w[13] = L, G
    buffers = [(ARG, 0, False), (OUT, 0, True)]
    patches = [(A_IN, ADDRESS, ARG, 0), (W_IN_OFF, OFFSET, ARG, 0), (A_OUT, ADDRESS, OUT, 0)]
    if G > 1:
        # reduce-then-scan: chunk totals, their exclusive scan, the chunks' scans with carry-in
        shader2 = _native(_launch.subgroup_variant(_launch.variant("scan", rc, rc, None, dev), dev),
                          "scan: chunk totals")
        temps = [rows * G * dtype.itemsize, rows * (G + 1) * dtype.itemsize]
        part, excl = (TMP, 0), (TMP, 1)
        w1 = list(w)
        w1[6] = SCAN_PARTIAL
        steps.append((shader, code, w1, _grid(ROWS, rows, G), [(ARG, 0, False), (*part, True)],
                      [(A_IN, ADDRESS, ARG, 0), (W_IN_OFF, OFFSET, ARG, 0),
                       (A_OUT, ADDRESS, *part)]))
        w2 = [0] * PUSH_WORDS
        w2[0:12] = [G, rows, 1, G, 0, 1, ROWS, 1, G + 1, 0, 0, 1]
        steps.append((shader2, code, w2, _grid(ROWS, rows, 1), [(*part, False), (*excl, True)],
                      [(A_IN, ADDRESS, *part), (A_OUT, ADDRESS, *excl)]))
        buffers.append((*excl, False))
        patches.append((A_AUX, ADDRESS, *excl))
    steps.append((shader, code, w, _grid(mode, rows, G), buffers, patches))
    plan = dev.compile_plan(_launch.result_type, [("array", x._dtype.itemsize)], outputs, temps,
                            steps)
    if len(cache) >= MAX_PLANS:
        cache.clear()
    cache[key] = plan
    return plan(x)


def exclusive_scan_u32(dev, src, dst, m):
    """Records dst[0 .. m] = the exclusive scan of the m uint32 at Allocation src, with the total
    last (cumulative_sum with include_initial), chunked as a long scan is (one dispatch, or
    three). For the sort family's unique and the compaction family, after their supports_*
    asked for the uint32 scan variant."""
    shader = _launch.subgroup_variant(_launch.variant("scan", "I", "I", None, dev), dev)
    if shader is None:
        raise NotNative("exclusive scan: no uint32 scan variant")
    code = [SCAN_CODES["cumulative_sum"], _scan_stage(dev)]
    L, G = _scan_chunks(m, 1, 4, scan_target_groups(dev))
    w = np.zeros(PUSH_WORDS, np.uint32)
    w[0:14] = [m, 1, 1, 0, 0, 1, ROWS, 1, m + 1, 0, 1, 1, L, G]
    _launch.put_address(w, A_IN, src)
    _launch.put_address(w, A_OUT, dst)
    if G > 1:
        part, excl = dev.alloc(G * 4), dev.alloc((G + 1) * 4)
        w1 = w.copy()
        w1[6] = SCAN_PARTIAL
        _launch.put_address(w1, A_OUT, part)
        dev.launch(shader, code, [src, part], [False, True], w1, groups=(G, 1, 1))
        w2 = np.zeros(PUSH_WORDS, np.uint32)
        w2[0:12] = [G, 1, 1, G, 0, 1, ROWS, 1, G + 1, 0, 0, 1]
        _launch.put_address(w2, A_IN, part)
        _launch.put_address(w2, A_OUT, excl)
        dev.launch(shader, code, [part, excl], [False, True], w2, groups=(1, 1, 1))
        _launch.put_address(w, A_AUX, excl)
        dev.launch(shader, code, [src, dst, excl], [False, True, False], w, groups=(G, 1, 1))
        _launch.state.launches += 3
    else:
        dev.launch(shader, code, [src, dst], [False, True], w, groups=(1, 1, 1))
        _launch.state.launches += 1
    _launch.state.last_plan = None
