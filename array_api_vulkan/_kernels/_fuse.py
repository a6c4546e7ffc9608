"""Automatic elementwise fusion (docs/design.md, "Fusion").

The elementwise entry points of the kernels layer (elementwise, astype) do not record their
dispatch at once: they allocate the result as usual (so the caller gets an ordinary Array) and
hold the op in the calling thread's queue for the device. The queue is recorded, as ONE
generated kernel, when the thread records, copies or transfers anything else on the device, when
another thread does so on memory the held ops write (or writes memory they read), at a
synchronize (the runtime's record hook, which compiled plans call too), when an op of a
different shape comes, or when the kernel's budget (buffers, push words, ops) is full. At that point an op whose result nobody
outside the queue holds (its Allocation's only reference is the queue's) is an intermediate: it
is computed in registers and never written; an op nobody needs at all is not computed.

The kernel is generated from the same GLSL the static shaders are built from: each op's body is
its family's shader text (glsl/<family>.comp between the kernels.glsl include and AVK_OP) with
the dtype and op-code defines of its static variant, its functions renamed per op, and each
`return` of the op's entry function made `precise` (so that no compiler contracts one op's last
multiply with the next op's add into an FMA, which separate dispatches never do). Values cross
ops in the compute type of the producer's result dtype, wrapped to its storage width (8/16-bit
integers), so each op sees exactly the value the static shader would have loaded.

A chain that needs one op only runs as that op's static variant (the unfused dispatch). A chain
the generator cannot compile, or whose SPIR-V needs a feature the device lacks, runs unfused, op
by op, through the static variants. With no run-time compiler, or ARRAY_API_VULKAN_FUSION=0,
nothing is held.
"""
import math
import os
import re
import sys
import threading

from .._runtime import compiler as _compiler
from .._runtime import stats as _stats
from . import _launch
from ._launch import table

_SCALARS = (bool, int, float, complex)
# Families whose ops are held (their static shader is elementwise.glsl over an op function, or
# select's plain choice).
FAMILIES = frozenset(("unary", "binary", "math", "cast", "clip", "select"))
MAX_NODES = 32          # ops per fused kernel
MAX_BUFFERS = 16        # the recorder's limit of Allocations per dispatch (results + inputs)
MAX_CACHE = 512         # chain signatures kept (compiled shader names)
ELEMS = 4               # elements per invocation, ELEMS apart in the grid (as the static kernels)
# GPUs: the kernel loads every element's inputs first, then computes and stores each, its
# loops unrolled, so that the loads are in flight together and the elements' computations
# interleave (as elementwise.glsl). Rolled, one element at a time, NVIDIA ran the 5-op chain of
# 16M float32 in 98.8 us against 65.8 without its sine (run 12, benchmarks/diag_fused.py).
# CPUs (lavapipe) keep the loop rolled: four copies of a chain cost them compile time.
UNROLL = True


def _unroll(dev):
    return UNROLL and not _launch.on_cpu(dev)

ENV = "ARRAY_API_VULKAN_FUSION"
# Results smaller than min_elements(dev) are not held. A small op's cost is the host's: holding
# one is Python, 10-14 us on an H200's host, several times a compiled per-op plan's replay. A
# large op's cost is memory traffic, which fusion cuts. On a GPU an op of 1M float32 moves 8 MB
# (under 2 us at 4.8 TB/s), so a held chain of such ops is bound by the host where the same ops
# unheld are bound by the GPU. Logistic regression on 1M x 64 (2026-11-28, run 27) took 4.1-5.0
# ms held (6.6 in one suite process, probably the same cause) against a steady 4.3 unheld. From
# about 4M elements fusion pays on the GPU's side alone. lavapipe runs kernels on the host's
# cores, so fusion pays there from smaller sizes. MIN_ELEMENTS
# (ARRAY_API_VULKAN_FUSION_MIN_ELEMENTS), where set, is the threshold on every device (0: every
# op; tests use that).
_min_env = os.environ.get("ARRAY_API_VULKAN_FUSION_MIN_ELEMENTS")
MIN_ELEMENTS = int(_min_env) if _min_env else None
MIN_ELEMENTS_GPU = 1 << 22
MIN_ELEMENTS_CPU = 1 << 20


def min_elements(dev):
    """The fewest elements of a result that record() holds on dev."""
    if MIN_ELEMENTS is not None:
        return MIN_ELEMENTS
    return MIN_ELEMENTS_CPU if _launch.on_cpu(dev) else MIN_ELEMENTS_GPU


# The first large op may be recorded at once rather than held, so that the runtime submits it
# and the GPU works while the host makes the next ops (ARRAY_API_VULKAN_FUSION_EAGER): "wait",
# the first op after a host wait (a synchronize, a read), which the runtime then submits at
# once (Recorder.kick_after_wait); "1", any op that finds the queue empty and the GPU idle;
# "0", never. "1" made the 5-op chain of 16M float32 slower on the H100 (benchmarks/
# diag_latency.py, 2026-11-23 run 8): 245-289 us batched against 142-145 held, each op that
# found the GPU idle written and read back rather than fused. "wait" takes only the first op
# of each synchronised call.
EAGER = {"0": False, "1": True}.get(os.environ.get("ARRAY_API_VULKAN_FUSION_EAGER", "wait"), "wait")
# Under "wait", what the first op after a host wait did last time, per (shader, op code, shape):
# True where it was alone before the next wait or flush (recorded at once again: a + b then a
# synchronize), False where more ops of its shape followed (held: the whole chain is then one
# kernel and one submit rather than the first op's dispatch and the rest's). Unknown: at once.
_solo = {}
# Whether ops are held; read on the hot path as a module global.
on = os.environ.get(ENV, "1") != "0"
_checked = False
# Callables run when fusion is switched on or off (the spec layer drops its compiled per-op
# plans, which would otherwise bypass or keep bypassing the queue).
listeners = []


def enabled():
    """Whether elementwise ops are held for fusion (env ARRAY_API_VULKAN_FUSION, not 0, and a
    run-time compiler built in)."""
    _check()
    return on


def _check():
    global on, _checked
    if not _checked:
        _checked = True
        if on and not _compiler.available():
            on = False


