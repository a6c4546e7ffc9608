# make demo / make test on a fresh Debian 12 machine: set-up runs first and is idempotent.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libvulkan-dev mesa-vulkan-drivers vulkan-tools glslang-tools spirv-tools \
	vulkan-validationlayers libfmt-dev cmake g++ glslang-dev libvkfft-dev
EXT := array_api_vulkan/_runtime/_vkcore$(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')

.PHONY: setup system-packages demo test test-install test-profiles test-validation spv conformance fuzz clean

setup: system-packages $(VENV)/.deps-stamp $(VENV)/opt/kompute/BUILD_STAMP $(EXT)

# apt only when a package is missing, so a second run costs a dpkg query.
system-packages:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing system packages: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

$(VENV)/.deps-stamp: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q 'numpy>=2' 'pybind11>=2.12' setuptools wheel pytest 'hypothesis>=6.151' \
		pytest-json-report 'ndindex>=1.8' mpmath array-api-strict \
		array-api-compat matplotlib
	touch $@

$(VENV)/opt/kompute/BUILD_STAMP: scripts/build_kompute.sh $(wildcard scripts/kompute-patches/*.patch) $(VENV)/.deps-stamp
	scripts/build_kompute.sh $(PY) && touch $@

# The runtime's C++ sources: _vkcore.cpp and/or src/ (setup.py compiles the same set).
$(EXT): $(wildcard array_api_vulkan/_runtime/_vkcore.cpp array_api_vulkan/_runtime/src/*.cpp array_api_vulkan/_runtime/src/*.hpp) \
		setup.py $(VENV)/opt/kompute/BUILD_STAMP
	$(PY) -m pip install -q --no-deps --no-build-isolation -e .

spv:
	$(PY) scripts/build_spv.py

demo: setup
	$(PY) -m array_api_vulkan

test: setup
	$(PY) -m pytest tests -q
	@$(MAKE) --no-print-directory test-profiles

# The suite again on the same device with features masked (ARRAY_API_VULKAN_DISABLE_FEATURES,
# README "Capability profiles"), as on drivers without float64 and int64 (MoltenVK, Intel, most
# mobile GPUs) and without 8/16-bit storage buffers. Tests marked feature_independent are left out
# of them (pyproject.toml): what they check does not change with the masks (packaging, the
# validation layer's barrier checks, threads, soaks, a 512 MiB float32 array, spv/ against glsl/),
# or they set masks of their own (test_capability_profiles.py); they already ran in the normal pass.
# The passes run side by side, each printed when it ends: most tests are one Python thread, so on
# 2 cores the two took 510-570 s together (session 31, warm shader cache) against the
# 338 + 477 one after the other (session 30). The target fails where either does.
PROFILES := float64,int64 storage8,storage16

test-profiles: setup
	@logs=$$(mktemp -d); \
	for p in $(PROFILES); do \
	  ( ARRAY_API_VULKAN_DISABLE_FEATURES=$$p $(PY) -m pytest tests -q -p no:cacheprovider \
	      -m "not feature_independent" > $$logs/$$p.log 2>&1; echo $$? > $$logs/$$p.rc ) & \
	done; wait; rc=0; \
	for p in $(PROFILES); do \
	  echo "== ARRAY_API_VULKAN_DISABLE_FEATURES=$$p"; cat $$logs/$$p.log; \
	  [ "$$(cat $$logs/$$p.rc)" = 0 ] || rc=1; \
	done; rm -rf $$logs; exit $$rc

# The package built and installed into clean virtual environments (also part of `make test`).
test-install: setup
	$(PY) -m pytest tests/test_install.py -q

# The runtime tests again under the Khronos validation layer with synchronization validation
# (also part of `make test`).
test-validation: setup
	$(PY) -m pytest tests/test_validation.py -q

conformance: setup
	conformance/run.sh

# Differential fuzzing against array_api_strict (not part of `make test`; a soak):
#   make fuzz SEEDS=0:20000 FUZZ_ARGS="--families linalg,fft --tame"
SEEDS ?= 0:2000
fuzz: setup
	$(PY) scripts/fuzz_strict.py --seeds $(SEEDS) $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info array_api_vulkan/_runtime/*.so
