#!/usr/bin/env python3
"""Normalise an EU disassembly listing to one line of key=value fields per
instruction, for the EU decoder tests (tests/units/test_eu_decode.c).

The listing comes from an independent disassembler: intel-gen4disasm (Debian
intel-gpu-tools) run on the kernels intel-gen4asm assembled, or Mesa's aubinator
(the "Referenced ... shader" listings of the captures in tests/data/eu/aub/). This
script only re-spells what those tools printed; it never looks at instruction bits,
so the expectations stay independent of gtsim's decoder.

Usage: eu_normalize.py {gen4disasm|aubinator} GEN IN OUT

Output keys (each line lists only what the tool printed):
  op       mnemonic[.sat][.cond] (math: math.<function>), cond spelled z/nz/g/ge/l/le/o/u
  es       execution size
  pred     [+-]fN.M[.mode]   (absent = not predicated)
  cflag    fN.M written by the conditional modifier (when printed)
  dst src0 src1 src2   [-][(abs)]FILE NR.SUB:TYPE<region>[.swizzle] | null | imm:TYPE:0xVALUE
           SUB = element index (byte offset / type size); align16 regions <vstride>;
           3-source operands without region.
  desc exdesc  send descriptors (hex)      mlen rlen ex_mlen   message lengths
  access   align1|align16   we_all 0|1   qtr 1Q..4Q|1H|2H|1N..8N|compr|sechalf|-
  eot 0|1  compacted 0|1 (aubinator only)  dd -|NoDDClr|NoDDChk|both  thr -|atomic|switch
  msg bti urb_offset  send message name, binding table, URB offset (aubinator only)
  jip uip  jump targets in bytes (gen7+)      jump pop  gen4 jump and pop counts
A line "skip" stands for an instruction the tool could not print.
"""
import re
import struct
import sys

TYPES = "UD|UW|UB|UQ|UV|DF|HF|VF|D|W|B|F|Q|V"
COND = {"e": "z", "z": "z", "ne": "nz", "nz": "nz", "g": "g", "ge": "ge", "l": "l",
        "le": "le", "o": "o", "u": "u", "r": "r"}
REG_RE = re.compile(
    r"^(?P<neg>-)?(?P<abs>\(abs\))?(?P<name>[a-z]+?)(?P<nr>\d+)?(\.(?P<sub>\d+))?"
    r"(<(?P<region>[\d,]+)>)?(\.(?P<swz>[xyzw]+))?(?P<type>" + TYPES + r")?"
    r"(\.(?P<swz2>[xyzw]+))?$")
IMM_RE = re.compile(r"^(?P<val>-?(0x[0-9a-fA-F]+|\d+(\.\d*)?([eE][-+]?\d+)?))(?P<type>" + TYPES + r")$")
ARF_NAMES = {"null", "a", "acc", "f", "mask", "ms", "msd", "sr", "cr", "n", "ip", "tdr",
             "tm", "ce", "msg", "sp", "fc"}


def imm_value(text, typ):
    if text.startswith("0x") or text.startswith("-0x"):
        v = int(text, 16)
    elif typ in ("F", "VF", "DF", "HF"):
        f = float(text)
        if typ == "DF":
            v = struct.unpack("<Q", struct.pack("<d", f))[0]
        else:
            v = struct.unpack("<I", struct.pack("<f", f))[0]
    else:
        v = int(float(text)) if "." in text else int(text)
    if typ in ("W", "UW"):
        v &= 0xFFFF
    elif typ in ("DF", "Q", "UQ"):
        v &= (1 << 64) - 1
    else:
        v &= 0xFFFFFFFF
    return "imm:%s:0x%x" % (typ, v)


def swz4(s):
    if not s:
        return "xyzw"
    if len(s) == 1:
        return s * 4
    if len(s) == 2:  # Mesa prints .xy for .xyyy
        return s + s[-1] * 2
    if len(s) == 3:
        return s + s[-1]
    return s


