#!/usr/bin/env bash
# Run the conformance suite one test file at a time (each in its own pytest
# process, under a time limit), then merge the per-file reports into
# conformance/_last/report.json so that summarize.py and triage.py see one run.
# A crash or hang in one file then costs only that file.
#
# Usage: conformance/by_file.sh [extra run.sh/pytest args]
#   e.g. ARRAY_API_TESTS_XFAIL_MARK=skip conformance/by_file.sh --max-examples 20
# Environment: FILES="test_a.py test_b.py" (default: every test file),
#   FILE_TIMEOUT seconds per file (default 1800), plus everything run.sh reads.
# Per-file logs and reports: conformance/_last/files/<file>.{log,json}
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$HERE/get_suite.sh" || exit 2
OUTDIR="$HERE/_last/files"
mkdir -p "$OUTDIR"

if [[ -z "${FILES:-}" ]]; then
    FILES="$(cd "$HERE/_suite/array_api_tests" && ls test_*.py | tr '\n' ' ')"
fi

start=$(date +%s)
for f in $FILES; do
    base="${f%.py}"
    t0=$(date +%s)
    rm -f "$OUTDIR/$base.json" "$OUTDIR/$base.meta.json"
    REPORT="$OUTDIR/$base.json" timeout --signal=INT --kill-after=30 "${FILE_TIMEOUT:-1800}" \
        "$HERE/run.sh" "array_api_tests/$f" -q -p no:warnings "$@" > "$OUTDIR/$base.log" 2>&1
    rc=$?
    line="$(grep -E '^(=+ )?[0-9]+ (passed|failed|skipped|error|xfailed|deselected)|no tests ran|error' "$OUTDIR/$base.log" | tail -1)"
    printf '%-48s rc=%-3s %4ss  %s\n' "$f" "$rc" "$(( $(date +%s) - t0 ))" "$line"
done
echo "by_file: total $(( $(date +%s) - start )) s" >&2

# merge the per-file reports into one
PY="${PYTHON:-$( [[ -x "$HERE/../.venv/bin/python" ]] && echo "$HERE/../.venv/bin/python" || command -v python3)}"
"$PY" - "$HERE/_last/report.json" $(for f in $FILES; do echo "$OUTDIR/${f%.py}.json"; done) <<'EOF'
import json, os, sys
out, parts = sys.argv[1], sys.argv[2:]
merged = {"created": None, "duration": 0.0, "exitcode": 0, "root": "", "environment": {},
          "summary": {}, "collectors": [], "tests": [], "warnings": []}
meta, missing = None, []
for p in parts:
    if not os.path.exists(p):
        missing.append(os.path.basename(p))
        continue
    r = json.load(open(p))
    merged["created"] = merged["created"] or r.get("created")
    merged["duration"] += r.get("duration", 0.0)
    merged["exitcode"] = max(merged["exitcode"], r.get("exitcode", 0))
    merged["root"] = r.get("root", "")
    merged["collectors"] += r.get("collectors", [])
    merged["tests"] += r.get("tests", [])
    for k, v in r.get("summary", {}).items():
        merged["summary"][k] = merged["summary"].get(k, 0) + v
    mp = p[:-5] + ".meta.json"
    if meta is None and os.path.exists(mp):
        meta = json.load(open(mp))
if meta:
    meta["args"] = ["(by_file.sh)"] + [a for a in meta["args"][1:]]
    json.dump(meta, open(out[:-5] + ".meta.json", "w"), indent=1)
json.dump(merged, open(out, "w"))
print(f"by_file: merged {len(parts) - len(missing)} reports into {out}"
      + (f"; no report (timeout/crash?) for {missing}" if missing else ""), file=sys.stderr)
EOF
