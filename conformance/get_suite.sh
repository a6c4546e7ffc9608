#!/usr/bin/env bash
# Build conformance/_suite/: data-apis/array-api-tests at a pinned commit, with
# its array-api/ submodule directory filled from data-apis/array-api at a
# pinned commit (see /work/shared/facts/conformance.md for why these pins).
#
# Usage: conformance/get_suite.sh [SRC_TESTS_GIT SRC_SPEC_GIT]
#   SRC_TESTS_GIT / SRC_SPEC_GIT: git directories or URLs to clone from.
#   Default: local mirrors under /work/.mirror if present, else GitHub.
# Idempotent: returns at once when the pinned checkout is already there.
set -euo pipefail

TESTS_COMMIT=55fcc60
SPEC_COMMIT=5f847a38
API_VERSION=2025.12

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SUITE="$HERE/_suite"
STAMP="$SUITE/.pinned"
WANT="tests=$TESTS_COMMIT spec=$SPEC_COMMIT"

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" \
      && -d "$SUITE/array-api/spec/$API_VERSION" \
      && -d "$SUITE/array-api/src/array_api_stubs/_${API_VERSION//./_}" ]]; then
    exit 0
fi

pick() {  # pick <explicit> <mirror> <url>
    if [[ -n "$1" ]]; then echo "$1"
    elif [[ -d "$2" ]]; then echo "$2"
    else echo "$3"; fi
}
SRC_TESTS="$(pick "${1:-}" /work/.mirror/data-apis+array-api-tests/repo \
    https://github.com/data-apis/array-api-tests.git)"
SRC_SPEC="$(pick "${2:-}" /work/.mirror/data-apis+array-api/repo \
    https://github.com/data-apis/array-api.git)"

echo "get_suite: array-api-tests@$TESTS_COMMIT from $SRC_TESTS" >&2
echo "get_suite: array-api@$SPEC_COMMIT from $SRC_SPEC" >&2

TMP="$(mktemp -d "$HERE/.suite-tmp.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

# array-api-tests: a full clone (a shallow clone cannot reach an arbitrary
# commit from a plain git dir), then a detached checkout of the pin.
git clone --quiet --no-checkout "$SRC_TESTS" "$TMP/suite"
git -C "$TMP/suite" -c advice.detachedHead=false checkout --quiet "$TESTS_COMMIT"

# array-api (the spec): export the pinned tree into the submodule directory.
rm -rf "$TMP/suite/array-api"
mkdir -p "$TMP/suite/array-api"
if [[ -d "$SRC_SPEC" ]] && git --git-dir="$SRC_SPEC" rev-parse --verify --quiet \
        "$SPEC_COMMIT^{commit}" >/dev/null 2>&1; then
    git --git-dir="$SRC_SPEC" archive "$SPEC_COMMIT" | tar -x -C "$TMP/suite/array-api"
elif [[ -d "$SRC_SPEC/.git" ]]; then
    git -C "$SRC_SPEC" archive "$SPEC_COMMIT" | tar -x -C "$TMP/suite/array-api"
else
    git clone --quiet --no-checkout "$SRC_SPEC" "$TMP/spec"
    git -C "$TMP/spec" archive "$SPEC_COMMIT" | tar -x -C "$TMP/suite/array-api"
fi

for d in "array-api/spec/$API_VERSION" "array-api/src/array_api_stubs/_${API_VERSION//./_}"; do
    [[ -d "$TMP/suite/$d" ]] || { echo "get_suite: missing $d" >&2; exit 1; }
done

echo "$WANT" > "$TMP/suite/.pinned"
rm -rf "$SUITE"
mv "$TMP/suite" "$SUITE"
echo "get_suite: ready at $SUITE" >&2
