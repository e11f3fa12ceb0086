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

How (default: mutant schemata): ONE source per block in which every chosen
site is `((mutant_select == K) ? <mutated> : <original>)` (schemata() below),
verilated and compiled once (SCHEMATA_OPT, position independent) into
OUT/schemata/BLOCK/libV<block>_broken.so; mutant K is a run of the runner with
GTSIM_MUTANT=K (a DPI import the runner answers; 0 = the original RTL, which
must pass or the block gets no score). The runner `cosim-mutant` is linked
once, with every block's BROKEN model as a shared library
(OUT/stubs/libV<block>_broken.so, from the RTL with -DBROKEN); LD_LIBRARY_PATH
puts the block's schemata in front. Sites the schemata cannot express (an
operator that is a non-blocking assignment, a constant that must stay
constant: localparams, replication counts; or a line Verilator rejects) are
stillborn, listed, not counted.
--one-build-per-mutant: the earlier path, each mutant verilated and compiled
(OPT) on its own into OUT/work/libV<block>_broken.so (minutes a mutant here).

A mutant is
  killed     the runner reports a mismatch (exit 3) or fails otherwise; with
             the schemata also when it does not end within 5x the original's
             time (at least 20 s): a hang, counted as killed (listed);
  survived   every run passes (exit 0);
  stillborn  it does not verilate (lint/width errors) or build: not counted.
The score is killed / (killed + survived). OUT/report.txt (rewritten after
every mutant) lists the score per block and every survivor with its line, for
a new test or an explanation (rtl-cosim/README.md "Test adequacy").

usage: mutate.py --build BUILD --blocks om_pixel,cs_alu [--mutants N|all|BLOCK=N|all,...] [--seed S]
                 [--all] [--out DIR] [--list] [--runs BLOCK=N,...] [--one-build-per-mutant]
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import threading
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
SCHEMATA_OPT = "-O1"   # the one schemata build a block: its run time counts, per mutant
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


# ---- mutant schemata: every chosen site in one source, selected at run time ----------
#
# Each site becomes `((mutant_select == K) ? <mutated> : <original>)` around the
# smallest expression the mutation changes (a literal; an if condition; for an
# operator, its two operands found by SystemVerilog precedence), so one build of
# the block serves every mutant: `mutant_select` is a module variable set once by
# `initial` from the DPI import gtsim_mutant_select() (the runner reads it from
# $GTSIM_MUTANT; 0 = the original). The mutated arm is written with the original
# text (other sites are off when K is on); the original arm nests the inner sites,
# so the source grows linearly, and copies are put on one line, so every line of
# the schemata keeps its number (Verilator's errors map back to sites).

TOKEN_RE = re.compile(r"""
   (?P<lit>\d*'[sS]?[bdhoBDHO][0-9a-fA-F_xXzZ?]+)
  |(?P<unb>'[01xXzZ](?![\w']))
  |(?P<num>\d+(?:\.\d+)?)
  |(?P<id>\$?[A-Za-z_][\w$]*)
  |(?P<dir>`\w+)
  |(?P<str>"[^"\n]*")
  |(?P<op><<<|>>>|===|!==|<->|->|\+\+|--|\+=|-=|\*\*|<<|>>|<=|>=|==|!=|&&|\|\||~&|~\||~\^|\^~|::
        |\+:|-:|[-+*/%<>=!~&|^?:;,.()\[\]{}@#'])
""", re.X)
PREC = {"**": 11, "*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8, "<<<": 8,
        ">>>": 8, "<": 7, "<=": 7, ">": 7, ">=": 7, "==": 6, "!=": 6, "===": 6, "!==": 6,
        "&": 5, "^": 4, "~^": 4, "^~": 4, "|": 3, "&&": 2, "||": 1}
