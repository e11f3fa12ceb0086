/* fabric/aub.c - AUB reader, loader and writer; see aub.h and notes/aub-format.md. */
#include "fabric/aub.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* ---- little-endian helpers --------------------------------------------- */

static uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void store_le32(uint8_t *p, uint32_t value)
{
    p[0] = (uint8_t)value;
    p[1] = (uint8_t)(value >> 8);
    p[2] = (uint8_t)(value >> 16);
    p[3] = (uint8_t)(value >> 24);
}

/* ---- devices ----------------------------------------------------------- */

/* PCI ids and generations. The four captured parts (aub-format.md §7 and the
 * *.txt files beside the captures) come first. The other Gen8/Gen9 ids are
 * from Mesa include/pci_ids/iris_pci_ids.h (CHIPSET(0x1616, bdw_gt2, ...),
 * etc.); the Gen4/Gen7 ones from Mesa's crocus/i965 PCI id lists (965GM
 * 0x2A02, Ivybridge GT2 desktop 0x0162, Haswell GT2 desktop 0x0412).
 * Haswell is Gen7.5: generation 7 with its own GTT PTE format (memory.h). */
static const struct aub_device_info device_table[] = {
    { 0x1912, "SKL GT2 (HD Graphics 530)", 9, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x1616, "BDW GT2 (HD Graphics 5500)", 8, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x0F31, "BYT (ValleyView)", 7, GPU_ADDRESS_SPACE_GTT_GEN6 },
    { 0x29A2, "G965 (965G)", 4, GPU_ADDRESS_SPACE_GTT_GEN4 },
    { 0x2A02, "GM965 (965GM)", 4, GPU_ADDRESS_SPACE_GTT_GEN4 },
    { 0x0162, "IVB GT2 (HD Graphics 4000)", 7, GPU_ADDRESS_SPACE_GTT_GEN6 },
    { 0x0412, "HSW GT2 (HD Graphics 4600)", 7, GPU_ADDRESS_SPACE_GTT_HSW },
    { 0x1612, "BDW GT2 (HD Graphics 5600)", 8, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x1626, "BDW GT3 (HD Graphics 6000)", 8, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x1916, "SKL GT2 (HD Graphics 520)", 9, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x191B, "SKL GT2 (HD Graphics 530)", 9, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x1926, "SKL GT3 (Iris Graphics 540)", 9, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x193B, "SKL GT4 (Iris Pro Graphics 580)", 9, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x5912, "KBL GT2 (HD Graphics 630)", 9, GPU_ADDRESS_SPACE_GGTT_GEN8 },
    { 0x5A84, "APL 3 (HD Graphics 505)", 9, GPU_ADDRESS_SPACE_GGTT_GEN8 },
};

const struct aub_device_info *aub_device_lookup(uint32_t pci_id)
{
    for (size_t i = 0; i < sizeof device_table / sizeof device_table[0]; i++)
        if (device_table[i].pci_id == pci_id)
            return &device_table[i];
    return NULL;
}

const char *aub_address_space_name(enum aub_address_space space)
{
    switch (space) {
    case AUB_SPACE_GGTT: return "GGTT";
    case AUB_SPACE_LOCAL: return "LOCAL";
    case AUB_SPACE_PHYSICAL: return "PHYSICAL";
    case AUB_SPACE_GGTT_ENTRY: return "GGTT_ENTRY";
    case AUB_SPACE_NONLOCAL: return "NONLOCAL";
    case AUB_SPACE_PCI: return "PCI";
    }
    return "unknown";
}

/* ---- reader ------------------------------------------------------------ */

struct block_reader {
    gzFile file;
    uint8_t *buffer;
    size_t capacity;
};

#define READ_CHUNK ((size_t)1 << 20)

/* Appends up to bytes more bytes at buffer[have]; the buffer grows only by
 * what is about to be read (at most READ_CHUNK ahead of the data), so a
 * length field cannot make it allocate more than the file holds. Returns the
 * bytes read (fewer at end of file) or -1 + err. One spare byte is kept for a
 * terminating NUL. */
static int64_t reader_fill(struct block_reader *reader, size_t have, size_t bytes, struct gt_error *err)
{
    size_t done = 0;
    while (done < bytes) {
        size_t want = bytes - done;
        if (want > READ_CHUNK)
            want = READ_CHUNK;
        size_t needed = have + done + want + 1;
        if (needed > reader->capacity) {
            size_t capacity = reader->capacity ? reader->capacity : 4096;
            while (capacity < needed)
                capacity *= 2;
            uint8_t *grown = realloc(reader->buffer, capacity);
            if (!grown) {
                gt_error_set(err, "out of host memory for a %zu-byte block", needed);
                return -1;
            }
            reader->buffer = grown;
            reader->capacity = capacity;
        }
        int n = gzread(reader->file, reader->buffer + have + done, (unsigned)want);
        if (n < 0) {
            int code;
            const char *message = gzerror(reader->file, &code);
            gt_error_set(err, "read error after %zu bytes of the block: %s", have + done, message);
            return -1;
        }
        if (n == 0)
            break;
        done += (size_t)n;
    }
    reader->buffer[have + done] = 0;
    return (int64_t)done;
}

/* Copies a NUL-terminated string of at most max bytes from text into out
 * (size out_size), replacing unprintable bytes by '?'. */