def set_enabled(flag):
    """Switches fusion on or off (on only where a compiler is built in); returns the previous
    state. Held ops are recorded first."""
    global on
    _check()
    prev = on
    flush_all()
    on = bool(flag) and _compiler.available()
    if on != prev:
        for f in listeners:
            f()
    return prev


# -- the queue --------------------------------------------------------------------------------

class _Node:
    # a held reduction (family "reduce", opcode the op's name): alloc its result, part the
    # first pass's partials (one per workgroup of the fused kernel), shape the result's;
    # sig: what the generated kernel depends on (family, dtypes, op code, args by kind and index)
    __slots__ = ("alloc", "dtype", "family", "tin", "tout", "opcode", "variant", "nin", "dynamic",
                 "tcode", "args", "part", "rshape", "count", "sig")


class _Leaf:
    # bstrides: for mode "s", the strides (elements) over the result's non-unit dimensions;
    # boff: offset in bytes
    __slots__ = ("alloc", "dtype", "shape", "strides", "offset", "mode", "code", "bstrides", "boff")


_getrefcount = sys.getrefcount


def _refs(node):
    return _getrefcount(node.alloc)


def _base():
    probe = _Node()
    probe.alloc = object()
    return _refs(probe)


# References to a node's Allocation when only the queue holds it.
_BASE = _base()


def _width(code):
    return 4 if code == "D" else (2 if code in "dFlL" else 1)


