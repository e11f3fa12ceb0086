#!/usr/bin/env python3
"""rtl-cosim/tools/mutate.py - mutation testing of the co-simulated RTL blocks
(make cosim-mutate).

Our own mutator over the SystemVerilog (Debian's yosys is not installed on the
build machines, and its `mutate` pass works on the netlist, not on the source
lines an RTL engineer reads). For each block it lists every mutation site in
the code outside comments, `ifdef BROKEN regions and declarations:
  op      a binary operator replaced: + -, & |, ^ |, && ||, == !=, < <=, > >=,
          <= < (in expressions, not non-blocking assignments), >= >, << >>
  const   a literal changed: a sized literal (8'd150, 13'sd23, 1'b1, 32'h7f800000)
          or a plain number in an expression, plus one (a 1-bit literal flipped)
  cond    an if condition negated
then takes --mutants of them (a fixed, seeded sample; --all for every site),
builds each mutant as the block's BROKEN model (verilator, the model archive,
the block's C++ wrapper, gtsim-cosim relinked in OUT/work) and runs the
block's co-simulation test on it: the seeded random lockstep run of the block
against its C model (om-random, random, fpu-random, l3-random with --impl
lockstep_broken). A mutant is
  killed     the test reports a mismatch (exit 3) or fails otherwise;
  survived   the test passes (exit 0);
  stillborn  it does not verilate (lint/width errors) or build: not counted.
The score is killed / (killed + survived). OUT/report.txt lists the score per
block and every survivor with its diff line, for a new test or an explanation
(rtl-cosim/README.md "Test adequacy").

usage: mutate.py --build BUILD --blocks om_pixel,cs_alu [--mutants N] [--seed S]
                 [--all] [--out DIR] [--list]
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import time

BLOCKS = {
    # block: (source, wrapper, test command, timeout s); a test command starting
    # with "runner:" is a small binary of its own (rtl-cosim/tools/*_mutant_main.c)
    "om_pixel": ("rtl-cosim/rtl/om_pixel.sv", "om_rtl",
                 ["runner:om_mutant_main", "300000", "1"], 600),
    "cs_alu": ("rtl-cosim/rtl/cs_alu.sv", "cs_alu_rtl",
               ["random", "--impl", "lockstep_broken", "--requests", "20000"], 600),
    "fpu_pipe": ("rtl-cosim/rtl/fpu_pipe.sv", "fpu_rtl",
                 ["fpu-random", "--impl", "lockstep_broken", "--requests", "100000"], 600),
    "l3_slice": ("rtl-cosim/rtl/l3_slice.sv", "l3_rtl",
                 ["l3-random", "--impl", "lockstep_broken", "--requests", "20000"], 600),
    "qpu_alu": ("rtl-cosim/rtl/qpu_alu.sv", "qpu_alu_rtl",
                ["runner:qpu_mutant_main", "200000", "1"], 600),
}

OPT = "-O1"
OPS = [("&&", "||"), ("||", "&&"), ("==", "!="), ("!=", "=="), ("<<", ">>"), (">>", "<<"),
       ("<=", "<"), (">=", ">"), ("+", "-"), ("-", "+"), ("&", "|"), ("|", "&"), ("^", "|"),
       ("<", "<="), (">", ">=")]
OP_RE = re.compile(r"&&|\|\||==|!=|<<|>>|<=|>=|\+|-|&|\||\^|<|>")
LIT_RE = re.compile(r"(\d+)'(s?)([bdh])([0-9a-fA-F_]+)")
NUM_RE = re.compile(r"(?<![\w'.])(\d+)(?![\w'])")
SKIP_LINE = re.compile(r"^\s*(input|output|logic|wire|reg|localparam|parameter|typedef|"
                       r"function|module|int\b|for\s*\(|endfunction|endmodule|`)")


def code_lines(text):
    """(line number, code without comment) of lines that may be mutated."""
    out = []
    broken = 0
    for n, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if s.startswith("`ifdef BROKEN") or s.startswith("`ifndef BROKEN"):
            broken = 1
            continue
        if broken and s.startswith("`else"):
            broken = 2 if s.startswith("`else") and broken == 1 else broken
            continue
        if broken and s.startswith("`endif"):
            broken = 0
            continue
        if broken:
            continue
        code = line.split("//", 1)[0]
        if not code.strip() or SKIP_LINE.match(code):
            continue
        out.append((n, code))
    return out


def bracket_spans(code):
    """Character ranges inside [...] (widths, indices, part selects)."""
    spans, depth, start = [], 0, 0
    for i, ch in enumerate(code):
        if ch == "[":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, i))
    return spans


def inside(spans, i):
    return any(a <= i <= b for a, b in spans)


def sites(text):
    """Every mutation: (kind, line, column, old, new)."""
    result = []
    for n, code in code_lines(text):
        spans = bracket_spans(code)
        nonblocking = re.match(r"^\s*[\w.]+(\[[^\]]*\])*\s*<=", code)
        lits = [(m.start(), m.end()) for m in LIT_RE.finditer(code)]
        for m in OP_RE.finditer(code):
            i, tok = m.start(), m.group(0)
            if inside(spans, i) or any(a <= i < b for a, b in lits):
                continue
            if tok == "<=" and nonblocking and i == code.index("<="):
                continue
            if tok in ("-", "+") and re.match(r"\s*[\w(]", code[m.end():]) is None:
                continue
            prev = code[:i].rstrip()
            if tok in ("-", "+", "&", "|", "^") and (not prev or prev[-1] in "(=,?:!~&|<>+-"):
                continue                        # unary
            if tok in ("&", "|") and (code[i + 1:i + 2] in "&|" or code[i - 1:i] in "&|"):
                continue
            for old, new in OPS:
                if tok == old:
                    result.append(("op", n, i, old, new))
        for m in LIT_RE.finditer(code):
            if inside(spans, m.start()):
                continue
            width, signed, base, digits = m.groups()
            value = int(digits.replace("_", ""), {"b": 2, "d": 10, "h": 16}[base])
            w = int(width)
            newv = (value ^ 1) if w == 1 else (value + 1) % (1 << w)
            fmt = {"b": "{:b}", "d": "{:d}", "h": "{:x}"}[base].format(newv)
            result.append(("const", n, m.start(), m.group(0), "%s'%s%s%s" % (width, signed, base, fmt)))
        for m in NUM_RE.finditer(code):
            if inside(spans, m.start()) or any(a <= m.start() < b for a, b in lits):
                continue
            prev = code[:m.start()].rstrip()
            if prev.endswith("'") or prev.endswith("#"):
                continue
            result.append(("const", n, m.start(), m.group(1), str(int(m.group(1)) + 1)))
        for m in re.finditer(r"\bif\s*\(", code):
            # the condition up to its closing parenthesis
            depth, j = 0, m.end() - 1
            while j < len(code):
                if code[j] == "(":
                    depth += 1
                elif code[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j < len(code):
                cond = code[m.end():j]
                result.append(("cond", n, m.end(), cond, "!(%s)" % cond))
    return result


def apply(text, site):
    kind, n, col, old, new = site
    lines = text.split("\n")
    line = lines[n - 1]
    assert line[col:col + len(old)] == old, (site, line)
    lines[n - 1] = line[:col] + new + line[col + len(old):]
    return "\n".join(lines), lines[n - 1].strip()


def make_vars(build):
    out = subprocess.run(["make", "-s", "--no-print-directory", "BUILD=" + build,
                          "cosim-link-vars"], capture_output=True, text=True, check=True).stdout
    v = {}
    for line in out.splitlines():
        if "=" in line:
            k, val = line.split("=", 1)
            v[k] = val
    return v


def run(cmd, log, timeout=None, cwd=None):
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout,
                                  cwd=cwd).returncode
        except subprocess.TimeoutExpired:
            f.write("timeout\n")
            return -1


def build_mutant(v, block, src_text, work, log):
    """gtsim-cosim with the mutant as the block's BROKEN model; its path or None."""
    prefix = "V%s_broken" % block
    mdir = os.path.join(work, prefix)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sv = os.path.join(work, block + ".sv")
    with open(sv, "w") as f:
        f.write(src_text)
    if run(["verilator"] + v["VFLAGS"].split() + ["--prefix", prefix, "-Mdir", mdir, sv], log):
        return None
    # the mutants' models build at -O1: about half the time of -O2
    if run(["make", "-s", "-C", mdir, "-f", prefix + ".mk", "OPT_FAST=" + OPT, "OPT_SLOW=" + OPT,
            "OPT_GLOBAL=" + OPT, prefix + "__ALL.a"], log):
        return None
    wrapper = BLOCKS[block][1]
    obj = os.path.join(work, wrapper + ".o")
    if run([v["CXX"]] + ("-I" + mdir + " " + v["CXXFLAGS"]).split() +
           ["-c", "-o", obj, "rtl-cosim/%s.cpp" % wrapper], log):
        return None
    test = BLOCKS[block][2]
    if test[0].startswith("runner:"):
        # the block's random test alone: its main, the random run, the wrapper,
        # the good and the mutant model, libgtsim (seconds to link)
        main = test[0].split(":", 1)[1]
        main_obj = os.path.join(work, main + ".o")
        if run(["cc", "-std=c11", "-O2", "-flto=auto", "-I.", "-Ibuild/gen", "-c", "-o", main_obj,
                "rtl-cosim/tools/%s.c" % main], log):
            return None
        good = os.path.join(v["COSIM_DIR"], "V" + block, "V%s__ALL.a" % block)
        binary = os.path.join(work, "runner")
        random_obj = os.path.join(os.path.dirname(v["COSIM_DIR"]), "obj", "rtl-cosim",
                                  block.split("_")[0] + "_random.o")
        if run([v["CXX"]] + v["LDOPT"].split() + ["-o", binary, main_obj, random_obj, obj, good,
               os.path.join(mdir, prefix + "__ALL.a")] + v["VLRT"].split() + v["LIBS"].split(),
               log):
            return None
        return binary
    orig_obj = os.path.join(v["COSIM_DIR"], "obj", wrapper + ".o")
    cxx_objs = [obj if o == orig_obj else o for o in v["CXX_OBJS"].split()]
    orig_lib = os.path.join(v["COSIM_DIR"], prefix, prefix + "__ALL.a")
    models = [os.path.join(mdir, prefix + "__ALL.a") if m == orig_lib else m
              for m in v["MODELS"].split()]
    binary = os.path.join(work, "gtsim-cosim")
    if run([v["CXX"]] + v["LDOPT"].split() + ["-o", binary] + v["OBJS"].split() + cxx_objs +
           models + v["VLRT"].split() + v["LIBS"].split(), log):
        return None
    return binary


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/release")
    ap.add_argument("--blocks", default="om_pixel")
    ap.add_argument("--mutants", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    out = a.out or os.path.join(a.build, "cosim-mutate")
    os.makedirs(out, exist_ok=True)
    blocks = [b for b in a.blocks.split(",") if b]
    for b in blocks:
        if b not in BLOCKS:
            print("mutate.py: unknown block %s (%s)" % (b, ", ".join(BLOCKS)), file=sys.stderr)
            return 1
    v = None if a.list else make_vars(a.build)
    report = []
    for b in blocks:
        src, _, test, timeout = BLOCKS[b]
        text = open(src).read()
        every = sites(text)
        rng = random.Random(a.seed)
        chosen = every if a.all or a.mutants >= len(every) else sorted(
            rng.sample(every, a.mutants), key=lambda s: (s[1], s[2]))
        if a.list:
            for s in chosen:
                print("%s:%d %s %r -> %r" % (b, s[1], s[0], s[3], s[4]))
            continue
        killed, survived, stillborn = [], [], []
        t0 = time.time()
        for k, s in enumerate(chosen):
            mutant, line = apply(text, s)
            work = os.path.join(out, "work")
            log = os.path.join(out, "%s-%03d.log" % (b, k))
            open(log, "w").close()
            binary = build_mutant(v, b, mutant, work, log)
            desc = "%s:%d %s %s -> %s: %s" % (os.path.basename(src), s[1], s[0], s[3], s[4], line)
            if not binary:
                stillborn.append(desc)
                verdict = "stillborn"
            else:
                args = test[1:] if test[0].startswith("runner:") else test
                rc = run([binary] + args, log, timeout=timeout)
                if rc == 0:
                    survived.append(desc)
                    verdict = "SURVIVED"
                else:
                    killed.append(desc)
                    verdict = "killed (exit %d)" % rc
            print("  %s mutant %d/%d %s: %s" % (b, k + 1, len(chosen), verdict, desc), flush=True)
        n = len(killed) + len(survived)
        score = 100.0 * len(killed) / n if n else 0.0
        report.append("%s: %d sites, %d mutants: %d killed, %d survived, %d stillborn; "
                      "mutation score %.1f%% (%.0f s; test: gtsim-cosim %s)" % (
                          b, len(every), len(chosen), len(killed), len(survived),
                          len(stillborn), score, time.time() - t0, " ".join(test)))
        for d in survived:
            report.append("  survived: " + d)
    if a.list:
        return 0
    text = "\n".join(report) + "\n"
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
