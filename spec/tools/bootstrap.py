#!/usr/bin/env python3
"""spec/tools/bootstrap.py - one-time authoring aid that wrote the first cut of
spec/data/gen*.xml.  Not run by the build.

How the data was made (so a reader can judge it):
  * Which elements: per generation, every command and state structure the
    seven traces use (tests/data/traces/*.aubinator.txt), every MI_* command,
    PIPE_CONTROL, every render-engine command the generation's seed defines,
    every non-video state structure and every register the reference lists.
  * Layouts: field positions are written in PRM form (dword + bits); the
    header encoding, length and bias of every command are checked against
    the seed section when the seed has one.  Seed 004 (BDW Vol 2a) tables are
    parsed here: every field whose dword and bit range the seed table shows
    gets src="004:<line>"; a field the seed lacks, or whose bits the text
    extraction split, gets src="ref" (filled from the reference genxml, the
    public facts the DESIGN allows where a seed is silent).  Field names
    follow the names aubinator prints (so decodes compare with the trace
    dumps line for line); where the seed spells a field differently the
    seed's name is kept in seed_name=.
  * Gen9 is written as changes against gen8 (inherits="gen8"); gen4 and gen7
    stand alone.
Its seed-004 section finder missed headings that start with a tab or a DWord
row, so some field lines pointed at the next command's table; seed_refs.py
--recheck-004 corrected every one.  Running this again would overwrite the
hand edits made since (see spec/README.md): it is kept as a record.
Usage: bootstrap.py REFDIR SEEDDIR TRACEDIR OUTDIR
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

SEEDS = {4: "001_cac73f28c8cd0b58.txt", 7: "000_d30e6cc240a1332f.txt",
         8: "004_213881109442438b.txt", 9: "004_213881109442438b.txt"}
SEED_ID = {4: "001", 7: "000", 8: "004", 9: "004"}
TRACES = {4: ["g965/g965_tri"], 7: ["byt/byt_tri", "byt/byt_compute"],
          8: ["bdw/bdw_tri", "bdw/bdw_compute"], 9: ["skl/skl_tri", "skl/skl_compute"]}
STATE_STRUCTS = {
    4: ["VS_STATE", "GS_STATE", "CLIP_STATE", "SF_STATE", "WM_STATE", "CC_STATE",
        "SURFACE_STATE", "SAMPLER_STATE", "VERTEX_BUFFER_STATE", "VERTEX_ELEMENT_STATE",
        "CC_VIEWPORT", "SF_VIEWPORT", "CLIP_VIEWPORT"],
}
BITS_RE = re.compile(r"^(\d+)(?::(\d+))?$")
DW_RE = re.compile(r"^(\d+)(?:\.\.(\d+))?$")


def seed_sections(lines, names):
    """First line (1-based) where a line is exactly NAME (optionally after a
    section number) - the section heading."""
    found = {}
    pat = re.compile(r"^(?:[\d.]+\s+)?([A-Z0-9_]+)\s*(?:\[[^\]]*\])?\s*$")
    for i, ln in enumerate(lines):
        m = pat.match(ln.strip())
        if m and m.group(1) in names and m.group(1) not in found:
            found[m.group(1)] = i + 1
    return found


def seed004_sections(lines):
    """name -> list of (start line, end line) of seed 004 command sections."""
    secs = {}
    starts = []
    for i in range(len(lines) - 2):
        a = lines[i].strip()
        if a and re.match(r"^[A-Z0-9_]+$", a) and lines[i + 1].strip() == "" \
                and lines[i + 2].split("\t")[0].strip() == a:
            starts.append((i, a))
    for k, (i, a) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        secs.setdefault(a, []).append((i + 1, end))
    return secs


def seed004_fields(lines, start, end):
    """(dword, hi, lo) -> (line, name) from a seed 004 DWord|Bit|Description table."""
    out = {}
    dword = 0
    for i in range(start - 1, end):
        toks = [t.strip() for t in lines[i].split("\t") if t.strip()]
        if len(toks) < 2:
            continue
        j = 0
        m = DW_RE.match(toks[0])
        if m and len(toks) >= 3 and BITS_RE.match(toks[1]):
            dword = int(m.group(1))
            j = 1
        bm = BITS_RE.match(toks[j])
        if not bm:
            continue
        name = toks[j + 1] if j + 1 < len(toks) else ""
        if BITS_RE.match(name) and j + 2 < len(toks):
            name = toks[j + 2]
        name = re.sub(r"<[^>]*>.*", "", name).strip()
        if not name or not re.match(r"^[A-Za-z0-9\[]", name) or name.endswith(":"):
            continue
        hi = int(bm.group(1))
        lo = int(bm.group(2)) if bm.group(2) else hi
        out.setdefault((dword, hi, lo), (i + 1, name))
    return out


def trace_names(tracedir, gen):
    names = set()
    for t in TRACES[gen]:
        with open(os.path.join(tracedir, t + ".aubinator.txt"), errors="replace") as f:
            for ln in f:
                m = re.match(r"^0x[0-9a-f]+:  0x[0-9a-f]+:  ([A-Z0-9_]+)", ln)
                if m:
                    names.add(m.group(1))
                for w in re.findall(r"\b([A-Z][A-Z0-9_]{3,})\b", ln):
                    names.add(w)
    return names


def norm(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())


FIXED_RE = re.compile(r"^([us])(\d+)\.(\d+)$")


class Ref:
    def __init__(self, path):
        self.root = ET.parse(path).getroot()
        self.enums = {e.get("name"): e for e in self.root.iter("enum")}
        self.elems = {}
        for e in self.root:
            if e.tag in ("instruction", "struct", "register"):
                self.elems[e.get("name")] = e


def conv_field(ref, f, base, seedf, out_parent, deps):
    """Append our <field> for reference field f (absolute start/end within the
    container, minus base)."""
    start = int(f.get("start")) - base
    end = int(f.get("end")) - base
    dword = start // 32
    lo = start - dword * 32
    hi = end - dword * 32
    typ = f.get("type")
    fname = f.get("name") or ("Reserved %d" % start if typ in ("mbo", "mbz") else None)
    attrs = {"name": fname, "dword": str(dword),
             "bits": "%d:%d" % (hi, lo) if hi != lo else "%d" % lo}
    values = [(v.get("name"), v.get("value")) for v in f.findall("value")]
    m = FIXED_RE.match(typ)
    if m:
        attrs["type"] = "ufixed" if m.group(1) == "u" else "sfixed"
        attrs["frac"] = m.group(3)
    elif typ in ("uint", "int", "bool", "float", "address", "offset", "mbz", "mbo"):
        attrs["type"] = typ
    elif typ in ref.enums:
        attrs["type"] = "uint"
        values = values or [(v.get("name"), v.get("value")) for v in ref.enums[typ].findall("value")]
        attrs["enum"] = typ
    elif typ in ref.elems:
        if start % 32 == 0 and (end - start + 1) % 32 == 0:
            attrs["type"] = "struct"
            attrs["struct"] = typ
            deps.add(typ)
        else:
            attrs["type"] = "uint"
            attrs["struct"] = typ
    else:
        attrs["type"] = "uint"
    if f.get("default") is not None:
        attrs["default"] = f.get("default")
    if seedf is not None:
        hit = seedf.get((dword, hi, lo))
        if hit:
            attrs["src"] = "%s:%d" % ("004", hit[0])
            if norm(hit[1]) != norm(fname):
                attrs["seed_name"] = hit[1]
        else:
            attrs["src"] = "ref"
    el = ET.SubElement(out_parent, "field", attrs)
    if values:
        if attrs["type"] == "bool":
            pass
        else:
            for n, v in values:
                ET.SubElement(el, "value", {"name": n, "value": v})


def conv_children(ref, node, base, seedf, out_parent, deps):
    for c in node:
        if c.tag == "field":
            conv_field(ref, c, base, seedf, out_parent, deps)
        elif c.tag == "group":
            gstart = int(c.get("start")) - base
            g = ET.SubElement(out_parent, "group", {
                "count": c.get("count"), "dword": str(gstart // 32),
                "bitoffset": str(gstart % 32), "size": c.get("size")})
            if gstart % 32 == 0:
                del g.attrib["bitoffset"]
            conv_children(ref, c, 0, None, g, deps)


def conv_elem(ref, e, gen, seed_lines, sec004, secs_other, deps):
    tag = {"instruction": "command", "struct": "struct", "register": "register"}[e.tag]
    name = e.get("name")
    attrs = {"name": name}
    for a in ("length", "bias", "num"):
        if e.get(a) is not None:
            attrs[a] = e.get(a)
    if e.get("engine"):
        attrs["engine"] = e.get("engine")
    seedf = None
    if gen in (8, 9) and name in sec004:
        s, t = sec004[name][-1] if name.startswith("MI_") else sec004[name][0]
        # MI commands have one section per engine; prefer the render one.
        for (a, b) in sec004[name]:
            if any("RenderCS" in seed_lines[k] or "Render Command Streamer" in seed_lines[k]
                   for k in range(a, min(a + 8, b))):
                s, t = a, b
                break
        attrs["src"] = "004:%d" % s
        seedf = seed004_fields(seed_lines, s, t)
    elif name in secs_other:
        attrs["src"] = "%s:%d" % (SEED_ID[gen], secs_other[name])
    else:
        attrs["src"] = "ref"
    out = ET.Element(tag, attrs)
    conv_children(ref, e, 0, seedf, out, deps)
    return out


def wanted(ref, gen, tnames, seednames):
    w = set()
    for name, e in ref.elems.items():
        eng = e.get("engine") or "render"
        if e.tag == "register":
            w.add(name)
        elif e.tag == "struct":
            if name in tnames or name in STATE_STRUCTS.get(gen, []) or "video" not in eng:
                if not re.match(r"^(MFX|MFD|MFC|HCP|VDENC|HUC|VEB|SFC|MFQM|VEBOX|AVC|VP8|VP9|HEVC|JPEG|MPEG|VC1|QM|PAK|ENC)", name):
                    w.add(name)
        else:
            if "render" not in eng:
                continue
            if name in tnames or name.startswith("MI_") or name == "PIPE_CONTROL" or name in seednames:
                w.add(name)
    return w


def canon(e):
    a = tuple(sorted((k, v) for k, v in e.attrib.items() if k not in ("src", "seed_name")))
    return (e.tag, a, tuple(canon(c) for c in e))


def indent(elem, level=0):
    pad = "\n" + "  " * level
    if len(elem):
        if not (elem.text or "").strip():
            elem.text = pad + "  "
        for c in elem:
            indent(c, level + 1)
        if not (c.tail or "").strip():
            c.tail = pad
    if level and not (elem.tail or "").strip():
        elem.tail = pad


def main():
    refdir, seeddir, tracedir, outdir = sys.argv[1:5]
    files = {4: "gen4.xml", 7: "gen7.xml", 8: "gen8.xml", 9: "gen9.xml"}
    platform = {4: "BRW", 7: "IVB/BYT", 8: "BDW", 9: "SKL"}
    built = {}
    for gen in (4, 7, 8, 9):
        ref = Ref(os.path.join(refdir, files[gen]))
        with open(os.path.join(seeddir, SEEDS[gen]), errors="replace") as f:
            seed_lines = f.read().split("\n")
        sec004 = seed004_sections(seed_lines) if gen in (8, 9) else {}
        secs_other = seed_sections(seed_lines, set(ref.elems)) if gen in (4, 7) else {}
        seednames = set(sec004) | set(secs_other) if gen in (4, 7, 8) else set(sec004)
        tnames = trace_names(tracedir, gen)
        w = wanted(ref, gen, tnames, seednames)
        deps = set()
        elems = {}
        todo = sorted(w)
        while todo:
            n = todo.pop()
            if n in elems or n not in ref.elems:
                continue
            d = set()
            elems[n] = conv_elem(ref, ref.elems[n], gen, seed_lines, sec004, secs_other, d)
            todo.extend(sorted(d - set(elems)))
        built[gen] = elems
        root = ET.Element("spec", {"gen": str(gen), "platform": platform[gen]})
        if gen == 9:
            root.set("inherits", "gen8")
            parent = built[8]
            for n in sorted(set(parent) - set(elems)):
                ET.SubElement(root, "exclude", {"name": n})
        order = {"command": 0, "struct": 1, "register": 2}
        for n in sorted(elems, key=lambda k: (order[elems[k].tag], k)):
            e = elems[n]
            if gen == 9 and n in built[8]:
                if canon(e) == canon(built[8][n]):
                    continue
                e.set("src", "ref")
                e.set("changed_from", "gen8")
                for f in e.iter("field"):
                    f.attrib.pop("seed_name", None)
            root.append(e)
        indent(root)
        path = os.path.join(outdir, "gen%d.xml" % gen)
        with open(path, "w") as f:
            f.write("<?xml version='1.0' encoding='utf-8'?>\n")
            f.write("<!-- gtsim command/state/register spec, gen%d (%s). Format: spec/README.md.\n"
                    "     src: seed file:line (000/001/004 = shared/seeds) or \"ref\" (reference genxml). -->\n"
                    % (gen, platform[gen]))
            f.write(ET.tostring(root, encoding="unicode"))
            f.write("\n")
        nc = sum(1 for e in root if e.tag == "command")
        ns = sum(1 for e in root if e.tag == "struct")
        nr = sum(1 for e in root if e.tag == "register")
        print("gen%d: %d commands, %d structs, %d registers" % (gen, nc, ns, nr))


if __name__ == "__main__":
    main()
