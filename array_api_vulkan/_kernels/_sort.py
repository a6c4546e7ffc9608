"""Sorting, sets and searching (the sort family, glsl/sort.comp): sort/argsort as an LSD radix
sort over rows, unique_* on top of it, searchsorted as one binary search per query.

sort/argsort: the axis goes last (a permuted view, copied contiguous where it is not), then the
problem is `rows` rows of `n` elements, N = rows * n in all. Every element has an unsigned key
whose order is the standard's (KW uint32 words: 2 for 64-bit dtypes); a stable LSD radix sort,
8 bits a pass: rows of up to 256 x ROW_KPT elements a workgroup per row in shared memory (one
dispatch), longer ones through global passes (every pass's histogram in one read, passes whose
digit is constant skipped on the device, then per pass one stable scatter ranked by subgroup
ballots, each tile finding its digits' offsets by a decoupled look-back over the tiles before
it: ONESWEEP; or, for 2^30 elements and more, tile histograms and their scan per digit before
the scatter), the key passes then passes over the row of each element's index. A float32 sort
of values carries the values beside the keys only where the first read finds a -0.0 or a NaN
other than the canonical one (else the sorted keys are turned back into the values). All passes
of one layout are one compiled plan (docs/kernels.md).
unique_*: a sort of the flattened input, adjacent-difference flags, an exclusive scan (its
total, the count of unique values, is read back: the shapes depend on it), then compactions.
"""
import math

import numpy as np

from . import _launch
from ._launch import ADDRESS, ARG, OFFSET, OUT, TMP, VIEW_ADDRESS, table
from ._reduce import _native  # (raises NotNative where supports_sort promised a variant)

