"""GPU-assisted validation of the tests, with each report checked against our buffers.

The Khronos layer's GPU-assisted validation (1.3.239) reports some in-bounds device-address
accesses as out of bounds (docs/design.md), so each reported address is tested against every
buffer the pools made (they are never destroyed): an address outside all of them is a real
out-of-bounds access. Run: bash scripts/gpuav.sh [pytest arguments]. As a pytest plugin (-p
gpuav_check) this module writes the pools' buffers at the end of the session; as a script it
checks the layer's log against them and exits 1 where an address lies outside every buffer.
"""
import os
import re
import sys

ARENAS = os.environ.get("GPUAV_ARENAS", "/tmp/avk-gpuav-arenas.txt")
LOG = os.environ.get("GPUAV_LOG", "/tmp/avk-gpuav.log")


def pytest_sessionfinish(session, exitstatus):
    from array_api_vulkan import _runtime as rt

    with open(ARENAS, "w") as f:
        for dev in rt._devices or ():
            if dev._core is None:
                continue
            for name in ("pool", "staging", "staging_wc"):
                for a in getattr(dev, name).arenas:
                    f.write(f"{name} {a.buffer.address} {a.size}\n")


def main():
    log = open(LOG).read() if os.path.exists(LOG) else ""
    addrs = [int(a, 16) for a in re.findall(r"Device address (0x[0-9a-f]+)", log)]
    arenas = [(n, int(b), int(s)) for n, b, s in (line.split() for line in open(ARENAS))]
    outside = [a for a in addrs if not any(b <= a < b + s for _, b, s in arenas)]
    print(f"{len(addrs)} out-of-bounds reports; {len(addrs) - len(outside)} inside one of "
          f"{len(arenas)} buffers (the layer's); {len(outside)} outside every buffer")
    for a in outside:
        print(f"  outside: {a:#x}")
    return 1 if outside else 0


if __name__ == "__main__":
    sys.exit(main())