static void copy_text(char *out, size_t out_size, const uint8_t *text, size_t max)
{
    size_t n = 0;
    while (n < max && n + 1 < out_size && text[n]) {
        out[n] = (text[n] >= 0x20 && text[n] < 0x7F) ? (char)text[n] : '?';
        n++;
    }
    out[n] = 0;
}

/* "PCI-ID=0x1912 ..." -> 0x1912 (hex, either case, "0x" optional). */
static int parse_pci_id(const char *text, uint32_t *pci_id, const char **rest)
{
    static const char prefix[] = "PCI-ID=";
    const char *p = strstr(text, prefix);
    if (!p)
        return -1;
    p += sizeof prefix - 1;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    uint32_t value = 0;
    int digits = 0;
    for (; *p; p++, digits++) {
        int digit;
        if (*p >= '0' && *p <= '9')
            digit = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            digit = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            digit = *p - 'A' + 10;
        else
            break;
        if (digits >= 8)
            return -1;
        value = value << 4 | (uint32_t)digit;
    }
    if (!digits || value > 0xFFFF)
        return -1;
    *pci_id = value;
    if (rest) {
        while (*p == ' ')
            p++;
        *rest = p;
    }
    return 0;
}

struct block {
    uint64_t offset;
    const uint8_t *bytes;
    uint64_t dwords;     /* header part: length + bias */
    uint64_t data_size;  /* trace block data bytes after the header dwords */
};

static uint32_t block_dword(const struct block *block, uint64_t index)
{
    return load_le32(block->bytes + index * 4);
}

static int memtrace_space(uint32_t code, enum aub_address_space *space)
{
    switch (code) {
    case 0: *space = AUB_SPACE_GGTT; return 0;
    case 1: *space = AUB_SPACE_LOCAL; return 0;
    case 2: *space = AUB_SPACE_PHYSICAL; return 0;
    case 4: *space = AUB_SPACE_GGTT_ENTRY; return 0;
    }
    return -1;
}

static int classic_space(uint32_t code, enum aub_address_space *space)
{
    switch (code) {
    case 0: *space = AUB_SPACE_GGTT; return 0;
    case 1: *space = AUB_SPACE_LOCAL; return 0;
    case 2: *space = AUB_SPACE_NONLOCAL; return 0;
    case 3: *space = AUB_SPACE_PCI; return 0;
    case 4: *space = AUB_SPACE_GGTT_ENTRY; return 0;
    }
    return -1;
}

static int handle_aub_header(const struct block *block, const struct aub_reader_callbacks *callbacks,
                             void *context, struct gt_error *err)
{
    if (block->dwords < 13)
        return gt_error_set(err, "AUB_HEADER has %" PRIu64 " dwords, needs at least 13", block->dwords);
    struct aub_version version;
    memset(&version, 0, sizeof version);
    version.file_offset = block->offset;
    version.form = AUB_FORM_LEGACY;
    version.legacy_version = block_dword(block, 1);
    copy_text(version.application, sizeof version.application, block->bytes + 8, 32);
    uint32_t comment_length = block_dword(block, 12);
    uint64_t room = (block->dwords - 13) * 4;
    if (comment_length > room)
        return gt_error_set(err, "AUB_HEADER comment length %" PRIu32 " runs past the block (%" PRIu64
                            " bytes of room)", comment_length, room);
    copy_text(version.text, sizeof version.text, block->bytes + 13 * 4, comment_length);
    version.has_pci_id = parse_pci_id(version.text, &version.pci_id, NULL) == 0;
    return callbacks->version ? callbacks->version(context, &version, err) : 0;
}

static int handle_trace_block(const struct block *block, const struct aub_reader_callbacks *callbacks,
                              void *context, struct gt_error *err)
{
    if (block->dwords < 5)
        return gt_error_set(err, "TRACE_HEADER_BLOCK has %" PRIu64 " header dwords, needs at least 5",
                            block->dwords);
    uint32_t dw1 = block_dword(block, 1);
    uint32_t operation = dw1 & 0xFF;
    uint32_t type = (dw1 >> 8) & 0xFF;
    uint32_t memtype = (dw1 >> 16) & 0xFF;
    uint64_t address = block_dword(block, 3);
    if (block->dwords >= 6)
        address |= (uint64_t)block_dword(block, 5) << 32;
    const uint8_t *data = block->bytes + block->dwords * 4;
    uint64_t size = block->data_size;

    switch (operation) {
    case AUB_TRACE_OPERATION_COMMENT: {
        /* reader_fill keeps a NUL after the block; stop at the first NUL. */
        struct aub_comment comment = { block->offset, (const char *)data };
        return callbacks->comment ? callbacks->comment(context, &comment, err) : 0;
    }
    case AUB_TRACE_OPERATION_DATA_WRITE: {
        struct aub_memory_write write;
        memset(&write, 0, sizeof write);
        if (classic_space(memtype, &write.space))
            return gt_error_set(err, "TRACE_HEADER_BLOCK data write with unknown memtype %" PRIu32, memtype);
        write.file_offset = block->offset;
        write.address = address;
        write.data = data;
        write.size = size;
        write.classic = 1;
        write.classic_type = type;
        return callbacks->memory_write ? callbacks->memory_write(context, &write, err) : 0;
    }
    case AUB_TRACE_OPERATION_COMMAND_WRITE: {
        struct aub_ring_write write = { block->offset, type, address, data, size };
        return callbacks->ring_write ? callbacks->ring_write(context, &write, err) : 0;
    }
    case AUB_TRACE_OPERATION_MMIO_WRITE: {
        struct aub_mmio_write write = { block->offset, (uint32_t)address, data, size };
        return callbacks->mmio_write ? callbacks->mmio_write(context, &write, err) : 0;
    }
    }
    return gt_error_set(err, "TRACE_HEADER_BLOCK with unknown operation %" PRIu32 " (dw1 0x%08" PRIx32 ")",
                        operation, dw1);
}

