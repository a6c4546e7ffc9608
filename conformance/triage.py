#!/usr/bin/env python3
"""Group the failures of a conformance run by likely root cause (a helper for
writing conformance/TRIAGE.md; it does not write that file).

Usage: triage.py [REPORT_JSON ...] [--examples N] [--file SUBSTR]

For each failing test it takes the function under test (the suite's
metadata, else the test name), the exception type and the first line of the
message with numbers and array reprs blurred, and groups identical keys.
Groups are printed largest first, each with its node ids and, for the first
few, hypothesis' falsifying example (the minimal reproducing call).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def blur(msg: str) -> str:
    if msg.startswith("DeadlineExceeded ("):
        return msg
    msg = re.sub(r"0x[0-9a-f]+", "0x…", msg)
    msg = re.sub(r"Array\([^)]*\)", "Array(…)", msg)
    msg = re.sub(r"\[[^\]]{40,}\]", "[…]", msg)
    msg = re.sub(r"(?<![\w.])-?\d+(\.\d+)?(e[+-]?\d+)?j?", "N", msg)
    msg = re.sub(r"dtype=\S+", "dtype=…", msg)
    return msg[:160]


def stage_of(t: dict) -> dict:
    for k in ("setup", "call", "teardown"):
        s = t.get(k) or {}
        if s.get("outcome") == "failed":
            return s
    return {}


def falsifying(longrepr: str) -> str:
    """The minimal reproducing call: the suite's 'FAILING CODE SNIPPET', else
    hypothesis' 'Failing test case:' / 'Falsifying example:' block and its
    'Draw N:' lines."""
    lines = [ln[1:].strip() if ln.startswith("E ") else None
             for ln in (longrepr or "").splitlines()]
    for i, ln in enumerate(lines):
        if ln is not None and "FAILING CODE SNIPPET" in ln:
            snip = []
            for nxt in lines[i + 1:]:
                if nxt is None or nxt.startswith("===="):
                    break
                snip.append(nxt)
            if snip:
                return " ".join(snip)[:600]
    out, on = [], False
    for ln in lines:
        if ln is not None and ln.startswith(("Falsifying", "Failing test case")):
            on = True
        elif on and (ln is None or ln == "" or ln.startswith("Explanation")):
            on = False
        if on or (ln is not None and re.match(r"Draw \d+", ln)):
            out.append(ln)
    text = re.sub(r"\s+", " ", " ".join(out)).strip()
    text = re.sub(r"# The test always failed when commented parts were varied together. ", "", text)
    text = re.sub(r"case=BinaryCase\(.*?raw_case=.*?\), ", "", text)
    return text[:600]


def key_of(t: dict) -> tuple[str, str]:
    md = t.get("metadata") or {}
    func = md.get("array_api_function_name")
    nodeid = t["nodeid"]
    if not func:
        # test_has_names / signatures: the name is in the params
        m = re.search(r"\[(.*)\]$", nodeid)
        func = (m.group(1) if m else nodeid.split("::")[-1])
    s = stage_of(t)
    crash = s.get("crash") or {}
    msg = crash.get("message") or ""
    first = msg.strip().splitlines()[0] if msg.strip() else "(no message)"
    lr = s.get("longrepr") or ""
    if "DeadlineExceeded" in first or "DeadlineExceeded" in lr and "FlakyFailure" in first:
        # hypothesis' 800 ms deadline: usually a slow first call (pipeline build)
        m = re.search(r"took ([\d.]+)ms", lr)
        first = "DeadlineExceeded (hypothesis 800 ms deadline)" + (
            f"; first call took {float(m.group(1)):.0f} ms" if m else "")
    # the special-case tests name the function in the id: test_unary[abs(x_i is NaN) -> NaN]
    m = re.match(r".*test_(?:unary|binary|iop|empty_arrays|nan_propagation)\[(\w+)", nodeid)
    if m:
        func = m.group(1)
    return func, blur(first)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reports", nargs="*", default=[str(HERE / "_last" / "report.json")])
    ap.add_argument("--examples", type=int, default=2, help="falsifying examples per group")
    ap.add_argument("--file", default="", help="only node ids containing this")
    ap.add_argument("--by", choices=["cause", "func"], default="cause")
    a = ap.parse_args()

    groups: dict[tuple, list[dict]] = defaultdict(list)
    for p in a.reports:
        r = json.loads(Path(p).read_text())
        for c in r.get("collectors", []):
            if c.get("outcome") == "failed":
                lr = (c.get("longrepr") or "").strip().splitlines()
                groups[("(collection)", blur(lr[-1] if lr else ""))].append(
                    {"nodeid": c["nodeid"], "longrepr": c.get("longrepr", "")})
        for t in r.get("tests", []):
            if t["outcome"] not in ("failed", "error") or a.file not in t["nodeid"]:
                continue
            func, cause = key_of(t)
            k = (func,) if a.by == "func" else (func, cause)
            groups[k].append({"nodeid": t["nodeid"],
                              "longrepr": stage_of(t).get("longrepr", ""),
                              "cause": cause})

    total = sum(len(v) for v in groups.values())
    print(f"{total} failures in {len(groups)} groups\n")
    by_cause: dict[str, list[str]] = defaultdict(list)
    for k, items in groups.items():
        c = items[0].get("cause") or (k[1] if len(k) > 1 else "")
        c = re.sub(r"; first call took .*", "", c)
        c = re.sub(r"\[\w+\(\)\]$", "", c)  # the suite's '[func()]' suffix
        by_cause[c] += [k[0]] * len(items)
    print("Causes (across functions):")
    for c, funcs in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(funcs):4d}  {c}  <- {', '.join(sorted(set(funcs)))[:200]}")
    print()
    for k, items in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"## {len(items):4d}  {k[0]}  —  {k[1] if len(k) > 1 else items[0]['cause']}")
        for it in items[:6]:
            print(f"        {it['nodeid']}")
        if len(items) > 6:
            print(f"        … {len(items) - 6} more")
        shown = 0
        for it in items:
            if shown >= a.examples:
                break
            fx = falsifying(it["longrepr"])
            if fx:
                print(f"     ex: {fx}")
                shown += 1
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