FAMILY = "sort"
CODES = table.FAMILY_CODES[FAMILY]
LOCAL = 256
# Tuning knobs (benchmarks/tune_sort.py): keys per invocation (a tile is LS x KPT keys, LS the
# radix workgroup width below; at most 16 where shared memory is 32 KiB), ranking by subgroup
# ballots where the device has them, and the per-pass histogram's subgroup aggregation of equal
# digits (ballot variant only).
# KPT_GPU on GPUs: on the H100 (tune_sort.py, 2026-11-23 run 8) 8 keys an invocation sorted 16M
# float32 in 1.94 ms against 2.66 ms with 16 (twice the tiles, so twice the workgroups resident);
# lavapipe keeps 16 (fewer, longer tiles for its few cores).
# With the 416 wide radix workgroups below (run 24, H100, call 13) 8 stays best for sort and
# argsort alike: 10 took 1077 us against 921 for float32 16M (10 had been best for sorts giving
# only values at 384 wide: 936 against 983, H200, call 6).
KPT = 16
KPT_GPU = 8
USE_BALLOT = True
# With ballots: match digits by subgroupPartitionNV (the `_sgp` variant, one instruction for the
# eight ballots) where the device reports VK_NV_shader_subgroup_partitioned. Off: on the H100 it
# was slower (2026-11-23 run 11, benchmarks/diag_sort.py: float32 16M 1.51 ms against 1.30).
USE_PARTITIONED = False
HIST_AGG = 1
GH_AGG = 0
# Up to this many tiles, one workgroup scans the tile counts (an invocation per digit); more,
# a workgroup per digit.
SERIAL_SCAN = 64
# A single sweep a pass (the Onesweep scheme): each tile's scatter takes its digits' offsets by
# a decoupled look-back over the tiles started before it, instead of a tile histogram pass and
# a scan pass before it (counts are 30-bit: sorts of fewer than 2^30 elements).
ONESWEEP = True
ONESWEEP_MAX = 1 << 30
# CPU devices (lavapipe) take the tile histograms and their scan instead: there, with two or
# more worker threads under load, single-sweep sorts of 2^22 keys crashed or came out wrong in
# about half of the runs (a workgroup read shared memory far out of bounds), never with one
# thread nor with the two-pass scatter. Vulkan promises no forward progress between
# workgroups, which the look-back's spin relies on; the cause on lavapipe is not pinned down
# (docs/kernels.md). GPUs keep it (the H100 passes the same tests).
ONESWEEP_CPU = False
# Rows of at most 256 x ROW_KPT elements are sorted a workgroup per row in shared memory
# (sort_rows, one dispatch); 0: never.
ROW_KPT = 16
# unique of bool and integers of at most 32 bits, of at least DENSE_MIN_N elements, counts keys
# in bins over their range where it is at most DENSE_MAX_RANGE and at most the element count
# (a min/max pass and its read back first), without sorting: labels and category codes, as
# scikit-learn's unique_values(y), take it. DENSE_GROUPS(_CPU) workgroups stride over the input.
DENSE_MIN_N = 1 << 15
DENSE_MAX_RANGE = 1 << 22
DENSE_GROUPS = 1024
DENSE_GROUPS_CPU = 16
# The single sweep's look-back polls the status words by coherent volatile loads (1) or by
# atomicAdd of 0 (0). On the H100 (run 13, 3 alternating rounds; benchmarks/diag_sort.py's
# onesweep_kpt8 against onesweep_kpt8_atomicpoll compares them) loads made
# sort of float32 16M 1147 us of GPU against 1254 and argsort 1413 against 1506, equal in every
# round; lavapipe (whose sorts take the two-pass scatter anyway) crashed with them. Reading 4
# earlier tiles' words at once (taken in order) was slower again: 1181 and 1449 us.
LOOKBACK_POLL_GPU = 1
LOOKBACK_POLL = 0
# The radix passes' workgroup width (but their scan's: LOCAL), on GPUs and on CPU devices: a
# tile is RADIX_LOCAL(_GPU) x KPT keys. Wider workgroups make fewer, longer tiles at the same
# registers an invocation (the tile's per-digit steps, its look-back among them, are shared by
# more keys). Taken where the tile and its groups' counters fit shared memory; else LOCAL.
# On the H200 (2026-11-27 run 24, benchmarks/diag_sort.py, GPU time, best of 3 rounds, the
# same in two processes) 384 with KEY_REORDER_GPU sorted float32 16M in 983 us against 1086
# (256, digits) and 1012 (512), argsort 1217 against 1323 and 1264, int32 968 against 1074 and
# 997; 320 and 448 took 1100-1120 (argsort 1364-1386), 768 and 1024 1061-1224. On the H100
# (call 13, with WALK_WINDOW_GPU = 2; three processes alike) 416 x 8 took 921 us against 942 at
# 384 x 10 / 8 (argsort 1194 against 1232, int32 906 against 930); 352 x 8 1003, 416 x 10 1077.
# lavapipe keeps 256 (512 was no faster there).
RADIX_LOCAL_GPU = 416
RADIX_LOCAL = 256
# The scatter reorders the key words (not the digits) of key passes and takes each digit from
# them, so the key registers are free before the look-back (glsl/sort.comp, KEY_REORDER): with
# 256 wide workgroups, float32 16M 1069 us against 1086 (H200, run 24).
KEY_REORDER_GPU = 1
KEY_REORDER = 0
# Diagnostics only (benchmarks/diag_sort.py): the scatter without parts of its work (glsl/sort.comp
# DIAG_PARTS: its results are wrong); 0 otherwise.
DIAG_PARTS = 0
# The look-back reads this many earlier tiles' status words at once on GPUs (1: one at a time).
# H200 (run 24, call 9, two processes alike): 2 sorted float32 16M in 906 us against 941 with 1,
# argsort 1191 against 1229, int32 893 against 927; 4 took 960 / 1190 / 950, 8 1142 / 1197 /
# 1120 (66 registers). (Run 13's 4 at once, with 256 x 8 tiles, was slower than 1 too.)
WALK_WINDOW_GPU = 2
# The all-pass histogram's workgroups (each over several tiles; at most the tile count).
GHIST_GROUPS = 1024
GHIST_GROUPS_CPU = 64
BITS = 8
BINS = 256
GH_WORDS = 3072  # 12 passes x 256 bins (glsl/sort.comp), then 16 info words, 16 tile tickets
# flags (push word 4)
F_ROWDIGIT, F_MOVEKEYS, F_DESC, F_RIGHT, F_SORTER, F_ONESWEEP, F_DYNPAY = 1, 2, 4, 8, 16, 32, 64
W_FLAGS, W_IN_OFF = 4, 6
# raw key kinds (w9) and final output modes (w11) of the radix passes
RK = {"u": 1, "i": 2, "f": 3}
OM_V, OM_IDX32, OM_IDX64, OM_PAYLOAD, OM_UNKEY = 1, 2, 3, 4, 5
ADDR = 16  # push word of addr[0]
PUSH_WORDS = 32
MAX_PLANS = 256
MAX_GRID = 65535
_plans = {}


def _code(dtype):
    return table.DTYPES[dtype.name][0]


def _variant(op, tc, rc, dev):
    if not any(o.family == FAMILY and o.sigs.get(tc) == rc for o in table.OPS.get(op, ())):
        return None
    if not (_launch.device_supports(dev, tc) and _launch.device_supports(dev, rc)):
        return None
    return _launch.variant(FAMILY, tc, rc, None, dev)


def _radix_shader(dev):
    """The radix passes' variant: `_sg` (subgroup ballots) where the device reports ballots and
    shuffles in compute shaders and USE_BALLOT, else the shared-memory one; None if neither is built."""
    name = _variant("sort_scatter", "I", "I", dev)
    if name is None or not USE_BALLOT:
        return name
    info = getattr(dev, "info", None) or {}
    ops = info.get("subgroup_operations", ())
    if "ballot" not in ops or "shuffle" not in ops:
        return name
    if USE_PARTITIONED and "partitioned_nv" in ops:
        sgp = _launch.named(name + "_sgp", dev)
        if sgp is not None:
            return sgp
    return _launch.named(name + "_sg", dev) or name


def _key_bits(code):
    if code == "?":
        return 8
    return table.DTYPES[table.CODE[code]][4]


def _raw(code):
    """Whether the passes read dtype `code` itself (32/64-bit: keys made in the first pass)."""
    return code != "?" and _key_bits(code) >= 32


