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

Arms that end in a `return` are not countable under Verilator 5.006: it puts
a line or branch point's increment after the arm's statements, and a `return`
inside a function becomes a `goto` to the function's end that jumps over it, so
such a point reads 0 however often the arm runs (shown by
rtl-cosim/tools/coverage_return_arms.sv, a function whose case arms return
next to one whose arms assign: only the assigning arms count). A point that
reads 0 on such an arm (a case item, an if's or else's statement that is, or
ends with, a return; a final case counts by its last arm) is put apart as "uncountable", not as unhit: the report
gives the lines hit out of the countable ones and lists the uncountable lines
on their own (their execution must be shown otherwise, e.g. by mutation). A
point on such an arm that reads more than 0 (a Verilator that counts them) is
counted as hit like any other.

usage: coverage_report.py MERGED.dat [--uncovered N]
"""
import collections
import re
import sys

LEAD = re.compile(r"^(\s*(\b(begin|end|else|endcase)\b|[\w']+\s*:(?!:)))*\s*")


def strip_comments(text):
    """text with // and /* */ comments blanked (newlines kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def arm_body(code, line, kind):
    """The statement text of the arm a point of kind `kind` (case, if, else) on
    source line `line` counts, from the code without comments; None if not found."""
    starts = [0]
    for ln in code.split("\n"):
        starts.append(starts[-1] + len(ln) + 1)
    if line < 1 or line >= len(starts):
        return None
    pos = starts[line - 1]
    text = code[pos:]
    if kind == "case":
        # the label: up to the first ':' outside brackets and braces ("2'd0:", "CM_Z:",
        # "default:"), before any '?' (a label has none)
        depth = 0
        for i, ch in enumerate(text):
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch in "?;\n" and depth == 0:
                return None
            elif ch == ":" and depth == 0 and text[i + 1:i + 2] != ":":
                return text[i + 1:]
        return None
    if kind == "if":
        m = re.search(r"\bif\s*\(", text.split("\n", 1)[0])
        if not m:
            return None
        depth = 0
        for i in range(m.end() - 1, len(text)):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    return text[i + 1:]
        return None
    if kind == "else":
        m = re.search(r"\belse\b", text.split("\n", 1)[0])
        return text[m.end():] if m else None
    return None


def ends_in_return(code, line, kind):
    """The arm is a return, or a begin-end block whose last statement is one."""
    body = arm_body(code, line, kind)
    if body is None:
        return False
    body = body.lstrip()
    if body.startswith("return"):
        return True
    if not body.startswith("begin"):
        return False
    depth = 0
    for m in re.finditer(r"\b(begin|end)\b", body):
        depth += 1 if m.group(1) == "begin" else -1
        if depth == 0:
            # the statements, each without the keywords and case label before it
            # ("end else begin x = 1", "endcase", "default: return y"); a final
            # case counts by its last arm
            stmts = [LEAD.sub("", x) for x in body[len("begin"):m.start()].split(";")]
            stmts = [x for x in stmts if x.strip()]
            return bool(stmts) and stmts[-1].startswith("return")
    return False


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
    uncountable = collections.defaultdict(set)              # file -> lines: 0 on a return arm
    uncountable_points = collections.Counter()              # file -> such points
    countable = collections.defaultdict(set)                # file -> lines with another point
    sources = {}
    for f, line, page, hier, comment, count in points(argv[1]):
        kind = "toggle" if page.startswith("v_toggle") else "line"
        if kind == "line":
            if f not in sources:
                try:
                    sources[f] = strip_comments(open(f, encoding="utf-8").read())
                except OSError:
                    sources[f] = None
            if count == 0 and sources[f] is not None and comment in ("case", "if", "else") \
                    and ends_in_return(sources[f], line, comment):
                uncountable[f].add(line)
                uncountable_points[f] += 1
                continue
            countable[f].add(line)
            source_lines[f][line] = source_lines[f].get(line, False) or count > 0
        key = (f, kind)
        totals[key][1] += 1
        if count > 0:
            totals[key][0] += 1
        else:
            missed[key].append((line, comment))
    files = sorted({f for f, _ in totals})
    print("RTL coverage under the co-simulation tests (Verilator --coverage-line --coverage-toggle)")
    print("%-20s %22s %22s %22s %14s" % ("block", "source lines", "line points (per call)",
                                          "toggle (signal bits)", "uncountable"))
    for f in files:
        hit = source_lines.get(f, {})
        c, t = sum(1 for v in hit.values() if v), len(hit)
        cells = ["%6d/%-6d %6.1f%%" % (c, t, 100.0 * c / t if t else 0.0)]
        for kind in ("line", "toggle"):
            c, t = totals.get((f, kind), [0, 0])
            cells.append("%6d/%-6d %6.1f%%" % (c, t, 100.0 * c / t if t else 0.0))
        only = sorted(uncountable.get(f, set()) - countable.get(f, set()))
        cells.append("%d (%d pts)" % (len(only), uncountable_points[f]))
        print("%-20s %22s %22s %22s %14s" % (f.split("/")[-1], cells[0], cells[1], cells[2],
                                              cells[3]))
    print("(uncountable: source lines whose every point is on an arm that ends in a return and "
          "reads 0 - Verilator 5.006 skips the count of such arms; not in the figures)")
    for f in files:
        never = sorted(n for n, v in source_lines.get(f, {}).items() if not v)
        if never:
            print("%s source lines never hit: %s" % (f.split("/")[-1],
                                                     " ".join(str(x) for x in never)))
        only = sorted(uncountable.get(f, set()) - countable.get(f, set()))
        if only:
            print("%s source lines uncountable (return arms): %s" % (
                f.split("/")[-1], " ".join(str(x) for x in only)))
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