class _Queue:
    """One thread's held ops on one device."""

    def __init__(self, owner, tid):
        self.owner = owner
        self.dev = owner.dev
        self.tid = tid
        self.lock = threading.RLock()
        self.words = max(8, min(int(self.dev.limits.get("max_push_constants_size", 128)), 256) // 4)
        self._reset()

    def _reset(self):
        self.nodes = []
        self.leaves = []
        self.leaf_index = {}
        self.produced = {}
        self.keys = set()   # hazard keys of the held results' memory
        self.lkeys = set()  # and of the memory held ops read
        self.live = []      # held ops whose results may be held outside the queue
        self.scalar_words = 0
        self.strided = 0    # leaves of mode "s"
        self.shape = None

    # The host-wait window (see _solo): the key of its first op, and whether that was held.
    window = None
    window_held = False

    def touched(self, reads, writes):
        keys = self.keys
        for k in reads:
            if k in keys:
                return True
        for k in writes:
            if k in keys or k in self.lkeys:
                return True
        return False

    def add_leaves(self, new):
        """Takes in the leaves a held op added: {key: (index, _Leaf)}."""
        for key, (li, lf) in new.items():
            self.leaf_index[key] = li
            self.leaves.append(lf)
            self.lkeys.add(lf.alloc.key)
            self.strided += lf.mode == "s"

    def add_node(self, nd, scalar_words, shape):
        """Appends held op nd (its result nd.alloc, of `shape`), which passes scalar_words."""
        alloc = nd.alloc
        self.scalar_words += scalar_words
        self.produced[id(alloc)] = len(self.nodes)
        self.keys.add(alloc.key)
        self.live.append(len(self.nodes))
        self.nodes.append(nd)
        if len(self.nodes) == 1:
            self.shape = shape
            self.owner.arm(1)

    def on_record(self):
        """Records the held ops (blocking while another thread does)."""
        with self.lock:
            if self.nodes:
                self.flush()

    def flush(self):
        with self.lock:
            nodes, leaves, shape = self.nodes, self.leaves, self.shape
            if not nodes:
                return
            if self.window is not None and self.window_held:
                # the window's first op, held, met no other op of its shape: alone
                _solo[self.window] = True
                self.window = None
            self._reset()
            # disarmed before recording: this queue is empty now, so the record hook would find
            # nothing of it, and each of the dispatches below would call back into Python for
            # nothing (another thread's held ops keep the hook armed; an op held while recording
            # arms it again)
            self.owner.arm(-1)
            _emit(self, nodes, leaves, shape)


class _DeviceState:
    """A device's queues (one per thread) and its record hook: before anything is recorded on
    the device, the calling thread's held ops are recorded, and another thread's where the op
    touches memory they write (or writes memory they read); everything before a synchronize."""

    def __init__(self, dev):
        self.dev = dev
        self.queues = {}
        self.lock = threading.Lock()
        self.armed = 0

    def arm(self, delta):
        with self.lock:
            self.armed += delta
            if delta > 0 and self.armed == 1:
                self.dev.set_record_hook(self)
            elif self.armed == 0:
                self.dev.set_record_hook(None)

    def __call__(self, reads=None, writes=None):
        tid = threading.get_ident()
        for q in list(self.queues.values()):
            if q.nodes and (reads is None or q.tid == tid or q.touched(reads, writes)):
                q.on_record()

    def queue(self, tid):
        with self.lock:
            q = self.queues.get(tid)
            if q is None:
                # (queues of threads that ended and hold nothing go)
                alive = {t.ident for t in threading.enumerate()}
                for t in [t for t, oq in self.queues.items() if t not in alive and not oq.nodes]:
                    del self.queues[t]
                q = self.queues[tid] = _Queue(self, tid)
        return q


_states = {}
_states_lock = threading.Lock()


class _Local(threading.local):
    queues = None  # device -> this thread's _Queue
    qdev = None    # the device of the last queue looked up (a one-entry cache of queues)
    q = None


_local = _Local()


def _existing_queue(dev):
    """This thread's queue for dev, or None where it has none yet; kept as _local's last."""
    qs = _local.queues
    q = qs.get(dev) if qs is not None else None
    if q is not None:
        _local.qdev, _local.q = dev, q
    return q


def _queue(dev):
    loc = _local
    q = loc.q if loc.qdev is dev else _existing_queue(dev)
    if q is None:
        if loc.queues is None:
            loc.queues = {}
        with _states_lock:
            st = _states.get(dev)
            if st is None:
                st = _states[dev] = _DeviceState(dev)
        q = loc.queues[dev] = st.queue(threading.get_ident())
        loc.qdev, loc.q = dev, q
    return q


def eager_now(dev, key):
    """Whether this thread's next large elementwise op on dev, of key (shader, op code, shape),
    is recorded at once, not held: the first after a host wait (EAGER "wait"), with nothing of
    this thread's held, unless more ops of its shape followed it last time (_solo)."""
    if EAGER != "wait" or not on or not dev.after_wait():
        return False
    q = _queue(dev)
    if q.nodes:
        return False
    q.window = key
    if _solo.get(key, True):
        q.window_held = False
        _stats.counters["fusion_eager_ops"] += 1
        return True
    q.window_held = True
    return False


def flush_all():
    for st in list(_states.values()):
        st()


MAX_DIMS = 4  # non-unit dimensions of a chain with strided or broadcast operands


def _leaf_mode(a, shape, cstr):
    """('c', None) contiguous over shape, ('o', None) one element broadcast, ('s', strides over
    shape's non-unit dimensions) strided or broadcast along some axes, or (None, None): not held
    (negative strides, or too many dimensions)."""
    if a._shape == shape and a._strides == cstr:
        return "c", None
    st = _launch._broadcast_strides(a, shape)
    if all(s == 0 for s, m in zip(st, shape) if m != 1):
        return "o", None
    if all(s == c for s, c, m in zip(st, cstr, shape) if m != 1):
        return "c", None
    bst = tuple(s for s, m in zip(st, shape) if m != 1)
    if len(bst) > MAX_DIMS or any(s < 0 or s >= 1 << 31 for s in bst):
        return None, None
    return "s", bst


def _fits(q, shape, nbuf, scalar_words, strided):
    """Whether a kernel of q's device with nbuf buffers (inputs and written results), these
    scalar words and `strided` strided inputs fits one dispatch: the recorder's buffers and
    the push words (the count, an address a buffer, the scalars, then where any input is
    strided the result's non-unit dimensions and each strided input's strides over them)."""
    dims = sum(1 for m in shape if m != 1) if strided else 0
    return nbuf <= MAX_BUFFERS and 1 + 2 * nbuf + scalar_words + (strided + 1) * dims <= q.words


def record(variant, family, opcode, tin, tout, out, args, nin, dynamic, tcode):
    """Holds the op out = op(args) (what _launch.map_op(variant, opcode, out, args, nin, dynamic,
    tcode) would record) for fusion; False where it is not held (the caller records it)."""
    if not _checked:
        _check()
        if not on:
            return False
    if family not in FAMILIES:
        return False
    shape = out._shape
    n = math.prod(shape)
    if n == 0 or n >= 1 << 32:
        return False
    alloc = out._alloc
    dev = alloc.device
    if n < min_elements(dev):
        return False
    q = _queue(dev)
    if EAGER == "wait":
        w = q.window
        if w is not None and (q.nodes if q.window_held else not dev.after_wait()):
            # a second op in the window: the first had company (it is held next time) where
            # this one has its shape
            _solo[w] = w[2] != shape
            q.window = None
        key = (variant, opcode, shape)
        if eager_now(dev, key):
            # recorded by the caller, which the runtime submits at once; the spec layer keeps
            # its compiled plan for such calls only (eager_now), under this key
            _launch.state.eager_at = _launch.state.launches + 1
            _launch.state.eager_key = key
            return False
    elif EAGER and not q.nodes and dev.gpu_idle():
        # recorded now, and not compiled into a per-op plan (compile_since), which would bypass
        # the queue for this layout from then on
        if not _launch.map_op(variant, opcode, out, args, nin, dynamic=dynamic, tcode=tcode):
            return False
        _launch.state.last_plan = None
        dev.kick()
        _stats.counters["fusion_eager_ops"] += 1
        return True
    cstr = _launch._c_strides(shape)
    want = ["?", tin, tin] if family == "select" else [tin] * len(args)
    if len(q.owner.queues) > 1:
        # an operand held by another thread's queue is recorded first: held ops never read
        # another queue's results (so no flush ever waits on two queues)
        for a in args:
            if a.__class__ not in _SCALARS:
                k = a._alloc.key
                for oq in list(q.owner.queues.values()):
                    if oq is not q and oq.nodes and k in oq.keys:
                        oq.on_record()
    with q.lock:
        if q.nodes and (q.shape != shape or len(q.nodes) >= MAX_NODES):
            q.flush()
        for _ in range(2):
            refs, new, sw, again = [], {}, 0, False
            for j, a in enumerate(args):
                if a.__class__ in _SCALARS:
                    w = _launch.scalar_words(a, tcode)
                    refs.append(("s", w, tcode, a))
                    sw += len(w)
                    continue
                code = table.DTYPES[a._dtype.name][0]
                if code != want[j]:
                    return False
                al = a._alloc
                k = q.produced.get(id(al))
                if k is not None:
                    if a._offset == 0 and a._shape == shape and a._strides == cstr:
                        refs.append(("n", k))
                        continue
                    again = True  # a view of a held result: record the queue first
                    break
                if al.device != dev:
                    return False
                mode, bst = _leaf_mode(a, shape, cstr)
                if mode is None:
                    return False
                key = (id(al), a._offset, code, mode, bst)
                li = q.leaf_index.get(key)
                if li is None:
                    t = new.get(key)
                    if t is None:
                        lf = _Leaf()
                        lf.alloc, lf.dtype, lf.shape, lf.strides = al, a._dtype, a._shape, a._strides
                        lf.offset, lf.mode, lf.code, lf.bstrides = a._offset, mode, code, bst
                        lf.boff = a._offset * a._dtype.itemsize
                        t = new[key] = (len(q.leaves) + len(new), lf)
                    li = t[0]
                refs.append(("l", li))
            if not again:
                # Results: at most every held op's; if that is too many, those still held outside
                # the queue (a result nobody holds now never will be: only the queue can reach it).
                ns = q.strided + sum(1 for t in new.values() if t[1].mode == "s")
                sw2 = q.scalar_words + sw
                nbuf = len(q.leaves) + len(new) + len(q.nodes) + 1
                if not _fits(q, shape, nbuf, sw2, ns):
                    nodes = q.nodes
                    q.live = [k for k in q.live if _refs(nodes[k]) > _BASE]
                    nbuf = len(q.leaves) + len(new) + 1 + len(q.live)
                if _fits(q, shape, nbuf, sw2, ns):
                    break
            if not q.nodes:
                return False  # too large for one kernel even alone
            q.flush()
        else:
            return False
        q.add_leaves(new)
        nd = _Node()
        nd.alloc, nd.dtype, nd.family, nd.tin, nd.tout, nd.opcode = alloc, out._dtype, family, tin, tout, opcode
        nd.variant, nd.nin, nd.dynamic, nd.tcode, nd.args = variant, nin, dynamic, tcode, tuple(refs)
        nd.sig = (family, tin, tout, opcode, out._dtype.name,
                  tuple([("s", r[2]) if r[0] == "s" else r for r in refs]))
        q.add_node(nd, sw, shape)
    # A held op counts as a dispatch with no plan, so that compile_since never takes an earlier
    # dispatch of the same call (an unheld cast of an operand) for the call's; hold_plan may
    # make the spec layer a plan of it from last_hold.
    st = _launch.state
    st.launches += 1
    st.last_plan = None
    st.last_hold = (st.launches, variant, family, opcode, tin, tout, nin, dynamic, tcode, len(args))
    return True


# Whether held calls get hold plans. (Session 9 turned them off on a guess, after `.ci/run`
# crashed in a large sort; the cause was the sort's single sweep on lavapipe under load, see
# _sort.ONESWEEP_CPU, and they are on again.)
HOLD_PLANS = True


def hold_plan(mark, args, out):
    """A function hold(args) -> result or None that holds the call just made again, for
    operands of the same layout (dtypes, shapes, strides, scalar types), where that call was
    exactly one op record() held on `args` as given (Arrays of the op's input dtype, Python
    scalars): the common case of a chain's second and later ops, without record's general
    checks. It returns None (the caller then takes the general path) for a call that needs
    them: the first op after a host wait, another thread's queue, a view of a held result, a
    full kernel. Else None."""
    st = _launch.state
    h = st.last_hold
    if not HOLD_PLANS or h is None or h[0] != mark + 1 or st.launches != mark + 1:
        return None
    _, variant, family, opcode, tin, tout, nin, dynamic, tcode, nrec = h
    double = family == "math" and len(args) == 1 and nrec == 2
    if nrec != len(args) and not double:
        return None
    shape, dtype = out._shape, out._dtype
    cstr = _launch._c_strides(shape)
    want = ["?", tin, tin] if family == "select" else [tin] * len(args)
    kind = table.DTYPES[table.CODE[tcode]][3]
    specs = []  # per operand: None (an Array, contiguous over shape), ("o"|"s", bst), or a scalar's
    for j, a in enumerate(args):
        if a.__class__ in _SCALARS:
            if kind in "iu":
                bits = table.DTYPES[table.CODE[tcode]][4]
                lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if kind == "i" else (0, (1 << bits) - 1)
                specs.append(("int", lo, hi))
            else:
                specs.append(({"b": bool, "f": float, "c": complex}[kind],))
            continue
        if table.DTYPES[a._dtype.name][0] != want[j]:
            return None
        mode, bst = _leaf_mode(a, shape, cstr)
        if mode is None:
            return None
        specs.append((mode, bst, want[j], a._dtype.itemsize))
    if double:
        specs = specs * 2
    nbytes = math.prod(shape) * dtype.itemsize
    new = _launch.result_type._new
    sig_head = (family, tin, tout, opcode, dtype.name)
    wkey = (variant, opcode, shape)
    pdev = out._alloc.device
    feats = _launch.features(pdev)  # (the variant was chosen for these: tests switch them)
    state = _launch.state
    nspecs = len(specs)

    def hold(args):
        if not on:
            return None
        dev = None
        for a in args:
            if a.__class__ not in _SCALARS:
                dev = a._alloc.device
                break
        if dev is not pdev or _launch.features(dev) != feats:
            return None
        loc = _local
        q = loc.q if loc.qdev is dev else _existing_queue(dev)
        if q is None or len(q.owner.queues) > 1:  # (record() makes the thread's queue)
            return None
        start = False
        nodes = q.nodes
        if nodes:
            if q.shape != shape or len(nodes) >= MAX_NODES:
                return None
        elif EAGER == "wait":
            if dev.after_wait():
                # a window's first op: held only where it had company last time (_solo)
                if _solo.get(wkey, True):
                    return None
                start = True
        elif EAGER:
            return None
        if double:
            args = (args[0], args[0])
        elif len(args) != nspecs:
            return None
        refs, sigrefs, newl, sw, ns = [], [], None, 0, 0
        with q.lock:
            produced, leaf_index, leaves = q.produced, q.leaf_index, q.leaves
            for a, sp in zip(args, specs):
                kind = sp[0]
                if kind.__class__ is not str:
                    v = kind(a)
                    w = _launch.scalar_words(v, tcode)
                    refs.append(("s", w, tcode, v))
                    sigrefs.append(("s", tcode))
                    sw += len(w)
                    continue
                if kind == "int":
                    if not sp[1] <= a <= sp[2]:
                        return None
                    v = int(a)
                    w = _launch.scalar_words(v, tcode)
                    refs.append(("s", w, tcode, v))
                    sigrefs.append(("s", tcode))
                    sw += len(w)
                    continue
                al = a._alloc
                k = produced.get(id(al))
                if k is not None:
                    if a._offset != 0 or kind != "c":
                        return None
                    r = ("n", k)
                else:
                    if al.device is not dev:
                        return None
                    key = (id(al), a._offset, sp[2], kind, sp[1])
                    li = leaf_index.get(key)
                    if li is None:
                        if newl is None:
                            newl = {}
                        t = newl.get(key)
                        if t is None:
                            lf = _Leaf()
                            lf.alloc, lf.dtype, lf.shape, lf.strides = al, a._dtype, a._shape, a._strides
                            lf.offset, lf.mode, lf.code, lf.bstrides = a._offset, kind, sp[2], sp[1]
                            lf.boff = a._offset * sp[3]
                            t = newl[key] = (len(leaves) + len(newl), lf)
                            ns += kind == "s"
                        li = t[0]
                    r = ("l", li)
                refs.append(r)
                sigrefs.append(r)
            nnew = len(newl) if newl else 0
            sw2, ns2 = q.scalar_words + sw, q.strided + ns
            if not _fits(q, shape, len(leaves) + nnew + len(nodes) + 1, sw2, ns2):
                # as record: only results still held outside the queue count
                q.live = [k for k in q.live if _refs(nodes[k]) > _BASE]
                if not _fits(q, shape, len(leaves) + nnew + 1 + len(q.live), sw2, ns2):
                    return None
            if newl:
                q.add_leaves(newl)
            if start:
                q.window, q.window_held = wkey, True
            else:
                w = q.window
                if w is not None:
                    _solo[w] = w[2] != shape
                    q.window = None
            alloc = dev.alloc(nbytes)
            out = new(alloc, dtype, shape, cstr)
            nd = _Node()
            nd.alloc, nd.dtype, nd.family, nd.tin, nd.tout, nd.opcode = alloc, dtype, family, tin, tout, opcode
            nd.variant, nd.nin, nd.dynamic, nd.tcode, nd.args = variant, nin, dynamic, tcode, tuple(refs)
            nd.sig = sig_head + (tuple(sigrefs),)
            q.add_node(nd, sw, shape)
        state.launches += 1
        state.last_plan = None
        return out

    return hold


# Reductions that take a fused elementwise prologue: full reductions of a held float result.
REDUCE_OPS = frozenset(("sum", "prod", "min", "max", "mean"))


def _groups(n):
    """Workgroups the fused kernel over n elements launches (ELEMS per invocation, 256 a
    workgroup), laid out as the runtime's 1-D grids are (Recorder::grid_1d): past 65535
    groups, rows of equal length, so the count can exceed ceil(invocations / 256) by a few."""
    g = -(-(-(-n // ELEMS)) // 256)
    if g <= 65535:
        return g
    rows = -(-g // 65535)
    return rows * -(-g // rows)


def hold_reduce(op, x, axes, keepdims, dtype):
    """Holds op(x) over every axis, x a held result of this thread's queue, as the epilogue of
    the queue's fused kernel (each workgroup writes its partial, a second pass reduces them):
    x itself is then an intermediate like any other, written only if someone holds it when the
    queue is recorded. Returns the result Array, or None where not held (the caller reduces)."""
    al = x._alloc
    qs = _local.queues
    q = qs.get(al.device) if qs is not None else None
    if q is None or id(al) not in q.produced:  # (the common case first: not a held result)
        return None
    if op not in REDUCE_OPS or dtype != x._dtype or tuple(axes) != tuple(range(len(x._shape))):
        return None
    code = table.DTYPES[dtype.name][0]
    if code not in "fd":
        return None
    dev = al.device
    shape = x._shape
    with q.lock:
        k = q.produced.get(id(al))
        # (n >= 2: the result's shape is never the queue's, so no op of the chain reads it)
        if (k is None or q.shape != shape or math.prod(shape) < 2 or x._offset != 0 or x._strides != _launch._c_strides(shape)
                or q.nodes[k].family == "reduce" or len(q.nodes) >= MAX_NODES):
            return None
        # (as record counts: every node a written result, this one included, and its partials)
        if not _fits(q, shape, len(q.leaves) + len(q.nodes) + 2, q.scalar_words, q.strided):
            return None
        n = math.prod(shape)
        rshape = (1,) * len(shape) if keepdims else ()
        out = _launch.result_type._new(dev.alloc(dtype.itemsize), dtype, rshape)
        nd = _Node()
        nd.alloc, nd.dtype, nd.family, nd.tin, nd.tout, nd.opcode = out._alloc, dtype, "reduce", code, code, op
        nd.variant, nd.nin, nd.dynamic, nd.tcode, nd.args = None, 1, False, code, (("n", k),)
        nd.sig = ("reduce", code, code, op, dtype.name, nd.args)
        nd.part = dev.alloc(_groups(n) * dtype.itemsize)
        nd.rshape, nd.count = rshape, n
        # (an op reading the result, of another shape, records the queue first: see record)
        q.keys.add(nd.part.key)
        q.add_node(nd, 0, shape)
    st = _launch.state
    st.launches += 1
    st.last_plan = None
    return out


# -- recording the held ops ---------------------------------------------------------------------

_cache = {}  # chain signature -> (shader name, word layout) or None (run unfused)
# (device, the queue's node and leaf signatures, which results are held outside, the result's
# non-unit dimensions) -> how _emit records that queue: the same every time a loop's chain
# comes again, so the signature's renumbering and the shader lookup are done once
_layouts = {}


def _layout(dev, nodes, leaves, shape, live):
    """(shader name or None, selected node indices, leaf indices in the kernel's order, result
    node indices, reduction node indices, (node, arg) of each scalar in order, non-unit
    dimensions where a leaf is strided else 0); None where no op is needed."""
    need = list(live)
    for i in range(len(nodes) - 1, -1, -1):
        if need[i]:
            for r in nodes[i].args:
                if r[0] == "n":
                    need[r[1]] = True
    sel = [i for i in range(len(nodes)) if need[i]]
    if not sel:
        return None
    if len(sel) == 1:
        return None, sel, None, None, None, None, 0
    # The kernel's description, renumbered over the selected ops and the leaves they read.
    pos = {i: k for k, i in enumerate(sel)}
    lmap, lsig, sigs, scal = {}, [], [], []
    for i in sel:
        nd = nodes[i]
        rs = []
        for j, r in enumerate(nd.args):
            if r[0] == "n":
                rs.append(("n", pos[r[1]]))
            elif r[0] == "l":
                li = lmap.get(r[1])
                if li is None:
                    li = lmap[r[1]] = len(lsig)
                    lf = leaves[r[1]]
                    lsig.append((lf.code, lf.mode))
                rs.append(("l", li))
            else:
                rs.append(("s", len(scal), r[2]))
                scal.append((i, j))
        sigs.append((nd.family, nd.tin, nd.tout, nd.opcode, nd.dtype.name, tuple(rs)))
    outs = tuple(k for k, i in enumerate(sel) if live[i] and nodes[i].family != "reduce")
    reds = tuple(k for k, i in enumerate(sel) if nodes[i].family == "reduce")
    dims = [m for m in shape if m != 1]
    nd = len(dims) if any(m == "s" for _, m in lsig) else 0
    flavour = (dev.supports_float64, _launch.denorm_preserve(dev), nd, _unroll(dev))
    sig = (flavour, tuple(sigs), tuple(lsig), tuple(outs), reds)
    entry = _cache.get(sig)
    if entry is None and sig not in _cache:
        entry = _build(dev, sig)
        if len(_cache) >= MAX_CACHE:
            _cache.clear()
        _cache[sig] = entry
    else:
        _stats.counters["fusion_cache_hits"] += 1
    order = [li for li, _ in sorted(lmap.items(), key=lambda kv: kv[1])]
    return (entry, sel, order, [sel[k] for k in outs], [sel[k] for k in reds], scal, nd)


def _emit(q, nodes, leaves, shape):
    dev = q.dev
    live = tuple([_getrefcount(nd.alloc) > _BASE for nd in nodes])  # (_refs, inlined)
    key = (dev, tuple([nd.sig for nd in nodes]), tuple([(lf.code, lf.mode) for lf in leaves]), live,
           sum(1 for m in shape if m != 1))
    lay = _layouts.get(key)
    if lay is None:
        lay = _layout(dev, nodes, leaves, shape, live)
        if lay is None:
            return
        if len(_layouts) >= MAX_CACHE:
            _layouts.clear()
        _layouts[key] = lay
    else:
        _stats.counters["fusion_cache_hits"] += 1
    name, sel, order, outs, reds, scal, nd = lay
    if name is None:
        _unfused(nodes, leaves, shape, sel)
        return
    n = math.prod(shape)
    # push words: the count, each leaf's address then each written one's (each result, then each
    # held reduction's partials; the runtime adds the addresses), the scalars, then where a leaf
    # is strided the non-unit dimensions and each strided leaf's strides
    buffers = [leaves[li].alloc for li in order]
    offsets = [leaves[li].boff for li in order]
    buffers += [nodes[k].alloc for k in outs]
    if reds:
        buffers += [nodes[k].part for k in reds]
    offsets += [0] * (len(buffers) - len(order))
    tail = []
    for i, j in scal:
        tail += nodes[i].args[j][1]
    if nd:
        tail += [m for m in shape if m != 1]
        for li in order:
            lf = leaves[li]
            if lf.mode == "s":
                tail += lf.bstrides
    dev.launch_addressed(name, buffers, offsets, len(order), n, tail, (n + ELEMS - 1) // ELEMS)
    _stats.counters["fused_kernels"] += 1
    _stats.counters["fused_ops"] += len(sel)
    for k in reds:
        nd = nodes[k]
        _finish_reduce(nd, _launch.result_type._new(nd.part, nd.dtype, (_groups(n),)), (0,))


def _finish_reduce(nd, src, axes):
    """Reduces src over axes into the held reduction nd's result (the second pass)."""
    from . import _reduce

    op = nd.opcode
    r = _reduce.reduce("sum" if op == "mean" else op, src, axes, False, nd.dtype)
    if op == "mean":
        _map_now("divide", [r, float(nd.count)], _launch.result_type._new(nd.alloc, nd.dtype, nd.rshape))
    else:
        size = nd.dtype.itemsize
        nd.alloc.device.copy(r._alloc, r._offset * size, nd.alloc, 0, size)


def _map_now(name, args, out):
    """Records out = name(args) as one static dispatch, never held."""
    from . import _resolve

    code = table.DTYPES[out._dtype.name][0]
    op, variant = _resolve(name, code, code, len(args), out._alloc.device)
    if not _launch.map_op(variant, op.code, out, list(args), 2, dynamic=op.family in _launch.DYNAMIC_MODES,
                          tcode=code):
        raise RuntimeError(f"fusion: could not record {name}")


def _unfused(nodes, leaves, shape, sel):
    """Records the selected held ops one static dispatch each, as map_op would have."""
    st = _launch.state
    saved = (st.launches, st.last_plan)
    new = _launch.result_type._new
    try:
        for i in sel:
            nd = nodes[i]
            if nd.family == "reduce":
                p = nodes[nd.args[0][1]]
                _finish_reduce(nd, new(p.alloc, p.dtype, shape), tuple(range(len(shape))))
                continue
            args = []
            for r in nd.args:
                if r[0] == "n":
                    p = nodes[r[1]]
                    args.append(new(p.alloc, p.dtype, shape))
                elif r[0] == "l":
                    lf = leaves[r[1]]
                    args.append(new(lf.alloc, lf.dtype, lf.shape, lf.strides, lf.offset))
                else:
                    args.append(r[3])
            out = new(nd.alloc, nd.dtype, shape)
            if not _launch.map_op(nd.variant, nd.opcode, out, args, nd.nin, dynamic=nd.dynamic,
                                  tcode=nd.tcode):
                raise RuntimeError(f"fusion: could not record held op {nd.variant}")
            _stats.counters["fusion_unfused"] += 1
    finally:
        st.launches, st.last_plan = saved


# -- GLSL generation ------------------------------------------------------------------------

_GLSL = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "glsl")
_ENTRY = {"unary": "op", "binary": "op", "math": "op", "cast": "convert", "clip": "clip"}
_families = {}


def _glsl_dir():
    for d in (_GLSL, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "glsl")):
        if os.path.isdir(os.path.join(d, "include")):
            return d
    raise FileNotFoundError("glsl/ sources not found")


def _family(family):
    """(section text, macros it defines, functions it defines) of a family's shader."""
    got = _families.get(family)
    if got is None:
        d = _glsl_dir()
        with open(os.path.join(d, family + ".comp")) as f:
            text = f.read()
        with open(os.path.join(d, "include", "kernels_float.glsl")) as f:
            kf = f.read()
        m = re.search(r'^#include "kernels.glsl"\s*$', text, re.M)
        end = text.index("#define AVK_OP")
        sec = text[m.end():end]
        sec = re.sub(r'^\s*#\s*include\s+"kernels_float.glsl"\s*$', lambda _: kf, sec, flags=re.M)
        sec = re.sub(r'^\s*#\s*include\s+"[^"]+"\s*$', "", sec, flags=re.M)
        # the entry function's returns become precise values (see the module docstring)
        entry = _ENTRY[family]
        fm = re.search(r"^(\w+) " + entry + r"\(.*?^}", sec, re.M | re.S)
        rtype = fm.group(1)
        body = re.sub(r"\breturn\s+([^;]+);",
                      lambda r: "{ precise " + rtype + " avk_ret = " + r.group(1) + "; return avk_ret; }",
                      fm.group(0))
        sec = sec[:fm.start()] + body + sec[fm.end():]
        macros = sorted(set(re.findall(r"^\s*#\s*define\s+(\w+)", sec, re.M)))
        funcs = sorted(set(re.findall(r"^(?:precise\s+)?[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s*\(", sec, re.M)))
        got = _families[family] = (sec, macros, funcs)
    return got


def _types(slot, code):
    st, ct, kind, bits = table.DTYPES[table.CODE[code]][1:]
    real = ("float" if bits == 64 else "double") if kind == "c" else ct
    return {f"{slot}_S": st, f"{slot}_C": ct, f"{slot}_K": table.KIND_NUM[kind], f"{slot}_BITS": bits,
            f"{slot}_R": real}


def _section(k, family, tin, tout, opcode):
    sec, macros, funcs = _family(family)
    defs = _types("T", tin)
    defs.update(_types("R", tout))
    defs["OP"] = opcode
    for nm, c in table.FAMILY_CODES.get(family, {}).items():
        defs[f"OP_{nm.upper()}"] = c
    if family == "math":
        defs["MATH_OP"] = opcode
    for f in funcs:
        defs[f] = f"{f}_s{k}"
    out = [f"#define {a} {b}" for a, b in defs.items()]
    out.append(sec)
    out += [f"#undef {a}" for a in sorted(set(defs) | set(macros))]
    return "\n".join(out), f"{_ENTRY[family]}_s{k}"


def _wrap(code, expr):
    """expr (the compute type of dtype code) as the static shader would store and reload it."""
    kind, bits = table.DTYPES[table.CODE[code]][3], table.DTYPES[table.CODE[code]][4]
    if kind in "biu" and bits < 32:
        return f"bitfieldExtract({expr}, 0, {bits})"
    return expr


def _scalar_expr(code, k):
    ct = table.DTYPES[table.CODE[code]][2]
    if code == "f":
        return f"uintBitsToFloat(p.w[{k}])"
    if code == "d":
        return f"packDouble2x32(uvec2(p.w[{k}], p.w[{k + 1}]))"
    if code == "F":
        return f"vec2(uintBitsToFloat(p.w[{k}]), uintBitsToFloat(p.w[{k + 1}]))"
    if code == "D":
        return (f"dvec2(packDouble2x32(uvec2(p.w[{k}], p.w[{k + 1}])), "
                f"packDouble2x32(uvec2(p.w[{k + 2}], p.w[{k + 3}])))")
    if code in "lL":
        return f"{ct}(packUint2x32(uvec2(p.w[{k}], p.w[{k + 1}])))"
    return f"{ct}(p.w[{k}])"


def _align(code):
    bits = table.DTYPES[table.CODE[code]][4]
    return max(1, bits // 8)


def generate(dev_flavour, sig):
    """The GLSL source of the fused kernel of chain signature `sig` (see _emit)."""
    f64, dp, ndims, unroll = dev_flavour
    _, nodes, lsig, outs, reds = sig
    scodes = [r[2] for nd in nodes for r in nd[5] if r[0] == "s"]
    nstrided = sum(1 for _, m in lsig if m == "s")
    nwords = (1 + 2 * (len(lsig) + len(outs) + len(reds)) + sum(_width(c) for c in scodes)
              + ndims * (1 + nstrided))
    src = ["#version 450",
           "#extension GL_GOOGLE_include_directive : require",
           "#extension GL_ARB_gpu_shader_int64 : require",
           "#extension GL_EXT_shader_explicit_arithmetic_types : require",
           "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require",
           "#extension GL_EXT_buffer_reference : require",
           "#extension GL_EXT_buffer_reference_uvec2 : require",
           '#include "common.glsl"',
           "#define K_BOOL 0", "#define K_INT 1", "#define K_UINT 2", "#define K_FLOAT 3", "#define K_CPLX 4"]
    touches_f32 = any(c in "fF" for nd in nodes for c in (nd[1], nd[2]))
    if dp and touches_f32:
        src += ["#extension GL_EXT_spirv_intrinsics : require",
                'spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4464], 4459, 32);']
    if not f64:
        src.append("#define AVK_NO_F64 1")
    libs = []
    for nd in nodes:
        if nd[0] == "math":
            for inc in {"f": ("math_f32.glsl",), "d": ("math_f64.glsl",),
                        "F": ("math_f32.glsl", "complex_math.glsl"),
                        "D": ("math_f64.glsl", "complex_math.glsl")}[nd[1]]:
                if inc not in libs:
                    libs.append(inc)
    src += [f'#include "{inc}"' for inc in libs]
    src.append(f"layout(push_constant) uniform Push {{ uint w[{nwords}]; }} p;")
    # family sections may name the static kernels' push size in code the fused kernel never runs
    # (cast.comp's tril/triu tail words): give it a value, so that it compiles
    src.append(f"#define AVK_WORDS {nwords}")
    codes = sorted({c for c, _ in lsig} | {table.DTYPES[nodes[k][4]][0] for k in outs + reds})
    for c in codes:
        nm = table.CODE[c]
        st = table.DTYPES[nm][1]
        src.append(f"layout(buffer_reference, std430, buffer_reference_align = {_align(c)}) restrict readonly "
                   f"buffer In_{nm} {{ {st} v[]; }};")
        src.append(f"layout(buffer_reference, std430, buffer_reference_align = {_align(c)}) restrict writeonly "
                   f"buffer Out_{nm} {{ {st} v[]; }};")
    sections, fn = {}, []
    for nd in nodes:
        family, tin, tout, opcode = nd[:4]
        if family in ("select", "reduce"):
            fn.append(None)
            continue
        key = (family, tin, tout, opcode)
        if key not in sections:
            text, name = _section(len(sections), *key)
            sections[key] = name
            src.append(text)
        fn.append(sections[key])
    body = ["void main()", "{", "    uint n = p.w[0];",
            "    uint step = gl_NumWorkGroups.x * gl_NumWorkGroups.y * AVK_LOCAL_SIZE;",
            "    uint i = avk_index();"]
    w = 1 + 2 * (len(lsig) + len(outs) + len(reds))
    sc = []
    for c in scodes:
        ct = table.DTYPES[table.CODE[c]][2]
        body.append(f"    {ct} s{len(sc)} = {_scalar_expr(c, w)};")
        sc.append(c)
        w += _width(c)
    for m, k in enumerate(reds):
        ct = table.DTYPES[nodes[k][4]][2]
        body.append(f"    {ct} acc{m} = {_REDUCE_IDENTITY[nodes[k][3]].format(ct=ct)};")
    shw = w  # the result's non-unit dimensions, then each strided input's strides over them
    loads = []
    sj = 0
    for j, (c, mode) in enumerate(lsig):
        nm = table.CODE[c]
        ct = table.DTYPES[nm][2]
        idx = "i" if mode == "c" else "0u"
        if mode == "s":
            stw = shw + ndims * (1 + sj)
            sj += 1
            loads.append(f"uint o{j} = 0u;")
            loads.append("{")
            loads.append("    uint r = i;")
            for k in range(ndims - 1, -1, -1):
                loads.append(f"    {{ uint q = r / p.w[{shw + k}]; o{j} += (r - q * p.w[{shw + k}]) * p.w[{stw + k}]; r = q; }}")
            loads.append("}")
            idx = f"o{j}"
        src_ = f"{ct}(In_{nm}(uvec2(p.w[{1 + 2 * j}], p.w[{2 + 2 * j}])).v[{idx}])"
        loads.append(f"la{j}[e] = {src_};" if unroll else f"{ct} l{j} = {src_};")
    # (with reductions every invocation reaches the workgroup's barriers: no early return)
    stop = ["        if (i >= n)", "            break;" if reds or unroll else "            return;"]
    if unroll:
        body.append("    uint i0 = i;")
        for j, (c, _) in enumerate(lsig):
            body.append(f"    {table.DTYPES[table.CODE[c]][2]} la{j}[{ELEMS}];")
        body += [f"    [[unroll]] for (uint e = 0u; e < {ELEMS}u; ++e) {{",
                 "        uint i = i0 + e * step;",
                 "        if (i < n) {"]
        body += ["            " + ln for ln in loads]
        body += ["        }", "    }",
                 f"    [[unroll]] for (uint e = 0u; e < {ELEMS}u; ++e) {{",
                 "        uint i = i0 + e * step;"] + stop
        for j, (c, _) in enumerate(lsig):
            body.append(f"        {table.DTYPES[table.CODE[c]][2]} l{j} = la{j}[e];")
    else:
        body += [f"    [[dont_unroll]] for (uint e = 0u; e < {ELEMS}u; ++e, i += step) {{"] + stop
        body += ["        " + ln for ln in loads]
    for k, nd in enumerate(nodes):
        family, tin, tout, opcode, rname, refs = nd
        if family == "reduce":
            m = reds.index(k)
            body.append(f"        acc{m} = {_REDUCE_COMBINE[opcode].format(a=f'acc{m}', b=f't{refs[0][1]}')};")
            continue
        args = []
        for r in refs:
            args.append(f"t{r[1]}" if r[0] == "n" else (f"l{r[1]}" if r[0] == "l" else f"s{r[1]}"))
        if family == "select":
            expr = f"({args[0]} != 0u) ? {args[1]} : {args[2]}"
        else:
            expr = f"{fn[k]}({', '.join(args)})"
        rc = table.DTYPES[rname][2]
        body.append(f"        {rc} t{k} = {_wrap(table.DTYPES[rname][0], expr)};")
    base = 1 + 2 * len(lsig)
    for m, k in enumerate(outs):
        rname = nodes[k][4]
        st = table.DTYPES[rname][1]
        body.append(f"        Out_{rname}(uvec2(p.w[{base + 2 * m}], p.w[{base + 2 * m + 1}])).v[i] = {st}(t{k});")
    body.append("    }")
    # Reductions: a fixed tree over the workgroup in shared memory (the same order every run),
    # then invocation 0 writes the workgroup's partial; a second pass reduces the partials.
    base += 2 * len(outs)
    for m, k in enumerate(reds):
        rname = nodes[k][4]
        ct = table.DTYPES[rname][2]
        src.append(f"shared {ct} avk_red{m}[AVK_LOCAL_SIZE];")
        comb = _REDUCE_COMBINE[nodes[k][3]].format(a=f"avk_red{m}[l]", b=f"avk_red{m}[l + s]")
        body += [f"    avk_red{m}[gl_LocalInvocationIndex] = acc{m};",
                 "    barrier();",
                 "    for (uint s = AVK_LOCAL_SIZE / 2u; s > 0u; s >>= 1u) {",
                 "        uint l = gl_LocalInvocationIndex;",
                 f"        if (l < s) avk_red{m}[l] = {comb};",
                 "        barrier();",
                 "    }",
                 "    if (gl_LocalInvocationIndex == 0u)",
                 f"        Out_{rname}(uvec2(p.w[{base + 2 * m}], p.w[{base + 2 * m + 1}])).v["
                 f"gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = avk_red{m}[0];"]
    body.append("}")
    return "\n".join(src + body) + "\n"


# A held reduction's identity and combination, in its compute type ct. The chain's values are
# precise (see the module docstring), so an add here is never contracted with their multiply.
# min/max propagate NaN, as the reduce family's, and pick by comparison rather than min()/max()
# (NVIDIA's FMin/FMax flush float32 subnormals: benchmarks/diag_denorm.py).
_REDUCE_IDENTITY = {"sum": "{ct}(0)", "mean": "{ct}(0)", "prod": "{ct}(1)",
                    "min": "{ct}(1.0 / 0.0)", "max": "{ct}(-1.0 / 0.0)"}
_NAN_FIRST = "(({a}) != ({a}) ? ({a}) : (({b}) != ({b}) ? ({b}) : ({pick})))"
_REDUCE_COMBINE = {"sum": "({a}) + ({b})", "mean": "({a}) + ({b})", "prod": "({a}) * ({b})",
                   "min": _NAN_FIRST.replace("{pick}", "({b}) < ({a}) ? ({b}) : ({a})"),
                   "max": _NAN_FIRST.replace("{pick}", "({b}) > ({a}) ? ({b}) : ({a})")}


def _build(dev, sig):
    """The compiled fused shader's name for chain signature sig, or None (run it unfused)."""
    try:
        src = generate(sig[0], sig)
        name = _compiler.shader(src, tag="fused")
    except (ValueError, RuntimeError, OSError) as e:
        if os.environ.get("ARRAY_API_VULKAN_FUSION_DEBUG"):
            print("fusion: generation failed:", e, file=sys.stderr)
        return None
    needs = _launch.shader_needs(name)
    info = getattr(dev, "info", None) or {}
    if not all(info.get(f, True) for f in needs):
        return None
    return name
