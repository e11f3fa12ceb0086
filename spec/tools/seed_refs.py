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
Usage: seed_refs.py SEEDDIR DATADIR [--recheck-004]
--recheck-004 re-checks the seed-004 field sources of gen8/gen9 against the
sections' real boundaries (the first cut missed some section headings, so a
row of the next command could be credited).
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


def first_token(line):
    return next((t.strip() for t in line.split("\t") if t.strip()), "")


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
        if HEAD_NEXT.match(nxt) or first_token(nxt) == t:
            found[n] = i + 1
    return found


CELL_DW = re.compile(r"^(\d+)(?:\.\.\d+|\.\.n)?(?:\s+Project:.*)?$")
CELL_BITS = re.compile(r"^(\d+)(?::\s?(\d+))?$")


def rows(lines, start, limit=900, stop_at_heading=True):
    """(dword, hi, lo, normalized name, line) of the table rows after start.
    Tab-separated lines (seed 004) are read cell by cell; the PDF seeds (000,
    001) as "[dword] bits name" text."""
    out = []
    dword = 0
    for i in range(start, min(len(lines), start + limit)):
        raw = lines[i]
        cells = [t.strip() for t in raw.split("\t") if t.strip()]
        ln = " ".join(cells)
        if stop_at_heading and i > start + 3 and re.match(r"^[A-Z0-9_]+\s*$", ln) and i + 1 < len(lines) \
                and HEAD_NEXT.match(lines[i + 1].strip()):
            break          # next table
        if "\t" in raw:
            if len(cells) < 2:
                continue
            j = 0
            if len(cells) >= 3 and CELL_DW.match(cells[0]) and CELL_BITS.match(cells[1]) \
                    and cells[0] != cells[1]:
                dword = int(CELL_DW.match(cells[0]).group(1))
                j = 1
            b = CELL_BITS.match(cells[j])
            if not b:
                continue
            name = cells[j + 1] if j + 1 < len(cells) else ""
            if CELL_BITS.match(name) and j + 2 < len(cells):
                name = cells[j + 2]
            name = re.sub(r"<[^>]*>", " ", name).strip()
            hi = int(b.group(1))
            lo = int(b.group(2)) if b.group(2) else hi
            out.append((dword, hi, lo, norm(name), i + 1))
            continue
        bare = re.match(r"^(\d+)\s+\d+(?::\d+)?$", ln)
        if bare:
            dword = int(bare.group(1))      # "1 31": a dword's first bit row, name elsewhere
            continue
        m = ROW_DW.match(ln)
        if m and m.group(1) == m.group(2).replace(" ", ""):
            m = None        # "15 15 Reserved": the bit cell repeated, not a dword
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


def section_starts_004(lines):
    """Every command section heading of seed 004: a line that is just an
    identifier, a blank line, then the table (name repeated, or DWord/Project)."""
    starts = []
    for i in range(len(lines) - 3):
        a = lines[i].strip()
        if not a or not re.match(r"^[A-Z0-9_]+$", a) or lines[i + 1].strip():
            continue
        nxt = first_token(lines[i + 2])
        if nxt == a or nxt.startswith("DWord"):
            starts.append(i + 1)
    return starts


def element_src_004(path):
    out = {}
    with open(path) as f:
        for l in f:
            m = re.match(r'^\s*<(?:command|struct|register) name="([^"]+)".*?src="004:(\d+)"', l)
            if m:
                out[m.group(1)] = int(m.group(2))
    return out


def recheck_004(lines, path, fallback=None):
    """Field sources of seed-004 elements: a field keeps 004:L only when line L
    lies in its element's own section and shows the same dword and bits; else
    the section is searched again; else the field becomes src="ref"."""
    starts = section_starts_004(lines)
    with open(path) as f:
        data = f.read().split("\n")
    cur_rows, lo_line, hi_line = [], 0, 0
    depth = 0
    moved = dropped = kept = 0
    for k, l in enumerate(data):
        m = re.match(r'^\s*<(command|struct|register) name="([^"]+)"(?:.*?src="004:(\d+)")?', l)
        elem_line = None
        if m and m.group(3):
            elem_line = int(m.group(3))
        elif m and fallback and m.group(2) in fallback:
            # a gen9 element changed from gen8: the BDW table of the gen8 element
            elem_line = fallback[m.group(2)]
        if elem_line:
            lo_line = elem_line
            hi_line = next((x for x in starts if x > lo_line), len(lines))
            cur_rows = rows(lines, lo_line, hi_line - lo_line, stop_at_heading=False)
            depth = 0
            continue
        if re.match(r'^\s*<(command|struct|register) ', l):
            cur_rows, lo_line, hi_line = [], 0, 0
            continue
        if "<group" in l:
            depth += 1
        if "</group>" in l:
            depth -= 1
        fm = re.match(r'^\s*<field name="([^"]+)" dword="(\d+)" bits="(\d+)(?::(\d+))?".*? src="004:(\d+)"', l)
        if not fm:
            continue
        dw, hi = int(fm.group(2)), int(fm.group(3))
        lo = int(fm.group(4)) if fm.group(4) else hi
        line = int(fm.group(5))
        if depth == 0 and any(r[4] == line and (r[0], r[1], r[2]) == (dw, hi, lo) for r in cur_rows):
            kept += 1
            continue
        hit = next((r for r in cur_rows if (r[0], r[1], r[2]) == (dw, hi, lo)), None) if depth == 0 else None
        if hit:
            l = re.sub(r' src="004:\d+"', ' src="004:%d"' % hit[4], l)
            if hit[3].startswith(norm(fm.group(1))):
                l = re.sub(r' seed_name="[^"]*"', "", l)
            moved += 1
        else:
            l = re.sub(r' src="004:\d+"', ' src="ref"', l)
            l = re.sub(r' seed_name="[^"]*"', "", l)
            dropped += 1
        data[k] = l
    with open(path, "w") as f:
        f.write("\n".join(data))
    print("%s: %d field sources kept, %d moved, %d dropped to ref" % (path, kept, moved, dropped))


def main():
    seeddir, datadir = sys.argv[1:3]
    if len(sys.argv) > 3 and sys.argv[3] == "--recheck-004":
        with open(os.path.join(seeddir, SEEDS[8][1]), errors="replace") as f:
            lines = f.read().split("\n")
        recheck_004(lines, os.path.join(datadir, "gen8.xml"))
        recheck_004(lines, os.path.join(datadir, "gen9.xml"),
                    element_src_004(os.path.join(datadir, "gen8.xml")))
        return
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
