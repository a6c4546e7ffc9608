"""Whether an op's time depends on where its operands came from: the same product timed on an
array computed on the device and on uploaded copies of it (diag_steps.py saw k-means'
onehot.T @ X and PCA's Xc.T @ Xc 4x slower than tune_matmul.py's uploaded operands), and the
one-hot's broadcast compare by dtype. (Batched against synchronised: diag_batched.py.) Prints
JSON and a table (stderr).

    python3 benchmarks/diag_origin.py [--quick]
"""
import sys

import numpy as np

from _common import emit, ours_gpu, parser, use_checkout

use_checkout()
import array_api_vulkan as xp  # noqa: E402
from workloads import FULL, QUICK, make_data  # noqa: E402


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


def main():
    args = parser(__doc__, only=False, libs=None).parse_args()
    sizes = QUICK if args.quick else FULL
    rng = np.random.default_rng(0)
    out = {"products": {}}
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
    emit(out, args.out)
    for k_, v in out["products"].items():
        print(f"{k_:36s} {v['gpu_us']:9.1f} us  {v.get('alloc', '')}", file=sys.stderr)


if __name__ == "__main__":
    main()