static int handle_memtrace_version(const struct block *block, const struct aub_reader_callbacks *callbacks,
                                   void *context, struct gt_error *err)
{
    if (block->dwords < 5)
        return gt_error_set(err, "MEM_TRACE_VERSION has %" PRIu64 " dwords, needs at least 5", block->dwords);
    struct aub_version version;
    memset(&version, 0, sizeof version);
    version.file_offset = block->offset;
    version.form = AUB_FORM_MEMTRACE;
    version.memtrace_device = (block_dword(block, 2) >> 8) & 0xFF;
    /* The text is bounded by the block: it may lack a NUL (§2.1). */
    copy_text(version.text, sizeof version.text, block->bytes + 5 * 4, (block->dwords - 5) * 4);
    const char *rest = NULL;
    version.has_pci_id = parse_pci_id(version.text, &version.pci_id, &rest) == 0;
    if (rest)
        snprintf(version.application, sizeof version.application, "%s", rest);
    return callbacks->version ? callbacks->version(context, &version, err) : 0;
}

static int check_register_block(const struct block *block, const char *name, struct gt_error *err)
{
    if (block->dwords < 6)
        return gt_error_set(err, "%s has %" PRIu64 " dwords, needs 6", name, block->dwords);
    uint32_t dw2 = block_dword(block, 2);
    uint32_t size = (dw2 >> 16) & 0xF, space = dw2 >> 28;
    /* Sizes and spaces of the i915 aubcapture header: size 2 = dword, space
     * 0 = MMIO (Mesa writes only these, §2.4). */
    if (size != 2 || space != 0)
        return gt_error_set(err, "%s with register size %" PRIu32 " / space %" PRIu32
                            " is not modelled (only dword MMIO)", name, size, space);
    return 0;
}

static int handle_memtrace_memory_write(const struct block *block,
                                        const struct aub_reader_callbacks *callbacks, void *context,
                                        struct gt_error *err)
{
    if (block->dwords < 5)
        return gt_error_set(err, "MEMORY_WRITE has %" PRIu64 " dwords, needs at least 5", block->dwords);
    struct aub_memory_write write;
    memset(&write, 0, sizeof write);
    uint32_t space_code = block_dword(block, 3) >> 28;
    if (memtrace_space(space_code, &write.space))
        return gt_error_set(err, "MEMORY_WRITE with unknown address space %" PRIu32, space_code);
    write.file_offset = block->offset;
    write.address = block_dword(block, 1) | (uint64_t)block_dword(block, 2) << 32;
    write.size = block_dword(block, 4);
    uint64_t room = (block->dwords - 5) * 4;
    if (write.size > room)
        return gt_error_set(err, "MEMORY_WRITE size %" PRIu64 " runs past the block (%" PRIu64
                            " data bytes)", write.size, room);
    write.data = block->bytes + 5 * 4;
    return callbacks->memory_write ? callbacks->memory_write(context, &write, err) : 0;
}

#define DISCONTIGUOUS_ELEMENTS 63

static int handle_memtrace_discontiguous(const struct block *block,
                                         const struct aub_reader_callbacks *callbacks, void *context,
                                         struct gt_error *err)
{
    uint64_t data_dword = 2 + 3 * DISCONTIGUOUS_ELEMENTS;
    if (block->dwords < data_dword)
        return gt_error_set(err, "MEMORY_WRITE_DISCONTIGUOUS has %" PRIu64 " dwords, needs at least %" PRIu64,
                            block->dwords, data_dword);
    uint32_t dw1 = block_dword(block, 1);
    uint32_t count = (dw1 >> 4) & 0xFFFF;
    enum aub_address_space space;
    if (memtrace_space(dw1 >> 28, &space))
        return gt_error_set(err, "MEMORY_WRITE_DISCONTIGUOUS with unknown address space %" PRIu32, dw1 >> 28);
    if (count > DISCONTIGUOUS_ELEMENTS)
        return gt_error_set(err, "MEMORY_WRITE_DISCONTIGUOUS with %" PRIu32 " elements (at most 63)", count);
    uint64_t cursor = data_dword * 4, end = block->dwords * 4;
    for (uint32_t i = 0; i < count; i++) {
        struct aub_memory_write write;
        memset(&write, 0, sizeof write);
        write.file_offset = block->offset;
        write.space = space;
        write.address = block_dword(block, 2 + 3 * i) | (uint64_t)block_dword(block, 3 + 3 * i) << 32;
        write.size = block_dword(block, 4 + 3 * i);
        if (write.size > end - cursor)
            return gt_error_set(err, "MEMORY_WRITE_DISCONTIGUOUS element %" PRIu32 " size %" PRIu64
                                " runs past the block", i, write.size);
        write.data = block->bytes + cursor;
        cursor += write.size;
        if (callbacks->memory_write && callbacks->memory_write(context, &write, err))
            return -1;
    }
    return 0;
}

