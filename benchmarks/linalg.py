"""Linalg factorization workloads (the native-linalg brief, issue 9) against CuPy and torch on the
same GPU, each timed with a synchronize after every call (median of repeats), as
benchmarks/dataops.py. Each row of ours says whether it ran natively or through a host
fallback. Matrices are well conditioned (diagonally dominant; cholesky's symmetric positive
definite). Not a test; prints JSON.

    python benchmarks/linalg.py [--out results.json] [--quick] [--only name,name] [--n 1024]
"""
import numpy as np

import array_api_vulkan as xp

from _common import lib_namespace, parser, run_libs, run_table


def host_inputs(n, batch):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)) / np.sqrt(n) + 2 * np.eye(n)
    s = a @ a.T + np.eye(n)
    b = rng.standard_normal((n, 16))
    small = rng.standard_normal((batch, 32, 32)) / np.sqrt(32) + 2 * np.eye(32)
    return a, s, b, small


def small_inputs(batch):
    """Stacks of small systems: batch right-hand sides of 32 x 4, and 1000 matrices of 64^2."""
    rng = np.random.default_rng(3)
    rhs = rng.standard_normal((batch, 32, 4))
    m64 = rng.standard_normal((1000, 64, 64)) / 8 + 2 * np.eye(64)
    return rhs, m64


def sym_inputs():
    """eigh's inputs: a 64 x 64 covariance (the PCA workload's size) and 1000 symmetric 32 x 32."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2000, 64))
    cov = np.cov(x, rowvar=False)
    g = rng.standard_normal((1000, 32, 32))
    return cov, g + np.swapaxes(g, -1, -2)


def workloads(m, to_dev, n, batch):
    """name -> (setup() -> args, fn(*args), flops or None); m: the namespace (ours, cupy, torch)."""
    a, s, b, small = host_inputs(n, batch)
    rhs, m64 = small_inputs(batch)
    cov, syms = sym_inputs()
    tall = np.random.default_rng(2).standard_normal((4096, 64))
    la = m.linalg
    f64 = "float64"

    def dev(x, dt=f64):
        return to_dev(x, dt)

    def qr(x):
        return la.qr(x)

    w = {
        f"cholesky_f64_{n}": (lambda: (dev(s),), lambda x: la.cholesky(x), n ** 3 / 3),
        f"solve_f64_{n}_16rhs": (lambda: (dev(a), dev(b)), lambda x, y: la.solve(x, y),
                                 2 * n ** 3 / 3 + 2 * n * n * 16),
        f"qr_f64_{n}": (lambda: (dev(a),), qr, 4 * n ** 3 / 3),
        f"inv_f64_{n}": (lambda: (dev(a),), lambda x: la.inv(x), 2 * n ** 3),
        f"det_f64_{n}": (lambda: (dev(a),), lambda x: la.det(x), 2 * n ** 3 / 3),
        f"cholesky_f32_{n}": (lambda: (dev(s, "float32"),), lambda x: la.cholesky(x), n ** 3 / 3),
        f"solve_f32_{n}_16rhs": (lambda: (dev(a, "float32"), dev(b, "float32")),
                                 lambda x, y: la.solve(x, y), 2 * n ** 3 / 3 + 2 * n * n * 16),
        f"batched_inv_f32_{batch}x32": (lambda: (dev(small, "float32"),), lambda x: la.inv(x),
                                        batch * 2 * 32 ** 3),
        f"batched_det_f32_{batch}x32": (lambda: (dev(small, "float32"),), lambda x: la.det(x),
                                        batch * 2 * 32 ** 3 / 3),
        f"batched_inv_f64_{batch}x32": (lambda: (dev(small),), lambda x: la.inv(x),
                                        batch * 2 * 32 ** 3),
        f"batched_solve_f32_{batch}x32_4rhs": (lambda: (dev(small, "float32"), dev(rhs, "float32")),
                                               lambda x, y: la.solve(x, y),
                                               batch * (2 * 32 ** 3 / 3 + 2 * 32 * 32 * 4)),
        "batched_inv_f32_1000x64": (lambda: (dev(m64, "float32"),), lambda x: la.inv(x),
                                    1000 * 2 * 64 ** 3),
        "batched_det_f64_1000x64": (lambda: (dev(m64),), lambda x: la.det(x), 1000 * 2 * 64 ** 3 / 3),
        f"batched_cholesky_f32_{batch}x32": (
            lambda: (dev(small @ np.swapaxes(small, -1, -2) + np.eye(32), "float32"),),
            lambda x: la.cholesky(x), batch * 32 ** 3 / 3),
        # eigh: ours is a cyclic Jacobi (one workgroup a matrix); flops vary with the sweeps
        "eigh_f32_64": (lambda: (dev(cov, "float32"),), lambda x: la.eigh(x), None),
        "eigh_f64_64": (lambda: (dev(cov),), lambda x: la.eigh(x), None),
        "eigvalsh_f64_64": (lambda: (dev(cov),), lambda x: la.eigvalsh(x), None),
        "batched_eigh_f32_1000x32": (lambda: (dev(syms, "float32"),), lambda x: la.eigh(x), None),
        "batched_eigh_f64_1000x32": (lambda: (dev(syms),), lambda x: la.eigh(x), None),
        # svd: ours a one-sided Jacobi (one workgroup a matrix) after a QR where tall
        "svd_f64_256": (lambda: (dev(a[:256, :256]),), lambda x: la.svd(x), None),
        "svdvals_f32_256": (lambda: (dev(a[:256, :256], "float32"),), lambda x: la.svdvals(x), None),
        "svd_f64_4096x64": (lambda: (dev(tall),), lambda x: la.svd(x, full_matrices=False), None),
        "pinv_f64_4096x64": (lambda: (dev(tall),), lambda x: la.pinv(x), None),
        "batched_svd_f32_1000x32": (lambda: (dev(syms, "float32"),), lambda x: la.svd(x), None),
    }
    return w


def to_ours(x, dt):
    return xp.asarray(np.ascontiguousarray(x, dtype=dt))


def ours_workloads(quick=False):
    """workloads() on this package (the diagnostic scripts' --linalg tables): order 1024 and
    stacks of 4096, or 256 and 64 where quick."""
    return workloads(xp, to_ours, 256 if quick else 1024, 64 if quick else 4096)


def run_lib(name, res, only, repeats, n, batch):
    m, sync = lib_namespace(name)
    if name == "ours":
        to_dev = to_ours
    elif name == "cupy":
        def to_dev(x, dt):
            return m.asarray(np.ascontiguousarray(x, dtype=dt))
    else:
        def to_dev(x, dt):
            return m.as_tensor(np.ascontiguousarray(x, dtype=dt), device="cuda")
    run_table(name, workloads(m, to_dev, n, batch), sync, res, only, repeats,
              rate=("GFLOPs", 1e9, 2))


def main():
    ap = parser(__doc__)
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=4096)
    args = ap.parse_args()
    run_libs(args, run_lib, args.n, args.batch)


if __name__ == "__main__":
    main()
