"""Message descriptors for gen_eu_tables.py: reads opcodes.txt [message-descriptors] and the
message-type enumerations, and descriptors.txt (the fields opcodes.txt lacks, the field
groups' C prefixes and the SFID -> group map), and writes

  msg_desc.h   one static inline accessor per descriptor field and layout
               (desc_<prefix>_<field>[_gen<N>](desc)), its mask (..._MASK) and its
               encoder (desc_<prefix>_<field>[_gen<N>]_encode(value): the field's bits
               of a descriptor holding value), the enumerations as named constants
               (DESC_<PREFIX>_<NAME>), and the generic interface below;
  (into eu_spec.c) msg_desc_groups / msg_desc_group_field / msg_desc_field: a field by
               its enum id for a shared function and generation (the disassembler's
               reader), msg_desc_enum_name and msg_desc_message_name.

Every row keeps the file and line it came from in a comment. Python 3 standard library.
"""
import os
import re

MODELLED_GENS = (4, 7, 8, 9)


def gen_range(text):
    """'4', '5-9', '7.5-9' -> (lo, hi) over the generations; gen7.5 (Haswell) is not
    modelled, so '7.5-' starts at 8."""
    t = text.split()[0]
    lo, _, hi = t.partition("-")
    hi = hi or lo
    lof = float(lo)
    return (int(lof) + (1 if lof != int(lof) else 0), int(float(hi)))


def ident(s):
    """A C identifier piece from a table name or value name."""
    return re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9]", "_", s)).strip("_")


# Enumerations: (section, C prefix, name column, gens column or fixed range, file)
ENUM_TABLES = [
    ("sampler-message-type", "SAMPLER", 1, 2, None),
    ("gen4-dp-read-type", "DPR", 1, None, (4, 4)),
    ("gen4-dp-write-type", "DPW", 1, None, (4, 4)),
    ("rt-write-subtype", "RT_WRITE", 1, None, (4, 9)),
    ("render-cache-message-type", "RC", None, None, None),    # two generation columns
    ("urb-opcode", "URB", 1, 2, None),
    ("dc0-message-type", "DC0", 1, None, (7, 9)),
    ("dc1-message-type", "DC1", 1, 2, None),
    ("atomic-op", "ATOMIC", 1, None, (7, 9)),
    ("atomic-float-op", "ATOMIC", 2, None, (9, 9)),          # the float(gen9) column of [atomic-op]
    ("gateway-subfunction", "GW", 1, None, (4, 9)),
    ("math-function", "MATH", 1, None, None),                # y/- per generation
]