static int handle_memtrace(const struct block *block, uint32_t sub_opcode,
                           const struct aub_reader_callbacks *callbacks, void *context, struct gt_error *err)
{
    switch (sub_opcode) {
    case AUB_MEMTRACE_VERSION:
        return handle_memtrace_version(block, callbacks, context, err);
    case AUB_MEMTRACE_MEMORY_WRITE:
        return handle_memtrace_memory_write(block, callbacks, context, err);
    case AUB_MEMTRACE_MEMORY_WRITE_DISCONTIGUOUS:
        return handle_memtrace_discontiguous(block, callbacks, context, err);
    case AUB_MEMTRACE_REGISTER_WRITE: {
        if (check_register_block(block, "REGISTER_WRITE", err))
            return -1;
        struct aub_register_write write = { block->offset, block_dword(block, 1), block_dword(block, 5),
                                            block_dword(block, 3) };
        return callbacks->register_write ? callbacks->register_write(context, &write, err) : 0;
    }
    case AUB_MEMTRACE_REGISTER_POLL: {
        if (check_register_block(block, "REGISTER_POLL", err))
            return -1;
        struct aub_register_poll poll = { block->offset, block_dword(block, 1), block_dword(block, 3),
                                          block_dword(block, 5), (block_dword(block, 2) >> 2) & 1 };
        return callbacks->register_poll ? callbacks->register_poll(context, &poll, err) : 0;
    }
    case AUB_MEMTRACE_MEMORY_POLL: {
        struct aub_memory_poll poll = { block->offset, block->bytes, (uint32_t)(block->dwords * 4) };
        return callbacks->memory_poll ? callbacks->memory_poll(context, &poll, err) : 0;
    }
    case AUB_MEMTRACE_COMMENT: {
        if (block->dwords < 2)
            return gt_error_set(err, "COMMENT has %" PRIu64 " dwords, needs at least 2", block->dwords);
        /* Text from dword 2, bounded by the NUL reader_fill keeps after the block. */
        struct aub_comment comment = { block->offset, (const char *)block->bytes + 8 };
        return callbacks->comment ? callbacks->comment(context, &comment, err) : 0;
    }
    case AUB_MEMTRACE_REGISTER_COMPARE:
    case AUB_MEMTRACE_MEMORY_COMPARE:
    case AUB_MEMTRACE_FRAME_BEGIN:
        return gt_error_set(err, "memtrace block sub-opcode 0x%02" PRIx32 " (%s) is not modelled", sub_opcode,
                            sub_opcode == AUB_MEMTRACE_REGISTER_COMPARE  ? "REGISTER_COMPARE"
                            : sub_opcode == AUB_MEMTRACE_MEMORY_COMPARE ? "MEMORY_COMPARE"
                                                                        : "FRAME_BEGIN");
    }
    return gt_error_set(err, "unknown memtrace block sub-opcode 0x%02" PRIx32, sub_opcode);
}

static int walk_blocks(struct block_reader *reader, const struct aub_reader_callbacks *callbacks,
                       void *context, uint64_t *offset, struct gt_error *err)
{
    for (;;) {
        int64_t got = reader_fill(reader, 0, 4, err);
        if (got < 0)
            return -1;
        if (got == 0)
            return 0;
        if (got < 4)
            return gt_error_set(err, "file ends inside a block header (%" PRId64 " of 4 bytes)", got);
        uint32_t header = load_le32(reader->buffer);
        uint32_t type = header >> 29, opcode = (header >> 23) & 0x3F, sub_opcode = (header >> 16) & 0x7F;
        uint64_t length = header & 0xFFFF;
        struct block block = { *offset, NULL, 0, 0 };
        if (type != 7)
            return gt_error_set(err, "block header 0x%08" PRIx32 " has type %" PRIu32 ", not 7 (AUB)", header, type);
        if (opcode == AUB_OPCODE_CLASSIC)
            block.dwords = length + 2;
        else if (opcode == AUB_OPCODE_MEMTRACE)
            block.dwords = length + 1;
        else
            return gt_error_set(err, "block header 0x%08" PRIx32 " has unknown opcode 0x%02" PRIx32, header, opcode);

        uint64_t need = block.dwords * 4 - 4;
        got = reader_fill(reader, 4, need, err);
        if (got < 0)
            return -1;
        if ((uint64_t)got < need)
            return gt_error_set(err, "block 0x%08" PRIx32 " needs %" PRIu64 " bytes but the file ends after %" PRId64,
                                header, need + 4, got + 4);
        if (opcode == AUB_OPCODE_CLASSIC && sub_opcode == AUB_CLASSIC_TRACE_HEADER_BLOCK && block.dwords >= 5) {
            block.data_size = load_le32(reader->buffer + 16);
            if (block.data_size % 4)
                return gt_error_set(err, "TRACE_HEADER_BLOCK data size %" PRIu64 " is not a whole number of dwords",
                                    block.data_size);
            if (block.data_size > AUB_MAX_BLOCK_BYTES - block.dwords * 4)
                return gt_error_set(err, "TRACE_HEADER_BLOCK data size %" PRIu64 " exceeds the %" PRIu64
                                    "-byte block limit", block.data_size, AUB_MAX_BLOCK_BYTES);
            got = reader_fill(reader, block.dwords * 4, block.data_size, err);
            if (got < 0)
                return -1;
            if ((uint64_t)got < block.data_size)
                return gt_error_set(err, "TRACE_HEADER_BLOCK data needs %" PRIu64 " bytes but the file ends after %" PRId64,
                                    block.data_size, got);
        }
        block.bytes = reader->buffer;

        int result = 0;
        if (opcode == AUB_OPCODE_MEMTRACE)
            result = handle_memtrace(&block, sub_opcode, callbacks, context, err);
        else if (sub_opcode == AUB_CLASSIC_AUB_HEADER)
            result = handle_aub_header(&block, callbacks, context, err);
        else if (sub_opcode == AUB_CLASSIC_TRACE_HEADER_BLOCK)
            result = handle_trace_block(&block, callbacks, context, err);
        else if (sub_opcode != AUB_CLASSIC_DUMP_BMP)
            result = gt_error_set(err, "unknown classic block sub-opcode 0x%02" PRIx32, sub_opcode);
        if (result)
            return -1;
        *offset += block.dwords * 4 + block.data_size;
    }
}

