#!/usr/bin/env python3
"""Generate the surface format table (build/gen/surface_formats.h and .c) from
spec/formats/surface_formats.txt, one SURFACE_FORMAT a line (the file's header says
where the facts come from and what each column means).

The header gets `enum surface_format` (SURFACE_FORMAT_<name> = encoding); the C file
gets one `struct format_desc` (units/common/format.h) per format, a table from the
key (ASTC Enable << 9 | Surface Format) to the description, and a name lookup.

Checks made here, so a bad row stops the build: encodings and names unique; every
field of a bit-field layout (plain, palette, sharedexp) adds up to the bits per
block; known channel letters, types, layouts and colour spaces.

Usage: gen_formats.py DATA_FILE OUT_H OUT_C   (Python 3 standard library only)
"""
import os
import re
import sys

KEYS = 1024                      # (ASTC Enable << 9) | 9-bit Surface Format
GENS = (4, 7, 8, 9)
CHANNELS = {"R": "R", "G": "G", "B": "B", "A": "A", "L": "L", "I": "I", "P": "P",
            "Y": "Y", "U": "U", "V": "V", "E": "E", "X": "X"}
TYPES = {"unorm": "UNORM", "snorm": "SNORM", "uint": "UINT", "sint": "SINT",
         "uscaled": "USCALED", "sscaled": "SSCALED", "sfloat": "SFLOAT",
         "ufloat": "UFLOAT", "sfixed": "SFIXED", "x": "X", "raw": "RAW"}
LAYOUTS = ["plain", "sharedexp", "palette", "yuv422", "planar", "raw", "mono", "bc1",
           "bc2", "bc3", "bc4", "bc5", "bc6h", "bc7", "dxt1rgb", "fxt1", "etc1", "etc2",
           "eac", "astc"]
BIT_FIELD_LAYOUTS = ("plain", "palette", "sharedexp")
SPACES = ("linear", "srgb", "yuv")
MAX_FIELDS = 4


def fail(path, lineno, msg):
    sys.exit("%s:%d: %s" % (path, lineno, msg))


