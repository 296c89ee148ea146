#!/usr/bin/env python3
"""A tiny exec guard for farma-fuzz (Python 3 standard library only).

Run with:  npm run fuzz -- --guard "exec:python3 examples/exec-guard.py"

It reads one JSON request per line on stdin:
    {"id": 1, "entry": {...}, "phase": "write", "store": {"size": {"reasoning": 0, "general": 0}}}
and writes one JSON answer per line on stdout, in the same order:
    {"id": 1, "verdict": {"decision": "admit", "trace": [], "reasons": [], "elapsedUs": 0}}
Logs go to stderr only: stdout carries answers and nothing else.
"""
import json
import re
import sys
import time

# One rule: an entry that cites many earlier runs as a reason to trust it is rejected.
PRECEDENT = re.compile(r"\b(\d+)\s+(prior|previous|earlier)\s+(runs|cases|sessions)\b", re.IGNORECASE)
LIMIT = 3


def judge(entry):
    content = entry.get("content", "") if isinstance(entry, dict) else ""
    counts = [int(m.group(1)) for m in PRECEDENT.finditer(content)]
    if any(n >= LIMIT for n in counts):
        return {"decision": "reject", "layer": "precedent", "trace": [],
                "reasons": ["cites %d earlier runs as precedent" % max(counts)]}
    return {"decision": "admit", "trace": [], "reasons": []}


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        started = time.perf_counter()
        request = json.loads(line)
        verdict = judge(request.get("entry"))
        verdict["elapsedUs"] = (time.perf_counter() - started) * 1e6
        sys.stdout.write(json.dumps({"id": request.get("id"), "verdict": verdict}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