def _groups(g):
    gx = min(g, MAX_GRID)
    return (gx, -(-g // gx), 1)


def _words(**kw):
    w = [0] * PUSH_WORDS
    for k, v in kw.items():
        w[int(k[1:])] = int(v) & 0xFFFFFFFF
    return w


def _step(shader, op, words, groups, bufs, spec=None):
    """bufs: [(kind, index, writes, addr slot or None, offset word or None)]; an offset word
    "view" patches the slot with the address of the first viewed element instead."""
    buffers, patches = [], []
    for kind, idx, wr, slot, offw in bufs:
        buffers.append((kind, idx, wr))
        if slot is not None:
            patches.append((ADDR + 2 * slot, VIEW_ADDRESS if offw == "view" else ADDRESS, kind, idx))
        if offw is not None and offw != "view":
            patches.append((offw, OFFSET, kind, idx))
    return (shader, spec or [CODES[op]], words, groups, buffers, patches)


def _radix_plan(dev, dtype, rows, n, descending, want, index_dtype):
    """A compiled plan sorting the rows of a C-contiguous (rows, n) array (its argument),
    giving `want` outputs: "values" (the sorted values), "indices" (argsort, index_dtype),
    "perm" (uint32 flat indices). None where a variant is missing.

    LSD radix sort, 8 bits a pass (glsl/sort.comp): one read makes every pass's digit histogram
    (passes whose digit is the same for every key are skipped on the device), then per pass a
    stable scatter that ranks each tile (subgroup ballots, or shared memory), takes its digits'
    offsets by a look-back over the earlier tiles' status words (ONESWEEP; else from a histogram
    per tile and an exclusive scan of them per digit, two more dispatches) and writes the tile
    out through shared memory. Key
    passes first; for several rows, passes over the row of each element's index follow, so that
    each row ends sorted with ties in input order. Raises NotNative where a variant is missing
    (supports_sort asks for each)."""
    tc = _code(dtype)
    N = rows * n
    bits = _key_bits(tc)
    kw = 2 if bits == 64 else 1
    raw = _raw(tc)
    radix = _native(_radix_shader(dev), "sort: the radix passes' variant")
    keys = None
    if not raw:
        keys = _native(_variant("sort_keys", tc, "I", dev), "sort: the keys variant")
    PK = -(-bits // BITS)
    PR = -(-(rows - 1).bit_length() // BITS)
    kpt = _kpt(dev)
    ls = _radix_local(dev, kpt)
    tile = ls * kpt
    G = -(-N // tile)
    want = tuple(want)
    outputs, out_idx = [], {}
    for wnt in want:
        if wnt == "values":
            outputs.append((N * dtype.itemsize, dtype, (rows, n), (n, 1)))
        elif wnt == "indices":
            outputs.append((N * index_dtype.itemsize, index_dtype, (rows, n), (n, 1)))
        else:
            outputs.append((N * 4, None, (N,), (1,)))
        out_idx[wnt] = len(outputs) - 1
    gather = None
    dynpay = False
    psrc = 1 if raw else 3  # payload of the first pass: the index, or V0 from the keys kernel
    rowsort = n <= LOCAL * ROW_KPT
    if want == ("values",) and (rows == 1 or rowsort) and raw:
        if tc in table._REALF:
            pw, psrc, om = kw, 2, OM_PAYLOAD  # the values themselves (-0.0, NaN payloads kept)
            # float32: only where some value's key loses it (the first read looks)
            dynpay = tc == "f" and rows == 1
        else:
            pw, om = 0, OM_UNKEY  # integers: the key is a bijection
        final = (OUT, out_idx["values"])
    elif want == ("indices",):
        pw, om = 1, OM_IDX64 if index_dtype.itemsize == 8 else OM_IDX32
        final = (OUT, out_idx["indices"])
    else:
        if "values" in out_idx:
            gather = _native(_variant("sort_gather", tc, tc, dev), "sort: the gather variant")
        pw, om = 1, OM_V
        final = (OUT, out_idx["perm"]) if "perm" in out_idx else None
    if rowsort:
        return _rows_plan(dev, dtype, rows, n, descending, keys, radix, gather, outputs, out_idx,
                          final, pw, om, kw, raw, PK)
    K0, K1, V0, V1, HIST, GH = range(6)
    kbytes = N * kw * 4 if (PK > 1 or not raw) else 16
    vbytes = max(N * pw * 4, 16)
    onesweep = ONESWEEP and N < ONESWEEP_MAX and (ONESWEEP_CPU or not _launch.on_cpu(dev))
    # HIST: the tile histograms (digit-major), or the single sweep's two status buffers
    temps = [kbytes, kbytes if PK > 1 else 16, vbytes, vbytes, BINS * G * 4 * (2 if onesweep else 1),
             (GH_WORDS + 32) * 4]
    if final is None:
        temps.append(N * 4)
        final = (TMP, len(temps) - 1)
    steps = _keys_steps(keys, N, descending, K0, V0)
    flags = ((F_DESC if descending else 0) | (F_ONESWEEP if onesweep else 0)
             | (F_DYNPAY if dynpay else 0))
    base = dict(w0=N, w1=n, w2=G, w4=flags, w5=kw, w7=PK, w8=PR,
                w9=RK[table.DTYPES[dtype.name][3]] if raw else 0, w10=psrc if pw else 0,
                w11=om, w12=pw)
    cpu = _launch.on_cpu(dev)
    spec = [None, kpt, HIST_AGG, GH_AGG, LOOKBACK_POLL if cpu else LOOKBACK_POLL_GPU, ls,
            KEY_REORDER if cpu else KEY_REORDER_GPU, DIAG_PARTS, 1 if cpu else WALK_WINDOW_GPU]
    ghb = (TMP, GH, True, 7, None)
    allb = [(ARG, 0, False, 0, "view"), (TMP, K0, True, 1, None), (TMP, K1, True, 2, None),
            (TMP, V0, True, 3, None), (TMP, V1, True, 4, None), final + (True, 5, None),
            (TMP, HIST, True, 6, None), (TMP, GH, False, 7, None)]

    def radix_step(op, pass_, groups, bufs):
        # (the scan works per digit whatever the tile: LOCAL wide)
        sp = spec[1:5] + [LOCAL] + spec[6:] if op == "sort_scan" else spec[1:]
        return _step(radix, op, _words(w3=pass_, **base), groups, bufs, spec=[CODES[op]] + sp)

    steps.append(radix_step("sort_zero", 0, (1, 1, 1), [ghb]))
    ghist_groups = GHIST_GROUPS_CPU if cpu else GHIST_GROUPS
    steps.append(radix_step("sort_ghist", 0, _groups(min(G, ghist_groups)),
                            [(ARG, 0, False, 0, "view"), (TMP, K0, False, 1, None),
                             (TMP, HIST, True, 6, None), ghb]))
    steps.append(radix_step("sort_info", 0, (1, 1, 1), [ghb]))
    for q in range(PK + PR):
        if onesweep:
            steps.append(radix_step("sort_scatter", q, _groups(G), allb[:7] + [ghb]))
            continue
        rd = [(k, i, False, sl, o) for k, i, _, sl, o in allb[:5]]
        steps.append(radix_step("sort_hist", q, _groups(G),
                                rd + [(TMP, HIST, True, 6, None), allb[7]]))
        steps.append(radix_step("sort_scan", q, (1 if G <= SERIAL_SCAN else BINS, 1, 1),
                                [(TMP, HIST, True, 6, None), allb[7]]))
        steps.append(radix_step("sort_scatter", q, _groups(G), allb))
    return _compile(dev, dtype, N, steps, temps, gather, final, outputs, out_idx)


def _rows_plan(dev, dtype, rows, n, descending, keys, radix, gather, outputs, out_idx, final,
               pw, om, kw, raw, PK):
    """Rows of n <= 256 x ROW_KPT: one dispatch, a workgroup per row sorting it in shared
    memory (sort_rows), after the keys kernel (8/16-bit dtypes), before the gather."""
    N = rows * n
    kpt = 1  # the fewest keys per invocation (a power of 2) that hold a row
    while LOCAL * kpt < n:
        kpt *= 2
    K0, V0 = 0, 1
    temps = [16 if raw else N * 4, 16 if raw else N * 4]
    if final is None:
        temps.append(N * 4)
        final = (TMP, len(temps) - 1)
    steps = _keys_steps(keys, N, descending, K0, V0)
    rpw = min(LOCAL * kpt // n, rows, BINS)  # rows a workgroup (their index: one more pass)
    w = _words(w0=N, w1=n, w2=rows, w3=rpw, w4=F_DESC if descending else 0, w5=kw, w7=PK,
               w9=RK[table.DTYPES[dtype.name][3]] if raw else 0, w11=om, w12=pw)
    steps.append(_step(radix, "sort_rows", w, _groups(-(-rows // rpw)),
                       [(ARG, 0, False, 0, "view"), (TMP, K0, False, 1, None),
                        final + (True, 5, None)],
                       spec=[CODES["sort_rows"], kpt, HIST_AGG, GH_AGG]))
    return _compile(dev, dtype, N, steps, temps, gather, final, outputs, out_idx)


def _keys_steps(keys, N, descending, k0, v0):
    """The steps list, starting with the keys kernel (8/16-bit dtypes and bool) where there
    is one: the input's N values as sort keys into temp k0, their indices into temp v0."""
    if keys is None:
        return []
    return [_step(keys, "sort_keys", _words(w0=N, w4=F_DESC if descending else 0), _launch.grid_1d(N),
                  [(ARG, 0, False, 0, W_IN_OFF), (TMP, k0, True, 1, None), (TMP, v0, True, 2, None)])]


def _compile(dev, dtype, N, steps, temps, gather, final, outputs, out_idx):
    """The plan of steps, after the gather of the values through the final permutation where
    there is one."""
    if gather is not None:
        steps.append(_step(gather, "sort_gather", _words(w0=N), _launch.grid_1d(N),
                           [(final[0], final[1], False, 0, None), (ARG, 0, False, 1, W_IN_OFF),
                            (OUT, out_idx["values"], True, 2, None)]))
    outs = [(nb, dt if dt is not None else _uint32(), sh, st) for nb, dt, sh, st in outputs]
    return dev.compile_plan(_launch.result_type, [("array", dtype.itemsize)], outs, temps, steps)


def _uint32():
    from .. import _dtypes

    return _dtypes.uint32


def _rows_view(x, axis):
    """x with `axis` moved last, as a C-contiguous array (x itself, or a copy)."""
    perm = [k for k in range(x.ndim) if k != axis] + [axis]
    shape = tuple(x._shape[k] for k in perm)
    strides = tuple(x._strides[k] for k in perm)
    cst = _launch._c_strides(shape)
    if all(s == c for s, c, m in zip(strides, cst, shape) if m != 1):
        return _launch.result_type._new(x._alloc, x._dtype, shape, cst, x._offset)
    v = _launch.result_type._new(x._alloc, x._dtype, shape, strides, x._offset)
    return _launch.contiguous(v)


def _kpt(dev):
    return KPT if _launch.on_cpu(dev) else KPT_GPU


def _radix_local(dev, kpt):
    """The radix passes' workgroup width: RADIX_LOCAL(_GPU) where its tile fits (see there),
    else LOCAL."""
    ls = RADIX_LOCAL if _launch.on_cpu(dev) else RADIX_LOCAL_GPU
    if ls == LOCAL:
        return LOCAL
    groups = ls // 32 if not USE_BALLOT else ls // max(_launch.subgroup_size(dev), 1)
    sh_words = max(ls * kpt, 4096)  # glsl/sort.comp's SH_WORDS, which the groups' counters share
    words = sh_words + 4 * BINS + ls + 2  # (its shared arrays)
    if (ls % 32 or ls < LOCAL or groups * 128 > sh_words or words * 4 > _launch.shared_bytes(dev)
            or ls > _launch.max_invocations(dev, LOCAL)):
        return LOCAL
    return ls


def _knobs(dev):
    """The module settings a radix plan depends on (part of its key)."""
    return (_kpt(dev), USE_BALLOT, USE_PARTITIONED, HIST_AGG, GH_AGG, SERIAL_SCAN, ROW_KPT, ONESWEEP,
            ONESWEEP_CPU, GHIST_GROUPS, GHIST_GROUPS_CPU, LOOKBACK_POLL, LOOKBACK_POLL_GPU,
            RADIX_LOCAL, RADIX_LOCAL_GPU, KEY_REORDER, KEY_REORDER_GPU, DIAG_PARTS,
            WALK_WINDOW_GPU)


def _plan_key(dtype, rows, n, descending, want, index_dtype, dev):
    """A radix plan's key without the module settings (_knobs), which complete it."""
    return (dtype, rows, n, bool(descending), want, index_dtype, dev)


def _radix_plan_for(x2, rows, n, descending, want, index_dtype):
    dev = x2._alloc.device
    key = _plan_key(x2._dtype, rows, n, descending, want, index_dtype, dev) + _knobs(dev)
    plan = _plans.get(key)
    if plan is None:
        plan = _radix_plan(dev, x2._dtype, rows, n, descending, want, index_dtype)
        if len(_plans) >= MAX_PLANS:
            _plans.clear()
        _plans[key] = plan
    return plan


def _radix(x2, rows, n, descending, want, index_dtype):
    plan = _radix_plan_for(x2, rows, n, descending, want, index_dtype)
    out = _native(plan(x2), "sort: the compiled plan (an operand outside the device's arenas)")
    return out if isinstance(out, tuple) else (out,)


def _supported(x):
    tc = _code(x._dtype)
    if tc not in table._BOOL + table._REAL_NUMERIC:
        return False
    return x._alloc.nbytes // x._dtype.itemsize < 1 << 31


def supports_sort(x, indices, index_dtype):
    """Whether sort(x, axis, descending, indices, index_dtype) runs natively: x's dtype is
    sortable and not too long, and the device has every variant the radix plan records (the
    passes, the keys of 8/16-bit dtypes and bool, the gather of values where the passes carry
    indices, and the contiguous copy of a view whose axis is not last). The spec layer asks
    this first."""
    if not _supported(x):
        return False
    dev = x._alloc.device
    tc = _code(x._dtype)
    need = [_radix_shader(dev), _launch.cast_variant(tc, tc, dev)]
    if not _raw(tc):
        need.append(_variant("sort_keys", tc, "I", dev))
    if not indices:
        need.append(_variant("sort_gather", tc, tc, dev))
    elif index_dtype.itemsize not in (4, 8):
        return False
    return all(v is not None for v in need)


def sort(x, axis, descending, indices, index_dtype):
    """sort (indices False) or argsort (indices True, in index_dtype) of x along `axis`
    (non-negative; 0 for a 0-d x), stable. The caller has checked supports_sort."""
    dev = x._alloc.device
    if x.ndim == 0:
        x = _launch.result_type._new(x._alloc, x._dtype, (1,), (1,), x._offset)
        r = sort(x, 0, descending, indices, index_dtype)
        return _launch.result_type._new(r._alloc, r._dtype, (), (), r._offset)
    dtype = index_dtype if indices else x._dtype
    N = math.prod(x._shape)
    if N == 0:
        return _launch.result_type._new(dev.alloc(0), dtype, x._shape)
    v = _rows_view(x, axis)
    n = x._shape[axis]
    rows = N // n
    want = ("indices",) if indices else ("values",)
    r = _radix(v, rows, n, descending, want, index_dtype)[0]
    strides = _result_strides(x, axis, v._shape)
    if v._alloc is x._alloc and v._offset == x._offset:  # (x read where it lies)
        _remember(_direct_key(x, axis, descending, indices, index_dtype),
                  Repeat(_plan_key(x._dtype, rows, n, descending, want, index_dtype, dev), dev, dtype,
                         x._shape, strides))
    return _launch.result_type._new(r._alloc, dtype, x._shape, strides, 0)


def _result_strides(x, axis, moved):
    """The strides, in x's axis order, of the C-contiguous (rows..., n) result of shape moved."""
    cst = _launch._c_strides(moved)
    perm = [k for k in range(x.ndim) if k != axis] + [axis]
    strides = [0] * x.ndim
    for j, k in enumerate(perm):
        strides[k] = cst[j]
    return tuple(strides)


_direct = {}  # sort's call (_direct_key) -> Repeat, for an input read where it lies


def _direct_key(x, axis, descending, indices, index_dtype):
    return (x._dtype, x._shape, x._strides, x._alloc.device, axis, bool(descending), indices, index_dtype)


def _remember(key, known):
    if len(_direct) >= 4096:
        _direct.clear()
    _direct[key] = known


class Repeat:
    """A sort or argsort seen before that read its input where it lies, for inputs of the same
    dtype, shape and strides on the same device: calling it with such an input runs the radix
    plan kept for it under the module's present settings and views its result in the input's
    axis order, with no checks to redo. None where it cannot serve (no such plan kept: the
    settings changed or the plans were dropped; an operand outside the device's arenas): the
    general path then runs."""

    __slots__ = ("key", "dev", "dtype", "shape", "strides")

    def __init__(self, key, dev, dtype, shape, strides):
        self.key, self.dev = key, dev  # (key: _plan_key's)
        self.dtype, self.shape, self.strides = dtype, shape, strides

    def __call__(self, x):
        plan = _plans.get(self.key + _knobs(self.dev))
        r = plan(x) if plan is not None else None
        if r is None:
            return None
        return _launch.result_type._new(r._alloc, self.dtype, self.shape, self.strides, 0)


def repeat(x, axis, descending, indices, index_dtype):
    """The Repeat that serves this call again (after sort() ran it), or None: for callers that
    keep their own resolved calls (the spec layer)."""
    return _direct.get(_direct_key(x, axis, descending, indices, index_dtype))


def _push(words, addrs):
    push = np.zeros(PUSH_WORDS, np.uint32)
    for k, v in words.items():
        push[k] = int(v) & 0xFFFFFFFF
    for j, a in enumerate(addrs):
        _launch.put_address(push, ADDR + 2 * j, a)
    return push


def _dispatch(dev, shader, op, count, words, addrs, writes):
    """One dispatch: addrs[j] at addr[j]; writes: which of them it writes (hazards are
    tracked per allocation, each listed once)."""
    bufs, wr = [], []
    for a, w in zip(addrs, writes):
        for k, b in enumerate(bufs):
            if b is a:
                wr[k] = wr[k] or w
                break
        else:
            bufs.append(a)
            wr.append(w)
    dev.launch(shader, [CODES[op]], bufs, wr, _push({**words, 0: count}, addrs), count)


def _launch1(dev, shader, op, count, words, reads, writes_):
    _dispatch(dev, shader, op, count, words, list(reads) + list(writes_),
              [False] * len(reads) + [True] * len(writes_))


def supports_unique(x, index_dtype):
    """Whether unique(x, ...) runs natively: the sort of x's values with its permutation (the
    radix passes, the gather, the contiguous copy), the flags, the scan of the flags and the
    compactions. The spec layer asks this first."""
    if not _supported(x) or not supports_sort(x, False, index_dtype):
        return False
    dev = x._alloc.device
    tc, ic = _code(x._dtype), _code(index_dtype)
    need = [_variant("unique_flags", tc, "I", dev), _variant("unique_compact", tc, tc, dev),
            _variant("unique_start", "I", "I", dev), _variant("unique_first", "I", ic, dev),
            _launch.variant("scan", "I", "I", None, dev)]
    return all(v is not None for v in need)


def unique(x, values, index, inverse, counts, index_dtype):
    """np.unique(x.reshape(-1), equal_nan=False) with the asked outputs: a tuple (values,
    [indices], [inverse (x's shape)], [counts]). The caller has checked supports_unique: one
    sort (values, and the permutation where indices or inverse are asked), adjacent-difference
    flags, an exclusive scan of them whose total (the count of unique values: the shapes depend
    on it) is the one read back, then compactions."""
    dev = x._alloc.device
    tc, ic = _code(x._dtype), _code(index_dtype)
    N = math.prod(x._shape)
    shaders = [_variant("unique_flags", tc, "I", dev), _variant("unique_compact", tc, tc, dev),
               _variant("unique_start", "I", "I", dev), _variant("unique_first", "I", ic, dev)]
    flags_s, compact_s, u32_s, idx_s = [_native(v, "unique: a variant") for v in shaders]
    if N == 0:
        outs = [_launch.result_type._new(dev.alloc(0), x._dtype, (0,))]
        if index:
            outs.append(_launch.result_type._new(dev.alloc(0), index_dtype, (0,)))
        if inverse:
            outs.append(_launch.result_type._new(dev.alloc(0), index_dtype, x._shape))
        if counts:
            outs.append(_launch.result_type._new(dev.alloc(0), index_dtype, (0,)))
        return tuple(outs)
    flat = x
    cst = _launch._c_strides(x._shape)
    if not all(s == c for s, c, m in zip(x._strides, cst, x._shape) if m != 1):
        flat = _launch.contiguous(x)
    if not index and N >= DENSE_MIN_N and tc in table._DENSE:
        dense = _unique_dense(flat, N, x._shape, inverse, counts, index_dtype)
        if dense is not None:
            return dense
    flat = _launch.result_type._new(flat._alloc, x._dtype, (1, N), (N, 1), flat._offset)
    r = _radix(flat, 1, N, False, ("values", "perm") if index or inverse else ("values",),
               index_dtype)
    s = r[0]
    sa, pa = s._alloc, r[-1]._alloc
    f = dev.alloc(N * 4)
    pos = dev.alloc((N + 1) * 4)
    _launch1(dev, flags_s, "unique_flags", N, {}, [sa], [f])
    from ._reduce import exclusive_scan_u32

    exclusive_scan_u32(dev, f, pos, N)
    U = int(dev.download_bytes(pos, N * 4, 4).view(np.uint32)[0])
    outs = []
    vals = dev.alloc(U * x._dtype.itemsize)
    _launch1(dev, compact_s, "unique_compact", N, {}, [sa, f, pos], [vals])
    outs.append(_launch.result_type._new(vals, x._dtype, (U,)))
    if index:
        o = dev.alloc(U * index_dtype.itemsize)
        _launch1(dev, idx_s, "unique_first", N, {}, [pa, f, pos], [o])
        outs.append(_launch.result_type._new(o, index_dtype, (U,)))
    if inverse:
        o = dev.alloc(N * index_dtype.itemsize)
        _launch1(dev, idx_s, "unique_inverse", N, {}, [pa, pos], [o])
        outs.append(_launch.result_type._new(o, index_dtype, x._shape))
    if counts:
        st = dev.alloc((U + 1) * 4)
        _launch1(dev, u32_s, "unique_start", N, {1: U}, [f, pos], [st])
        o = dev.alloc(U * index_dtype.itemsize)
        _launch1(dev, idx_s, "unique_count", U, {}, [st], [o])
        outs.append(_launch.result_type._new(o, index_dtype, (U,)))
    return tuple(outs)


def _unique_dense(flat, N, shape, inverse, counts, index_dtype):
    """unique of the N contiguous elements of flat (bool or an integer of at most 32 bits) by
    counting each key in bins over the keys' range, without a sort: (values, [inverse],
    [counts]), or None where the range is too wide (two reads back: the range, the count)."""
    dev = flat._alloc.device
    tc, ic = _code(flat._dtype), _code(index_dtype)
    shaders = [_variant("unique_range", tc, "I", dev), _variant("unique_zero", "I", "I", dev),
               _variant("unique_dense", tc, tc, dev), _variant("unique_dense_inv", tc, ic, dev),
               _variant("unique_dense_count", "I", ic, dev)]
    if any(v is None for v in shaders):
        return None
    keys_s, u32_s, vals_s, inv_s, cnt_s = shaders
    groups = min(-(-N // (LOCAL * 8)), DENSE_GROUPS_CPU if _launch.on_cpu(dev) else DENSE_GROUPS)
    x, off = flat._alloc, flat._offset
    rng = dev.alloc(8)
    dev.write(rng, np.array([0xFFFFFFFF, 0], np.uint32))
    dev.launch(keys_s, [CODES["unique_range"]], [x, rng], [False, True],
               _push({0: N, 6: off}, [x, rng]), groups=(groups, 1, 1))
    lo, hi = (int(v) for v in dev.download_bytes(rng, 0, 8).view(np.uint32))
    R = hi - lo + 1
    if R > min(DENSE_MAX_RANGE, N):
        return None
    c = dev.alloc(R * 4)
    _launch1(dev, u32_s, "unique_zero", R, {}, [], [c])
    dev.launch(keys_s, [CODES["unique_bins"]], [x, c], [False, True],
               _push({0: N, 1: R, 2: lo, 6: off}, [x, c]), groups=(groups, 1, 1))
    f, pos = dev.alloc(R * 4), dev.alloc((R + 1) * 4)
    _launch1(dev, u32_s, "unique_present", R, {}, [c], [f])
    from ._reduce import exclusive_scan_u32

    exclusive_scan_u32(dev, f, pos, R)
    U = int(dev.download_bytes(pos, R * 4, 4).view(np.uint32)[0])
    vals = dev.alloc(U * flat._dtype.itemsize)
    _launch1(dev, vals_s, "unique_dense", R, {2: lo}, [c, pos], [vals])
    outs = [_launch.result_type._new(vals, flat._dtype, (U,))]
    if inverse:
        o = dev.alloc(N * index_dtype.itemsize)
        _launch1(dev, inv_s, "unique_dense_inv", N, {2: lo, 6: off}, [x, pos], [o])
        outs.append(_launch.result_type._new(o, index_dtype, shape))
    if counts:
        o = dev.alloc(U * index_dtype.itemsize)
        _launch1(dev, cnt_s, "unique_dense_count", R, {}, [c, pos], [o])
        outs.append(_launch.result_type._new(o, index_dtype, (U,)))
    return tuple(outs)


def supports_searchsorted(x1, x2, sorter, index_dtype):
    """Whether searchsorted(x1, x2, side, sorter, index_dtype) runs natively: x1 and x2 Arrays
    of one sortable dtype, the search variant, the contiguous copy of a strided x2, the zero
    fill of an empty x1's answer and the conversion of sorter (an integer Array or None) to
    index_dtype. The spec layer asks this
    first."""
    if not (_supported(x1) and _supported(x2)) or x1._dtype != x2._dtype:
        return False
    dev = x1._alloc.device
    tc, ic = _code(x1._dtype), _code(index_dtype)
    need = [_variant("sort_search", tc, ic, dev), _launch.cast_variant(tc, tc, dev),
            _launch.variant("fill", None, ic, None, dev)]  # (an empty x1: zeros)
    if sorter is not None:
        if sorter._alloc.device != dev:
            return False
        need.append(_launch.cast_variant(_code(sorter._dtype), ic, dev))
    return all(v is not None for v in need)


def searchsorted_plan(x1, x2, side, index_dtype):
    """The compiled plan (plan(x1, x2) -> the indices, or None: call searchsorted) of a search
    without sorter of x2 (C-contiguous, not empty) in x1 (not empty) of this layout, or None
    where none serves. After supports_searchsorted(x1, x2, None, index_dtype)."""
    dev = x1._alloc.device
    m, n = math.prod(x2._shape), x1._shape[0]
    cst = _launch._c_strides(x2._shape)
    if m == 0 or n == 0 or not all(s == c for s, c, k in zip(x2._strides, cst, x2._shape) if k != 1):
        return None
    shader = _variant("sort_search", _code(x1._dtype), _code(index_dtype), dev)
    if shader is None:
        return None
    words = {0: m, 1: n, 7: x1._strides[0] if n > 1 else 0,
             W_FLAGS: F_RIGHT if side == "right" else 0}
    template = [0] * PUSH_WORDS
    for k, v in words.items():
        template[k] = int(v) & 0xFFFFFFFF
    A, ARG, OUT, ADDRESS = ADDR, _launch.ARG, _launch.OUT, _launch.ADDRESS
    # addr[0] x1, addr[1] x2, addr[2] the sorter's (x1 again: unread without F_SORTER), addr[3] out
    patches = [(6, _launch.OFFSET, ARG, 0), (8, _launch.OFFSET, ARG, 1), (A, ADDRESS, ARG, 0),
               (A + 2, ADDRESS, ARG, 1), (A + 4, ADDRESS, ARG, 0), (A + 6, ADDRESS, OUT, 0)]
    step = (shader, [CODES["sort_search"]], template, _launch.grid_1d(m),
            [(ARG, 0, False), (ARG, 1, False), (OUT, 0, True)], patches)
    outputs = [(m * index_dtype.itemsize, index_dtype, tuple(x2._shape), tuple(cst))]
    return dev.compile_plan(_launch.result_type, [("array", x1._dtype.itemsize)] * 2, outputs,
                            [], [step])


def searchsorted(x1, x2, side, sorter, index_dtype):
    """np.searchsorted(x1, x2, side, sorter): x1 one-dimensional, x2 an Array of x1's dtype,
    sorter None or an integer Array (converted to index_dtype). The caller has checked
    supports_searchsorted."""
    dev = x1._alloc.device
    tc, ic = _code(x1._dtype), _code(index_dtype)
    shader = _native(_variant("sort_search", tc, ic, dev), "searchsorted: the search variant")
    m = math.prod(x2._shape)
    out = dev.alloc(m * index_dtype.itemsize)
    res = _launch.result_type._new(out, index_dtype, x2._shape)
    if m == 0:
        return res
    cst = _launch._c_strides(x2._shape)
    if not all(s == c for s, c, k in zip(x2._strides, cst, x2._shape) if k != 1):
        x2 = _launch.contiguous(x2)
    n = x1._shape[0]
    if n == 0:
        from . import full

        return full(x2._shape, 0, index_dtype, dev)
    flags = F_RIGHT if side == "right" else 0
    words = {1: n, 6: x1._offset, 7: x1._strides[0] if n > 1 else 0, 8: x2._offset}
    allocs = [x1._alloc, x2._alloc]
    if sorter is not None:
        if sorter._dtype != index_dtype or not all(
                s == 1 for s, k in zip(sorter._strides, sorter._shape) if k != 1):
            from . import astype

            sorter = astype(sorter, index_dtype)
        flags |= F_SORTER
        words[9] = sorter._offset
        allocs.append(sorter._alloc)
    else:
        allocs.append(x1._alloc)
    words[W_FLAGS] = flags
    _dispatch(dev, shader, "sort_search", m, words, allocs + [out],
              [False] * len(allocs) + [True])
    return res
