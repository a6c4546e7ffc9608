"""The end-to-end workloads' steps one by one (benchmarks/workloads.py: one k-means iteration,
one logistic-regression step, the PCA), each synchronised: wall and GPU time per op, ours
against CuPy and torch, to tell which op makes a workload slower than torch. Prints JSON and
a table (stderr).

    python3 benchmarks/diag_steps.py [--quick] [--libs ours,cupy,torch]
"""
import numpy as np

from _common import emit, parser, use_checkout

use_checkout()
from diag_split import gpu_timer, measure, print_table  # noqa: E402
from suite import load  # noqa: E402
from workloads import FULL, QUICK, make_data  # noqa: E402


def steps(xp, put, sizes):
    """[(name, op)] of each workload's steps on its inputs (intermediates made once)."""
    rng = np.random.default_rng(0)
    km = {k: put(v) for k, v in make_data("kmeans", sizes, rng).items()}
    lr = {k: put(v) for k, v in make_data("logistic_regression", sizes, rng).items()}
    pc = {k: put(v) for k, v in make_data("pca", sizes, rng).items()}
    X, C = km["X"], km["C"]
    k = C.shape[0]
    x2 = xp.sum(X * X, axis=1, keepdims=True)
    ids = xp.reshape(xp.arange(k, device=X.device), (1, k))
    mm = X @ xp.matrix_transpose(C)
    csq = xp.reshape(xp.sum(C * C, axis=1), (1, k))
    d2 = x2 - 2.0 * mm + csq
    labels = xp.argmin(d2, axis=1)
    onehot = xp.astype(xp.reshape(labels, (-1, 1)) == ids, X.dtype)
    LX, y = lr["X"], lr["y"]
    w = xp.ones(LX.shape[1], dtype=LX.dtype, device=LX.device) * 0.01
    p = 1.0 / (1.0 + xp.exp(-(LX @ w + 0.5)))
    r = p - y
    PX = pc["X"]
    Xc = PX - xp.mean(PX, axis=0, keepdims=True)
    cov = (xp.matrix_transpose(Xc) @ Xc) / (PX.shape[0] - 1)
    return [
        ("km X@C.T (1M x16 @ 16x32)", lambda: X @ xp.matrix_transpose(C)),
        ("km d2 = x2 - 2mm + csq", lambda: x2 - 2.0 * mm + csq),
        ("km argmin axis 1 (1M x 32)", lambda: xp.argmin(d2, axis=1)),
        ("km onehot", lambda: xp.astype(xp.reshape(labels, (-1, 1)) == ids, X.dtype)),
        ("km sum onehot axis 0", lambda: xp.sum(onehot, axis=0)),
        ("km onehot.T @ X (32x1M @ 1Mx16)", lambda: xp.matrix_transpose(onehot) @ X),
        ("lr X@w (1M x64 @ 64)", lambda: LX @ w),
        ("lr sigmoid", lambda: 1.0 / (1.0 + xp.exp(-(r + 0.5)))),
        ("lr r@X (1M @ 1Mx64)", lambda: r @ LX),
        ("lr sum r", lambda: xp.sum(r)),
        ("pca mean axis 0 (1M x64)", lambda: xp.mean(PX, axis=0, keepdims=True)),
        ("pca Xc.T@Xc (64x1M @ 1Mx64)", lambda: xp.matrix_transpose(Xc) @ Xc),
        ("pca eigh 64", lambda: xp.linalg.eigh(cov)),
    ]


def main():
    args = parser(__doc__, only=False, libs="ours,cupy,torch").parse_args()
    sizes = QUICK if args.quick else FULL
    reps = 5 if args.quick else 15
    out = {"libs": {}}
    for name in args.libs.split(","):
        try:
            lib = load(name)
            gpu = gpu_timer(name, lib.sync)
        except Exception as e:  # a library missing here
            out["libs"][name] = {"error": repr(e)}
            continue
        rows = {}
        for sname, op in steps(lib.xp, lib.put, sizes):
            try:
                rows[sname] = measure(op, lib.sync, gpu, reps)
            except Exception as e:
                rows[sname] = {"error": repr(e)[:200]}
        out["libs"][name] = rows
        lib.release()
    emit(out, args.out)
    print_table(out["libs"], "step: per library wall / gpu (us)", ("wall_us", "gpu_us"), 34)

if __name__ == "__main__":
    main()