UNARY = {"+", "-", "&", "|", "^", "~&", "~|", "~^", "!", "~"}
KEYWORDS = set("""if else begin end case casez casex endcase default return assign always
    always_ff always_comb always_latch initial for while posedge negedge or and not unique
    priority function endfunction module endmodule logic wire reg int input output inout
    localparam parameter typedef automatic inside genvar generate endgenerate""".split())
OPEN, CLOSE = "([{", ")]}"


def strip_comments(text):
    """text with // and /* */ comments blanked (offsets and newlines kept)."""
    out, i, n = list(text), 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif text[i] == '"':
            j = text.find('"', i + 1)
            i = n if j < 0 else j + 1
        else:
            i += 1
    return "".join(out)


class Tokens:
    def __init__(self, code):
        self.tok = []                    # (start, end, kind, text)
        for m in TOKEN_RE.finditer(code):
            self.tok.append((m.start(), m.end(), m.lastgroup, m.group(0)))
        self.at = {t[0]: i for i, t in enumerate(self.tok)}
        self.match = {}
        stack = []
        for i, t in enumerate(self.tok):
            if t[3] in OPEN:
                stack.append(i)
            elif t[3] in CLOSE and stack:
                j = stack.pop()
                self.match[i], self.match[j] = j, i

    def text(self, i):
        return self.tok[i][3] if 0 <= i < len(self.tok) else None

    def atom(self, i):
        kind, text = self.tok[i][2], self.tok[i][3]
        if kind == "id":       # a keyword is an atom only as a cast's type: int'(x)
            return text not in KEYWORDS or self.text(i + 1) == "'"
        return kind in ("lit", "unb", "num", "str") or text in (".", "'", "::")

    def unary(self, i):
        """token i is an operator in unary position."""
        t = self.text(i)
        if t in ("!", "~"):
            return True
        if t not in UNARY:
            return False
        if i == 0:
            return True
        p = self.text(i - 1)
        return not (self.atom(i - 1) or p in CLOSE)

    def assignment(self, i):
        """token i (<=) is a non-blocking assignment, not a comparison."""
        k = i - 1
        while k >= 0 and (self.atom(k) or self.text(k) in "]}"):
            k = self.match.get(k, k) - 1 if self.text(k) in "]}" else k - 1
        if k < 0:
            return True
        p = self.text(k)
        if p in (";", ":", "begin", "else", "end", "default"):
            return True
        if p == ")" and k in self.match:
            q = self.text(self.match[k] - 1)
            return q in ("if", "for", "while", "@", "case")
        return False

    def operands(self, i):
        """(first token, last token) of the binary expression of operator token i."""
        p = PREC[self.text(i)]
        j, first = i - 1, i
        while j >= 0:
            t = self.text(j)
            if t in CLOSE and j in self.match:
                j = self.match[j]
            elif self.atom(j) or self.unary(j):
                pass
            elif t in PREC and PREC[t] >= p and not (t == "<=" and self.assignment(j)):
                pass
            else:
                break
            first = j
            j -= 1
        j, last, n = i + 1, i, len(self.tok)
        while j < n:
            t = self.text(j)
            if t in OPEN and j in self.match:
                j = self.match[j]
            elif self.atom(j) or self.unary(j):
                pass
            elif t in PREC and PREC[t] > p and not self.unary(j):
                pass
            else:
                break
            last = j
            j += 1
        if first == i or last == i:
            return None
        return first, last


