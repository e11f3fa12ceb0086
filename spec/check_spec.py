#!/usr/bin/env python3
"""spec/check_spec.py - compare spec/data with Mesa's genxml (and, when present,
with the field names aubinator printed for the real traces).

Usage: check_spec.py [--quiet] DATADIR REFDIR ALLOWFILE [TRACEDIR]
(--quiet: only unexplained differences and the totals)
Every difference is printed with a key; ALLOWFILE lists the deliberate ones as
"KEY | why" (KEY may be a shell-style pattern, e.g. "gen? CS_GPR* ...").  Exit status 1 when any difference is not explained there (or an
explanation no longer matches anything).  Skips with a message when REFDIR is
absent.  Standard library only.
"""
import fnmatch
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_pack  # noqa: E402

GENS = (4, 7, 8, 9)
FIXED_RE = re.compile(r"^([us])(\d+)\.(\d+)$")
TRACES = {4: ["g965/g965_tri"], 7: ["byt/byt_tri", "byt/byt_compute"],
          8: ["bdw/bdw_tri", "bdw/bdw_compute"], 9: ["skl/skl_tri", "skl/skl_compute"]}


def ref_elements(path):
    root = ET.parse(path).getroot()
    enums = {e.get("name") for e in root.iter("enum")}
    elems = {}
    for e in root:
        if e.tag in ("instruction", "struct", "register"):
            elems[e.get("name")] = e
    return elems, enums


def ref_type(t, start, end, enums, elems):
    m = FIXED_RE.match(t)
    if m:
        return ("ufixed" if m.group(1) == "u" else "sfixed", int(m.group(3)), None)
    if t in ("uint", "int", "bool", "float", "address", "offset", "mbz", "mbo"):
        return (t, 0, None)
    if t in enums:
        return ("uint", 0, None)
    if t in elems:
        if start % 32 == 0 and (end - start + 1) % 32 == 0:
            return ("struct", 0, t)
        return ("uint", 0, None)
    return ("uint", 0, None)


def ref_leaves(node, enums, elems, path=""):
    out = []
    for c in node:
        if c.tag == "field":
            s, e = int(c.get("start")), int(c.get("end"))
            typ = ref_type(c.get("type"), s, e, enums, elems)
            name = c.get("name") or ("Reserved %d" % s)
            vals = tuple((v.get("name"), int(v.get("value"), 0)) for v in c.findall("value"))
            out.append((path + name, s, e, typ, c.get("default"), vals))
        elif c.tag == "group":
            gp = "%sgroup(%s,%s,%s)/" % (path, c.get("start"), c.get("size"), c.get("count"))
            out += ref_leaves(c, enums, elems, gp)
    return out


def our_leaves(items, path=""):
    out = []
    for it in items:
        if isinstance(it, gen_pack.Group):
            gp = "%sgroup(%d,%d,%d)/" % (path, it.start, it.size, it.count)
            out += our_leaves(it.items, gp)
        else:
            typ = (it.type, it.frac, it.struct if it.type == "struct" else None)
            vals = tuple(it.values) if it.type != "bool" else ()
            out.append((path + it.name, it.start, it.end, typ, it.default, vals))
    return out


def norm_default(d):
    return None if d is None else int(d, 0)


def compare(gen, ours, refpath):
    diffs = []
    relems, enums = ref_elements(refpath)
    for name in sorted(ours):
        e = ours[name]
        key = "gen%d %s" % (gen, name)
        r = relems.get(name)
        if r is None:
            diffs.append((key + " missing-in-reference", "element not in %s" % os.path.basename(refpath)))
            continue
        rlen = r.get("length")
        if e.kind != "register" and (rlen and int(rlen)) != e.length:
            diffs.append((key + " length", "ours %s, reference %s" % (e.length, rlen)))
        if e.kind == "command" and int(r.get("bias", "0")) != e.bias:
            diffs.append((key + " bias", "ours %d, reference %s" % (e.bias, r.get("bias"))))
        if e.kind == "register" and int(r.get("num"), 0) != e.num:
            diffs.append((key + " num", "ours 0x%x, reference %s" % (e.num, r.get("num"))))
        rl = {(f[0], f[1]): f for f in ref_leaves(r, enums, relems)}
        ol = {(f[0], f[1]): f for f in our_leaves(e.items)}
        for k in sorted(set(rl) | set(ol), key=lambda k: (k[1], k[0])):
            fk = '%s field "%s"@%d' % (key, k[0], k[1])
            if k not in ol:
                diffs.append((fk + " only-in-reference", "bits %d..%d" % (rl[k][1], rl[k][2])))
                continue
            if k not in rl:
                diffs.append((fk + " only-in-spec", "bits %d..%d" % (ol[k][1], ol[k][2])))
                continue
            o, f = ol[k], rl[k]
            if o[2] != f[2]:
                diffs.append((fk + " end", "ours %d, reference %d" % (o[2], f[2])))
            if o[3] != f[3]:
                diffs.append((fk + " type", "ours %s, reference %s" % (o[3], f[3])))
            if norm_default(o[4]) != norm_default(f[4]):
                diffs.append((fk + " default", "ours %s, reference %s" % (o[4], f[4])))
            if f[5] and set(o[5]) != set(f[5]):
                diffs.append((fk + " values", "ours %s, reference %s" % (o[5], f[5])))
    return diffs