int aub_read_file(const char *path, const struct aub_reader_callbacks *callbacks, void *context,
                  struct gt_error *err)
{
    static const struct aub_reader_callbacks none;
    if (!callbacks)
        callbacks = &none;
    errno = 0;
    struct block_reader reader = { gzopen(path, "rb"), NULL, 0 };
    if (!reader.file)
        return gt_error_set(err, "%s: cannot open: %s", path, errno ? strerror(errno) : "zlib error");
    uint64_t offset = 0;
    int result = walk_blocks(&reader, callbacks, context, &offset, err);
    if (result)
        gt_error_prefix(err, "%s: offset 0x%" PRIx64, path, offset);
    gzclose(reader.file);
    free(reader.buffer);
    return result;
}

/* ---- loader ------------------------------------------------------------ */

struct loader {
    struct aub_load *load;
    const struct aub_load_options *options;
};

const uint8_t *aub_event_data(const struct aub_submission_log *log, const struct aub_event *event)
{
    return log->data + event->data_index;
}

static int log_append(struct loader *loader, const struct aub_event *event, const uint8_t *data,
                      uint64_t size, struct gt_error *err)
{
    struct aub_submission_log *log = &loader->load->log;
    if (log->count == log->capacity) {
        size_t capacity = log->capacity ? log->capacity * 2 : 64;
        struct aub_event *grown = realloc(log->events, capacity * sizeof *grown);
        if (!grown)
            return gt_error_set(err, "out of host memory for the submission log");
        log->events = grown;
        log->capacity = capacity;
    }
    struct aub_event *entry = &log->events[log->count];
    *entry = *event;
    if (size) {
        if (size > UINT32_MAX || size > SIZE_MAX - log->data_size)
            return gt_error_set(err, "a %" PRIu64 "-byte ring/MMIO write is too large", size);
        if (log->data_size + size > log->data_capacity) {
            size_t capacity = log->data_capacity ? log->data_capacity : 256;
            while (capacity < log->data_size + size)
                capacity *= 2;
            uint8_t *grown = realloc(log->data, capacity);
            if (!grown)
                return gt_error_set(err, "out of host memory for the submission log data");
            log->data = grown;
            log->data_capacity = capacity;
        }
        memcpy(log->data + log->data_size, data, size);
        entry->data_index = log->data_size;
        entry->data_size = (uint32_t)size;
        log->data_size += size;
    }
    log->count++;
    if (loader->options && loader->options->event)
        return loader->options->event(loader->options->context, loader->load, entry, err);
    return 0;
}

void aub_version_device(const struct aub_version *version, struct aub_device_guess *out)
{
    out->pci_id = version->has_pci_id ? version->pci_id : 0;
    out->device = version->has_pci_id ? aub_device_lookup(version->pci_id) : NULL;
    if (out->device) {
        out->generation = out->device->generation;
        out->gtt_format = out->device->gtt_format;
    } else if (version->form == AUB_FORM_MEMTRACE) {
        out->generation = 8;
        out->gtt_format = GPU_ADDRESS_SPACE_GGTT_GEN8;
    } else {
        out->generation = 7;
        out->gtt_format = GPU_ADDRESS_SPACE_GTT_GEN6;
    }
}

struct device_reader {
    bool found;
    struct aub_device_guess guess;
};

static int read_device_version(void *context, const struct aub_version *version,
                               struct gt_error *err)
{
    struct device_reader *r = context;
    (void)err;
    r->found = true;
    aub_version_device(version, &r->guess);
    /* enough read: stopping the walk is not an error, but aub_read_file
     * prefixes the message anyway, so leave a defined one */
    gt_error_set(err, "stopped after the version block");
    return -1;
}

