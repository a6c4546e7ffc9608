#!/usr/bin/env bash
# The tests (pytest arguments) under the Khronos layer's GPU-assisted validation, every
# allocation in a buffer of its own, then each reported address checked against the pools'
# buffers (scripts/gpuav_check.py). Slow: about 20x. Example:
#   bash scripts/gpuav.sh tests/test_reductions.py -k tall_narrow
set -uo pipefail
cd "$(dirname "$0")/.."
py=${PY:-.venv/bin/python}
settings=$(mktemp -d)
export GPUAV_LOG=${GPUAV_LOG:-/tmp/avk-gpuav.log} GPUAV_ARENAS=${GPUAV_ARENAS:-/tmp/avk-gpuav-arenas.txt}
rm -f "$GPUAV_LOG" "$GPUAV_ARENAS"
cat > "$settings/vk_layer_settings.txt" <<SET
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT
khronos_validation.gpuav_buffer_oob = true
khronos_validation.report_flags = error
khronos_validation.log_filename = $GPUAV_LOG
SET
PYTHONPATH=scripts${PYTHONPATH:+:$PYTHONPATH} ARRAY_API_VULKAN_ARENAS=own \
  VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_SETTINGS_PATH=$settings \
  ARRAY_API_VULKAN_NVIDIA_DENORM_PRESERVE=0 \
  "$py" -m pytest -p gpuav_check -p no:cacheprovider -q "$@"
echo "pytest exit $?"
"$py" scripts/gpuav_check.py
