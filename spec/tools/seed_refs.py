#!/usr/bin/env python3
"""spec/tools/seed_refs.py - authoring aid (not run by the build): find where
the seeds show each element and field of spec/data/gen{4,7,8}.xml and record it
in src= (gen4: seed 001, gen7: seed 000, gen8: seed 004).

An element's src becomes the line of its table heading in the seed (a line
holding just the name, possibly split by the PDF extraction, followed by a
"Project:", "Source:" or "Length Bias:" line), or "ref" when the seed has no
table for it (e.g. URB_FENCE in seed 001, only mentioned there).  A field
without src gets "SEED:line" when the table shows a row with the same dword,
the same bit range and the same name (spaces, case and punctuation ignored);
nothing is guessed from bits alone.  Fields inside groups are left alone.
Usage: seed_refs.py SEEDDIR DATADIR
"""
import os
import re
import sys

SEEDS = {4: ("001", "001_cac73f28c8cd0b58.txt"), 7: ("000", "000_d30e6cc240a1332f.txt"),
         8: ("004", "004_213881109442438b.txt")}
ROW_DW = re.compile(r"^(\d+)(?:\.\.\d+)?\s+(\d+(?::\s?\d+)?)\s+(\S.*)$")
ROW = re.compile(r"^(\d+(?::\s?\d+)?)\s+(\S.*)$")
# Tables whose heading the PDF extraction split or left out (checked by hand):
# name -> the line of the table's "DWord Bit Description" row.
MANUAL = {4: {"3DSTATE_VERTEX_BUFFERS": 3943, "3DSTATE_VERTEX_ELEMENTS": 4295,
              "3DSTATE_VF_STATISTICS": 5215, "VS_STATE": 5611, "SF_VIEWPORT": 14109,
              "VERTEX_ELEMENT_STATE": 4323}}
HEAD_NEXT = re.compile(r"^(Project:|Source:|Length Bias:|DWord\s+Bit)")


def norm(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


def headings(lines, names):
    """name -> first table-heading line (1-based)."""
    want = {norm(n).upper(): n for n in names}
    found = {}
    for i, ln in enumerate(lines):
        t = ln.split("\t")[0].strip()
        t = re.sub(r"^\d+(\.\d+)+\s+", "", t)
        t = re.sub(r"\s*\[[^\]]*\]\s*$", "", t)
        key = re.sub(r"[^A-Z0-9_]", "", t.replace(" ", "")).replace("_", "")
        if not t or not re.match(r"^[A-Z0-9_ ]+$", t):
            continue
        n = want.get(key)
        if n is None or n in found:
            continue
        nxt = [l.strip() for l in lines[i + 1:i + 6] if l.strip()]
        nxt = nxt[0] if nxt else ""
        # seed 000 (PDF): "Source:" may come after the name; 004: a repeat of the name.
        if HEAD_NEXT.match(nxt) or nxt.split("\t")[0].strip() == t:
            found[n] = i + 1
    return found


def rows(lines, start, limit=900):
    """(dword, hi, lo, normalized name, line) of the table rows after start."""
    out = []
    dword = 0
    for i in range(start, min(len(lines), start + limit)):
        ln = " ".join(t.strip() for t in lines[i].split("\t") if t.strip())
        if i > start + 3 and re.match(r"^[A-Z0-9_]+\s*$", ln) and i + 1 < len(lines) \
                and HEAD_NEXT.match(lines[i + 1].strip()):
            break          # next table
        m = ROW_DW.match(ln)
        if m and not re.match(r"^\d", m.group(3)[:1] if m.group(3)[:2] != "3D" else "x"):
            dword = int(m.group(1))
            bits, name = m.group(2), m.group(3)
        else:
            m = ROW.match(ln)
            if not m:
                continue
            bits, name = m.group(1), m.group(2)
        bits = bits.replace(" ", "")
        hi, _, lo = bits.partition(":")
        hi = int(hi)
        lo = int(lo) if lo else hi
        out.append((dword, hi, lo, norm(name), i + 1))
    return out


def main():
    seeddir, datadir = sys.argv[1:3]
    for gen, (sid, fn) in SEEDS.items():
        with open(os.path.join(seeddir, fn), errors="replace") as f:
            lines = f.read().split("\n")
        if gen == 7:
            lines = lines[:4656]        # seed 000 holds its text twice
        path = os.path.join(datadir, "gen%d.xml" % gen)
        with open(path) as f:
            data = f.read().split("\n")
        names = [m.group(1) for m in (re.search(r'<(?:command|struct|register) name="([^"]+)"', l) for l in data) if m]
        heads = headings(lines, names)
        heads.update(MANUAL.get(gen, {}))
        cur_rows = []
        depth = 0
        nel = nf = 0
        for k, l in enumerate(data):
            m = re.match(r'^(\s*)<(command|struct|register) name="([^"]+)"(.*)$', l)
            if m:
                name = m.group(3)
                depth = 0
                src = re.search(r' src="([^"]*)"', l)
                cur = src.group(1) if src else ""
                h = heads.get(name)
                if gen in (4, 7) and not cur.startswith("004"):
                    new = "%s:%d" % (sid, h) if h else "ref"
                    if new != cur:
                        l = re.sub(r' src="[^"]*"', ' src="%s"' % new, l)
                        nel += 1
                elif gen == 8 and cur == "ref" and h:
                    l = re.sub(r' src="[^"]*"', ' src="%s:%d"' % (sid, h), l)
                    nel += 1
                cur_rows = rows(lines, h) if h else []
                data[k] = l
                continue
            if "<group" in l:
                depth += 1
            if "</group>" in l:
                depth -= 1
            fm = re.match(r'^\s*<field name="([^"]+)" dword="(\d+)" bits="(\d+)(?::(\d+))?"', l)
            if fm and depth == 0 and " src=" not in l and cur_rows:
                nm, dw = norm(fm.group(1)), int(fm.group(2))
                hi = int(fm.group(3))
                lo = int(fm.group(4)) if fm.group(4) else hi
                for (rd, rh, rl, rn, rline) in cur_rows:
                    if rd == dw and rh == hi and rl == lo and nm and (rn == nm or rn.startswith(nm)):
                        l = re.sub(r'(<field [^>]*?)(\s*/?>)$', r'\1 src="%s:%d"\2' % (sid, rline), l)
                        nf += 1
                        break
                data[k] = l
        with open(path, "w") as f:
            f.write("\n".join(data))
        print("gen%d: %d element sources set, %d fields confirmed" % (gen, nel, nf))


if __name__ == "__main__":
    main()