def schemata(text, chosen):
    """One source with every chosen site behind mutant_select: (source, kept, dropped);
    kept: [(K, site, first line, last line)], dropped: [(site, why)] (sites the
    schemata cannot express). K is the site's 1-based index in chosen."""
    code = strip_comments(text)
    toks = Tokens(code)
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    # lines of localparam/parameter declarations (to their `;`): constants there
    # must stay constant expressions
    constant_lines, inside_decl = set(), False
    for n, line in enumerate(code.split("\n"), 1):
        if re.match(r"\s*(localparam|parameter)\b", line):
            inside_decl = True
        if inside_decl:
            constant_lines.add(n)
            if ";" in line:
                inside_decl = False
    nodes, dropped = [], []
    for k, site in enumerate(chosen, 1):
        kind, n, col, old, new = site
        off = starts[n - 1] + col
        if n in constant_lines:
            dropped.append((site, "in a localparam/parameter declaration (must stay constant)"))
            continue
        if kind == "cond":
            nodes.append({"k": k, "site": site, "a": off, "b": off + len(old), "rank": 0})
            continue
        i = toks.at.get(off)
        if i is None or toks.text(i) != old:
            dropped.append((site, "not a token of its own"))
            continue
        if kind == "const":
            nxt = toks.text(i + 1)
            prv = toks.text(i - 1)
            if nxt == "{" or prv in ("#", "'"):
                dropped.append((site, "a constant expression (replication, parameter)"))
                continue
            nodes.append({"k": k, "site": site, "a": off, "b": off + len(old), "rank": 2})
            continue
        if old == "<=" and toks.assignment(i):
            dropped.append((site, "a non-blocking assignment, not an operator"))
            continue
        if toks.unary(i):
            dropped.append((site, "a unary operator"))
            continue
        span = toks.operands(i)
        if span is None:
            dropped.append((site, "operands not found"))
            continue
        nodes.append({"k": k, "site": site, "a": toks.tok[span[0]][0], "b": toks.tok[span[1]][1],
                      "op": (off, off + len(old)), "rank": 1})
    nodes.sort(key=lambda d: (d["a"], -d["b"], d["rank"]))
    root = {"a": 0, "b": len(code), "children": []}
    stack = [root]
    for d in nodes:
        d["children"] = []
        while len(stack) > 1 and stack[-1]["b"] <= d["a"]:
            stack.pop()
        top = stack[-1]
        if d["b"] > top["b"] or ("op" in top and d["a"] < top["op"][1] and d["b"] > top["op"][0]):
            dropped.append((d["site"], "overlaps another site's expression"))
            d["dropped"] = True
            continue
        top["children"].append(d)
        stack.append(d)

    def flat(a, b):
        return code[a:b].replace("\n", " ")

    def render(a, b, children):
        out, pos = [], a
        for c in children:
            if c["a"] < a or c["b"] > b:
                continue
            out.append(text[pos:c["a"]])     # verbatim, comments (lint pragmas) kept
            out.append(node(c))
            pos = c["b"]
        out.append(text[pos:b])
        return "".join(out)

    def node(d):
        _, _, _, old, new = d["site"]
        sel = "(mutant_select == %d)" % d["k"]
        if d["rank"] == 2:
            return "(%s ? %s : %s)" % (sel, new, old)
        if d["rank"] == 0:
            return "(%s ? !(%s) : (%s))" % (sel, flat(d["a"], d["b"]),
                                            render(d["a"], d["b"], d["children"]))
        oa, ob = d["op"]
        left = render(d["a"], oa, d["children"])
        right = render(ob, d["b"], d["children"])
        return "(%s ? (%s %s %s) : (%s%s%s))" % (sel, flat(d["a"], oa), new, flat(ob, d["b"]),
                                                 left, old, right)

    body = render(0, len(code), root["children"])
    # the selector, declared on the line that closes the module header (lines keep
    # numbers); found in the code without comments, before any site, so the offset
    # is the same in body
    m = re.search(r"^\s*module\b", code, re.M)
    depth, j = 0, m.end()
    while j < len(code):
        ch = code[j]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ";" and depth == 0:
            break
        j += 1
    decl = (' import "DPI-C" function int gtsim_mutant_select(); int mutant_select;'
            " initial mutant_select = gtsim_mutant_select();")
    body = body[:j + 1] + decl + body[j + 1:]
    kept = [(d["k"], d["site"], code.count("\n", 0, d["a"]) + 1, code.count("\n", 0, d["b"]) + 1)
            for d in sorted(nodes, key=lambda d: d["k"]) if not d.get("dropped")]
    return body, kept, dropped


