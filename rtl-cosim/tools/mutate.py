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
then takes --mutants of them (a fixed, seeded sample; --all for every site)
and runs the block's co-simulation test on each: the block's seeded random
lockstep runs against its C model (rtl-cosim/tools/mutant_main.c, the runs
of tests/cosim_tests.c's random tests, smaller) with the mutant as the
block's BROKEN model.
How: the runner `cosim-mutant` is linked once, with every block's BROKEN
model as a shared library (OUT/stubs/libV<block>_broken.so, built from the
RTL with -DBROKEN); a mutant is verilated and compiled (OPT, position
independent) into OUT/work/libV<block>_broken.so, which LD_LIBRARY_PATH puts
in front. No relink per mutant (an LTO link of gtsim-cosim took minutes on
the shared build machine). A mutant is
  killed     the runner reports a mismatch (exit 3), fails otherwise or times out;
  survived   every run passes (exit 0);
  stillborn  it does not verilate (lint/width errors) or build: not counted.
The score is killed / (killed + survived). OUT/report.txt (rewritten after
every mutant) lists the score per block and every survivor with its line, for
a new test or an explanation (rtl-cosim/README.md "Test adequacy").

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
    # block: (source, runs of the runner rtl-cosim/tools/mutant_main.c: N, timeout s)
    "om_pixel": ("rtl-cosim/rtl/om_pixel.sv", 300000, 900),
    "cs_alu": ("rtl-cosim/rtl/cs_alu.sv", 200000, 900),
    "fpu_pipe": ("rtl-cosim/rtl/fpu_pipe.sv", 100000, 900),
    "l3_slice": ("rtl-cosim/rtl/l3_slice.sv", 8000, 900),
    "qpu_alu": ("rtl-cosim/rtl/qpu_alu.sv", 200000, 900),
}

OPT = "-O0"    # the mutants' models: compile time dominates a killed mutant
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
        # a non-blocking assignment, also after a case label ("default: x <= y;")
        nonblocking = re.match(r"^\s*([\w']+\s*:(?!:)\s*)?[\w.]+(\[[^\]]*\])*\s*<=", code)
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


def run(cmd, log, timeout=None, cwd=None, env=None):
    with open(log, "a") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=timeout,
                                  cwd=cwd, env=env).returncode
        except subprocess.TimeoutExpired:
            f.write("timeout\n")
            return -1


def shared_model(v, prefix, sv, mdir, out_so, log, defines=()):
    """Verilate sv as the model `prefix` and build it into the shared library
    out_so (position-independent, OPT); True on success."""
    shutil.rmtree(mdir, ignore_errors=True)
    if run(["verilator"] + v["VFLAGS"].split() + list(defines) +
           ["--prefix", prefix, "-Mdir", mdir, sv], log):
        return False
    if run(["make", "-s", "-C", mdir, "-f", prefix + ".mk", "CXXFLAGS=-fPIC", "OPT_FAST=" + OPT,
            "OPT_SLOW=" + OPT, "OPT_GLOBAL=" + OPT, prefix + "__ALL.a"], log):
        return False
    return run([v["CXX"], "-shared", "-o", out_so, "-Wl,--whole-archive",
                os.path.join(mdir, prefix + "__ALL.a"), "-Wl,--no-whole-archive"], log) == 0


def build_host(v, out, log):
    """The runner (rtl-cosim/tools/mutant_main.c) linked once, with every
    block's BROKEN model as a shared library in OUT/stubs; its path or None.
    A mutant is then a lib<prefix>.so found first through LD_LIBRARY_PATH."""
    stubs = os.path.join(out, "stubs")
    os.makedirs(stubs, exist_ok=True)
    libs = []
    for block, (src, _, _) in sorted(BLOCKS.items()):
        prefix = "V%s_broken" % block
        so = os.path.join(stubs, "lib%s.so" % prefix)
        if not os.path.exists(so) or os.path.getmtime(so) < os.path.getmtime(src):
            if not shared_model(v, prefix, src, os.path.join(stubs, prefix), so, log,
                                ["-DBROKEN"]):
                return None
        libs.append("-l:lib%s.so" % prefix)
    main_obj = os.path.join(out, "mutant_main.o")
    if run(["cc", "-std=c11", "-O2", "-flto=auto", "-I.", "-Ibuild/gen", "-c", "-o", main_obj,
            "rtl-cosim/tools/mutant_main.c"], log):
        return None
    bad = set(v["MODELS_BAD"].split())
    good = [m for m in v["MODELS"].split() if m not in bad]
    binary = os.path.join(out, "cosim-mutant")
    # -O1 at the link: the LTO code generation of libgtsim takes minutes at -O2 here
    ldopt = [o if o != "-O2" else "-O1" for o in v["LDOPT"].split()]
    if run([v["CXX"]] + ldopt + ["-rdynamic", "-o", binary, main_obj] +
           v["COSIM_C_OBJS"].split() + v["CXX_OBJS"].split() + good + v["VLRT"].split() +
           ["-L" + stubs] + libs + v["LIBS"].split(), log):
        return None
    return binary


