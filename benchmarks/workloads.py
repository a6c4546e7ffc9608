"""End-to-end workloads written once against the Python Array API: plain functions of
(xp, data) that run unchanged on array_api_vulkan, numpy, CuPy, torch and JAX (the last three
through array-api-compat or jax.numpy). benchmarks/suite.py times them; they double as examples
of array-API code. `make_data(kind, sizes, rng)` builds each one's inputs as numpy arrays; the
suite moves them to each library's device first.

    import array_api_vulkan as xp
    from benchmarks.workloads import make_data, kmeans
    data = {k: xp.asarray(v) for k, v in make_data("kmeans", SMALL, rng).items()}
    centroids, labels = kmeans(xp, data)
"""
import numpy as np

#: Sizes on a GPU (the issue's) and for the --quick smoke test on lavapipe.
FULL = dict(lr_n=1 << 20, lr_d=64, lr_steps=20, km_n=1 << 20, km_d=16, km_k=32, km_iters=10,
            pca_n=1 << 20, pca_d=64, mlp_batch=4096, mlp_in=1024, mlp_hidden=1024, mlp_out=10)
QUICK = dict(lr_n=2048, lr_d=16, lr_steps=20, km_n=2048, km_d=8, km_k=4, km_iters=10,
             pca_n=2048, pca_d=16, mlp_batch=64, mlp_in=32, mlp_hidden=32, mlp_out=10)


def logistic_regression(xp, data, steps=20, lr=0.5):
    """`steps` full-batch gradient steps of logistic regression on X (n, d) float32 and labels y
    (n,) in {0, 1}; returns the weights (d,) and the bias."""
    X, y = data["X"], data["y"]
    n, d = X.shape
    w = xp.zeros(d, dtype=X.dtype, device=X.device)
    b = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + xp.exp(-(X @ w + b)))
        r = p - y
        w = w - (lr / n) * (r @ X)
        b = b - (lr / n) * xp.sum(r)
    return w, b


def kmeans(xp, data, iters=10):
    """Lloyd's k-means on X (n, d) from the initial centroids C (k, d): `iters` rounds of assigning
    each point to its nearest centroid (squared distances through one matmul) and moving each
    centroid to the mean of its points (a one-hot matmul). Returns the centroids and labels."""
    X, C = data["X"], data["C"]
    k = C.shape[0]
    x2 = xp.sum(X * X, axis=1, keepdims=True)
    ids = xp.reshape(xp.arange(k, device=X.device), (1, k))
    labels = None
    for _ in range(iters):
        d2 = x2 - 2.0 * (X @ xp.matrix_transpose(C)) + xp.reshape(xp.sum(C * C, axis=1), (1, k))
        labels = xp.argmin(d2, axis=1)
        onehot = xp.astype(xp.reshape(labels, (-1, 1)) == ids, X.dtype)
        counts = xp.sum(onehot, axis=0)
        sums = xp.matrix_transpose(onehot) @ X
        C = sums / xp.reshape(xp.maximum(counts, 1.0), (k, 1))
    return C, labels


def pca(xp, data, components=8):
    """Principal components of X (n, d) through linalg.eigh of its covariance matrix: returns the
    eigenvalues in descending order and the top `components` directions as columns (d, c)."""
    X = data["X"]
    n = X.shape[0]
    Xc = X - xp.mean(X, axis=0, keepdims=True)
    cov = (xp.matrix_transpose(Xc) @ Xc) / (n - 1)
    evals, evecs = xp.linalg.eigh(cov)
    evals = xp.flip(evals)
    evecs = xp.flip(evecs, axis=1)
    return evals, evecs[:, :components]


def mlp_step(xp, data, lr=0.1):
    """One hand-written training step of a 2-layer perceptron (relu hidden layer, softmax
    cross-entropy on one-hot targets Y): forward, backward and an SGD update. Returns the loss
    before the step and the updated parameters (W1, b1, W2, b2)."""
    X, Y = data["X"], data["Y"]
    W1, b1, W2, b2 = data["W1"], data["b1"], data["W2"], data["b2"]
    batch = X.shape[0]
    h = X @ W1 + b1
    a = xp.maximum(h, 0.0)
    logits = a @ W2 + b2
    z = logits - xp.max(logits, axis=1, keepdims=True)
    e = xp.exp(z)
    s = xp.sum(e, axis=1, keepdims=True)
    p = e / s
    loss = -xp.mean(xp.sum(Y * (z - xp.log(s)), axis=1))
    dlogits = (p - Y) / batch
    dW2 = xp.matrix_transpose(a) @ dlogits
    db2 = xp.sum(dlogits, axis=0)
    da = dlogits @ xp.matrix_transpose(W2)
    dh = da * xp.astype(h > 0.0, da.dtype)
    dW1 = xp.matrix_transpose(X) @ dh
    db1 = xp.sum(dh, axis=0)
    return loss, (W1 - lr * dW1, b1 - lr * db1, W2 - lr * dW2, b2 - lr * db2)


def make_data(kind, sizes, rng):
    """The inputs of workload `kind` as float32 numpy arrays, from numpy Generator rng."""
    f32 = np.float32
    if kind == "logistic_regression":
        n, d = sizes["lr_n"], sizes["lr_d"]
        X = rng.standard_normal((n, d), dtype=f32)
        w_true = rng.standard_normal(d, dtype=f32)
        y = (X @ w_true + 0.5 * rng.standard_normal(n, dtype=f32) > 0).astype(f32)
        return {"X": X, "y": y}
    if kind == "kmeans":
        n, d, k = sizes["km_n"], sizes["km_d"], sizes["km_k"]
        centres = 10.0 * rng.standard_normal((k, d), dtype=f32)
        X = (centres[rng.integers(0, k, n)] + rng.standard_normal((n, d), dtype=f32)).astype(f32)
        # One initial centroid near each true centre: stable assignments, comparable across libraries.
        C = (centres + 0.5 * rng.standard_normal((k, d), dtype=f32)).astype(f32)
        return {"X": X, "C": C}
    if kind == "pca":
        n, d = sizes["pca_n"], sizes["pca_d"]
        scales = np.geomspace(10.0, 0.1, d).astype(f32)  # well-separated variances
        basis = np.linalg.qr(rng.standard_normal((d, d)))[0].astype(f32)
        X = ((rng.standard_normal((n, d), dtype=f32) * scales) @ basis + 3.0).astype(f32)
        return {"X": X}
    if kind == "mlp_step":
        b, i, hd, o = sizes["mlp_batch"], sizes["mlp_in"], sizes["mlp_hidden"], sizes["mlp_out"]
        Y = np.zeros((b, o), dtype=f32)
        Y[np.arange(b), rng.integers(0, o, b)] = 1.0
        return {"X": rng.standard_normal((b, i), dtype=f32), "Y": Y,
                "W1": (rng.standard_normal((i, hd), dtype=f32) / np.sqrt(i)).astype(f32),
                "b1": np.zeros(hd, dtype=f32),
                "W2": (rng.standard_normal((hd, o), dtype=f32) / np.sqrt(hd)).astype(f32),
                "b2": np.zeros(o, dtype=f32)}
    raise ValueError(f"unknown workload {kind!r}")


#: name -> (function, default keyword arguments from sizes)
E2E = {
    "logistic_regression": (logistic_regression, lambda s: {"steps": s["lr_steps"]}),
    "kmeans": (kmeans, lambda s: {"iters": s["km_iters"]}),
    "pca": (pca, lambda s: {}),
    "mlp_step": (mlp_step, lambda s: {}),
}
