"""Whether an op's time depends on where its operands came from: the same product timed on an
array computed on the device and on uploaded copies of it (diag_steps.py saw k-means'
onehot.T @ X and PCA's Xc.T @ Xc 4x slower than tune_matmul.py's uploaded operands), and the
MLP step batched against synchronised, with the runtime's counters (the suite saw it 2.7x slower
batched). Prints JSON and a table (stderr).

    python3 benchmarks/diag_origin.py [--quick]
"""
import time

import numpy as np

from _common import emit, ours_gpu, parser, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from workloads import FULL, QUICK, make_data, mlp_step  # noqa: E402

KEYS = ("submits", "dispatches", "barriers", "fused_kernels", "fusion_cache_hits", "shaders_compiled",
        "pipelines_created", "gpu_seconds", "wait_seconds", "submit_seconds", "host_fallbacks")


def gpu_us(fn, reps=7):
    fn()
    return round(sorted(ours_gpu(lambda: [fn()]) for _ in range(reps))[reps // 2] * 1e6, 1)


def origins(x):
    """name -> an array equal to x: itself, an uploaded copy, a device copy, a computed copy."""
    return {"computed": x, "uploaded": xp.asarray(np.asarray(x)),
            "asarray_copy": xp.asarray(x, copy=True), "plus_zero": x + 0.0}


def alloc_info(x):
    a = getattr(x, "_alloc", None)
    return repr(a)[:120]


def stats_delta(fn):
    s0 = xp.runtime_stats()
    t0 = time.perf_counter()
    fn()
    xp.synchronize()
    t = time.perf_counter() - t0
    s1 = xp.runtime_stats()
    d = {k: s1[k] - s0[k] for k in KEYS if isinstance(s1.get(k), (int, float))}
    d["wall_s"] = t
    d["pool_bytes_reserved"] = s1["pool_bytes_reserved"]
    d["host_fallbacks"] = s1["host_fallbacks"]
    return d


def main():
    args = parser(__doc__, only=False, libs=None).parse_args()
    sizes = QUICK if args.quick else FULL
    rng = np.random.default_rng(0)
    out = {"products": {}, "mlp": {}}
    km = {k: xp.asarray(v) for k, v in make_data("kmeans", sizes, rng).items()}
    X, C = km["X"], km["C"]
    k = C.shape[0]
    ids = xp.reshape(xp.arange(k, device=X.device), (1, k))
    labels = xp.argmin(X @ xp.matrix_transpose(C), axis=1)
    onehot = xp.astype(xp.reshape(labels, (-1, 1)) == ids, X.dtype)
    pc = {k_: xp.asarray(v) for k_, v in make_data("pca", sizes, rng).items()}
    PX = pc["X"]
    Xc = PX - xp.mean(PX, axis=0, keepdims=True)
    xp.synchronize()
    for name, x in origins(onehot).items():
        xp.synchronize()
        out["products"][f"onehot.T @ X [{name}]"] = {
            "gpu_us": gpu_us(lambda: xp.matrix_transpose(x) @ X), "alloc": alloc_info(x)}
    for name, x in origins(Xc).items():
        xp.synchronize()
        out["products"][f"Xc.T @ Xc [{name}]"] = {
            "gpu_us": gpu_us(lambda: xp.matrix_transpose(x) @ x), "alloc": alloc_info(x)}
        y = xp.asarray(x, copy=True)
        out["products"][f"Xc.T @ copy [{name}]"] = {
            "gpu_us": gpu_us(lambda: xp.matrix_transpose(x) @ y), "alloc": alloc_info(y)}
    out["products"]["X @ C.T"] = {"gpu_us": gpu_us(lambda: X @ xp.matrix_transpose(C))}
    # the one-hot's broadcast compare (1M x 1 against 1 x 32) by dtype, against a same-shape one
    lab = xp.reshape(labels, (-1, 1))
    full = xp.broadcast_to(lab, (lab.shape[0], k)) + 0
    bools = lab == ids
    fullf = xp.astype(full, xp.float32) * 0.5
    for name, fn in {"== bcast int64": lambda: lab == ids,
                     "== bcast int32": lambda: xp.astype(lab, xp.int32) == xp.astype(ids, xp.int32),
                     "== bcast float32": lambda: xp.astype(lab, xp.float32) == xp.astype(ids, xp.float32),
                     "== same-shape int64": lambda: full == full,
                     "astype bool->float32": lambda: xp.astype(bools, xp.float32),
                     "argmin axis 1 float32": lambda: xp.argmin(fullf, axis=1)}.items():
        out["products"][name] = {"gpu_us": gpu_us(fn)}
    Ct = xp.asarray(np.ascontiguousarray(np.asarray(C).T))
    out["products"]["X @ Ct (contiguous)"] = {"gpu_us": gpu_us(lambda: X @ Ct)}
    del km, pc, X, C, onehot, Xc, PX, full, fullf, bools
    data = {k_: xp.asarray(v) for k_, v in make_data("mlp_step", sizes, rng).items()}
    mlp_step(xp, data)
    xp.synchronize()
    for rnd in range(2):
        for mode in ("sync", "batched"):
            def calls(n=10):
                rs = []
                for _ in range(n):
                    rs.append(mlp_step(xp, data))
                    if mode == "sync":
                        xp.synchronize()
                return rs
            out["mlp"][f"{mode}{rnd}"] = stats_delta(calls)
    emit(out, args.out)
    import sys
    for k_, v in out["products"].items():
        print(f"{k_:36s} {v['gpu_us']:9.1f} us  {v.get('alloc', '')}", file=sys.stderr)
    for k_, v in out["mlp"].items():
        print(k_, {a: (round(b, 6) if isinstance(b, float) else b) for a, b in v.items()}, file=sys.stderr)


if __name__ == "__main__":
    main()