def build_mutant(v, block, src_text, work, log):
    """The mutant as lib<block's BROKEN prefix>.so in work; True on success."""
    prefix = "V%s_broken" % block
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sv = os.path.join(work, block + ".sv")
    with open(sv, "w") as f:
        f.write(src_text)
    return shared_model(v, prefix, sv, os.path.join(work, prefix),
                        os.path.join(work, "lib%s.so" % prefix), log)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/release")
    ap.add_argument("--blocks", default="om_pixel")
    ap.add_argument("--mutants", default="24",
                    help="mutants per block: N, or BLOCK=N,... (blocks not named: 24)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    out = a.out or os.path.join(a.build, "cosim-mutate")
    os.makedirs(out, exist_ok=True)
    blocks = [b for b in a.blocks.split(",") if b]
    per_block = {}
    for item in a.mutants.split(","):
        if "=" in item:
            name, n = item.split("=", 1)
            per_block[name] = int(n)
        elif item:
            per_block = {b: int(item) for b in BLOCKS}
    for b in blocks:
        if b not in BLOCKS:
            print("mutate.py: unknown block %s (%s)" % (b, ", ".join(BLOCKS)), file=sys.stderr)
            return 1
    v = None if a.list else make_vars(a.build)
    host = None
    if not a.list:
        log = os.path.join(out, "host.log")
        open(log, "w").close()
        host = build_host(v, out, log)
        if not host:
            print("mutate.py: the runner did not build (%s)" % log, file=sys.stderr)
            return 1
    report = []

    def write_report(lines):
        with open(os.path.join(out, "report.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")

    for b in blocks:
        src, n_runs, timeout = BLOCKS[b]
        text = open(src).read()
        every = sites(text)
        rng = random.Random(a.seed)
        wanted = per_block.get(b, 24)
        chosen = every if a.all or wanted >= len(every) else sorted(
            rng.sample(every, wanted), key=lambda s: (s[1], s[2]))
        if a.list:
            for s in chosen:
                print("%s:%d %s %r -> %r" % (b, s[1], s[0], s[3], s[4]))
            continue
        killed, survived, stillborn, timed_out = [], [], [], []
        t0 = time.time()
        head = "%s: %d sites, no mutant run" % (b, len(every))
        work = os.path.join(out, "work")
        env = dict(os.environ, LD_LIBRARY_PATH=work + ":" + os.path.join(out, "stubs"))
        for k, s in enumerate(chosen):
            mutant, line = apply(text, s)
            log = os.path.join(out, "%s-%03d.log" % (b, k))
            open(log, "w").close()
            desc = "%s:%d %s %s -> %s: %s" % (os.path.basename(src), s[1], s[0], s[3], s[4], line)
            if not build_mutant(v, b, mutant, work, log):
                stillborn.append(desc)
                verdict = "stillborn"
            else:
                rc = run([host, b, str(n_runs), "1"], log, timeout=timeout, env=env)
                if rc == -1:
                    # under a loaded machine a slow survivor may time out as well as a
                    # mutant that hangs the runner: neither counted, listed for a look
                    timed_out.append(desc)
                    verdict = "timeout"
                elif rc == 0:
                    survived.append(desc)
                    verdict = "SURVIVED"
                else:
                    killed.append(desc)
                    verdict = "killed (exit %d)" % rc
            print("  %s mutant %d/%d %s: %s" % (b, k + 1, len(chosen), verdict, desc), flush=True)
            done = len(killed) + len(survived)
            head = ("%s: %d sites, %d of %d sampled mutants run: %d killed, %d survived, "
                    "%d stillborn, %d timed out; mutation score %.1f%% (%.0f s; runner: "
                    "cosim-mutant %s %d 1)" % (
                        b, len(every), k + 1, len(chosen), len(killed), len(survived),
                        len(stillborn), len(timed_out),
                        100.0 * len(killed) / done if done else 0.0,
                        time.time() - t0, b, n_runs))
            tail = (["  survived: " + d for d in survived] +
                    ["  timed out: " + d for d in timed_out])
            write_report(report + [head] + tail)
        report.append(head)
        report += ["  survived: " + d for d in survived] + ["  timed out: " + d for d in timed_out]
    if a.list:
        return 0
    write_report(report)
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