def error_lines(log_text, name):
    """Line numbers of `name` that Verilator reported errors or warnings on."""
    out = set()
    for m in re.finditer(r"%(?:Error|Warning)[^:]*: [^\n]*?" + re.escape(name) + r":(\d+):",
                         log_text):
        out.add(int(m.group(1)))
    return out


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
    bad = set(v["MODELS_BAD"].split())
    good = [m for m in v["MODELS"].split() if m not in bad]
    binary = os.path.join(out, "cosim-mutant")
    inputs = (["rtl-cosim/tools/mutant_main.c"] + v["COSIM_C_OBJS"].split() +
              v["CXX_OBJS"].split() + good + v["VLRT"].split() +
              [x for x in v["LIBS"].split() if not x.startswith("-")] +
              [os.path.join(stubs, "lib%s.so" % ("V%s_broken" % b)) for b in BLOCKS])
    if os.path.exists(binary) and all(os.path.getmtime(x) <= os.path.getmtime(binary)
                                      for x in inputs if os.path.exists(x)):
        return binary           # the runner of an earlier session, nothing newer since
    if run(["cc", "-std=c11", "-O2", "-flto=auto", "-I.", "-Ibuild/gen", "-c", "-o", main_obj,
            "rtl-cosim/tools/mutant_main.c"], log):
        return None
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


def build_schemata(v, block, text, chosen, work, log):
    """The block's schemata as lib<block's BROKEN prefix>.so in work: (kept, dropped)
    or None. Sites Verilator rejects (lines it reports an error on) are dropped and
    the schemata written again, until it verilates."""
    prefix = "V%s_broken" % block
    os.makedirs(work, exist_ok=True)
    sv = os.path.join(work, block + ".sv")
    refused = []
    current = list(chosen)
    index = {id(s): k for k, s in enumerate(chosen, 1)}
    for _ in range(50):
        body, kept, dropped = schemata(text, current)
        # K stays the site's index in chosen, whatever was dropped before it
        body = re.sub(r"\(mutant_select == (\d+)\)",
                      lambda m: "(mutant_select == %d)" % index[id(current[int(m.group(1)) - 1])],
                      body)
        kept = [(index[id(current[k - 1])], st, a, b) for k, st, a, b in kept]
        lib = os.path.join(work, "lib%s.so" % prefix)
        if (os.path.exists(lib) and os.path.exists(sv) and open(sv).read() == body and
                os.path.getmtime(lib) >= os.path.getmtime(sv)):
            return kept, dropped + refused      # built by an earlier session
        with open(sv, "w") as f:
            f.write(body)
        with open(log, "a") as f:
            f.write("$ verilator --lint-only %s\n" % sv)
        res = subprocess.run(["verilator", "--lint-only", "-Wall", "-Wno-fatal", sv],
                             capture_output=True, text=True)
        with open(log, "a") as f:
            f.write(res.stderr)
        bad = {int(m.group(1)) for m in re.finditer(
            r"%Error[^:]*: [^\n]*?" + re.escape(block) + r"\.sv:(\d+):", res.stderr)}
        if res.returncode == 0 and not bad:
            break
        if not bad:
            return None
        gone = {id(st) for k, st, a, b in kept if a in bad} or \
               {id(st) for k, st, a, b in kept if any(a <= n <= b for n in bad)}
        if not gone:
            return None
        refused += [(st, "Verilator refused it in the schemata")
                    for st in current if id(st) in gone]
        current = [st for st in current if id(st) not in gone]
    else:
        return None
    mdir = os.path.join(work, prefix)
    shutil.rmtree(mdir, ignore_errors=True)
    vflags = v["VFLAGS"].split() + ["-Wno-fatal"]
    if run(["verilator"] + vflags + ["--prefix", prefix, "-Mdir", mdir, sv], log):
        return None
    if run(["make", "-s", "-C", mdir, "-f", prefix + ".mk", "CXXFLAGS=-fPIC",
            "OPT_FAST=" + SCHEMATA_OPT, "OPT_SLOW=" + SCHEMATA_OPT, "OPT_GLOBAL=" + SCHEMATA_OPT,
            prefix + "__ALL.a"], log):
        return None
    if run([v["CXX"], "-shared", "-o", os.path.join(work, "lib%s.so" % prefix),
            "-Wl,--whole-archive", os.path.join(mdir, prefix + "__ALL.a"),
            "-Wl,--no-whole-archive"], log):
        return None
    return kept, dropped + refused