def aubinator_fields(path):
    """{command: set of field names aubinator printed} for one decode."""
    out = {}
    cur = None
    with open(path, errors="replace") as f:
        for ln in f:
            m = re.match(r"^0x[0-9a-f]+:  0x[0-9a-f]+:  ([A-Z0-9_]+)", ln)
            if m:
                cur = out.setdefault(m.group(1), set())
                continue
            if ln.startswith("0x"):
                continue
            m = re.match(r"^    ([^ :][^:]*): ", ln)
            if m and cur is not None:
                cur.add(m.group(1))
            elif not ln.startswith("    "):
                cur = None
    return out


def compare_traces(gen, ours, tracedir):
    diffs = []
    for t in TRACES[gen]:
        path = os.path.join(tracedir, t + ".aubinator.txt")
        if not os.path.exists(path):
            continue
        for cmd, names in sorted(aubinator_fields(path).items()):
            e = ours.get(cmd)
            if e is None:
                diffs.append(("gen%d %s trace-missing" % (gen, cmd), "in %s" % t))
                continue
            have = {re.sub(r"^group\([^)]*\)/", "", l[0]) for l in our_leaves(e.items)}
            # aubinator prints embedded structs' fields and group entries flat
            def fields_of(items):
                for it in items:
                    if isinstance(it, gen_pack.Group):
                        yield from fields_of(it.items)
                    else:
                        yield it
            for f in fields_of(e.items):
                if f.struct and f.struct in ours:
                    have |= {re.sub(r"^group\([^)]*\)/", "", x[0]) for x in our_leaves(ours[f.struct].items)}
            for n in sorted(names):
                # group entries print as "Name[i]"; some names end in "[5]" themselves
                if n in have or re.sub(r"\[\d+\]$", "", n) in have:
                    continue
                if n.startswith(cmd) or re.match(r"^(Dword|DWord) \d+$", n):
                    continue
                diffs.append(('gen%d %s trace-field "%s"' % (gen, cmd, n), "aubinator prints it (%s)" % t))
    return diffs


SEED_FILES = {"001": "001_cac73f28c8cd0b58.txt", "000": "000_d30e6cc240a1332f.txt",
              "004": "004_213881109442438b.txt"}
HEADER_DEFAULTS = ("Command Type", "Command SubType", "3D Command Opcode", "3D Command Sub Opcode",
                   "MI Command Opcode", "Media Command Opcode", "Media Command Sub-Opcode",
                   "SubOpcode", "Pipeline", "DWord Length")


def compare_seed_000(gen, ours, lines, cache):
    """Seed 000 (Gen7 VLV, PDF text) lists a command's header defaults as the
    first value lines of its table, in the order Command Type, SubType,
    Opcode, Sub Opcode, then "<n>h Excludes DWord (0,1)" for DWord Length."""
    diffs = []
    order = ("Command Type", "Command SubType", "3D Command Opcode", "3D Command Sub Opcode")
    for name in sorted(ours):
        e = ours[name]
        m = re.match(r"^000:(\d+)$", e.src)
        if e.kind != "command" or not m:
            continue
        line = int(m.group(1))
        sec = lines[line - 1:line + 40]
        vals = [(i, re.match(r"^([0-9A-Fa-f]+)h\s", l).group(1)) for i, l in enumerate(sec)
                if re.match(r"^([0-9A-Fa-f]+)h\s", l)]
        if len(vals) < 4 or not sec[vals[3][0]].strip().endswith(name):
            continue            # the table does not open the usual way: nothing to compare
        fields = {f.name: f for f in e.items if isinstance(f, gen_pack.Field) and f.dword == 0}
        for fname, (i, v) in zip(order, vals[:4]):
            f = fields.get(fname)
            cache["checked"] = cache.get("checked", 0) + 1
            if f is None or f.default is None or int(f.default, 0) != int(v, 16):
                diffs.append(('gen%d %s seed-default "%s"' % (gen, name, fname), "ours %s, seed 000:%d says %sh" % (
                    f.default if f else None, line + i, v)))
        ex = next(((i, v) for i, v in vals[4:] if "Excludes" in sec[i]), None)
        f = fields.get("DWord Length")
        if ex and f is not None:
            cache["checked"] = cache.get("checked", 0) + 1
            if f.default is None or int(f.default, 0) != int(ex[1], 16):
                diffs.append(('gen%d %s seed-default "DWord Length"' % (gen, name),
                              "ours %s, seed 000:%d says %sh" % (f.default, line + ex[0], ex[1])))
    return diffs