static int read_device_other(void *context, const struct aub_memory_write *write,
                             struct gt_error *err)
{
    (void)context;
    return gt_error_set(err, "byte offset %" PRIu64 ": the capture does not start with a "
                        "version block naming its device", write->file_offset);
}

int aub_read_device(const char *path, struct aub_device_guess *out, struct gt_error *err)
{
    static const struct aub_reader_callbacks callbacks = {
        .version = read_device_version, .memory_write = read_device_other,
    };
    struct device_reader r = { 0 };
    struct gt_error local;
    if (aub_read_file(path, &callbacks, &r, &local) < 0 && !r.found) {
        if (err)
            *err = local;
        return -1;
    }
    if (!r.found)
        return gt_error_set(err, "%s: no version block names the capture's device", path);
    *out = r.guess;
    return 0;
}

static int load_version(void *context, const struct aub_version *version, struct gt_error *err)
{
    struct loader *loader = context;
    struct aub_load *load = loader->load;
    (void)err;
    load->blocks++;
    load->form = version->form;
    struct aub_device_guess guess;
    aub_version_device(version, &guess);
    load->pci_id = guess.pci_id;
    load->device = guess.device;
    load->generation = guess.generation;
    gpu_address_space_init(&load->ggtt, load->memory, guess.gtt_format, 0);
    return 0;
}

static int load_memory_write(void *context, const struct aub_memory_write *write, struct gt_error *err)
{
    struct loader *loader = context;
    struct aub_load *load = loader->load;
    load->blocks++;
    load->memory_writes++;
    load->memory_write_bytes += write->size;
    switch (write->space) {
    case AUB_SPACE_GGTT_ENTRY:
        return gpu_memory_gtt_entries_write(load->memory, write->address, write->data, write->size, err);
    case AUB_SPACE_PHYSICAL:
    case AUB_SPACE_LOCAL:
        return gpu_memory_write(load->memory, write->address, write->data, write->size, err);
    case AUB_SPACE_GGTT:
        if (load->form == AUB_FORM_UNKNOWN)
            return gt_error_set(err, "GGTT write before any version header names the device");
        return gpu_address_space_write(&load->ggtt, write->address, write->data, write->size, err);
    case AUB_SPACE_NONLOCAL:
    case AUB_SPACE_PCI:
        break;
    }
    return gt_error_set(err, "memory write to the %s space is not modelled", aub_address_space_name(write->space));
}

static int load_register_write(void *context, const struct aub_register_write *write, struct gt_error *err)
{
    struct loader *loader = context;
    loader->load->blocks++;
    struct aub_event event = { .kind = AUB_EVENT_REGISTER_WRITE, .file_offset = write->file_offset,
                               .offset = write->offset, .value = write->value, .mask = write->mask };
    return log_append(loader, &event, NULL, 0, err);
}

static int load_register_poll(void *context, const struct aub_register_poll *poll, struct gt_error *err)
{
    struct loader *loader = context;
    loader->load->blocks++;
    struct aub_event event = { .kind = AUB_EVENT_REGISTER_POLL, .file_offset = poll->file_offset,
                               .offset = poll->offset, .value = poll->value, .mask = poll->mask,
                               .not_equal = poll->not_equal };
    return log_append(loader, &event, NULL, 0, err);
}

static int load_memory_poll(void *context, const struct aub_memory_poll *poll, struct gt_error *err)
{
    struct loader *loader = context;
    (void)poll;
    (void)err;
    loader->load->blocks++;
    return 0;
}

static int load_comment(void *context, const struct aub_comment *comment, struct gt_error *err)
{
    struct loader *loader = context;
    (void)comment;
    (void)err;
    loader->load->blocks++;
    return 0;
}

static int load_ring_write(void *context, const struct aub_ring_write *write, struct gt_error *err)
{
    struct loader *loader = context;
    loader->load->blocks++;
    struct aub_event event = { .kind = AUB_EVENT_RING_WRITE, .file_offset = write->file_offset,
                               .ring = write->ring, .address = write->address };
    return log_append(loader, &event, write->data, write->size, err);
}

static int load_mmio_write(void *context, const struct aub_mmio_write *write, struct gt_error *err)
{
    struct loader *loader = context;
    loader->load->blocks++;
    struct aub_event event = { .kind = AUB_EVENT_MMIO_WRITE, .file_offset = write->file_offset,
                               .offset = write->offset };
    return log_append(loader, &event, write->data, write->size, err);
}

static const struct aub_reader_callbacks load_callbacks = {
    .version = load_version,
    .memory_write = load_memory_write,
    .register_write = load_register_write,
    .register_poll = load_register_poll,
    .memory_poll = load_memory_poll,
    .comment = load_comment,
    .ring_write = load_ring_write,
    .mmio_write = load_mmio_write,
};

int aub_load_file(const char *path, struct aub_load *load, const struct aub_load_options *options,
                  struct gt_error *err)
{
    memset(load, 0, sizeof *load);
    load->memory = gpu_memory_create(err);
    if (!load->memory)
        return -1;
    if (options && options->page_limit)
        gpu_memory_set_page_limit(load->memory, options->page_limit);
    /* Until a version header names the part, GGTT writes are refused. */
    gpu_address_space_init(&load->ggtt, load->memory, GPU_ADDRESS_SPACE_GGTT_GEN8, 0);
    struct loader loader = { load, options };
    if (aub_read_file(path, &load_callbacks, &loader, err)) {
        aub_load_release(load);
        return -1;
    }
    return 0;
}

