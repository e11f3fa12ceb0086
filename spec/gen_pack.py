#!/usr/bin/env python3
"""spec/gen_pack.py - turn spec/data/gen*.xml into C (build/gen/spec_genN_pack.{h,c},
and spec_common.{h,c}: the ids and superset structs over every generation given).

Usage: gen_pack.py DATADIR OUTDIR GEN...
Also imported by spec/check_spec.py for load_gen().  Standard library only.
Errors in the data (a field past the element's end, two commands with the same
header, a default that does not fit) stop the build with file and element name.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

HEADER_FIELDS = {"Command Type", "Command SubType", "3D Command Opcode",
                 "3D Command Sub Opcode", "MI Command Opcode", "Media Command Opcode",
                 "Media Command Sub-Opcode", "Media Command Pipeline", "Pipeline",
                 "SubOpcode", "SubOpcode A", "SubOpcode B"}
# Pairs of commands whose headers may overlap (a dword matching both); none so
# far: any other overlap stops the build.
SAME_HEADER_OK = set()


class SpecError(Exception):
    pass


class Field:
    def __init__(self, el, where):
        self.name = el.get("name")
        self.dword = int(el.get("dword"))
        bits = el.get("bits")
        if ":" in bits:
            hi, lo = (int(x) for x in bits.split(":"))
        else:
            hi = lo = int(bits)
        if hi < lo:
            raise SpecError("%s: field %s: bits %s" % (where, self.name, bits))
        self.start = self.dword * 32 + lo
        self.end = self.dword * 32 + hi
        self.type = el.get("type", "uint")
        self.frac = int(el.get("frac", "0"))
        self.struct = el.get("struct")
        self.default = el.get("default")
        self.src = el.get("src", "")
        self.values = [(v.get("name"), int(v.get("value"), 0)) for v in el.findall("value")]
        if self.type not in ("uint", "int", "bool", "float", "ufixed", "sfixed", "address",
                             "offset", "mbz", "mbo", "struct"):
            raise SpecError("%s: field %s: unknown type %s" % (where, self.name, self.type))
        if self.type != "struct" and self.end - self.start + 1 > 64:
            raise SpecError("%s: field %s wider than 64 bits" % (where, self.name))
        if self.type == "float" and self.end - self.start != 31:
            raise SpecError("%s: float field %s is not 32 bits" % (where, self.name))

    @property
    def width(self):
        return self.end - self.start + 1


class Group:
    def __init__(self, el, where):
        self.count = int(el.get("count"))
        self.start = int(el.get("dword")) * 32 + int(el.get("bitoffset", "0"))
        self.size = int(el.get("size"))
        self.items = parse_items(el, where)


def parse_items(el, where):
    items = []
    for c in el:
        if c.tag == "field":
            items.append(Field(c, where))
        elif c.tag == "group":
            items.append(Group(c, where))
    return items


class Element:
    def __init__(self, el, gen, path):
        self.kind = el.tag
        self.name = el.get("name")
        self.gen = gen
        where = "%s: %s" % (path, self.name)
        self.where = where
        self.length = int(el.get("length")) if el.get("length") else None
        self.bias = int(el.get("bias", "0"))
        self.num = int(el.get("num"), 0) if el.get("num") else None
        self.src = el.get("src", "")
        self.items = parse_items(el, where)


def load_gen(datadir, gen, _seen=None):
    """{name: Element} of generation gen with inheritance resolved."""
    path = os.path.join(datadir, "gen%d.xml" % gen)
    root = ET.parse(path).getroot()
    elems = {}
    if root.get("inherits"):
        parent = int(root.get("inherits")[3:])
        for n, e in load_gen(datadir, parent)[0].items():
            elems[n] = e
        for x in root.findall("exclude"):
            elems.pop(x.get("name"), None)
    for el in root:
        if el.tag in ("command", "struct", "register"):
            elems[el.get("name")] = Element(el, gen, path)
    return elems, root.get("platform", "")


def cname(name):
    s = re.sub(r"[^A-Za-z0-9]+", " ", name)
    s = "".join(w[:1].upper() + w[1:] for w in s.split())
    if not s or s[0].isdigit():
        s = "_" + s
    return s


def ename(name):
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    return s


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ctype_of(f):
    t = f.type
    if t in ("mbz", "mbo"):
        return None
    if t == "bool":
        return "bool"
    if t == "float":
        return "float"
    if t in ("ufixed", "sfixed"):
        return "double"
    if t in ("address", "offset"):
        return "uint64_t"
    if t == "int":
        return "int32_t" if f.width <= 32 else "int64_t"
    return "uint32_t" if f.width <= 32 else "uint64_t"


CTYPE_ENUM = {None: "SPEC_C_NONE", "uint32_t": "SPEC_C_U32", "uint64_t": "SPEC_C_U64",
              "int32_t": "SPEC_C_I32", "int64_t": "SPEC_C_I64", "bool": "SPEC_C_BOOL",
              "float": "SPEC_C_FLOAT", "double": "SPEC_C_DOUBLE"}
TYPE_ENUM = {"uint": "SPEC_UINT", "int": "SPEC_INT", "bool": "SPEC_BOOL", "float": "SPEC_FLOAT",
             "ufixed": "SPEC_UFIXED", "sfixed": "SPEC_SFIXED", "address": "SPEC_ADDRESS",
             "offset": "SPEC_OFFSET", "mbz": "SPEC_MBZ", "mbo": "SPEC_MBO"}


class Gen:
    """Everything the C output of one generation needs."""

    def __init__(self, datadir, gen):
        self.gen = gen
        self.elems, self.platform = load_gen(datadir, gen)
        self.prefix = "GEN%d_" % gen
        self.check()

    def sname(self, e):
        return self.prefix + ename(e.name)

    def fixed_items(self, e):
        """Items outside a variable-length tail, and the tail group (or None)."""
        fixed, tail = [], None
        for it in e.items:
            if isinstance(it, Group) and it.count == 0:
                if tail is not None:
                    raise SpecError("%s: two variable-length groups" % e.where)
                tail = it
            else:
                fixed.append(it)
        return fixed, tail

    def fixed_length(self, e):
        fixed, tail = self.fixed_items(e)
        if e.length is not None:
            return e.length
        end = -1
        for it in fixed:
            end = max(end, self.item_end(it))
        n = (end + 32) // 32
        if tail is not None:
            n = max(n, tail.start // 32)
        return max(n, 1)

    def item_end(self, it):
        if isinstance(it, Group):
            return it.start + it.count * it.size - 1
        if it.type == "struct":
            sub = self.elems.get(it.struct)
            return it.start + self.fixed_length(sub) * 32 - 1
        return it.end

    def check(self):
        for e in self.elems.values():
            if not e.src:
                raise SpecError("%s: no src= (every element says where it comes from)" % e.where)
            fixed, tail = self.fixed_items(e)
            for it in fixed:
                if isinstance(it, Field) and it.type == "struct":
                    if it.struct not in self.elems:
                        raise SpecError("%s: field %s: no struct %s" % (e.where, it.name, it.struct))
                    if it.start % 32:
                        raise SpecError("%s: struct field %s not dword aligned" % (e.where, it.name))
                if isinstance(it, Group):
                    for g in it.items:
                        if isinstance(g, Group) or (g.type == "struct" and (it.start + g.start) % 32):
                            raise SpecError("%s: unsupported group content" % e.where)
            if tail is not None and tail.size > 2048:
                raise SpecError("%s: tail entries wider than SPEC_MAX_TAIL_BITS" % e.where)
            if e.length is not None:
                for it in fixed:
                    if self.item_end(it) >= e.length * 32:
                        raise SpecError("%s: %s ends past length %d" % (e.where, getattr(it, "name", "group"), e.length))
            for it in e.items:
                if isinstance(it, Field) and it.default is not None:
                    if int(it.default, 0) >> it.width:
                        raise SpecError("%s: default of %s does not fit" % (e.where, it.name))

    # --- C members -------------------------------------------------------
    def members(self, e):
        """(ctype, member, array count or 0, field) for the C struct."""
        fixed, _ = self.fixed_items(e)
        out, used = [], {}

        def uniq(n):
            if n in used:
                used[n] += 1
                return "%s_%d" % (n, used[n])
            used[n] = 0
            return n
        for it in fixed:
            if isinstance(it, Group):
                for g in it.items:
                    ct = ctype_of(g) if g.type != "struct" else "struct " + self.prefix + ename(g.struct)
                    if ct is None:
                        continue
                    out.append((ct, uniq(cname(g.name)), it.count, g, it))
            else:
                if it.type == "struct":
                    out.append(("struct " + self.prefix + ename(it.struct), uniq(cname(it.name)), 0, it, None))
                    continue
                ct = ctype_of(it)
                if ct is None:
                    continue
                out.append((ct, uniq(cname(it.name)), 0, it, None))
        return out

    # --- flattened descriptors -------------------------------------------
    def descriptors(self, e, base=0, prefix="", cpath=""):
        """(name, start, end, field, cpath or None, (element name, member) or None)
        for every leaf field; the last item names the leaf's C member (the
        superset struct spec_<element> has the same member, maybe wider)."""
        fixed, _ = self.fixed_items(e)
        mem = {id(m[3]): m for m in self.members(e)}
        out = []
        for it in fixed:
            if isinstance(it, Group):
                for i in range(it.count):
                    for g in it.items:
                        m = mem.get(id(g))
                        s = base + it.start + i * it.size + g.start
                        cp = (cpath + m[1] + "[%d]" % i) if m else None
                        nm = "%s%s[%d]" % (prefix, g.name, i)
                        if g.type == "struct":
                            out += self.descriptors(self.elems[g.struct], s, nm + ".", cp + ".")
                        else:
                            out.append((nm, s, s + g.width - 1, g, cp, (e.name, m[1]) if m else None))
                            out += self.raw_struct_view(g, s, nm)
            elif it.type == "struct":
                m = mem[id(it)]
                out += self.descriptors(self.elems[it.struct], base + it.start,
                                        prefix + it.name + ".", cpath + m[1] + ".")
            else:
                m = mem.get(id(it))
                out.append((prefix + it.name, base + it.start, base + it.end, it,
                            (cpath + m[1]) if m else None, (e.name, m[1]) if m else None))
                out += self.raw_struct_view(it, base + it.start, prefix + it.name)
        return out

    def raw_struct_view(self, f, start, name):
        """A sub-dword structure kept as raw bits (MOCS, SF_OUTPUT_ATTRIBUTE_DETAIL):
        its fields, for printing only (no C member of their own)."""
        if f.type != "uint" or not f.struct or f.struct not in self.elems:
            return []
        out = []
        for d in self.descriptors(self.elems[f.struct], start, name + "."):
            if d[2] <= start + f.width - 1:
                out.append((d[0], d[1], d[2], d[3], None, None))
        return out

    def header_match(self, e):
        match = mask = 0
        for it in e.items:
            if isinstance(it, Field) and it.dword == 0 and it.name in HEADER_FIELDS \
                    and it.default is not None:
                m = ((1 << it.width) - 1) << it.start
                mask |= m
                match |= (int(it.default, 0) << it.start) & m
        return match, mask

    def length_field(self, e):
        for it in e.items:
            if isinstance(it, Field) and it.dword == 0 and it.name == "DWord Length":
                return it
        return None

    def ordered(self, kind):
        es = [e for e in self.elems.values() if e.kind == kind]
        return sorted(es, key=lambda e: e.name)

    def commands(self):
        cmds = self.ordered("command")
        hm = []
        for e in cmds:
            match, mask = self.header_match(e)
            if mask == 0:
                raise SpecError("%s: no header fields with defaults" % e.where)
            if e.bias < 1 or (self.length_field(e) is None and self.fixed_length(e) < 1):
                raise SpecError("%s: a command is at least one dword" % e.where)
            # Two headers overlap when some dword matches both: they agree on
            # every bit both masks cover.  The decoder could not tell them apart.
            for (other, m2, k2) in hm:
                common = mask & k2
                if (match & common) == (m2 & common) and (other, e.name) not in SAME_HEADER_OK:
                    raise SpecError("%s: header overlaps %s's" % (e.where, other))
            hm.append((e.name, match, mask))
        # most specific first, then by name: a decoder's first hit is the best.
        return sorted(cmds, key=lambda e: (-bin(self.header_match(e)[1]).count("1"), e.name))


def emit_header(g, out, common=None):
    P = g.prefix
    w = out.write
    w("/* Generated by spec/gen_pack.py from spec/data/gen%d.xml - do not hand edit. */\n" % g.gen)
    w("#ifndef GTSIM_SPEC_GEN%d_PACK_H\n#define GTSIM_SPEC_GEN%d_PACK_H\n\n" % (g.gen, g.gen))
    w("#include <stdbool.h>\n#include <stdint.h>\n\n#include \"spec_common.h\"\n\n")
    # structs first (commands embed them), in dependency order
    done = set()
    order = []

    def visit(e):
        if e.name in done:
            return
        done.add(e.name)
        for it in e.items:
            subs = [it] if isinstance(it, Field) else (it.items if isinstance(it, Group) else [])
            for f in subs:
                if isinstance(f, Field) and f.type == "struct":
                    visit(g.elems[f.struct])
        order.append(e)
    for kind in ("struct", "command", "register"):
        for e in g.ordered(kind):
            visit(e)
    for e in order:
        n = g.sname(e)
        w("/* %s %s (%s) */\n" % (e.kind, e.name, e.src))
        w("#define %s_length %d\n" % (n, g.fixed_length(e)))
        if e.kind == "command":
            w("#define %s_length_bias %d\n" % (n, e.bias))
            hdr = []
            for it in e.items:
                if isinstance(it, Field) and it.dword == 0 and it.default is not None and ctype_of(it):
                    hdr.append(".%s = %s" % (cname(it.name), it.default))
            w("#define %s_header %s\n" % (n, ", ".join(hdr) if hdr else "0"))
        if e.kind == "register":
            w("#define %s_num 0x%x\n" % (n, e.num))
        mem = g.members(e)
        w("struct %s {\n" % n)
        if not mem:
            w("    uint8_t unused_;\n")
        for ct, mn, cnt, f, grp in mem:
            w("    %s %s%s;\n" % (ct, mn, "[%d]" % cnt if cnt else ""))
        w("};\n")
        for ct, mn, cnt, f, grp in mem:
            if f.values and not cnt:
                for vn, vv in f.values:
                    w("#define %s_%s_%s %d\n" % (n, mn, ename(vn), vv))
        w("int %s_pack(uint32_t *dw, const struct %s *v);\n" % (n, n))
        w("void %s_unpack(const uint32_t *dw, struct %s *v);\n" % (n, n))
        w("/* The superset form (spec_common.h); members Gen%d lacks read 0. */\n" % g.gen)
        w("void %s_unpack_common(const uint32_t *dw, struct %s *v);\n\n" % (n, common_sname(e.name)))
    w("#endif\n")


def pack_stmt(g, f, start, expr):
    """C statement packing member expr of field f placed at absolute start."""
    end = start + f.width - 1
    t = f.type
    if t == "mbz":
        return None
    if t == "mbo":
        return "spec_bits_put(dw, %d, %d, UINT64_MAX);" % (start, end)
    if t == "bool":
        return "spec_bits_put(dw, %d, %d, %s ? 1 : 0);" % (start, end, expr)
    if t == "float":
        return "spec_put_float(dw, %d, %s);" % (start, expr)
    if t in ("ufixed", "sfixed"):
        return "if (spec_put_fixed(dw, %d, %d, %s, %d, %s)) return -1;" % (
            start, end, expr, f.frac, "true" if t == "sfixed" else "false")
    if t in ("address", "offset"):
        return "if (spec_put_address(dw, %d, %d, %s)) return -1;" % (start, end, expr)
    if t == "int":
        return "if (!spec_fits_int(%s, %d)) return -1;\n    spec_bits_put(dw, %d, %d, (uint64_t)%s);" % (
            expr, f.width, start, end, expr)
    if f.width >= 32 and ctype_of(f) == "uint32_t":
        return "spec_bits_put(dw, %d, %d, %s);" % (start, end, expr)
    return "if (!spec_fits_uint(%s, %d)) return -1;\n    spec_bits_put(dw, %d, %d, %s);" % (
        expr, f.width, start, end, expr)


def unpack_stmt(g, f, start, expr):
    end = start + f.width - 1
    t = f.type
    ct = ctype_of(f)
    if t == "bool":
        return "%s = spec_bits_get(dw, %d, %d) != 0;" % (expr, start, end)
    if t == "float":
        return "%s = spec_get_float(dw, %d);" % (expr, start)
    if t in ("ufixed", "sfixed"):
        return "%s = spec_get_fixed(dw, %d, %d, %d, %s);" % (
            expr, start, end, f.frac, "true" if t == "sfixed" else "false")
    if t in ("address", "offset"):
        return "%s = spec_get_address(dw, %d, %d);" % (expr, start, end)
    if t == "int":
        return "%s = (%s)spec_sign_extend(spec_bits_get(dw, %d, %d), %d);" % (expr, ct, start, end, f.width)
    return "%s = (%s)spec_bits_get(dw, %d, %d);" % (expr, ct, start, end)


def emit_unpack(g, e, w, suffix, struct_name):
    """GENn_X<suffix>: the element's fields into `struct_name`, nested
    structures through their own GENn_Y<suffix> (suffix "_unpack" for the
    generation's own struct, "_unpack_common" for struct spec_X)."""
    P = g.prefix
    fixed, _ = g.fixed_items(e)
    mem = {id(m[3]): m for m in g.members(e)}
    w("void %s%s(const uint32_t *dw, struct %s *v)\n{\n" % (g.sname(e), suffix, struct_name))
    w("    memset(v, 0, sizeof *v);\n")
    for it in fixed:
        if isinstance(it, Group):
            for gf in it.items:
                m = mem.get(id(gf))
                if not m:
                    continue
                for i in range(it.count):
                    s = it.start + i * it.size + gf.start
                    if gf.type == "struct":
                        w("    %s%s%s(dw + %d, &v->%s[%d]);\n" % (P, ename(gf.struct), suffix, s // 32, m[1], i))
                    else:
                        w("    %s\n" % unpack_stmt(g, gf, s, "v->%s[%d]" % (m[1], i)))
        elif it.type == "struct":
            m = mem[id(it)]
            w("    %s%s%s(dw + %d, &v->%s);\n" % (P, ename(it.struct), suffix, it.start // 32, m[1]))
        else:
            m = mem.get(id(it))
            if m:
                w("    %s\n" % unpack_stmt(g, it, it.start, "v->%s" % m[1]))
    w("    (void)dw;\n}\n\n")


def emit_unpack_common(g, e, w):
    """GENn_X_unpack_common: GENn_X_unpack's statements into struct spec_X."""
    emit_unpack(g, e, w, "_unpack_common", common_sname(e.name))



def emit_source(g, out, common):
    P = g.prefix
    w = out.write
    w("/* Generated by spec/gen_pack.py from spec/data/gen%d.xml - do not hand edit. */\n" % g.gen)
    w("#include \"spec_gen%d_pack.h\"\n#include \"spec/bitpack.h\"\n#include \"spec/spec.h\"\n\n" % g.gen)
    w("#include <stddef.h>\n#include <string.h>\n\n")
    alle = g.ordered("command") + g.ordered("struct") + g.ordered("register")
    for e in alle:
        n = g.sname(e)
        fixed, tail = g.fixed_items(e)
        mem = {id(m[3]): m for m in g.members(e)}
        L = g.fixed_length(e)
        w("int %s_pack(uint32_t *dw, const struct %s *v)\n{\n" % (n, n))
        w("    memset(dw, 0, %d * sizeof(uint32_t));\n" % L)
        body = []
        for it in fixed:
            if isinstance(it, Group):
                for gf in it.items:
                    m = mem.get(id(gf))
                    for i in range(it.count):
                        s = it.start + i * it.size + gf.start
                        if gf.type == "struct":
                            body.append("if (%s%s_pack(dw + %d, &v->%s[%d])) return -1;" % (
                                P, ename(gf.struct), s // 32, m[1], i))
                            continue
                        st = pack_stmt(g, gf, s, "v->%s[%d]" % (m[1], i) if m else "0")
                        if st:
                            body.append(st)
            elif it.type == "struct":
                m = mem[id(it)]
                body.append("{\n        uint32_t sub[%s%s_length];\n        if (%s%s_pack(sub, &v->%s)) return -1;\n"
                            "        for (unsigned i = 0; i < %s%s_length; i++) dw[%d + i] |= sub[i];\n    }" % (
                                P, ename(it.struct), P, ename(it.struct), m[1], P, ename(it.struct), it.start // 32))
            else:
                m = mem.get(id(it))
                st = pack_stmt(g, it, it.start, "v->%s" % m[1] if m else "0")
                if st:
                    body.append(st)
        for b in body:
            w("    %s\n" % b)
        if not body:
            w("    (void)v;\n")
        w("    return 0;\n}\n\n")
        emit_unpack(g, e, w, "_unpack", n)
        emit_unpack_common(g, e, w)
        w("static int %s_pack_any(uint32_t *dw, const void *v) { return %s_pack(dw, v); }\n" % (n, n))
        w("static void %s_unpack_any(const uint32_t *dw, void *v) { %s_unpack(dw, v); }\n" % (n, n))
        w("static void %s_unpack_common_any(const uint32_t *dw, void *v) { %s_unpack_common(dw, v); }\n\n" % (n, n))

    # value tables and field descriptors
    vt = {}

    def values_sym(f):
        if not f.values or f.type == "bool":
            return None
        key = tuple(f.values)
        if key not in vt:
            sym = "values_%d" % len(vt)
            vt[key] = sym
            w("static const struct spec_value %s[] = {\n" % sym)
            for vn, vv in f.values:
                w("    { %s, %du },\n" % (cstr(vn), vv))
            w("};\n")
        return vt[key]

    def field_rows(descs, sname, cname_=None):
        rows = []
        for nm, s, e_, f, cp, leaf in descs:
            vs = values_sym(f)
            ct = CTYPE_ENUM[ctype_of(f)] if cp else "SPEC_C_NONE"
            off = "offsetof(struct %s, %s)" % (sname, cp) if cp else "0"
            cct, coff = "SPEC_C_NONE", "0"
            if cp and cname_:
                cct = CTYPE_ENUM[common.member(leaf[0], leaf[1])[1]]
                coff = "offsetof(struct %s, %s)" % (cname_, cp)
            rows.append("    { %s, %d, %d, %s, %d, %s, %d, %s, %s, %s, %s, %s },\n" % (
                cstr(nm), s, e_, TYPE_ENUM[f.type], f.frac, ct,
                len(f.values) if vs else 0, off, vs or "NULL", cstr(f.src), coff, cct))
        return rows

    for e in alle:
        n = g.sname(e)
        rows = field_rows(g.descriptors(e), n, common_sname(e.name))
        w("static const struct spec_field %s_fields[] = {\n" % n)
        w("".join(rows) if rows else "    { NULL, 0, 0, 0, 0, 0, 0, 0, NULL, NULL, 0, 0 },\n")
        w("};\n")
        _, tail = g.fixed_items(e)
        if tail:
            tdesc = []
            for f in tail.items:
                if f.type == "struct":
                    sub = g.elems[f.struct]
                    for d in g.descriptors(sub, f.start, f.name + "."):
                        tdesc.append((d[0], d[1], d[2], d[3], None, None))
                else:
                    tdesc.append((f.name, f.start, f.end, f, None, None))
            trows = field_rows(tdesc, n)
            w("static const struct spec_field %s_tail[] = {\n" % n)
            w("".join(trows))
            w("};\n")
        w("\n")

    def elem_row(e):
        n = g.sname(e)
        _, tail = g.fixed_items(e)
        descs = g.descriptors(e)
        match, mask = g.header_match(e) if e.kind == "command" else (0, 0)
        lf = g.length_field(e) if e.kind == "command" else None
        ntail = 0
        if tail:
            ntail = sum(len(g.descriptors(g.elems[f.struct])) if f.type == "struct" else 1 for f in tail.items)
        return ("    { .name = %s, .kind = %s, .gen = %d, .bias = %d, .has_length_field = %d,"
                " .len_start = %d, .len_end = %d, .length = %d, .match = 0x%08xu, .mask = 0x%08xu,"
                " .reg_offset = 0x%xu, .n_fields = %d, .fields = %s_fields, .tail_start = %d,"
                " .tail_size = %d, .n_tail_fields = %d, .tail_fields = %s, .c_size = sizeof(struct %s),"
                " .pack = %s_pack_any, .unpack = %s_unpack_any, .src = %s, .id = %s,"
                " .pipeline = %s, .common_size = sizeof(struct %s),"
                " .unpack_common = %s_unpack_common_any },\n") % (
            cstr(e.name), {"command": "SPEC_COMMAND", "struct": "SPEC_STRUCT", "register": "SPEC_REGISTER"}[e.kind],
            g.gen, e.bias, 1 if lf else 0, lf.start if lf else 0, lf.end if lf else 0,
            g.fixed_length(e), match, mask, e.num or 0, len(descs), n,
            tail.start if tail else 0, tail.size if tail else 0, ntail,
            (n + "_tail") if tail else "NULL", n, n, n, cstr(e.src), id_name(e.name),
            pipeline_of(e), common_sname(e.name), n)

    cmds = g.commands()
    w("static const struct spec_element commands[] = {\n%s};\n" % "".join(elem_row(e) for e in cmds))
    w("static const struct spec_element structs[] = {\n%s};\n" % "".join(elem_row(e) for e in g.ordered("struct")))
    regs = g.ordered("register")
    w("static const struct spec_element registers[] = {\n%s};\n" % (
        "".join(elem_row(e) for e in regs) if regs else "    { .name = NULL },\n"))
    w("\nstatic const struct spec_element *const by_id[SPEC_ID_COUNT] = {\n")
    for tab, es in (("commands", cmds), ("structs", g.ordered("struct")), ("registers", regs)):
        for i, e in enumerate(es):
            w("    [%s] = &%s[%d],\n" % (id_name(e.name), tab, i))
    w("};\n")
    w("\nconst struct spec_gen spec_gen%d = {\n    .gen = %d, .platform = %s,\n"
      "    .n_commands = %d, .n_structs = %d, .n_registers = %d,\n"
      "    .commands = commands, .structs = structs, .registers = registers,\n"
      "    .by_id = by_id,\n};\n" % (
          g.gen, g.gen, cstr(g.platform), len(cmds), len(g.ordered("struct")), len(regs)))


# --- one vocabulary for every generation --------------------------------------
#
# Ids: one enum spec_id over the names of every command, structure and register
# of every generation (names are unique across kinds in the data: checked), in
# sorted name order from 1, so an id depends on the set of names only, never on
# the build order or the generation.  One enum for all kinds because a state
# packet, a lookup table or a stat names "an element" without caring which
# kind it is, and separate enums would need a kind beside every id.
#
# Supersets: per name, struct spec_<NAME> with the union of the generations'
# C members (same member names as struct GENn_<NAME>).  A member's type is the
# widest of the generations' (bool < uint32_t < uint64_t, int32_t < int64_t;
# signed with unsigned: int64_t; float with anything else: double); embedded
# structures become the superset of that structure; array counts the largest.
# A member a generation lacks reads 0 (GENn_X_unpack_common clears the struct
# first); no member has another default so far.  A name whose encoding differs
# between generations keeps one member (the unit branches on gen, citing the
# seed): the data names fields whose meaning differs differently already.

# Which pipeline a command's packet goes down: the PRM names a command after
# the pipeline it belongs to (3DSTATE_*, 3DPRIMITIVE: 3D; MEDIA_*, GPGPU_*:
# media/GPGPU); the rest (STATE_BASE_ADDRESS, PIPELINE_SELECT, STATE_SIP,
# PIPE_CONTROL, MI_*) concern both (MI commands the CS executes itself).
# Header bits would disagree for 3DSTATE_VF_STATISTICS (a common-subtype
# single dword) and GPGPU_CSR_BASE_ADDRESS; the names are what the CS always
# routed by.
PIPELINE_OVERRIDES = {}


def pipeline_of(e):
    if e.kind != "command":
        return "SPEC_PIPELINE_NONE"
    if e.name in PIPELINE_OVERRIDES:
        return PIPELINE_OVERRIDES[e.name]
    if e.name.startswith("3D"):
        return "SPEC_PIPELINE_3D"
    if e.name.startswith(("MEDIA_", "GPGPU_")):
        return "SPEC_PIPELINE_MEDIA"
    return "SPEC_PIPELINE_BOTH"


INT_RANK = {"bool": 0, "uint32_t": 1, "int32_t": 1, "uint64_t": 2, "int64_t": 2}


def widen(a, b, where):
    if a == b:
        return a
    if a.startswith("struct") or b.startswith("struct"):
        raise SpecError("%s: a structure in one generation, %s in another" % (where, b if a.startswith("struct") else a))
    if a in ("float", "double") or b in ("float", "double"):
        return "double"
    signed = a.startswith("int") or b.startswith("int")
    rank = max(INT_RANK[a], INT_RANK[b])
    if signed:
        return "int64_t" if rank == 2 or "uint32_t" in (a, b) else "int32_t"
    return "uint64_t" if rank == 2 else "uint32_t"


def common_sname(name):
    return "spec_" + ename(name)


def id_name(name):
    return "SPEC_ID_" + ename(name)


class Common:
    """The superset structs and ids over several generations."""

    def __init__(self, gens):
        self.gens = gens
        kinds = {}
        for g in gens:
            for n, e in g.elems.items():
                kinds.setdefault(n, set()).add(e.kind)
        for n, k in kinds.items():
            if len(k) > 1:
                raise SpecError("%s is a %s: one name, one kind" % (n, " and a ".join(sorted(k))))
        self.names = sorted(kinds)
        seen = {}
        for n in self.names:
            if ename(n) in seen:
                raise SpecError("%s and %s make the same C name" % (n, seen[ename(n)]))
            seen[ename(n)] = n
        self.ids = {n: i + 1 for i, n in enumerate(self.names)}
        # name -> [(member, ctype, count, struct name or None, gen mask)]
        self.members = {}
        self.elem_gens = {}
        self.kind = {}
        self.pipeline = {}
        for n in self.names:
            order, info = [], {}
            mask = 0
            for g in sorted(gens, key=lambda g: -g.gen):
                e = g.elems.get(n)
                if e is None:
                    continue
                mask |= 1 << g.gen
                self.kind[n] = e.kind
                pl = pipeline_of(e)
                if self.pipeline.setdefault(n, pl) != pl:
                    raise SpecError("%s: pipeline differs between generations" % n)
                for ct, mn, cnt, f, grp in g.members(e):
                    sub = f.struct if f.type == "struct" else None
                    cct = ("struct " + common_sname(sub)) if sub else ct
                    if mn not in info:
                        order.append(mn)
                        info[mn] = [cct, cnt, sub, 0]
                    else:
                        r = info[mn]
                        if (r[2] or sub) and r[2] != sub:
                            raise SpecError("%s: member %s embeds %s in one generation, %s in another"
                                            % (n, mn, r[2], sub))
                        r[0] = widen(r[0], cct, "%s.%s" % (n, mn))
                        r[1] = max(r[1], cnt)
                    info[mn][3] |= 1 << g.gen
            self.members[n] = [(mn,) + tuple(info[mn]) for mn in order]
            self.elem_gens[n] = mask

    def member(self, elem, mn):
        for m in self.members[elem]:
            if m[0] == mn:
                return m
        raise SpecError("%s: no superset member %s" % (elem, mn))

    def ordered(self):
        """Names with embedded structures first."""
        done, out = set(), []

        def visit(n):
            if n in done:
                return
            done.add(n)
            for m in self.members[n]:
                if m[3]:
                    visit(m[3])
            out.append(n)
        for n in self.names:
            visit(n)
        return out


CTYPE_SIZE = {"uint32_t": 4, "int32_t": 4, "uint64_t": 8, "int64_t": 8, "bool": 1, "float": 4,
              "double": 8}


def emit_common_header(c, out):
    w = out.write
    w("/* Generated by spec/gen_pack.py from spec/data/gen*.xml - do not hand edit.\n"
      " * One vocabulary for every generation: ids and superset structs (spec/README.md). */\n")
    w("#ifndef GTSIM_SPEC_COMMON_H\n#define GTSIM_SPEC_COMMON_H\n\n")
    w("#include <stdbool.h>\n#include <stdint.h>\n\n")
    w("/* Every command, structure and register of every generation, by sorted name. */\n")
    w("enum spec_id {\n    SPEC_ID_NONE = 0,\n")
    for n in c.names:
        w("    %s = %d,\n" % (id_name(n), c.ids[n]))
    w("    SPEC_ID_COUNT = %d\n};\n\n" % (len(c.names) + 1))
    gens = sorted(g.gen for g in c.gens)
    for n in c.ordered():
        w("/* %s %s: generations %s */\n" % (c.kind[n], n, ", ".join(
            str(x) for x in gens if c.elem_gens[n] >> x & 1)))
        w("struct %s {\n" % common_sname(n))
        if not c.members[n]:
            w("    uint8_t unused_;\n")
        for mn, ct, cnt, sub, mask in c.members[n]:
            w("    %s %s%s;\n" % (ct, mn, "[%d]" % cnt if cnt else ""))
        w("};\n")
        for mn, ct, cnt, sub, mask in c.members[n]:
            w("#define SPEC_PRESENT_%s_%s 0x%xu\n" % (ename(n), mn, mask))
    w("\n#endif\n")


def emit_common_source(c, out):
    w = out.write
    w("/* Generated by spec/gen_pack.py from spec/data/gen*.xml - do not hand edit. */\n")
    w("#include \"spec_common.h\"\n#include \"spec/spec.h\"\n\n#include <stddef.h>\n\n")
    for n in c.names:
        sn = common_sname(n)
        w("static const struct spec_member %s_members[] = {\n" % sn)
        for mn, ct, cnt, sub, mask in c.members[n]:
            cte = "SPEC_C_STRUCT" if sub else CTYPE_ENUM[ct]
            w("    { %s, offsetof(struct %s, %s), sizeof(((struct %s *)0)->%s), %s, %d, %s, 0x%xu },\n" % (
                cstr(mn), sn, mn, sn, mn, cte, cnt, cstr(sub) if sub else "NULL", mask))
        if not c.members[n]:
            w("    { NULL, 0, 0, SPEC_C_NONE, 0, NULL, 0 },\n")
        w("};\n")
    w("\nstatic const struct spec_common commons[SPEC_ID_COUNT] = {\n")
    for n in c.names:
        w("    [%s] = { %s, %s, %s, %s, 0x%xu, sizeof(struct %s), %d, %s_members },\n" % (
            id_name(n), cstr(n), id_name(n),
            {"command": "SPEC_COMMAND", "struct": "SPEC_STRUCT", "register": "SPEC_REGISTER"}[c.kind[n]],
            c.pipeline[n], c.elem_gens[n], common_sname(n), len(c.members[n]), common_sname(n)))
    w("};\n\nconst struct spec_common *spec_common_get(enum spec_id id)\n{\n"
      "    if (id <= SPEC_ID_NONE || id >= SPEC_ID_COUNT)\n        return NULL;\n"
      "    return &commons[id];\n}\n")


def main():
    datadir, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    def write(name, fn, *args):
        path = os.path.join(outdir, name)
        with open(path + ".tmp", "w") as f:
            if args:
                fn(args[0], f)
            else:
                fn(f)
        os.replace(path + ".tmp", path)
    try:
        gens = [Gen(datadir, int(gs)) for gs in sys.argv[3:]]
        common = Common(gens)
        write("spec_common.h", emit_common_header, common)
        write("spec_common.c", emit_common_source, common)
        for g in gens:
            write("spec_gen%d_pack.h" % g.gen, lambda f, g=g: emit_header(g, f, common))
            write("spec_gen%d_pack.c" % g.gen, lambda f, g=g: emit_source(g, f, common))
    except SpecError as e:
        sys.stderr.write("gen_pack.py: %s\n" % e)
        sys.exit(1)


if __name__ == "__main__":
    main()
