#!/usr/bin/env python3
"""Generate the EU ISA tables (build/gen/eu_spec.h, build/gen/eu_spec.c) from the
plain-text spec data in spec/eu/:

  native-fields.txt    bit positions of every field of the 128-bit native form
  opcodes.txt          opcodes, SFIDs, register types, modifiers, ARF names ...
  compaction-gen7.txt  compact (64-bit) layout + tables, Gen7 (Ivy Bridge/ValleyView)
  compaction-gen8.txt  the same, Gen8 (Broadwell), with 3-source compaction
  compaction-gen9.txt  the same, Gen9 (Skylake)

Provenance of the data is in spec/eu/README.md; every fact below is a row of one of
those files, so the generated C carries the file and line it came from in a comment.

  descriptors.txt      message-descriptor fields opcodes.txt lacks, the SFID -> field
                       group map and the C prefixes of the groups

Usage: gen_eu_tables.py SPEC_DIR OUT_H OUT_C OUT_DESC_H   (Python 3 standard library only)
OUT_DESC_H (msg_desc.h) gets the message-descriptor accessors and constants; the generic
field reader and message names they need are written into OUT_C.
"""
import os
import re
import sys

GENS = ["gen4", "gen7", "gen8", "gen9"]


def read_sections(path):
    """Returns {section: (columns, [(lineno, [cells...]), ...])}; the last column
    of a row is free text (rest of the line)."""
    sections = {}
    name = None
    cols = None
    rows = None
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.strip().startswith("#"):
                continue
            if not line.strip():
                name = None
                continue
            m = re.match(r"^\[([A-Za-z0-9_-]+)\]\s*$", line.strip())
            if m:
                name = m.group(1)
                cols = None
                rows = []
                sections[name] = (None, rows)
                continue
            if name is None:
                continue
            if cols is None:
                cols = line.split()
                sections[name] = (cols, rows)
                continue
            cells = line.split(None, len(cols) - 1)
            rows.append((lineno, cells))
    return sections


def parse_bits(text):
    """'a,b:c' -> [(hi, lo), ...] MSB piece first; '-' -> []."""
    if text == "-":
        return []
    pieces = []
    for part in text.split(","):
        if ":" in part:
            hi, lo = part.split(":")
            pieces.append((int(hi), int(lo)))
        else:
            pieces.append((int(part), int(part)))
    return pieces


def cname(s):
    return re.sub(r"[^A-Za-z0-9]", "_", s).upper()


def cstr(s):
    if s is None:
        return "NULL"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


from gen_msg_desc import MessageDescriptors  # noqa: E402