def run_schemata(v, host, b, a, chosen, every, out, report, write_report):
    """Every chosen mutant of block b from one build of its schemata."""
    src, n_runs, _ = BLOCKS[b]
    n_runs = a.runs.get(b, n_runs)
    text = open(src).read()
    work = os.path.join(out, "schemata", b)
    log = os.path.join(out, "%s-schemata.log" % b)
    open(log, "w").close()
    t0 = time.time()
    built = build_schemata(v, b, text, chosen, work, log)
    t_build = time.time() - t0
    if built is None:
        report.append("%s: the schemata did not build (%s)" % (b, log))
        with open(os.path.join(out, "report-%s.txt" % b), "w") as f:
            f.write(report[-1] + "\n")
        combine_reports(out)
        return
    kept, dropped = built
    env = dict(os.environ, LD_LIBRARY_PATH=work + ":" + os.path.join(out, "stubs"))
    cmd = [host, b, str(n_runs), "1"]

    lock = threading.Lock()

    def one(k):
        """Mutant k's run: (exit status or -1 on the timeout, seconds); its output
        appended to the log in one piece (mutants may run side by side, --jobs)."""
        e = dict(env, GTSIM_MUTANT=str(k))
        t = time.time()
        try:
            res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=e,
                                 timeout=timeout)
            rc, output = res.returncode, res.stdout
        except subprocess.TimeoutExpired as x:
            rc, output = -1, (x.stdout or b"") + b"timeout\n"
        with lock, open(log, "ab") as f:
            f.write(("$ GTSIM_MUTANT=%d %s\n" % (k, " ".join(cmd))).encode() + output)
        return rc, time.time() - t

    timeout = 3600
    n_schemata = len(kept)
    rc0, t_orig = one(0)
    if rc0 != 0:
        report.append("%s: the schemata with no mutant selected (K=0) FAILS its tests "
                      "(exit %d, %s): no score" % (b, rc0, log))
        with open(os.path.join(out, "report-%s.txt" % b), "w") as f:
            f.write(report[-1] + "\n")
        combine_reports(out)
        return
    # a mutant the runner does not finish in 5x the original's time (at least 20 s)
    # hangs the block: killed by the timeout, as mutation tools count it (a survivor
    # does the original's work, so it ends near the original's time)
    timeout = max(20.0, 5 * t_orig)
    if a.run_at_most and a.run_at_most < len(kept):
        # a seeded sample of the schemata's mutants (the schemata stays built)
        order = random.Random(a.seed).sample(kept, a.run_at_most)
        kept = sorted(order, key=lambda x: x[0])
    killed, survived, timed_out = [], [], []
    t_mutants = 0.0
    pool = concurrent.futures.ThreadPoolExecutor(max(1, a.jobs))
    runs = {pool.submit(one, k): (k, st) for k, st, _, _ in kept}
    for n_done, run_k in enumerate(concurrent.futures.as_completed(runs), 1):
        k, st = runs[run_k]
        _, line_no, _, old, new = st
        line = apply(text, st)[1]
        desc = "K=%d %s:%d %s %s -> %s: %s" % (k, os.path.basename(src), line_no, st[0], old, new,
                                               line)
        rc, dt = run_k.result()
        t_mutants += dt
        if rc == -1:
            timed_out.append(desc)
            killed.append(desc)
            verdict = "killed (timeout)"
        elif rc == 0:
            survived.append(desc)
            verdict = "SURVIVED"
        else:
            killed.append(desc)
            verdict = "killed (exit %d)" % rc
        print("  %s mutant %d/%d %s: %s" % (b, n_done, len(kept), verdict, desc), flush=True)
        done = len(killed) + len(survived)
        head = ("%s: %d sites, %d chosen (%s), %d in the schemata%s, %d run: %d killed (%d by "
                "timeout), %d survived, %d stillborn; mutation score %.1f%%; schemata build %.0f s, "
                "K=0 (original) passes in %.1f s, %.2f s a mutant on average (runner: "
                "GTSIM_MUTANT=K cosim-mutant %s %d 1)" % (
                    b, len(every), len(chosen), a.sample_desc(b, every), n_schemata,
                    " (%d of them sampled, seed %d)" % (len(kept), a.seed)
                    if len(kept) < n_schemata else "", n_done,
                    len(killed), len(timed_out), len(survived), len(dropped),
                    100.0 * len(killed) / done if done else 0.0, t_build, t_orig,
                    t_mutants / n_done, b, n_runs))
        by_k = lambda d: int(d.split()[0][2:])      # "K=12 ..." (finished out of order)
        tail = (["  survived: " + d for d in sorted(survived, key=by_k)] +
                ["  stillborn: %s:%d %s %s -> %s (%s)" % (os.path.basename(src), st[1], st[0],
                                                         st[3], st[4], why)
                 for st, why in dropped])
        with open(os.path.join(out, "report-%s.txt" % b), "w") as f:
            f.write("\n".join([head] + tail) + "\n")
        combine_reports(out)
    pool.shutdown()
    report.append(head)
    report += tail


