#!/usr/bin/env python3
"""Extract the shader kernels of an AUB capture, with the listing Mesa's aubinator
printed for each, as test fixtures for the EU decoder (run by hand; the outputs are
checked in under tests/data/eu/aub/).

  eu_extract_aub_kernels.py CAPTURE.aub.gz CAPTURE.aubinator.txt GEN OUTDIR NAME

For every "Referenced ... shader:" listing in the aubinator text it writes
  OUTDIR/NAME.kNN.genG.bin              the kernel bytes, read from the AUB memory image
  OUTDIR/NAME.kNN.genG.aubinator.txt    aubinator's listing of that kernel (copied)

The bytes are found without decoding instructions: the candidate addresses are the
kernel start pointers printed in the aubinator text plus the base addresses of
STATE_BASE_ADDRESS; the memory image is the AUB's, as of each submission
(notes/aub-format.md sections 2-5). A candidate is accepted when, walking it with
only the CmptCtrl bit (bit 29 of DWord 0: 8 or 16 bytes, 003 L22998), the 7-bit
opcodes (003 L23026-23160) and compaction flags equal the mnemonics aubinator lists.
"""
import gzip
import os
import re
import struct
import sys

# Opcode numbers of the mnemonics in the captures (SKL PRM, seed 003 L23026-23160;
# the same values on gen4/gen7/gen8).
OPCODES = {"mov": 0x01, "sel": 0x02, "not": 0x04, "and": 0x05, "or": 0x06, "xor": 0x07,
           "shr": 0x08, "shl": 0x09, "asr": 0x0c, "cmp": 0x10, "send": 0x31, "sendc": 0x32,
           "sends": 0x33, "math": 0x38, "add": 0x40, "mul": 0x41, "frc": 0x43, "rndd": 0x45,
           "rndz": 0x47, "mac": 0x48, "line": 0x59, "pln": 0x5a, "mad": 0x5b}


def u32(b, o):
    return struct.unpack_from("<I", b, o)[0]


class Memory:
    def __init__(self):
        self.pages = {}

    def write(self, addr, data):
        i = 0
        while i < len(data):
            page, off = (addr + i) >> 12, (addr + i) & 0xFFF
            n = min(4096 - off, len(data) - i)
            p = self.pages.setdefault(page, bytearray(4096))
            p[off:off + n] = data[i:i + n]
            i += n

    def read(self, addr, n):
        out = bytearray()
        while n > 0:
            page, off = addr >> 12, addr & 0xFFF
            k = min(4096 - off, n)
            p = self.pages.get(page)
            out += p[off:off + k] if p else bytes(k)
            addr += k
            n -= k
        return bytes(out)

    def snapshot(self):
        m = Memory()
        m.pages = {k: bytearray(v) for k, v in self.pages.items()}
        return m


def parse_aub(path, gen):
    """Returns a list of (snapshot, translate) at each submission."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    phys = Memory()
    ggtt = {}
    snaps = []
    elsp = 0
    pos = 0
    while pos + 4 <= len(data):
        h = u32(data, pos)
        opcode = (h >> 23) & 0x3F
        sub = (h >> 16) & 0x7F
        length = h & 0xFFFF
        if opcode == 1:
            size = (length + 2) * 4
            if sub == 0x41:
                dw1, addr, nbytes = u32(data, pos + 4), u32(data, pos + 12), u32(data, pos + 16)
                hdr = size
                payload = data[pos + hdr:pos + hdr + nbytes]
                op, memtype = dw1 & 0xFF, (dw1 >> 16) & 0xFF
                if op == 1 and memtype == 0:
                    phys.write(addr, payload)
                elif op == 2:
                    snaps.append(phys.snapshot())
                size += nbytes
        elif opcode == 0x2E:
            size = (length + 1) * 4
            if sub == 0x06:
                addr = u32(data, pos + 4) | (u32(data, pos + 8) << 32)
                space = u32(data, pos + 12) >> 28
                nbytes = u32(data, pos + 16)
                payload = data[pos + 20:pos + 20 + nbytes]
                if space == 2:
                    phys.write(addr, payload)
                elif space == 4:
                    for i in range(0, nbytes, 8):
                        ggtt[(addr + i) // 8] = struct.unpack_from("<Q", payload, i)[0]
                elif space == 0:
                    for i in range(0, nbytes, 4096):
                        pte = ggtt.get((addr + i) >> 12, 0)
                        phys.write((pte & ~0xFFF) + ((addr + i) & 0xFFF), payload[i:i + 4096])
            elif sub == 0x03 and u32(data, pos + 4) == 0x2230:
                elsp += 1
                if elsp % 4 == 0:
                    snaps.append(phys.snapshot())
        else:
            raise SystemExit("unknown AUB block 0x%08x at %d" % (h, pos))
        pos += size
    return snaps


def reader(mem, gen):
    if gen <= 7:
        return lambda addr, n: mem.read(addr, n)

    def walk(va):
        va &= (1 << 48) - 1
        table = 0  # PML4 at physical 0 (notes/aub-format.md 3.2)
        for shift in (39, 30, 21, 12):
            e = struct.unpack("<Q", mem.read(table + ((va >> shift) & 0x1FF) * 8, 8))[0]
            if not e & 1:
                return None
            table = e & 0xFFFFFFFFF000
        return table + (va & 0xFFF)

    def read(addr, n):
        out = bytearray()
        while n > 0:
            k = min(4096 - (addr & 0xFFF), n)
            p = walk(addr)
            out += mem.read(p, k) if p is not None else bytes(k)
            addr += k
            n -= k
        return bytes(out)
    return read


def listings(text):
    """[(header, [instruction lines incl. continuation lines])]."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("Referenced ") and lines[i].rstrip().endswith(":"):
            body = []
            i += 1
            while i < len(lines) and lines[i].strip():
                body.append(lines[i])
                i += 1
            out.append((lines[i - len(body) - 1], body))
        i += 1
    return out