void aub_load_release(struct aub_load *load)
{
    gpu_memory_destroy(load->memory);
    free(load->log.events);
    free(load->log.data);
    memset(load, 0, sizeof *load);
}

/* ---- writer ------------------------------------------------------------ */

static int writer_bytes(struct aub_writer *writer, const void *data, uint64_t size, struct gt_error *err)
{
    const uint8_t *p = data;
    while (size) {
        unsigned chunk = size > (1u << 30) ? (1u << 30) : (unsigned)size;
        if (gzwrite((gzFile)writer->file, p, chunk) != (int)chunk) {
            int code;
            return gt_error_set(err, "AUB write failed at offset 0x%" PRIx64 ": %s", writer->offset,
                                gzerror((gzFile)writer->file, &code));
        }
        writer->offset += chunk;
        p += chunk;
        size -= chunk;
    }
    return 0;
}

static int writer_dwords(struct aub_writer *writer, const uint32_t *dwords, size_t count, struct gt_error *err)
{
    uint8_t bytes[64];
    while (count) {
        size_t n = count > 16 ? 16 : count;
        for (size_t i = 0; i < n; i++)
            store_le32(bytes + 4 * i, dwords[i]);
        if (writer_bytes(writer, bytes, n * 4, err))
            return -1;
        dwords += n;
        count -= n;
    }
    return 0;
}

/* Data then zeros up to a whole dword. */
static int writer_padded(struct aub_writer *writer, const void *data, uint64_t size, struct gt_error *err)
{
    static const uint8_t zeros[4];
    if (writer_bytes(writer, data, size, err))
        return -1;
    return writer_bytes(writer, zeros, (4 - size % 4) % 4, err);
}

int aub_writer_open(struct aub_writer *writer, const char *path, int compress, struct gt_error *err)
{
    errno = 0;
    writer->offset = 0;
    writer->file = gzopen(path, compress ? "wb6" : "wbT");
    if (!writer->file)
        return gt_error_set(err, "%s: cannot create: %s", path, errno ? strerror(errno) : "zlib error");
    return 0;
}

int aub_writer_close(struct aub_writer *writer, struct gt_error *err)
{
    if (!writer->file)
        return 0;
    int result = gzclose((gzFile)writer->file);
    writer->file = NULL;
    if (result != Z_OK)
        return gt_error_set(err, "AUB close failed (zlib error %d)", result);
    return 0;
}

static int text_block(struct aub_writer *writer, uint32_t *header, size_t header_dwords, const char *text,
                      size_t text_length, struct gt_error *err)
{
    if (writer_dwords(writer, header, header_dwords, err))
        return -1;
    return writer_padded(writer, text, text_length, err);
}

int aub_write_memtrace_version(struct aub_writer *writer, uint32_t pci_id, uint32_t device,
                               const char *application, struct gt_error *err)
{
    char text[256];
    int length = snprintf(text, sizeof text, "PCI-ID=0x%X %s", pci_id, application ? application : "");
    if (length < 0 || (size_t)length >= sizeof text)
        return gt_error_set(err, "AUB version text too long");
    size_t text_bytes = (size_t)length + 1; /* with its NUL */
    size_t text_dwords = (text_bytes + 3) / 4;
    uint32_t header[5] = { AUB_HEADER_DWORD(AUB_OPCODE_MEMTRACE, AUB_MEMTRACE_VERSION) | (uint32_t)(5 + text_dwords - 1),
                           1, (device & 0xFF) << 8, 0, 0 };
    return text_block(writer, header, 5, text, text_bytes, err);
}

#define MEMTRACE_WRITE_CHUNK (UINT64_C(64) << 10)

int aub_write_memory(struct aub_writer *writer, enum aub_address_space space, uint64_t address,
                     const void *data, uint64_t size, struct gt_error *err)
{
    static const uint32_t space_code[] = { [AUB_SPACE_GGTT] = 0, [AUB_SPACE_LOCAL] = 1,
                                           [AUB_SPACE_PHYSICAL] = 2, [AUB_SPACE_GGTT_ENTRY] = 4 };
    if (space != AUB_SPACE_GGTT && space != AUB_SPACE_LOCAL && space != AUB_SPACE_PHYSICAL &&
        space != AUB_SPACE_GGTT_ENTRY)
        return gt_error_set(err, "memtrace memory writes cannot target the %s space", aub_address_space_name(space));
    const uint8_t *bytes = data;
    do {
        uint64_t chunk = size > MEMTRACE_WRITE_CHUNK ? MEMTRACE_WRITE_CHUNK : size;
        uint32_t header[5] = {
            AUB_HEADER_DWORD(AUB_OPCODE_MEMTRACE, AUB_MEMTRACE_MEMORY_WRITE) | (uint32_t)(4 + (chunk + 3) / 4),
            (uint32_t)address, (uint32_t)(address >> 32), space_code[space] << 28, (uint32_t)chunk };
        if (writer_dwords(writer, header, 5, err) || writer_padded(writer, bytes, chunk, err))
            return -1;
        bytes += chunk;
        address += chunk;
        size -= chunk;
    } while (size);
    return 0;
}

