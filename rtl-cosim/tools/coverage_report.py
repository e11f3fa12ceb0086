#!/usr/bin/env python3
"""rtl-cosim/tools/coverage_report.py - per-block summary of a Verilator coverage
file (make cosim-coverage merges every model's counts into one): for each RTL
source, line coverage (Verilator's line/block and branch points, pages v_line
and v_branch) and toggle coverage (v_toggle: each bit of each signal, both
directions counted as one point as Verilator records them), covered / total,
and the first uncovered lines. Verilator counts a function's points once per
inlined call site, so a line of a function called eight times has eight points;
the third figure, source lines, counts each source line with line points once,
hit when any of its points was (what an RTL engineer reads as line coverage).

usage: coverage_report.py MERGED.dat [--uncovered N]
"""
import collections
import sys


def points(path):
    """Yields (file, line, page, hierarchy, count) per coverage point."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            if not raw.startswith("C '"):
                continue
            end = raw.rindex("'")
            fields = raw[3:end]
            count = int(raw[end + 1:].strip())
            kv = {}
            for item in fields.split("\x01"):
                if "\x02" in item:
                    k, v = item.split("\x02", 1)
                    kv[k] = v
            yield (kv.get("f", "?"), int(kv.get("l", "0") or 0), kv.get("page", "?"),
                   kv.get("h", ""), kv.get("o", ""), count)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 1
    show = 8
    if "--uncovered" in argv:
        show = int(argv[argv.index("--uncovered") + 1])
    totals = collections.defaultdict(lambda: [0, 0])       # (file, kind) -> [covered, total]
    missed = collections.defaultdict(list)
    source_lines = collections.defaultdict(dict)            # file -> line -> hit
    for f, line, page, hier, comment, count in points(argv[1]):
        kind = "toggle" if page.startswith("v_toggle") else "line"
        if kind == "line":
            source_lines[f][line] = source_lines[f].get(line, False) or count > 0
        key = (f, kind)
        totals[key][1] += 1
        if count > 0:
            totals[key][0] += 1
        else:
            missed[key].append((line, comment))
    files = sorted({f for f, _ in totals})
    print("RTL coverage under the co-simulation tests (Verilator --coverage-line --coverage-toggle)")
    print("%-20s %22s %22s %22s" % ("block", "source lines", "line points (per call)",
                                     "toggle (signal bits)"))
    for f in files:
        hit = source_lines.get(f, {})
        c, t = sum(1 for v in hit.values() if v), len(hit)
        cells = ["%6d/%-6d %6.1f%%" % (c, t, 100.0 * c / t if t else 0.0)]
        for kind in ("line", "toggle"):
            c, t = totals.get((f, kind), [0, 0])
            cells.append("%6d/%-6d %6.1f%%" % (c, t, 100.0 * c / t if t else 0.0))
        print("%-20s %22s %22s %22s" % (f.split("/")[-1], cells[0], cells[1], cells[2]))
    for f in files:
        never = sorted(n for n, v in source_lines.get(f, {}).items() if not v)
        if never:
            print("%s source lines never hit: %s" % (f.split("/")[-1],
                                                     " ".join(str(x) for x in never)))
    for f in files:
        for kind in ("line", "toggle"):
            miss = missed.get((f, kind), [])
            if not miss:
                continue
            lines = sorted({line for line, _ in miss})
            print("%s %s: %d points never hit, on lines %s%s" % (
                f.split("/")[-1], kind, len(miss), " ".join(str(x) for x in lines[:show]),
                " ..." if len(lines) > show else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