class MessageDescriptors:
    def __init__(self, spec, read_sections, parse_bits):
        ops = read_sections(os.path.join(spec, "opcodes.txt"))
        extra = read_sections(os.path.join(spec, "descriptors.txt"))

        self.groups = []        # (group, prefix, note)
        for lineno, cells in extra["descriptor-groups"][1]:
            self.groups.append((cells[0], cells[1], cells[2] if len(cells) > 2 else ""))
        prefix = {g: p for g, p, _ in self.groups}

        # fields: group, gen_lo, gen_hi, field, hi, lo, source, note
        self.fields = []
        for fname, secs in (("opcodes.txt", ops), ("descriptors.txt", extra)):
            for lineno, cells in secs["message-descriptors"][1]:
                group, gens, field, bits = cells[0], cells[1], cells[2], cells[3]
                assert group in prefix, "%s:%d: unknown group %s" % (fname, lineno, group)
                (hi, lo), = parse_bits(bits)
                g_lo, g_hi = gen_range(gens)
                note = cells[4] if len(cells) > 4 else ""
                self.fields.append(dict(group=group, gen_lo=g_lo, gen_hi=g_hi, field=field,
                                        hi=hi, lo=lo, src="%s:%d" % (fname, lineno),
                                        note=note))
        # a field of a group has one layout per generation
        for a in self.fields:
            for b in self.fields:
                if a is b or a["group"] != b["group"] or a["field"] != b["field"]:
                    continue
                overlap = a["gen_lo"] <= b["gen_hi"] and b["gen_lo"] <= a["gen_hi"]
                assert not overlap or (a["hi"], a["lo"]) == (b["hi"], b["lo"]), \
                    "%s and %s: two layouts of %s.%s" % (a["src"], b["src"], a["group"], a["field"])
        # accessor names: a field with one layout in its group has no generation suffix;
        # otherwise each row is named after its first generation
        layouts = {}
        for f in self.fields:
            layouts.setdefault((f["group"], f["field"]), set()).add((f["hi"], f["lo"]))
        self.accessors = {}     # name -> (hi, lo, [rows])
        for f in self.fields:
            name = "desc_%s_%s" % (prefix[f["group"]], f["field"])
            if len(layouts[(f["group"], f["field"])]) > 1:
                name += "_gen%d" % f["gen_lo"]      # the row's first generation
            f["accessor"] = name
            acc = self.accessors.setdefault(name, (f["hi"], f["lo"], []))
            assert (acc[0], acc[1]) == (f["hi"], f["lo"]), name
            acc[2].append(f)

        self.field_ids = []
        for f in self.fields:
            if f["field"] not in self.field_ids:
                self.field_ids.append(f["field"])

        # enumerations: table -> [(value, gen_lo, gen_hi, name, source)]
        self.tables = []        # (table, prefix, rows)
        for table, cprefix, name_col, gens_col, fixed in ENUM_TABLES:
            section = "atomic-op" if table == "atomic-float-op" else table
            cols, rows = ops[section]
            out = []
            for lineno, cells in rows:
                src = "opcodes.txt:%d" % lineno
                value = int(cells[0])
                if table == "render-cache-message-type":
                    # columns gen7, gen9; gen8 follows the gen7 column (Mesa's gen7/gen8
                    # render cache message types are the same)
                    if cells[1] != "-":
                        out.append((value, 7, 8, cells[1], src))
                    if cells[2].split()[0] != "-":
                        out.append((value, 9, 9, cells[2].split()[0], src))
                    continue
                if table == "math-function":
                    gens = [g for g, flag in zip(MODELLED_GENS, cells[2:6]) if flag == "y"]
                    # contiguous runs of the modelled generations
                    for g in gens:
                        out.append((value, g, g, cells[1], src))
                    continue
                if table == "rt-write-subtype":
                    name = "_".join(cells[1].replace(",", "").split()).lower()
                else:
                    name = cells[name_col].split()[0]
                if name == "-":
                    continue
                rng = fixed if fixed else gen_range(cells[gens_col])
                out.append((value, rng[0], rng[1], name, src))
            self.tables.append((table, cprefix, out))
        # every value name is unique per table and generation, and so is every value
        for table, cprefix, rows in self.tables:
            for g in MODELLED_GENS:
                live = [r for r in rows if r[1] <= g <= r[2]]
                names = [r[3] for r in live]
                values = [r[0] for r in live]
                assert len(names) == len(set(names)), "%s gen%d: duplicate names" % (table, g)
                assert len(values) == len(set(values)), "%s gen%d: duplicate values" % (table, g)
        self.constants = []     # (C name, value, gens text, source)
        seen = {}
        for table, cprefix, rows in self.tables:
            byname = {}
            for value, lo, hi, name, src in rows:
                byname.setdefault(name, set()).add(value)
            for value, lo, hi, name, src in rows:
                cname = "DESC_%s_%s" % (cprefix, ident(name).upper())
                if len(byname[name]) > 1:
                    cname += "_GEN%d" % lo
                if cname in seen:
                    assert seen[cname] == value, cname
                    continue
                seen[cname] = value
                self.constants.append((table, cname, value, src))

        # SFID -> groups
        self.sfid_groups = []   # (sfid, gen_lo, gen_hi, group, fallback, field, table, source)
        table_names = [t[0] for t in self.tables]
        for lineno, cells in extra["sfid-groups"][1]:
            sfid = int(cells[0])
            lo, hi = gen_range(cells[1])
            group, fallback, field, table = cells[2], cells[3], cells[4], cells[5].split()[0]
            for g in (group, fallback):
                assert g == "-" or g in prefix, "descriptors.txt:%d: %s" % (lineno, g)
            assert field == "-" or field in self.field_ids, "descriptors.txt:%d: %s" % (lineno, field)
            assert table == "-" or table in table_names, "descriptors.txt:%d: %s" % (lineno, table)
            self.sfid_groups.append((sfid, lo, hi, group, fallback, field, table,
                                     "descriptors.txt:%d" % lineno))

    @staticmethod
    def group_enum(group):
        return "DESC_GROUP_NONE" if group == "-" else "DESC_GROUP_" + ident(group).upper()

    @staticmethod
    def table_enum(table):
        return "DESC_TABLE_" + ident(table).upper()

    @staticmethod
    def gens_text(lo, hi):
        return "gen%d" % lo if lo == hi else "gens %d-%d" % (lo, hi)

    def emit_h(self):
        H = []
        H.append("/* Generated by spec/eu/gen_eu_tables.py from spec/eu/opcodes.txt and")
        H.append(" * spec/eu/descriptors.txt -- do not edit. SFID message descriptors: one accessor")
        H.append(" * per field and layout (a _gen<N> suffix when the layout changed at gen N), with its")
        H.append(" * mask and its encoder (_encode: value placed in the field's bits), the")
        H.append(" * message-type enumerations as constants, and a generic reader by field id. */")
        H.append("#ifndef GTSIM_GEN_MSG_DESC_H")
        H.append("#define GTSIM_GEN_MSG_DESC_H")
        H.append("#include <stdbool.h>")
        H.append("#include <stdint.h>")
        H.append("")
        for group, prefix, note in self.groups:
            H.append("/* ---- %s%s */" % (group, (": " + note) if note else ""))
            for name, (hi, lo, rows) in self.accessors.items():
                if rows[0]["group"] != group:
                    continue
                width = hi - lo + 1
                mask = (1 << width) - 1
                where = ", ".join("%s %s" % (self.gens_text(r["gen_lo"], r["gen_hi"]), r["src"])
                                  for r in rows)
                note = rows[0]["note"]
                H.append("/* bits %d:%d, %s%s */" % (hi, lo, where, (": " + note) if note else ""))
                expr = "desc" if lo == 0 else "(desc >> %d)" % lo
                H.append("static inline uint32_t %s(uint32_t desc) { return %s & 0x%xu; }"
                         % (name, expr, mask))
                H.append("#define %s_MASK 0x%08xu" % (name.upper(), mask << lo))
                H.append("static inline uint32_t %s_encode(uint32_t value) { return %s; }"
                         % (name, "value & 0x%xu" % mask if lo == 0
                            else "(value & 0x%xu) << %d" % (mask, lo)))
            H.append("")
        H.append("/* ---- message types and operations (opcodes.txt enumerations) */")
        last = None
        for table, cname, value, src in self.constants:
            if table != last:
                if last is not None:
                    H.append("};")
                H.append("enum { /* [%s] */" % table)
                last = table
            H.append("    %s = %d, /* %s */" % (cname, value, src))
        if last is not None:
            H.append("};")
        H.append("")
        H.append("/* ---- generic reader (the disassembler's): groups, fields and tables by id */")
        H.append("enum msg_desc_group {")
        H.append("    DESC_GROUP_NONE,")
        for group, prefix, note in self.groups:
            H.append("    %s," % self.group_enum(group))
        H.append("    DESC_GROUP_COUNT")
        H.append("};")
        H.append("enum msg_desc_field {")
        for f in self.field_ids:
            H.append("    DESC_F_%s," % ident(f).upper())
        H.append("    DESC_F_COUNT")
        H.append("};")
        H.append("enum msg_desc_table {")
        for table, cprefix, rows in self.tables:
            H.append("    %s," % self.table_enum(table))
        H.append("    DESC_TABLE_COUNT")
        H.append("};")
        H.append("extern const char *const msg_desc_field_names[DESC_F_COUNT];")
        H.append("extern const char *const msg_desc_table_names[DESC_TABLE_COUNT];")
        H.append("/* The groups a shared function's descriptor is read with on a generation")
        H.append(" * (descriptors.txt [sfid-groups]): g[0], then the fallback g[1]; DESC_GROUP_NONE")
        H.append(" * where there is none. The \"all\" group applies to every SFID. */")
        H.append("void msg_desc_groups(int gen, unsigned sfid, enum msg_desc_group g[2]);")
        H.append("/* Field f of a descriptor read as group g on generation gen; false when the")
        H.append(" * group has no such field there. */")
        H.append("bool msg_desc_group_field(enum msg_desc_group g, int gen, uint32_t desc,")
        H.append("                          enum msg_desc_field f, uint32_t *value);")
        H.append("/* Field f of a descriptor sent to SFID sfid: its group, the fallback, then \"all\". */")
        H.append("bool msg_desc_field(int gen, unsigned sfid, uint32_t desc, enum msg_desc_field f,")
        H.append("                    uint32_t *value);")
        H.append("/* Name of a value in an enumeration on a generation, or NULL. */")
        H.append("const char *msg_desc_enum_name(int gen, enum msg_desc_table t, unsigned value);")
        H.append("/* The message a descriptor sent to SFID sfid carries (\"ld_lz\", \"simd8_write\" ...),")
        H.append(" * or NULL when unknown. */")
        H.append("const char *msg_desc_message_name(int gen, unsigned sfid, uint32_t desc);")
        H.append("")
        H.append("#endif")
        return H

    def emit_c(self):
        C = []
        C.append("")
        C.append("/* ---- message descriptors (spec/eu/gen_msg_desc.py) */")
        C.append('#include "msg_desc.h"')
        C.append("const char *const msg_desc_field_names[DESC_F_COUNT] = {")
        for f in self.field_ids:
            C.append('    [DESC_F_%s] = "%s",' % (ident(f).upper(), f))
        C.append("};")
        C.append("const char *const msg_desc_table_names[DESC_TABLE_COUNT] = {")
        for table, cprefix, rows in self.tables:
            C.append('    [%s] = "%s",' % (self.table_enum(table), table))
        C.append("};")
        C.append("")
        C.append("void msg_desc_groups(int gen, unsigned sfid, enum msg_desc_group g[2])")
        C.append("{")
        C.append("    g[0] = g[1] = DESC_GROUP_NONE;")
        for sfid, lo, hi, group, fallback, field, table, src in self.sfid_groups:
            C.append("    if (sfid == %d && gen >= %d && gen <= %d) { /* %s */" % (sfid, lo, hi, src))
            C.append("        g[0] = %s;" % self.group_enum(group))
            C.append("        g[1] = %s;" % self.group_enum(fallback))
            C.append("        return;")
            C.append("    }")
        C.append("}")
        C.append("")
        C.append("bool msg_desc_group_field(enum msg_desc_group g, int gen, uint32_t desc,")
        C.append("                          enum msg_desc_field f, uint32_t *value)")
        C.append("{")
        C.append("    switch (g) {")
        for group, prefix, note in self.groups:
            rows = [r for r in self.fields if r["group"] == group]
            C.append("    case %s:" % self.group_enum(group))
            C.append("        switch (f) {")
            done = []
            for r in rows:
                if r["field"] in done:
                    continue
                done.append(r["field"])
                C.append("        case DESC_F_%s:" % ident(r["field"]).upper())
                for s in rows:
                    if s["field"] != r["field"]:
                        continue
                    C.append("            if (gen >= %d && gen <= %d) { /* %s */"
                             % (s["gen_lo"], s["gen_hi"], s["src"]))
                    C.append("                *value = %s(desc);" % s["accessor"])
                    C.append("                return true;")
                    C.append("            }")
                C.append("            return false;")
            C.append("        default:")
            C.append("            return false;")
            C.append("        }")
        C.append("    case DESC_GROUP_NONE:")
        C.append("    case DESC_GROUP_COUNT:")
        C.append("        break;")
        C.append("    }")
        C.append("    return false;")
        C.append("}")
        C.append("")
        C.append("bool msg_desc_field(int gen, unsigned sfid, uint32_t desc, enum msg_desc_field f,")
        C.append("                    uint32_t *value)")
        C.append("{")
        C.append("    enum msg_desc_group g[2];")
        C.append("    msg_desc_groups(gen, sfid, g);")
        C.append("    return msg_desc_group_field(g[0], gen, desc, f, value) ||")
        C.append("           msg_desc_group_field(g[1], gen, desc, f, value) ||")
        C.append("           msg_desc_group_field(DESC_GROUP_ALL, gen, desc, f, value);")
        C.append("}")
        C.append("")
        C.append("struct msg_desc_enum_row { uint8_t table, value, gen_lo, gen_hi; const char *name; };")
        C.append("static const struct msg_desc_enum_row msg_desc_enum_rows[] = {")
        for table, cprefix, rows in self.tables:
            for value, lo, hi, name, src in rows:
                C.append('    { %s, %d, %d, %d, "%s" }, /* %s */'
                         % (self.table_enum(table), value, lo, hi, name, src))
        C.append("};")
        C.append("")
        C.append("const char *msg_desc_enum_name(int gen, enum msg_desc_table t, unsigned value)")
        C.append("{")
        C.append("    for (unsigned i = 0; i < sizeof msg_desc_enum_rows / sizeof msg_desc_enum_rows[0]; i++) {")
        C.append("        const struct msg_desc_enum_row *e = &msg_desc_enum_rows[i];")
        C.append("        if (e->table == t && e->value == value && gen >= e->gen_lo && gen <= e->gen_hi)")
        C.append("            return e->name;")
        C.append("    }")
        C.append("    return NULL;")
        C.append("}")
        C.append("")
        C.append("const char *msg_desc_message_name(int gen, unsigned sfid, uint32_t desc)")
        C.append("{")
        C.append("    uint32_t v;")
        for sfid, lo, hi, group, fallback, field, table, src in self.sfid_groups:
            if field == "-":
                continue
            C.append("    if (sfid == %d && gen >= %d && gen <= %d) /* %s */" % (sfid, lo, hi, src))
            C.append("        return msg_desc_field(gen, sfid, desc, DESC_F_%s, &v) ?"
                     % ident(field).upper())
            C.append("               msg_desc_enum_name(gen, %s, v) : NULL;" % self.table_enum(table))
        C.append("    return NULL;")
        C.append("}")
        return C