def main():
    spec, out_h, out_c, out_desc_h = sys.argv[1:5]
    msg_desc = MessageDescriptors(spec, read_sections, parse_bits)
    nf_path = os.path.join(spec, "native-fields.txt")
    op_path = os.path.join(spec, "opcodes.txt")
    nf = read_sections(nf_path)
    ops = read_sections(op_path)

    # ---- native fields -------------------------------------------------------
    prefixed = {"sends": "SENDS_", "3src": "3SRC_"}
    fields = []  # (enum name, source line, {gen: pieces})
    for sec in ["control", "dst", "src0", "src1", "immediate", "branch", "send",
                "sends", "3src", "math"]:
        cols, rows = nf[sec]
        for lineno, cells in rows:
            name = "EU_F_" + prefixed.get(sec, "") + cname(cells[0])
            pos = {}
            for gi, g in enumerate(GENS):
                pos[g] = parse_bits(cells[1 + gi])
            fields.append((name, "native-fields.txt:%d [%s]" % (lineno, sec), pos))
    names = [f[0] for f in fields]
    assert len(names) == len(set(names)), "duplicate field names"

    # ---- opcodes ---------------------------------------------------------------
    opcode_rows = {g: {} for g in GENS}
    opcode_names = []   # (C name, value, generations, line): the opcodes of a modelled gen
    cols, rows = ops["opcodes"]
    for lineno, cells in rows:
        value = int(cells[0])
        mnem = cells[2]
        nsrc, ndst = int(cells[3]), int(cells[4])
        gens_of = [g for gi, g in enumerate(GENS) if cells[5 + gi] in ("y", "p", "?")]
        if gens_of:
            opcode_names.append(("EU_OPCODE_" + cname(mnem), value, " ".join(gens_of), lineno))
        for gi, g in enumerate(GENS):
            flag = cells[5 + gi]
            if flag in ("y", "p"):
                assert value not in opcode_rows[g], (g, value)
                opcode_rows[g][value] = (mnem, nsrc, ndst, lineno, flag)

    def per_gen_names(section, first_gen_col, ncodes, key=lambda c: int(c, 0)):
        cols, rows = ops[section]
        out = {g: [None] * ncodes for g in GENS}
        src = {}
        for lineno, cells in rows:
            code = key(cells[0])
            for gi, g in enumerate(GENS):
                v = cells[first_gen_col + gi]
                if v != "-":
                    out[g][code] = v
            src[code] = lineno
        return out

    sfid = per_gen_names("sfid", 1, 16)

    reg_types = {g: [None] * 16 for g in GENS}
    imm_types = {g: [None] * 16 for g in GENS}
    cols, rows = ops["register-type"]
    for lineno, cells in rows:
        code = int(cells[0])
        for gi, g in enumerate(GENS):
            r, i = cells[1 + 2 * gi], cells[2 + 2 * gi]
            reg_types[g][code] = None if r == "-" else r
            imm_types[g][code] = None if i == "-" else i
    types3 = {g: [None] * 8 for g in GENS}
    cols, rows = ops["3src-type"]
    for lineno, cells in rows:
        code = int(cells[0])
        for gi, g in enumerate(GENS[1:]):
            v = cells[1 + gi]
            types3[g][code] = None if v == "-" else v

    cond = {g: [None] * 16 for g in GENS}
    cond_names = []     # (C name, value, line)
    cols, rows = ops["conditional-modifier"]
    for lineno, cells in rows:
        code = int(cells[0])
        if cells[1] != "-":
            cond_names.append(("EU_COND_MOD_" + ("NONE" if cells[1] == "(none)" else cname(cells[1])),
                               code, lineno))
        for gi, g in enumerate(GENS):
            if cells[2 + gi] == "y" and cells[1] not in ("(none)", "-"):
                cond[g][code] = cells[1]

    pred1 = [None] * 16
    pred16 = [None] * 16
    cols, rows = ops["predicate-control"]
    for lineno, cells in rows:
        code = int(cells[0])
        pred1[code] = cells[1]
        pred16[code] = cells[2]

    arf4 = [None] * 16
    arf9 = [None] * 16
    cols, rows = ops["arf"]
    for lineno, cells in rows:
        code = int(cells[0], 16)
        arf4[code] = None if cells[1] == "-" else cells[1]
        arf9[code] = None if cells[2] == "-" else cells[2]

    math = {g: [None] * 16 for g in GENS}
    cols, rows = ops["math-function"]
    for lineno, cells in rows:
        code = int(cells[0])
        for gi, g in enumerate(GENS):
            if cells[2 + gi] == "y":
                math[g][code] = cells[1]

    # ---- compaction ------------------------------------------------------------
    compact = {}
    for g in GENS[1:]:
        path = os.path.join(spec, "compaction-%s.txt" % g)
        sec = read_sections(path)
        c = {"file": os.path.basename(path)}

        def table(name, sec=sec):
            cols, rows = sec[name]
            vals = [0] * 32
            for lineno, cells in rows:
                vals[int(cells[0])] = int(cells[1], 2)
            return vals[:len(rows)]

        def bitmap(name, src_col=0, dst_col=1, sec=sec):
            cols, rows = sec[name]
            out = []
            for lineno, cells in rows:
                s = parse_bits(cells[src_col].split()[0])
                d = parse_bits(cells[dst_col].split()[0])
                assert len(s) == 1 and len(d) == 1
                assert s[0][0] - s[0][1] == d[0][0] - d[0][1], (name, cells)
                out.append((s[0][0], s[0][1], d[0][0], d[0][1]))
            return out

        c["control"] = table("control-index")
        c["datatype"] = table("datatype-index")
        c["subreg"] = table("subreg-index")
        c["src"] = table("src-index")
        c["control_map"] = bitmap("control-index-expansion")
        c["datatype_map"] = bitmap("datatype-index-expansion")
        c["subreg_map"] = bitmap("subreg-index-expansion")
        c["src0_map"] = bitmap("src-index-expansion", 0, 1)
        c["src1_map"] = bitmap("src-index-expansion", 0, 2)
        c["imm_map"] = bitmap("immediate")

        def layout(name, sec=sec):
            cols, rows = sec[name]
            copies, idx = [], {}
            for lineno, cells in rows:
                cb = parse_bits(cells[0])[0]
                field, native = cells[1], cells[2]
                if native.startswith("table:"):
                    idx[field] = cb
                elif native != "-":
                    nb = parse_bits(native)[0]
                    if field == "cmpt_control":
                        continue  # 0 after expansion
                    copies.append((cb[0], cb[1], nb[0], nb[1], field))
            return copies, idx

        c["layout"], c["idx"] = layout("compact-layout")
        if "compact-3src-layout" in sec:
            c["c3_control"] = table("3src-control-index")
            c["c3_source"] = table("3src-source-index")
            c["c3_control_map"] = bitmap("3src-control-index-expansion")
            c["c3_source_map"] = bitmap("3src-source-index-expansion")
            c["layout3"], c["idx3"] = layout("compact-3src-layout")
        compact[g] = c

    # ---- emit header -------------------------------------------------------------
    H = []
    H.append("/* Generated by spec/eu/gen_eu_tables.py from the spec/eu text tables -- do not edit. */")
    H.append("#ifndef GTSIM_GEN_EU_SPEC_H")
    H.append("#define GTSIM_GEN_EU_SPEC_H")
    H.append("#include <stdint.h>")
    H.append("")
    H.append("enum eu_gen_index { EU_GEN4_IDX, EU_GEN7_IDX, EU_GEN8_IDX, EU_GEN9_IDX, EU_GEN_COUNT };")
    H.append("")
    names_ = [n for n, _, _, _ in opcode_names] + [n for n, _, _ in cond_names]
    assert len(names_) == len(set(names_)), "two opcodes or modifiers of one name"
    H.append("/* Opcodes by mnemonic (opcodes.txt [opcodes]): every opcode of a modelled")
    H.append(" * generation, with the generations that have it. Different generations give")
    H.append(" * some values different mnemonics (44: msave on gen4, call on gen7+). */")
    H.append("enum {")
    for name, value, gens_of, lineno in opcode_names:
        H.append("    %s = %d, /* opcodes.txt:%d %s */" % (name, value, lineno, gens_of))
    H.append("};")
    H.append("#define EU_OPCODE_COUNT 128     /* the opcode field is 7 bits: eu_opcode_table's size */")
    H.append("")
    H.append("/* Conditional modifiers (opcodes.txt [conditional-modifier]). */")
    H.append("enum {")
    for name, value, lineno in cond_names:
        H.append("    %s = %d, /* opcodes.txt:%d */" % (name, value, lineno))
    H.append("};")
    H.append("")
    H.append("/* Native-instruction fields (spec/eu/native-fields.txt). */")
    H.append("enum eu_field {")
    for name, src, pos in fields:
        H.append("    %s, /* %s */" % (name, src))
    H.append("    EU_F_COUNT")
    H.append("};")
    H.append("")
    H.append("struct eu_bitrange { uint8_t hi, lo; };")
    H.append("/* A field stored in npieces pieces, the most significant piece first;")
    H.append(" * npieces = 0: the field does not exist on this generation. */")
    H.append("struct eu_field_pos { uint8_t npieces; struct eu_bitrange piece[2]; };")
    H.append("extern const struct eu_field_pos eu_field_table[EU_GEN_COUNT][EU_F_COUNT];")
    H.append("extern const char *const eu_field_names[EU_F_COUNT];")
    H.append("")
    H.append("struct eu_opcode_desc {")
    H.append("    const char *mnemonic;   /* NULL: not an opcode of this generation */")
    H.append("    uint8_t nsrc, ndst;     /* as the disassemblers treat them */")
    H.append("    uint8_t prm_only;       /* listed by the PRM only (Mesa does not know it) */")
    H.append("};")
    H.append("extern const struct eu_opcode_desc eu_opcode_table[EU_GEN_COUNT][EU_OPCODE_COUNT];")
    H.append("extern const char *const eu_sfid_names[EU_GEN_COUNT][16];")
    H.append("extern const char *const eu_reg_type_names[EU_GEN_COUNT][16];")
    H.append("extern const char *const eu_imm_type_names[EU_GEN_COUNT][16];")
    H.append("extern const char *const eu_3src_type_names[EU_GEN_COUNT][8];")
    H.append("extern const char *const eu_cond_mod_names[EU_GEN_COUNT][16];")
    H.append("extern const char *const eu_pred_align1_names[16];")
    H.append("extern const char *const eu_pred_align16_names[16];")
    H.append("extern const char *const eu_arf_names_gen4[16];")
    H.append("extern const char *const eu_arf_names_gen9[16];")
    H.append("extern const char *const eu_math_names[EU_GEN_COUNT][16];")
    H.append("")
    H.append("/* One bit-range copy: bits src_hi:src_lo of the source (a compact instruction")
    H.append(" * or a table entry) go to native bits dst_hi:dst_lo. */")
    H.append("struct eu_bitmap_row { uint8_t src_hi, src_lo, dst_hi, dst_lo; };")
    H.append("struct eu_bitmap { uint8_t n; struct eu_bitmap_row row[16]; };")
    H.append("struct eu_compact_tables {")
    H.append("    uint8_t present;")
    H.append("    uint32_t control[32], datatype[32], subreg[32], src[32];")
    H.append("    struct eu_bitmap control_map, datatype_map, subreg_map, src0_map, src1_map;")
    H.append("    struct eu_bitmap imm_map;   /* compact bits -> immediate bits 12:0 */")
    H.append("    struct eu_bitmap layout;    /* fields copied compact -> native */")
    H.append("    struct eu_bitrange idx_control, idx_datatype, idx_subreg, idx_src0, idx_src1;")
    H.append("    uint8_t has_3src;")
    H.append("    uint32_t c3_control[4];")
    H.append("    uint64_t c3_source[4];")
    H.append("    struct eu_bitmap c3_control_map, c3_source_map, layout3;")
    H.append("    struct eu_bitrange idx3_control, idx3_source;")
    H.append("};")
    H.append("extern const struct eu_compact_tables eu_compact_table[EU_GEN_COUNT];")
    H.append("")
    H.append("")
    H.append("#endif")

    # ---- emit C ------------------------------------------------------------------
    C = []
    C.append("/* Generated by spec/eu/gen_eu_tables.py from the spec/eu text tables -- do not edit. */")
    C.append('#include "eu_spec.h"')
    C.append('#include <stddef.h>')
    C.append("")
    C.append("const char *const eu_field_names[EU_F_COUNT] = {")
    for name, src, pos in fields:
        C.append('    [%s] = "%s",' % (name, name[5:].lower()))
    C.append("};")
    C.append("")
    C.append("const struct eu_field_pos eu_field_table[EU_GEN_COUNT][EU_F_COUNT] = {")
    for gi, g in enumerate(GENS):
        C.append("    [%d] = { /* %s */" % (gi, g))
        for name, src, pos in fields:
            p = pos[g]
            if not p:
                continue
            pieces = ", ".join("{%d, %d}" % pc for pc in p)
            C.append("        [%s] = { %d, { %s } }, /* %s */" % (name, len(p), pieces, src))
        C.append("    },")
    C.append("};")
    C.append("")
    C.append("const struct eu_opcode_desc eu_opcode_table[EU_GEN_COUNT][128] = {")
    for gi, g in enumerate(GENS):
        C.append("    [%d] = { /* %s */" % (gi, g))
        for v in sorted(opcode_rows[g]):
            mnem, nsrc, ndst, lineno, flag = opcode_rows[g][v]
            C.append('        [%d] = { "%s", %d, %d, %d }, /* opcodes.txt:%d */'
                     % (v, mnem, nsrc, ndst, 1 if flag == "p" else 0, lineno))
        C.append("    },")
    C.append("};")
    C.append("")

    def emit_names(cname_, table, n):
        C.append("const char *const %s[EU_GEN_COUNT][%d] = {" % (cname_, n))
        for gi, g in enumerate(GENS):
            vals = ", ".join(cstr(v) for v in table[g])
            C.append("    [%d] = { %s }," % (gi, vals))
        C.append("};")

    emit_names("eu_sfid_names", sfid, 16)
    emit_names("eu_reg_type_names", reg_types, 16)
    emit_names("eu_imm_type_names", imm_types, 16)
    emit_names("eu_3src_type_names", types3, 8)
    emit_names("eu_cond_mod_names", cond, 16)
    emit_names("eu_math_names", math, 16)
    for cn, tab in [("eu_pred_align1_names", pred1), ("eu_pred_align16_names", pred16),
                    ("eu_arf_names_gen4", arf4), ("eu_arf_names_gen9", arf9)]:
        C.append("const char *const %s[16] = { %s };" % (cn, ", ".join(
            cstr(None if v in (None, "-") else v) for v in tab)))
    C.append("")

    def bm(rows):
        assert len(rows) <= 16
        return "{ %d, { %s } }" % (len(rows), ", ".join(
            "{%d, %d, %d, %d}" % tuple(r[:4]) for r in rows))

    def rng(r):
        return "{%d, %d}" % r

    C.append("const struct eu_compact_tables eu_compact_table[EU_GEN_COUNT] = {")
    for gi, g in enumerate(GENS):
        if g not in compact:
            C.append("    [%d] = { .present = 0 }, /* %s: no compaction */" % (gi, g))
            continue
        c = compact[g]
        C.append("    [%d] = { /* %s, from %s */" % (gi, g, c["file"]))
        C.append("        .present = 1,")
        for t in ["control", "datatype", "subreg", "src"]:
            C.append("        .%s = { %s }," % (t, ", ".join("0x%x" % v for v in c[t])))
        for m in ["control_map", "datatype_map", "subreg_map", "src0_map", "src1_map", "imm_map"]:
            C.append("        .%s = %s," % (m, bm(c[m])))
        C.append("        .layout = %s," % bm(c["layout"]))
        idx = c["idx"]
        C.append("        .idx_control = %s, .idx_datatype = %s, .idx_subreg = %s," % (
            rng(idx["control_index"]), rng(idx["datatype_index"]), rng(idx["subreg_index"])))
        C.append("        .idx_src0 = %s, .idx_src1 = %s," % (rng(idx["src0_index"]), rng(idx["src1_index"])))
        if "c3_control" in c:
            C.append("        .has_3src = 1,")
            C.append("        .c3_control = { %s }," % ", ".join("0x%x" % v for v in c["c3_control"]))
            C.append("        .c3_source = { %s }," % ", ".join("0x%xull" % v for v in c["c3_source"]))
            C.append("        .c3_control_map = %s," % bm(c["c3_control_map"]))
            C.append("        .c3_source_map = %s," % bm(c["c3_source_map"]))
            C.append("        .layout3 = %s," % bm(c["layout3"]))
            C.append("        .idx3_control = %s, .idx3_source = %s," % (
                rng(c["idx3"]["control_index"]), rng(c["idx3"]["source_index"])))
        C.append("    },")
    C.append("};")

    C.extend(msg_desc.emit_c())

    os.makedirs(os.path.dirname(out_h) or ".", exist_ok=True)
    with open(out_h, "w") as f:
        f.write("\n".join(H) + "\n")
    with open(out_c, "w") as f:
        f.write("\n".join(C) + "\n")
    with open(out_desc_h, "w") as f:
        f.write("\n".join(msg_desc.emit_h()) + "\n")


if __name__ == "__main__":
    main()