def parse(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            cells = line.split()
            if len(cells) < 7:
                fail(path, lineno, "expected value name since bits block space layout [fields]")
            value, name, since, bits, block, space, layout = cells[:7]
            fields = []
            shift = 0
            for tok in cells[7:]:
                m = re.match(r"^([A-Z]):([a-z]+)(\d+)$", tok)
                if not m or m.group(1) not in CHANNELS or m.group(2) not in TYPES:
                    fail(path, lineno, "bad field %r" % tok)
                width = int(m.group(3))
                fields.append((m.group(1), m.group(2), width, shift))
                shift += width
            bw, bh = (int(x) for x in block.split("x"))
            row = dict(lineno=lineno, value=int(value, 16), name=name, since=int(since),
                       bits=int(bits), bw=bw, bh=bh, space=space, layout=layout,
                       fields=fields)
            if row["value"] >= KEYS:
                fail(path, lineno, "value 0x%x out of range" % row["value"])
            if row["since"] not in GENS:
                fail(path, lineno, "since must be one of %s" % (GENS,))
            if space not in SPACES:
                fail(path, lineno, "bad colour space %r" % space)
            if layout not in LAYOUTS:
                fail(path, lineno, "bad layout %r" % layout)
            if len(fields) > MAX_FIELDS:
                fail(path, lineno, "more than %d fields" % MAX_FIELDS)
            if layout in BIT_FIELD_LAYOUTS and shift != row["bits"]:
                fail(path, lineno, "fields add up to %d bits, not %d" % (shift, row["bits"]))
            if layout not in BIT_FIELD_LAYOUTS + ("yuv422",) and any(w for _, _, w, _ in fields):
                fail(path, lineno, "only bit-field layouts give field widths")
            rows.append(row)
    seen_v, seen_n = {}, {}
    for r in rows:
        if r["value"] in seen_v:
            fail(path, r["lineno"], "value 0x%x also on line %d" % (r["value"], seen_v[r["value"]]))
        if r["name"] in seen_n:
            fail(path, r["lineno"], "name %s also on line %d" % (r["name"], seen_n[r["name"]]))
        seen_v[r["value"]] = r["lineno"]
        seen_n[r["name"]] = r["lineno"]
    rows.sort(key=lambda r: r["value"])
    return rows


def value_kind(row):
    """What format_unpack returns: UINT or SINT if a colour channel is an integer,
    FLOAT otherwise (003 L5206: UINT formats take U32 data, SINT formats S32, the
    others FLOAT32)."""
    types = [t for c, t, _, _ in row["fields"] if c != "X" and t != "x"]
    if "uint" in types:
        return "FORMAT_VALUE_UINT"
    if "sint" in types:
        return "FORMAT_VALUE_SINT"
    return "FORMAT_VALUE_FLOAT"


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    data, out_h, out_c = argv[1:]
    rows = parse(data)
    src = os.path.relpath(data) if not os.path.isabs(data) else data

    h = []
    h.append("/* %s - generated by spec/formats/gen_formats.py from %s; do not edit. */"
             % (os.path.basename(out_h), src))
    h.append("#ifndef GTSIM_GEN_SURFACE_FORMATS_H")
    h.append("#define GTSIM_GEN_SURFACE_FORMATS_H")
    h.append("")
    h.append("/* Every SURFACE_FORMAT: the key is (ASTC Enable << 9) | Surface Format. */")
    h.append("enum surface_format {")
    for r in rows:
        h.append("    SURFACE_FORMAT_%s = 0x%03x," % (r["name"], r["value"]))
    h.append("};")
    h.append("")
    h.append("#define SURFACE_FORMAT_KEYS %d   /* keys run 0 .. KEYS-1 */" % KEYS)
    h.append("#define SURFACE_FORMAT_COUNT %d  /* formats described */" % len(rows))
    h.append("")
    h.append("#endif")
    h.append("")

    c = []
    c.append("/* %s - generated by spec/formats/gen_formats.py from %s; do not edit. */"
             % (os.path.basename(out_c), src))
    c.append("#include <stdlib.h>")
    c.append("#include <string.h>")
    c.append("")
    c.append('#include "units/common/format.h"')
    c.append("")
    c.append("static const struct format_desc descs[SURFACE_FORMAT_COUNT] = {")
    for r in rows:
        fl = ", ".join("{ FORMAT_CH_%s, FORMAT_TYPE_%s, %d, %d }"
                       % (CHANNELS[ch], TYPES[t], w, s) for ch, t, w, s in r["fields"])
        c.append("    /* %s:%d */" % (os.path.basename(data), r["lineno"]))
        c.append('    { "%s", 0x%03x, %d, FORMAT_LAYOUT_%s, FORMAT_SPACE_%s, %d, %d, %d, %s, %d,'
                 % (r["name"], r["value"], r["since"], r["layout"].upper(),
                    r["space"].upper(), r["bits"], r["bw"], r["bh"], value_kind(r),
                    len(r["fields"])))
        c.append("      { %s } }," % (fl if fl else "{ 0 }"))
    c.append("};")
    c.append("")
    index = [-1] * KEYS
    for i, r in enumerate(rows):
        index[r["value"]] = i
    c.append("/* key -> index in descs[], -1 where no format is defined */")
    c.append("static const short index_of_key[SURFACE_FORMAT_KEYS] = {")
    for base in range(0, KEYS, 16):
        c.append("    " + " ".join("%d," % v for v in index[base:base + 16]))
    c.append("};")
    c.append("")
    by_name = sorted(range(len(rows)), key=lambda i: rows[i]["name"])
    c.append("/* indices in descs[] sorted by name (strcmp order) */")
    c.append("static const unsigned short index_by_name[SURFACE_FORMAT_COUNT] = {")
    for base in range(0, len(by_name), 16):
        c.append("    " + " ".join("%d," % v for v in by_name[base:base + 16]))
    c.append("};")
    c.append("""
const struct format_desc *format_describe(unsigned key)
{
    if (key >= SURFACE_FORMAT_KEYS || index_of_key[key] < 0)
        return NULL;
    return &descs[index_of_key[key]];
}

const struct format_desc *format_nth(unsigned n)
{
    return n < SURFACE_FORMAT_COUNT ? &descs[n] : NULL;
}

const struct format_desc *format_find(const char *name)
{
    unsigned lo = 0, hi = SURFACE_FORMAT_COUNT;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        int cmp = strcmp(name, descs[index_by_name[mid]].name);
        if (cmp == 0)
            return &descs[index_by_name[mid]];
        if (cmp < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}""")
    # Name order must be strcmp order: Python's sort on str is code-point order,
    # which is byte order for these ASCII names.
    write_atomic(out_h, "\n".join(h))
    write_atomic(out_c, "\n".join(c) + "\n")


if __name__ == "__main__":
    main(sys.argv)
