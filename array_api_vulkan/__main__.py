"""`python -m array_api_vulkan`: the Vulkan devices, what they can do, and one computation
with where its time went."""
import time


def _ms(seconds):
    return f"{seconds * 1e3:8.2f} ms"


def main():
    import array_api_vulkan as xp
    from array_api_vulkan import _runtime as rt

    info = xp.__array_namespace_info__()
    t0 = time.perf_counter()
    devices = info.devices()
    t_enum = time.perf_counter() - t0
    print(f"array_api_vulkan, Array API {xp.__array_api_version__}\n")
    print("Vulkan devices (best first):")
    for d in devices:
        v = d.info["api_version"]
        print(f"  {d!r:10} {d.name}  [{d.kind}, Vulkan {v[0]}.{v[1]}.{v[2]}, "
              f"{d.limits['device_local_bytes'] / 2**30:.1f} GiB device-local]")
        caps = ", ".join(k for k in ("float64", "int64", "int16", "int8", "storage8", "storage16") if d.info[k])
        off = d.info.get("disabled_features")
        print(f"             features: {caps}"
              + (f"  (masked by ARRAY_API_VULKAN_DISABLE_FEATURES: {', '.join(off)})" if off else ""))
        print(f"             maxStorageBufferRange {d.limits['max_storage_buffer_range'] >> 20} MiB, "
              f"push constants {d.limits['max_push_constants_size']} B")
        print(f"             dtypes: {', '.join(info.dtypes(device=d))}")
        defaults = info.default_dtypes(device=d)
        print(f"             default dtypes: " + ", ".join(f"{k}={v}" for k, v in defaults.items()))
    t0 = time.perf_counter()
    dev = info.default_device()
    xp.zeros(1, device=dev)
    t_init = time.perf_counter() - t0
    print(f"\ndefault device: {dev}\n")

    timings = []
    xp.reset_runtime_stats()
    t0 = time.perf_counter()
    x = xp.linspace(0.0, 1.0, 1 << 20, dtype=xp.float32, device=dev)
    y = xp.ones_like(x)
    timings.append(("create x = linspace(0, 1, 2**20), y = ones_like(x)", time.perf_counter() - t0))
    t0 = time.perf_counter()
    z = (x * 2.0 + y) / 3.0 - x
    timings.append(("record z = (x * 2 + y) / 3 - x (lazy)", time.perf_counter() - t0))
    first = xp.runtime_stats()
    t0 = time.perf_counter()
    xp.synchronize()
    timings.append(("submit and wait", time.perf_counter() - t0))
    t0 = time.perf_counter()
    head = z[:4]
    total = float(xp.sum(z))
    timings.append(("read back z[:4] and sum(z)", time.perf_counter() - t0))
    t0 = time.perf_counter()
    for _ in range(20):
        z = (x * 2.0 + y) / 3.0 - x
    xp.synchronize()
    timings.append(("the same expression 20 more times (pipelines cached)", time.perf_counter() - t0))
    stats = xp.runtime_stats()

    print("computation: z = (x * 2 + y) / 3 - x over 2**20 float32 values")
    print(f"  z[:4]  = {head}")
    # z = (1 - x) / 3 and x is uniform on [0, 1], so the sum is n / 6.
    print(f"  sum(z) = {total:.6f}  (exact: {(1 << 20) / 6:.6f})\n")
    print("where the time went:")
    print(f"  {'enumerate Vulkan devices':55} {_ms(t_enum)}")
    print(f"  {'create the Vulkan device and the Kompute manager':55} {_ms(t_init)}")
    for what, t in timings:
        print(f"  {what:55} {_ms(t)}")
    print(f"\n  first expression: {first['dispatches']} dispatches, {first['pipelines_created']} pipelines created, "
          f"{first['barriers']} barriers")
    print(f"  in all: {stats['submits']} submits, {stats['dispatches']} dispatches, {stats['barriers']} barriers, "
          f"{stats['pipelines_created']} pipelines, {stats['bytes_uploaded']} B up, "
          f"{stats['bytes_downloaded']} B down")
    print(f"  memory pool: {stats['pool_bytes_in_use'] >> 10} KiB in use of {stats['pool_bytes_reserved'] >> 10} KiB reserved")
    fallbacks = stats["host_fallbacks"]
    print(f"  host fallbacks: {fallbacks if fallbacks else 'none'}")
    rt.synchronize()


if __name__ == "__main__":
    main()