def combine_reports(out):
    """OUT/report.txt: the latest report-BLOCK.txt of every block run so far
    (a run of some blocks keeps the others' scores)."""
    parts = []
    for b in sorted(BLOCKS):
        path = os.path.join(out, "report-%s.txt" % b)
        if os.path.exists(path):
            parts.append(open(path).read().rstrip("\n"))
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/release")
    ap.add_argument("--blocks", default="om_pixel")
    ap.add_argument("--mutants", default="24",
                    help="mutants per block: N or all, or BLOCK=N|all,... (blocks not named: 24)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--out", default=None)
    ap.add_argument("--one-build-per-mutant", action="store_true",
                    help="the old path: verilate and compile every mutant on its own")
    ap.add_argument("--run-at-most", type=int, default=0,
                    help="run a seeded sample of at most N of the schemata's mutants")
    ap.add_argument("--jobs", type=int, default=1,
                    help="mutants of the schemata run side by side (default 1)")
    ap.add_argument("--runs", default="",
                    help="BLOCK=N,...: the runner's N for a block (default: BLOCKS)")
    a = ap.parse_args()
    a.runs = {k: int(n) for k, n in (x.split("=") for x in a.runs.split(",") if x)}
    a.sample_desc = lambda b, every: (
        "all" if a.all or per_block.get(b, 24) >= len(every)
        else "a sample of %d, seed %d" % (per_block.get(b, 24), a.seed))
    out = a.out or os.path.join(a.build, "cosim-mutate")
    os.makedirs(out, exist_ok=True)
    blocks = [b for b in a.blocks.split(",") if b]
    per_block = {}
    # "all" (MUTANTS=all, what a user types for every site) as a count or per block
    every_site = 1 << 30
    for item in a.mutants.split(","):
        if "=" in item:
            name, n = item.split("=", 1)
            per_block[name] = every_site if n == "all" else int(n)
        elif item == "all":
            per_block = {b: every_site for b in BLOCKS}
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
        n_runs = a.runs.get(b, n_runs)
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
        if not a.one_build_per_mutant:
            run_schemata(v, host, b, a, chosen, every, out, report, write_report)
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
    if a.one_build_per_mutant:
        write_report(report)
    else:
        combine_reports(out)
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
