#!/usr/bin/env python3
"""spec/tools/seed004_draft.py - authoring aid (not run by the build): print a
draft <command> element in spec/data form for commands of seed 004 (BDW Vol 2a)
that the reference genxml lacks.  The draft is read against the seed and
edited by hand before it goes into spec/data/gen8.xml.
Usage: seed004_draft.py SEED004 NAME [SECTION_LINE]...
"""
import re
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
import seed_refs  # noqa: E402


def fmt_type(fmt):
    f = fmt.strip()
    if re.match(r"^(Enable|Disable|U1 Enable)", f):
        return {"type": "bool"}
    if f.startswith("MBZ"):
        return {"type": "mbz"}
    if re.match(r"^(GraphicsAddress|.*Address\[)", f):
        return {"type": "address"}
    if re.match(r"^\w*(Base)?Offset\[", f) or f.startswith("MmioAddress"):
        return {"type": "offset"}
    m = re.match(r"^U(\d+)\.(\d+)", f)
    if m:
        return {"type": "ufixed", "frac": m.group(2)}
    if re.match(r"^S\d+", f):
        return {"type": "int"}
    if "Float" in f or "FLOAT" in f:
        return {"type": "float"}
    return {"type": "uint"}


def draft(lines, name, start):
    starts = seed_refs.section_starts_004(lines)
    end = next((x for x in starts if x > start), len(lines))
    out = []
    bias = None
    cur = None
    tail = None
    for i in range(start - 1, end - 1):
        raw = lines[i]
        cells = [t.strip() for t in raw.split("\t") if t.strip()]
        text = " ".join(cells)
        b = re.search(r"Length Bias:\s*(\d+)", text)
        if b and bias is None:
            bias = int(b.group(1))
        rr = seed_refs.rows(lines, i, 1, stop_at_heading=False)
        if rr and "\t" in raw:
            dw, hi, lo, _, ln = rr[0]
            j = 1 if seed_refs.CELL_DW.match(cells[0]) and len(cells) >= 3 and cells[0] != cells[1] else 0
            nm = cells[j + 1] if j + 1 < len(cells) else ""
            if seed_refs.CELL_BITS.match(nm) and j + 2 < len(cells):
                nm = cells[j + 2]
            nm = re.sub(r"<[^>]*>", " ", nm)
            nm = re.split(r"\s+(Format|Default Value|Project|Range)\s*:", nm)[0].strip()
            is_tail = bool(re.match(r"^\d+\.\.n", cells[0])) if j == 1 else False
            cur = {"name": nm, "dword": dw, "hi": hi, "lo": lo, "line": ln, "type": {"type": "uint"},
                   "default": None, "tail": is_tail}
            if nm.lower().startswith("reserved"):
                cur["type"] = {"type": "mbz"}
            out.append(cur)
            # format / default in the same row
        if cur is not None:
            d = re.search(r"Default Value:\s*([0-9A-Fa-f]+)h\b", text) or \
                re.search(r"^([0-9A-Fa-f]+)h\b.*\[Default\]", text)
            if d and cur["default"] is None:
                cur["default"] = int(d.group(1), 16)
            f = re.search(r"Format:\s*(.+)$", text)
            if f and not cur["name"].lower().startswith("reserved"):
                cur["type"] = fmt_type(f.group(1))
    fixed = [f for f in out if not f["tail"]]
    tails = [f for f in out if f["tail"]]
    nd = max((f["dword"] + (f["hi"] // 32) for f in fixed), default=0) + 1
    hdr = '  <command name="%s"%s bias="%d" engine="render" src="004:%d">' % (
        name, "" if tails else ' length="%d"' % nd, bias or 2, start)
    print(hdr)

    def fld(f, dw, ind):
        t = f["type"]
        bits = "%d:%d" % (f["hi"], f["lo"]) if f["hi"] != f["lo"] else "%d" % f["lo"]
        a = '%s<field name="%s" dword="%d" bits="%s" type="%s"' % (ind, f["name"], dw, bits, t["type"])
        if "frac" in t:
            a += ' frac="%s"' % t["frac"]
        if f["default"] is not None and t["type"] not in ("mbz",):
            a += ' default="%d"' % f["default"]
        a += ' src="004:%d" />' % f["line"]
        print(a)
    for f in fixed:
        if f["type"]["type"] != "mbz":
            fld(f, f["dword"], "    ")
    if tails:
        f = tails[0]
        size = f["hi"] - f["lo"] + 1 if f["lo"] == 0 else f["hi"] + 1
        print('    <group count="0" dword="%d" size="%d">' % (f["dword"], size))
        for f in tails:
            if f["type"]["type"] != "mbz":
                fld(f, 0, "      ")
        print("    </group>")
    print("  </command>")


def main():
    path = sys.argv[1]
    with open(path, errors="replace") as fh:
        lines = fh.read().split("\n")
    secs = {}
    for s in seed_refs.section_starts_004(lines):
        secs.setdefault(lines[s - 1].strip(), []).append(s)
    for name in sys.argv[2:]:
        for s in secs.get(name, []):
            draft(lines, name, s)


if __name__ == "__main__":
    main()