def compare_seed(gen, ours, seeddir, cache):
    """Header defaults and length bias of each command against the seed table
    its src names (seeds 001 and 004, whose rows read "bits name ... Default
    Value: NNh").  A value the seed text does not show is not reported."""
    diffs = []
    if "000" not in cache:
        with open(os.path.join(seeddir, SEED_FILES["000"]), errors="replace") as f:
            cache["000"] = [l.strip() for l in f.read().split("\n")]
    diffs += compare_seed_000(gen, ours, cache["000"], cache)
    for name in sorted(ours):
        e = ours[name]
        m = re.match(r"^(00[14]):(\d+)$", e.src)
        if e.kind != "command" or not m:
            continue
        sid, line = m.group(1), int(m.group(2))
        if sid not in cache:
            with open(os.path.join(seeddir, SEED_FILES[sid]), errors="replace") as f:
                cache[sid] = [" ".join(t.strip() for t in l.split("\t") if t.strip())
                              for l in f.read().split("\n")]
        lines = cache[sid]
        sec = lines[line - 1:line + 60]
        key = "gen%d %s" % (gen, name)
        for l in sec[:12]:
            b = re.search(r"Length Bias:\s*(\d+)", l)
            if b:
                cache["checked"] = cache.get("checked", 0) + 1
                if int(b.group(1)) != e.bias:
                    diffs.append((key + " seed-bias", "ours %d, seed %s:%d says %s" % (
                        e.bias, sid, line, b.group(1))))
                break
        for f in e.items:
            if not isinstance(f, gen_pack.Field) or f.dword != 0 or f.default is None \
                    or f.name not in HEADER_DEFAULTS:
                continue
            for i, l in enumerate(sec):
                if not re.match(r"^(0\s+)?\d+:\d+\s+" + re.escape(f.name) + r"\b", l, re.I):
                    continue
                for l2 in sec[i:i + 5]:
                    d = re.search(r"Default Value:?\s*([0-9A-Fa-f]+)h\b", l2) or \
                        re.search(r"^([0-9A-Fa-f]+)h\s.*\[Default\]", l2)
                    if d:
                        cache["checked"] = cache.get("checked", 0) + 1
                        if int(d.group(1), 16) != int(f.default, 0):
                            diffs.append(('%s seed-default "%s"' % (key, f.name),
                                          "ours %s, seed %s:%d says %sh" % (
                                              f.default, sid, line + i, d.group(1))))
                        break
                break
    return diffs


def main():
    args = sys.argv[1:]
    quiet = "--quiet" in args
    args = [a for a in args if a != "--quiet"]
    datadir, refdir, allowfile = args[0:3]
    tracedir = args[3] if len(args) > 3 else os.path.join(refdir, "..", "..", "traces", "intel")
    if not os.path.isdir(refdir):
        print("check-spec: %s absent, skipping the comparison with the reference genxml" % refdir)
        return 0
    allow = {}
    with open(allowfile) as f:
        for ln in f:
            ln = ln.rstrip("\n")
            if not ln.strip() or ln.lstrip().startswith("#"):
                continue
            k, _, why = ln.partition(" | ")
            allow[k.strip()] = why.strip()
    seeddir = os.path.join(refdir, "..", "..", "seeds")
    seed_cache = {}
    used = set()
    unexplained = explained = 0
    trace_names = set()
    for gen in GENS:
        ours, _ = gen_pack.load_gen(datadir, gen)
        diffs = compare(gen, ours, os.path.join(refdir, "gen%d.xml" % gen))
        if os.path.isdir(tracedir):
            diffs += compare_traces(gen, ours, tracedir)
        if os.path.isdir(seeddir):
            diffs += compare_seed(gen, ours, seeddir, seed_cache)
        for key, msg in diffs:
            pat = key if key in allow else next(
                (p for p in allow if any(c in p for c in "*?[") and fnmatch.fnmatchcase(key, p)), None)
            if pat is not None:
                used.add(pat)
                explained += 1
                if not quiet:
                    print("explained   %s: %s (%s)" % (key, msg, allow[pat]))
            else:
                unexplained += 1
                print("UNEXPLAINED %s: %s" % (key, msg))
        nfields = sum(len(our_leaves(e.items)) for e in ours.values())
        if not quiet:
            print("gen%d: %d commands, %d structs, %d registers, %d fields compared" % (
                gen, sum(e.kind == "command" for e in ours.values()),
                sum(e.kind == "struct" for e in ours.values()),
                sum(e.kind == "register" for e in ours.values()), nfields))
    stale = sorted(set(allow) - used)
    for k in stale:
        print("STALE allow entry (matches nothing): %s" % k)
    print("check-spec: %d header defaults and length biases checked against the seed tables"
          % seed_cache.get("checked", 0))
    print("check-spec: %d explained differences, %d unexplained, %d stale allow entries" % (
        explained, unexplained, len(stale)))
    return 1 if unexplained or stale else 0


if __name__ == "__main__":
    sys.exit(main())