def expected(body):
    """[(opcode, compacted, exec_size)] from a listing."""
    out = []
    for l in body:
        if l[:1].isspace():
            continue
        t = l.split()
        if t[0].startswith("("):
            t = t[1:]
        m = re.match(r"^([a-z0-9]+)", t[0])
        es = re.search(r"\((\d+)\)", l)
        out.append((OPCODES[m.group(1)], "compacted" in l, int(es.group(1))))
    return out


def match(read, addr, exp, gen):
    off = 0
    for opcode, compacted, es in exp:
        w = read(addr + off, 16)
        dw0 = u32(w, 0)
        is_c = gen >= 7 and bool((dw0 >> 29) & 1)
        if (dw0 & 0x7F) != opcode or is_c != compacted:
            return None
        # native form: ExecSize in bits 23:21 (003 L22738-22812), log2 of the size
        if not is_c and 1 << ((dw0 >> 21) & 7) != es:
            return None
        off += 8 if is_c else 16
    return read(addr, off)


def main():
    aub, txt, gen, outdir, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    with open(txt, encoding="utf-8", errors="replace") as f:
        text = f.read()
    ksp = sorted({int(v, 16) for v in re.findall(r"Kernel Start Pointer(?: \d)?: (0x[0-9a-f]+)", text)})
    bases = sorted({int(v, 16) for v in re.findall(
        r"(?:Instruction|General State) Base Address: (0x[0-9a-f]+)", text)} | {0})
    cands = sorted({b + k for b in bases for k in ksp})
    snaps = [reader(m, gen) for m in parse_aub(aub, gen)]
    os.makedirs(outdir, exist_ok=True)
    for n, (header, body) in enumerate(listings(text)):
        exp = expected(body)
        found = None
        before = text[:text.find(header + "\n" + body[0])] if body else text
        near = [int(v, 16) for v in re.findall(r"Kernel Start Pointer(?: \d)?: (0x[0-9a-f]+)", before[-20000:])]
        local = [b + k for k in reversed(near) for b in bases]
        order = local + [a for a in cands if a not in local]
        for read in snaps:
            for a in order:
                found = match(read, a, exp, gen)
                if found:
                    break
            if found:
                break
        if not found:
            raise SystemExit("%s: listing %d (%s) not found in memory" % (name, n, header))
        stem = os.path.join(outdir, "%s.k%02d.gen%d" % (name, n, gen))
        with open(stem + ".bin", "wb") as f:
            f.write(found)
        with open(stem + ".aubinator.txt", "w") as f:
            f.write("# %s: %s (Mesa 22.3.6 aubinator, copied from %s)\n" % (name, header.strip(), os.path.basename(txt)))
            f.write("\n".join(body) + "\n")
        print("%s: %d instructions, %d bytes" % (stem, len(exp), len(found)))


if __name__ == "__main__":
    main()
