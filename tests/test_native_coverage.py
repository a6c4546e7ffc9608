"""Every function of the standard outside the elementwise ones (which test_elementwise_native.py
sweeps) runs on the device for a float32 input, with no host fallback: a namespace-wide net under
the per-family sweeps (issue 8's diff was a host fallback that no family's sweep called). The
exceptions are the functions issue 9 lets stay on the host (eig and eigvals: the svd class is
native up to order 256, on CPU devices up to lavapipe's loop limit), which must count their
fallback."""
import numpy as np
import pytest

import array_api_vulkan as xp
from conftest import computes_natively

F = xp.float32
HOST_ALLOWED = {"eig", "eigvals"}


def arr(shape, seed=0, dtype=np.float32):
    return xp.asarray(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


def spd(n):
    a = np.random.default_rng(5).standard_normal((n, n)).astype(np.float32)
    return xp.asarray(a @ a.T + n * np.eye(n, dtype=np.float32))


def _setitem(x, key, v):
    y = xp.asarray(x, copy=True)
    y[key] = v
    return y


M = arr((6, 5))
S = arr((5, 5), 1)
V = arr((40,), 2)
C = xp.astype(arr((16,), 3), xp.complex64)
IDX = xp.asarray([0, 3, 1, 4], dtype=xp.__array_namespace_info__().default_dtypes()["indexing"])

CALLS = {
    # creation
    "arange": lambda: xp.arange(0, 10, 0.5, dtype=F),
    "asarray_copy": lambda: xp.asarray(M.mT, copy=True),
    "empty": lambda: xp.empty((3, 4), dtype=F), "empty_like": lambda: xp.empty_like(M),
    "eye": lambda: xp.eye(5, 6, k=1, dtype=F), "full": lambda: xp.full((3, 4), 2.5, dtype=F),
    "full_like": lambda: xp.full_like(M, 1.5), "linspace": lambda: xp.linspace(0, 1, 7, dtype=F),
    "meshgrid": lambda: xp.meshgrid(V[:4], V[:3]), "ones": lambda: xp.ones((3,), dtype=F),
    "ones_like": lambda: xp.ones_like(M), "tril": lambda: xp.tril(M, k=-1),
    "triu": lambda: xp.triu(M, k=1), "zeros": lambda: xp.zeros((2, 3), dtype=F),
    "zeros_like": lambda: xp.zeros_like(M),
    # data type functions
    "astype": lambda: xp.astype(M, xp.int32), "broadcast_arrays": lambda: xp.broadcast_arrays(M, V[:5]),
    "broadcast_to": lambda: xp.broadcast_to(V[:5], (3, 5)),
    # indexing
    "take": lambda: xp.take(M, IDX, axis=0),
    "take_along_axis": lambda: xp.take_along_axis(M, xp.argsort(M, axis=1), axis=1),
    "getitem_int": lambda: M[IDX], "getitem_mask": lambda: M[M > 0],
    "getitem_mixed": lambda: M[1:, IDX], "setitem_int": lambda: _setitem(M, IDX, 0.0),
    "setitem_mask": lambda: _setitem(M, M > 0, 1.0), "setitem_slice": lambda: _setitem(M, (slice(1, 3), 2), M[0, 0]),
    # manipulation
    "concat": lambda: xp.concat([M, M], axis=1), "expand_dims": lambda: xp.expand_dims(M, axis=1),
    "flip": lambda: xp.flip(M, axis=0), "moveaxis": lambda: xp.moveaxis(M, 0, 1),
    "permute_dims": lambda: xp.permute_dims(M, (1, 0)), "repeat": lambda: xp.repeat(M, 2, axis=1),
    "repeat_counts": lambda: xp.repeat(V[:4], xp.asarray([1, 0, 2, 3], dtype=IDX.dtype)),
    "reshape": lambda: xp.reshape(M.mT, (30,)), "roll": lambda: xp.roll(M, (1, 2), axis=(0, 1)),
    "squeeze": lambda: xp.squeeze(M[:1], axis=0), "stack": lambda: xp.stack([M, M], axis=1),
    "tile": lambda: xp.tile(M, (2, 1)), "unstack": lambda: xp.unstack(M, axis=1),
    # searching
    "argmax": lambda: xp.argmax(M, axis=1), "argmin": lambda: xp.argmin(M),
    "count_nonzero": lambda: xp.count_nonzero(M > 0, axis=0), "nonzero": lambda: xp.nonzero(M > 0),
    "searchsorted": lambda: xp.searchsorted(xp.sort(V), M, side="right"),
    "where": lambda: xp.where(M > 0, M, 0.0),
    # sets and sorting
    "unique_all": lambda: xp.unique_all(V), "unique_counts": lambda: xp.unique_counts(V),
    "unique_inverse": lambda: xp.unique_inverse(M), "unique_values": lambda: xp.unique_values(M),
    "argsort": lambda: xp.argsort(M, axis=0, descending=True), "sort": lambda: xp.sort(M, axis=1),
    "isin": lambda: xp.isin(M, V[::3]), "isin_sorted": lambda: xp.isin(V, xp.concat([V] * 3000)),
    # statistics and utilities
    "cumulative_prod": lambda: xp.cumulative_prod(M, axis=1, include_initial=True),
    "cumulative_sum": lambda: xp.cumulative_sum(V), "max": lambda: xp.max(M, axis=0),
    "mean": lambda: xp.mean(M, axis=(0, 1)), "min": lambda: xp.min(M, keepdims=True),
    "prod": lambda: xp.prod(M, axis=1), "std": lambda: xp.std(M, correction=1),
    "sum": lambda: xp.sum(M, axis=0, dtype=xp.float32), "var": lambda: xp.var(M, axis=1),
    "all": lambda: xp.all(M > 0, axis=1), "any": lambda: xp.any(M > 0),
    "diff": lambda: xp.diff(M, axis=0, n=2, append=M[:1]),
    # linear algebra
    "matmul": lambda: M @ S, "matrix_transpose": lambda: xp.matrix_transpose(M),
    "tensordot": lambda: xp.tensordot(M, S, axes=1), "vecdot": lambda: xp.vecdot(M, M, axis=0),
    "cholesky": lambda: xp.linalg.cholesky(spd(5), upper=True), "cross": lambda: xp.linalg.cross(M[:, :3], M[:, 2:]),
    "det": lambda: xp.linalg.det(S), "diagonal": lambda: xp.linalg.diagonal(M, offset=1),
    "inv": lambda: xp.linalg.inv(spd(5)), "matrix_norm": lambda: xp.linalg.matrix_norm(M, ord="fro"),
    "matrix_norm_inf": lambda: xp.linalg.matrix_norm(M, ord=xp.inf),
    "matrix_norm_1": lambda: xp.linalg.matrix_norm(M, ord=1),
    "matrix_norm_2": lambda: xp.linalg.matrix_norm(M, ord=2),
    "matrix_norm_nuc": lambda: xp.linalg.matrix_norm(M, ord="nuc"),
    "matrix_power": lambda: xp.linalg.matrix_power(S, 3), "matrix_power_neg": lambda: xp.linalg.matrix_power(spd(5), -2),
    "outer": lambda: xp.linalg.outer(V[:4], V[:3]), "qr": lambda: xp.linalg.qr(M, mode="complete"),
    "slogdet": lambda: xp.linalg.slogdet(S), "solve": lambda: xp.linalg.solve(spd(5), M[:5]),
    "trace": lambda: xp.linalg.trace(S, offset=-1), "vector_norm": lambda: xp.linalg.vector_norm(M, ord=3, axis=1),
    "eigh": lambda: xp.linalg.eigh(spd(5)), "eigvalsh": lambda: xp.linalg.eigvalsh(spd(5)),
    "eig": lambda: xp.linalg.eig(S), "eigvals": lambda: xp.linalg.eigvals(S),
    "svd": lambda: xp.linalg.svd(M), "svdvals": lambda: xp.linalg.svdvals(M),
    "matrix_rank": lambda: xp.linalg.matrix_rank(M), "pinv": lambda: xp.linalg.pinv(M),
    # fft
    "fft": lambda: xp.fft.fft(C), "ifft": lambda: xp.fft.ifft(C, n=20), "fftn": lambda: xp.fft.fftn(xp.reshape(C, (4, 4))),
    "ifftn": lambda: xp.fft.ifftn(xp.reshape(C, (4, 4)), norm="ortho"), "rfft": lambda: xp.fft.rfft(V),
    "irfft": lambda: xp.fft.irfft(C), "rfftn": lambda: xp.fft.rfftn(M), "irfftn": lambda: xp.fft.irfftn(xp.reshape(C, (4, 4))),
    "hfft": lambda: xp.fft.hfft(C), "ihfft": lambda: xp.fft.ihfft(V),
    "fftfreq": lambda: xp.fft.fftfreq(9, d=0.5, dtype=F), "rfftfreq": lambda: xp.fft.rfftfreq(9, dtype=F),
    "fftshift": lambda: xp.fft.fftshift(M), "ifftshift": lambda: xp.fft.ifftshift(M, axes=1),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_runs_on_the_device(name):
    if not computes_natively(xp.float32, IDX.dtype, xp.bool, xp.complex64):
        pytest.skip("a capability profile without the dtypes these calls take")
    xp.reset_runtime_stats()
    CALLS[name]()
    xp.synchronize()
    fb = xp.runtime_stats()["host_fallbacks"]
    if name in HOST_ALLOWED:
        assert fb, f"{name} is documented as a host fallback but none was counted"
    else:
        assert fb == {}, f"{name} fell back to the host: {fb}"


# Functions that read no array data on the device (dtype and shape rules, the runtime's own
# controls), clip (an elementwise family, swept with them) and from_dlpack (an import).
NO_DATA = {"broadcast_shapes", "can_cast", "finfo", "iinfo", "isdtype", "result_type",
           "runtime_stats", "reset_runtime_stats", "set_gpu_timing", "set_strict", "synchronize", "warmup",
           "clip", "from_dlpack"}


def test_every_function_has_a_call():
    """Every function of the namespace, linalg and fft that is not elementwise has a call above
    (its name, or its name and a suffix), so a new one cannot be missed."""
    from array_api_vulkan import _elementwise_functions as ew

    missing = [n for mod in (xp, xp.linalg, xp.fft) for n in mod.__all__
               if callable(getattr(mod, n)) and not isinstance(getattr(mod, n), (type, ew.ElementwiseOp))
               and n not in NO_DATA and not any(k == n or k.startswith(n + "_") for k in CALLS)]
    assert missing == []


def test_strict_mode_raises_instead_of_falling_back():
    """set_strict(True): a host fallback raises HostFallbackError before any data moves (nothing
    counted), native calls run as before; ARRAY_API_VULKAN_STRICT=1 turns it on at import."""
    import subprocess
    import sys

    if not computes_natively(xp.float32, IDX.dtype, xp.bool, xp.complex64):
        pytest.skip("a capability profile without the dtypes these calls take")
    xp.reset_runtime_stats()
    assert xp.set_strict(True) is False
    try:
        with pytest.raises(xp.HostFallbackError, match=r"eig\(\) would run through numpy"):
            CALLS["eig"]()
        for name in ("sum", "sort", "isin", "qr", "fft", "svd"):
            CALLS[name]()
    finally:
        assert xp.set_strict(False) is True
    assert xp.runtime_stats()["host_fallbacks"] == {}
    CALLS["eig"]()
    assert xp.runtime_stats()["host_fallbacks"] == {"eig": 1}
    code = ("import array_api_vulkan as xp\n"
            "try:\n    xp.linalg.eig(xp.ones((2, 2)))\nexcept xp.HostFallbackError:\n    print('raised')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "ARRAY_API_VULKAN_STRICT": "1"})
    assert out.stdout.strip() == "raised", out.stderr[-2000:]