def canon_operand(tok, is_dst, align16, three_src):
    m = IMM_RE.match(tok)
    if m and not is_dst:
        return imm_value(m.group("val"), m.group("type"))
    if tok.startswith("imm:"):
        return tok
    m = REG_RE.match(tok)
    if not m:
        return None
    name = m.group("name")
    if name == "null":
        return "null"
    if name not in ("g", "m") and name not in ARF_NAMES:
        return None
    out = ""
    if m.group("neg"):
        out += "-"
    if m.group("abs"):
        out += "(abs)"
    out += "%s%s.%s:%s" % (name, m.group("nr") or "0", m.group("sub") or "0", m.group("type") or "?")
    swz = m.group("swz") or m.group("swz2")
    if three_src:
        if is_dst:
            out += ".%s" % (swz or "xyzw")
        return out
    region = m.group("region")
    if region is not None:
        if align16 and not is_dst:
            region = region.split(",")[0]
        out += "<%s>" % region
    if align16:
        out += "." + ((swz or "xyzw") if is_dst else swz4(swz))
    return out


def parse_instruction(first, rest, gen):
    """first = the instruction line, rest = continuation text (send descriptions)."""
    fields = {}
    text = first.strip().rstrip(";").strip()
    m = re.search(r"\{([^}]*)\}\s*$", text)
    opts = []
    if m:
        opts = m.group(1).split()
        text = text[:m.start()].strip()
    m = re.search(r"\{([^}]*)\}", rest)
    if m:
        opts = m.group(1).split()
    # Mesa float immediates: 0x<hex>F /* <value>F */
    text = re.sub(r"\b(0x[0-9a-fA-F]+)F\s*/\*[^*]*\*/", lambda mm: "imm:F:0x%x" % int(mm.group(1), 16), text)
    text = re.sub(r"\b(0x[0-9a-fA-F]+)DF\s*/\*[^*]*\*/", lambda mm: "imm:DF:0x%x" % int(mm.group(1), 16), text)
    text = re.sub(r"/\*.*?\*/", "", text)
    if "XXX" in text:
        return None
    toks = text.split()
    pred = None
    if toks and toks[0].startswith("("):
        pred = toks.pop(0)[1:-1]
    if not toks:
        return None
    head = toks.pop(0)
    if head == "math" and toks:
        head = "math." + toks.pop(0)
    m = re.match(r"^([a-z0-9.]+)\((\d+)\)$", head)
    if not m:
        return None
    opparts = m.group(1).split(".")
    es = m.group(2)
    op = opparts[0]
    i = 1
    if op == "math":
        op = "math." + opparts[1]
        i = 2
    sat = False
    cond = None
    cflag = None
    while i < len(opparts):
        p = opparts[i]
        if p == "sat":
            sat = True
        elif p in COND and cond is None:
            cond = COND[p]
        elif re.match(r"^f\d$", p):
            sub = "0"
            if i + 1 < len(opparts) and opparts[i + 1].isdigit():
                sub = opparts[i + 1]
                i += 1
            cflag = p + "." + sub
        else:
            return None
        i += 1
    opname = op + (".sat" if sat else "") + ("." + cond if cond else "")
    fields["op"] = opname
    fields["es"] = es
    if pred:
        pm = re.match(r"^([+-])?(f\d)(\.(\d))?(\.(\w+))?$", pred)
        if not pm:
            return None
        fields["pred"] = "%s%s.%s%s" % (pm.group(1) or "+", pm.group(2), pm.group(4) or "0",
                                        "." + pm.group(6) if pm.group(6) else "")
    if cflag:
        fields["cflag"] = cflag
    align16 = "align16" in opts
    if op in ("if", "else", "endif", "while", "break", "cont", "halt"):
        # intel-gen4disasm prints the raw jump fields: gen7 "UIP JIP" (or only JIP),
        # in 8-byte units; gen8+ "JIP UIP" in bytes. Mesa prints "JIP: n UIP: m".
        nums = []
        for t in toks:
            if re.match(r"^-?\d+$", t):
                nums.append(int(t))
            else:
                break
        if gen == 4:
            # gen4: intel-gen4disasm prints the src1 immediate holding jump count
            # (15:0, signed, in instructions) and pop count (19:16) as a D value;
            # Mesa prints "Jump: n Pop: m"
            for t in toks:
                mm = re.match(r"^(-?\d+)D$", t)
                if mm:
                    v = int(mm.group(1)) & 0xFFFFFFFF
                    fields["jump"] = str((v & 0xFFFF) - ((v & 0x8000) << 1))
                    fields["pop"] = str((v >> 16) & 0xF)
            mm = re.search(r"Jump: (-?\d+) Pop: (\d+)", text)
            if mm:
                fields["jump"], fields["pop"] = mm.group(1), mm.group(2)
        mj = re.search(r"JIP: (-?\d+)", text)
        mu = re.search(r"UIP: (-?\d+)", text)
        unit = 8 if gen == 7 else 1
        if mj:
            fields["jip"] = str(int(mj.group(1)) * unit)
            if mu:
                fields["uip"] = str(int(mu.group(1)) * unit)
        elif gen == 7 and len(nums) == 2:
            fields["uip"], fields["jip"] = str(nums[0] * unit), str(nums[1] * unit)
        elif len(nums) >= 1:
            fields["jip"] = str(nums[0] * unit)
            if len(nums) >= 2:
                fields["uip"] = str(nums[1] * unit)
        toks = []
    three_src = op in ("mad", "lrp", "bfe", "bfi2", "csel", "madm")
    is_send = op in ("send", "sendc", "sends", "sendsc")
    if is_send and gen == 4 and toks and toks[0].isdigit():
        fields["base_mrf"] = toks.pop(0)
    descs = []
    ops_ = []
    for t in toks:
        if is_send and re.match(r"^0x[0-9a-fA-F]+$", t):
            descs.append(t)
        else:
            ops_.append(t)
    names = ["dst", "src0", "src1", "src2"]
    for k, t in enumerate(ops_[:4]):
        c = canon_operand(t, k == 0, align16, three_src)
        if c is None:
            return None
        fields[names[k]] = c
    if len(descs) >= 1:
        fields["desc"] = "0x%x" % int(descs[0], 16)
    if len(descs) >= 2:
        fields["exdesc"] = "0x%x" % int(descs[1], 16)
    if is_send and "MsgDesc:" in rest:
        # aubinator's message description (Mesa's words) -> message name, binding
        # table index, URB offset
        md = rest.split("MsgDesc:", 1)[1]
        unit = rest.split("MsgDesc:", 1)[0].split()
        md = md.split(" mlen ")[0].strip()
        mm = re.search(r"Surface = (\d+)|bti (\d+)", md)
        if mm:
            fields["bti"] = mm.group(1) or mm.group(2)
        mm = re.search(r"\boffset (\d+)", md)
        if mm:
            fields["urb_offset"] = mm.group(1)
        msg = None
        if md.startswith("("):
            msg = md[1:].split(",")[0]
            msg = re.sub(r"^DC ", "", msg)
            msg = "_".join(msg.lower().split())
        elif md.startswith("RT write"):
            msg = "render_target_write"
        elif unit and unit[0] == "urb":
            mm = re.search(r"(SIMD8 (write|read))|((write|read) ([HO])Word)", md)
            if mm and mm.group(1):
                msg = "simd8_" + mm.group(2)
            elif mm:
                msg = "%s_%sword" % (mm.group(4), mm.group(5).lower())
        elif unit and unit[0] in ("sampler", "math") and md:
            msg = md.split()[0]
        if msg:
            fields["msg"] = msg
    for key in ("mlen", "rlen", "ex_mlen"):
        mm = re.search(r"\b%s (\d+)" % key, rest)
        if mm:
            fields[key] = mm.group(1)
    fields["access"] = "align16" if align16 else "align1"
    fields["we_all"] = "1" if ("WE_all" in opts or "nomask" in opts) else "0"
    qtr = "-"
    for o in opts:
        if re.match(r"^[1-8][QHN]$", o) or o in ("compr", "sechalf", "compr4"):
            qtr = o
    fields["qtr"] = qtr
    fields["eot"] = "1" if "EOT" in opts else "0"
    fields["dd"] = {(0, 0): "-", (1, 0): "NoDDClr", (0, 1): "NoDDChk", (1, 1): "both"}[
        ("NoDDClr" in opts, "NoDDChk" in opts)]
    fields["thr"] = "atomic" if "atomic" in opts else ("switch" if "switch" in opts else "-")
    return fields


def main():
    mode, gen, src, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    with open(src, encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip("\n") for l in f]
    insns = []  # (first, rest)
    for l in lines:
        if not l.strip() or l.lstrip().startswith("#"):
            continue
        if l[0].isspace() and insns:
            insns[-1][1] += " " + l.strip()
        else:
            insns.append([l, ""])
    out = []
    for first, rest in insns:
        f = parse_instruction(first, rest, gen)
        if f is None:
            out.append("skip")
            continue
        if mode == "aubinator":
            text = first + " " + rest
            f["compacted"] = "1" if "compacted" in text else "0"
        else:
            f["compacted"] = "0"
        out.append(" ".join("%s=%s" % kv for kv in f.items()))
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
