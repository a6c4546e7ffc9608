#!/usr/bin/env bash
# Builds Kompute's C++ library from the kp 0.9.0 sdist and installs its headers and static
# libraries into PYTHON's environment (<sys.prefix>/opt/kompute), where setup.py finds them to
# build the project's own extension (array_api_vulkan/_runtime/_vkcore.cpp).
#   scripts/build_kompute.sh PYTHON [SDIST]
# We bind Kompute's C++ API ourselves instead of using kp's Python bindings (see docs/kompute.md).
# The library is built as released, minus logging, with the small patches in
# scripts/kompute-patches/ (each says why at its top) applied in name order.
set -euo pipefail
PYTHON=${1:?usage: build_kompute.sh PYTHON [SDIST]}
SDIST=${2:-}
KP_VERSION=0.9.0
here=$(cd "$(dirname "$0")" && pwd)
# A third argument, PREFIX, installs there instead (setup.py builds into its build tree so):
#   scripts/build_kompute.sh PYTHON [SDIST [PREFIX]]     (an empty SDIST means download it)
prefix=${3:-$("$PYTHON" -c 'import sys; print(sys.prefix)')/opt/kompute}
# The prefix is replaced wholesale, so a given one must be empty or an earlier Kompute build.
[ -z "${3:-}" ] || [ ! -e "$prefix" ] || [ -f "$prefix/BUILD_STAMP" ] || [ -z "$(ls -A "$prefix")" ] \
  || { echo "kompute: $prefix is neither empty nor a Kompute build: not replacing it"; exit 1; }
# The stamp names the script and the patches, so a change of build recipe rebuilds.
want="kp-$KP_VERSION $(cat "$0" "$here"/kompute-patches/*.patch | sha256sum | cut -c1-16)"
if [ -f "$prefix/BUILD_STAMP" ] && [ "$(cat "$prefix/BUILD_STAMP")" = "$want" ]; then
  echo "kompute: already built in $prefix"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$SDIST" ]; then
  "$PYTHON" -m pip download -q --no-deps --no-binary :all: -d "$work" "kp==$KP_VERSION"
  SDIST=$(ls "$work"/kp-*.tar.gz)
fi
tar -xzf "$SDIST" -C "$work"
src="$work/kp-$KP_VERSION"
for p in "$here"/kompute-patches/*.patch; do
  patch -d "$src" -p1 --quiet < "$p" || { echo "kompute: patch $p does not apply"; exit 1; }
done

# Offline build: system Vulkan headers and fmt, no Python bindings, logging compiled out
# (Kompute's logger would otherwise print from inside the library), debug layers left to the
# loader (VK_INSTANCE_LAYERS) rather than forced by Kompute.
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DBUILD_SHARED_LIBS=OFF \
  -DKOMPUTE_OPT_INSTALL=OFF -DKOMPUTE_OPT_BUILD_PYTHON=OFF \
  -DKOMPUTE_OPT_USE_BUILT_IN_VULKAN_HEADER=OFF -DKOMPUTE_OPT_USE_BUILT_IN_FMT=OFF \
  -DKOMPUTE_OPT_DISABLE_VK_DEBUG_LAYERS=ON -DKOMPUTE_OPT_DISABLE_VULKAN_VERSION_CHECK=ON \
  -DKOMPUTE_OPT_LOG_LEVEL=Off -DCMAKE_CXX_FLAGS="-Wno-error" > "$work/cmake.log" 2>&1 \
  || { tail -40 "$work/cmake.log"; exit 1; }
cmake --build "$work/build" -j "$jobs" --target kompute > "$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log"; exit 1; }

rm -rf "$prefix"
mkdir -p "$prefix/lib" "$prefix/include"
cp -r "$src/src/include/." "$prefix/include/"
find "$work/build" -name '*.a' -exec cp {} "$prefix/lib/" \;
cp "$src/LICENSE" "$prefix/LICENSE"
echo "$want" > "$prefix/BUILD_STAMP"
echo "kompute: built into $prefix ($(ls "$prefix/lib" | tr '\n' ' '))"
