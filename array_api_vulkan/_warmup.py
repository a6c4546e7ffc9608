"""warmup(): builds the pipelines of the common ops ahead of time (not part of the standard)."""
from . import _dtypes, _runtime

__all__ = ["warmup"]


def warmup(device=None, dtypes=None):
    """Makes the pipelines of the common elementwise ops, reductions, casts and fills for
    `dtypes` (default: the device's default real floating and integral dtypes, float32 and bool)
    on `device`, by running each once on a tiny array, and saves the device's pipeline cache
    to disk (see docs/design.md). Returns how many pipelines were made."""
    import array_api_vulkan as xp

    dev = _runtime.default_device() if device is None else _runtime.get_device(device)
    if dtypes is None:
        d = _dtypes.defaults(dev)
        dtypes = {d["real floating"], d["integral"], _dtypes.float32}
    before = xp.runtime_stats()["pipelines_created"]
    # The static variants run with fusion off (held ops whose results are dropped are never
    # recorded); then, with fusion on, the common fused chain (x * a + b) per float dtype.
    from ._kernels import _fuse

    fusing = _fuse.set_enabled(False)
    try:
        _static_ops(xp, dev, dtypes)
    finally:
        _fuse.set_enabled(fusing)
    if fusing:
        # at the size from which ops are held (_fuse.min_elements), each chain's operand made
        # first, so that its first op does not come straight after a host wait (recorded at once)
        n = max(1, _fuse.min_elements(dev))
        kept = []
        for dt in dtypes:
            if dt.kind == "f":
                x = xp.ones(n, dtype=dt, device=dev)
                kept.append(x * 2.0 + 1.0)
        dev.synchronize()
        del kept
    dev.synchronize()
    dev.save_pipeline_cache()
    return xp.runtime_stats()["pipelines_created"] - before


def _static_ops(xp, dev, dtypes):
    for dt in dtypes:
        x = xp.ones(4, dtype=dt, device=dev)
        one = 1.0 if dt.kind == "f" else 1
        for f in (xp.add, xp.subtract, xp.multiply, xp.equal, xp.less, xp.greater, xp.maximum,
                  xp.minimum):
            f(x, x)
            f(x, one)
        xp.sum(x)
        xp.max(x)
        xp.mean(xp.astype(x, _dtypes.defaults(dev)["real floating"]))
        xp.astype(x, _dtypes.bool)
        x[0] = one
        if dt.kind == "f":
            xp.divide(x, x)
            xp.divide(x, one)
            for f in (xp.exp, xp.log, xp.sqrt, xp.abs, xp.negative, xp.isnan, xp.square):
                f(x)
        else:
            xp.floor_divide(x, x)
    b = xp.ones(4, dtype=_dtypes.bool, device=dev)
    xp.logical_and(b, b)
    xp.logical_not(b)
    xp.any(b)
    xp.all(b)
    dev.synchronize()