static int register_block(struct aub_writer *writer, uint32_t sub_opcode, uint32_t offset, uint32_t mask,
                          uint32_t value, struct gt_error *err)
{
    /* dw2: size 2 (dword) in 19:16, space 0 (MMIO) in 31:28 (§2.4). */
    uint32_t block[6] = { AUB_HEADER_DWORD(AUB_OPCODE_MEMTRACE, sub_opcode) | 5, offset, 2u << 16, mask, 0, value };
    return writer_dwords(writer, block, 6, err);
}

int aub_write_register(struct aub_writer *writer, uint32_t offset, uint32_t value, struct gt_error *err)
{
    return register_block(writer, AUB_MEMTRACE_REGISTER_WRITE, offset, 0xFFFFFFFFu, value, err);
}

int aub_write_register_poll(struct aub_writer *writer, uint32_t offset, uint32_t mask, uint32_t value,
                            struct gt_error *err)
{
    return register_block(writer, AUB_MEMTRACE_REGISTER_POLL, offset, mask, value, err);
}

int aub_write_comment(struct aub_writer *writer, const char *text, struct gt_error *err)
{
    size_t text_bytes = strlen(text) + 1;
    size_t text_dwords = (text_bytes + 3) / 4;
    if (text_dwords > 0xFFFF - 1)
        return gt_error_set(err, "AUB comment too long");
    uint32_t header[2] = { AUB_HEADER_DWORD(AUB_OPCODE_MEMTRACE, AUB_MEMTRACE_COMMENT) | (uint32_t)(1 + text_dwords), 0 };
    return text_block(writer, header, 2, text, text_bytes, err);
}

int aub_write_legacy_header(struct aub_writer *writer, uint32_t pci_id, const char *application,
                            struct gt_error *err)
{
    char comment[32];
    int comment_length = snprintf(comment, sizeof comment, "PCI-ID=0x%x", pci_id);
    size_t comment_dwords = ((size_t)comment_length + 3) / 4;
    uint32_t header[13] = { AUB_HEADER_DWORD(AUB_OPCODE_CLASSIC, AUB_CLASSIC_AUB_HEADER) |
                                (uint32_t)(13 + comment_dwords - 2),
                            4u << 24 };
    uint8_t name[32] = { 0 };
    if (application)
        strncpy((char *)name, application, sizeof name - 1);
    for (int i = 0; i < 8; i++)
        header[2 + i] = load_le32(name + 4 * i);
    header[12] = (uint32_t)comment_length;
    return text_block(writer, header, 13, comment, (size_t)comment_length, err);
}

static int trace_block(struct aub_writer *writer, uint32_t operation, uint32_t type, uint32_t memtype,
                       uint32_t address, const void *data, uint64_t size, struct gt_error *err)
{
    uint64_t padded = (size + 3) & ~(uint64_t)3;
    uint32_t header[5] = { AUB_HEADER_DWORD(AUB_OPCODE_CLASSIC, AUB_CLASSIC_TRACE_HEADER_BLOCK) | 3,
                           operation | type << 8 | memtype << 16, 0, address, (uint32_t)padded };
    if (writer_dwords(writer, header, 5, err))
        return -1;
    return writer_padded(writer, data, size, err);
}

#define LEGACY_WRITE_CHUNK (UINT64_C(32) << 10)

int aub_write_legacy_data(struct aub_writer *writer, enum aub_address_space space, uint32_t type,
                          uint32_t address, const void *data, uint64_t size, struct gt_error *err)
{
    uint32_t memtype;
    switch (space) {
    case AUB_SPACE_GGTT: memtype = 0; break;
    case AUB_SPACE_LOCAL: memtype = 1; break;
    case AUB_SPACE_GGTT_ENTRY: memtype = 4; break;
    default:
        return gt_error_set(err, "legacy data writes cannot target the %s space", aub_address_space_name(space));
    }
    if (size > (UINT64_C(1) << 32) - address)
        return gt_error_set(err, "legacy data write 0x%" PRIx32 "+0x%" PRIx64 " leaves 32 bits", address, size);
    const uint8_t *bytes = data;
    do {
        uint64_t chunk = size > LEGACY_WRITE_CHUNK ? LEGACY_WRITE_CHUNK : size;
        if (trace_block(writer, AUB_TRACE_OPERATION_DATA_WRITE, type, memtype, address, bytes, chunk, err))
            return -1;
        bytes += chunk;
        address += (uint32_t)chunk;
        size -= chunk;
    } while (size);
    return 0;
}

int aub_write_legacy_ring(struct aub_writer *writer, uint32_t ring, uint32_t address,
                          const uint32_t *dwords, uint32_t dword_count, struct gt_error *err)
{
    if (dword_count > (1u << 24))
        return gt_error_set(err, "legacy ring write of %" PRIu32 " dwords is too large", dword_count);
    uint32_t header[5] = { AUB_HEADER_DWORD(AUB_OPCODE_CLASSIC, AUB_CLASSIC_TRACE_HEADER_BLOCK) | 3,
                           AUB_TRACE_OPERATION_COMMAND_WRITE | ring << 8, 0, address, dword_count * 4 };
    if (writer_dwords(writer, header, 5, err))
        return -1;
    return writer_dwords(writer, dwords, dword_count, err);
}
