/* fabric/aub.h - AUB trace files: reader, loader into struct gpu_memory, writer.
 *
 * The format and how Mesa's intel_dump_gpu lays out a capture are described in
 * notes/aub-format.md (section numbers below refer to it). In short: a flat
 * sequence of little-endian dword blocks, each starting with a header dword
 * (bits 31:29 type = 7, 28:23 opcode, 22:16 sub-opcode, 15:0 length), in two
 * families (§1):
 *  - classic (opcode 0x01), Gen4/Gen7 captures: AUB_HEADER (sub 0x05, §2.2),
 *    TRACE_HEADER_BLOCK (sub 0x41, §2.5: data write, ring "command" write, MMIO
 *    write, comment; followed by dw4 bytes of data), DUMP_BMP (sub 0x1E,
 *    skipped). Block = length + 2 dwords (+ data for 0x41).
 *  - memtrace (opcode 0x2E), Gen8/Gen9 captures: MEM_TRACE_VERSION (0x0E,
 *    §2.1), REGISTER_POLL (0x02) / REGISTER_WRITE (0x03) (§2.4), MEMORY_POLL
 *    (0x05), MEMORY_WRITE (0x06, §2.3), COMMENT (0x08, §2.6),
 *    MEMORY_WRITE_DISCONTIGUOUS (0x0B). Block = length + 1 dwords.
 *    The discontiguous write's layout (dw1: bits 19:4 element count, 31:28
 *    space; 63 packed {u64 address, u32 size} elements; then the data of each
 *    element in order, zero-padded at the end) is from the i915 aubcapture
 *    patches' intel_aubcapture_format.h (struct cmd_memtrace_memwrite_discon),
 *    not from Mesa; no capture holds one.
 *    MEMORY_POLL's layout is in no source at hand: it is reported with its raw
 *    dwords only.
 *  - REGISTER_COMPARE (0x01), MEMORY_COMPARE (0x04) and FRAME_BEGIN (0x07) are
 *    rejected as not modelled (Mesa's reader rejects them too, §1); every other
 *    opcode/sub-opcode is an error.
 *
 * Untrusted input: every error names the byte offset of the block (in the
 * uncompressed stream) and what was wrong; lengths are checked against the
 * block before use; a block's buffer grows only as its bytes actually arrive
 * (so a huge length field in a short file gives "truncated", not a huge
 * allocation) and no block may exceed AUB_MAX_BLOCK_BYTES.
 */
#ifndef GTSIM_FABRIC_AUB_H
#define GTSIM_FABRIC_AUB_H

#include "fabric/error.h"
#include "fabric/memory.h"

#include <stddef.h>
#include <stdint.h>

/* Largest block the reader accepts (header + data). Mesa's largest is one
 * 94,208-byte GGTT write (§1 "Sizes"); a memtrace block cannot exceed 256 KiB. */
#define AUB_MAX_BLOCK_BYTES (UINT64_C(64) << 20)

/* Block header dwords (length 0) - §1 table. */
#define AUB_HEADER_DWORD(opcode, sub_opcode) (0xE0000000u | (uint32_t)(opcode) << 23 | (uint32_t)(sub_opcode) << 16)
#define AUB_OPCODE_CLASSIC 0x01u
#define AUB_OPCODE_MEMTRACE 0x2Eu
#define AUB_CLASSIC_AUB_HEADER 0x05u
#define AUB_CLASSIC_DUMP_BMP 0x1Eu
#define AUB_CLASSIC_TRACE_HEADER_BLOCK 0x41u
#define AUB_MEMTRACE_REGISTER_COMPARE 0x01u
#define AUB_MEMTRACE_REGISTER_POLL 0x02u
#define AUB_MEMTRACE_REGISTER_WRITE 0x03u
#define AUB_MEMTRACE_MEMORY_COMPARE 0x04u
#define AUB_MEMTRACE_MEMORY_POLL 0x05u
#define AUB_MEMTRACE_MEMORY_WRITE 0x06u
#define AUB_MEMTRACE_FRAME_BEGIN 0x07u
#define AUB_MEMTRACE_COMMENT 0x08u
#define AUB_MEMTRACE_MEMORY_WRITE_DISCONTIGUOUS 0x0Bu
#define AUB_MEMTRACE_VERSION 0x0Eu

/* TRACE_HEADER_BLOCK dw1 fields (§2.5). */
#define AUB_TRACE_OPERATION_COMMENT 0u
#define AUB_TRACE_OPERATION_DATA_WRITE 1u
#define AUB_TRACE_OPERATION_COMMAND_WRITE 2u
#define AUB_TRACE_OPERATION_MMIO_WRITE 3u
#define AUB_TRACE_TYPE_NOTYPE 0u
#define AUB_TRACE_TYPE_BATCH 1u
#define AUB_TRACE_RING_HWB 1u
#define AUB_TRACE_RING_PRB0 2u /* render ring */
#define AUB_TRACE_RING_PRB1 3u
#define AUB_TRACE_RING_PRB2 4u

/* Where a memory write lands. The memtrace codes (dw3[31:28], §2.3) are 0
 * GGTT, 1 LOCAL, 2 PHYSICAL, 4 GGTT_ENTRY; the classic memtype codes (dw1
 * bits 23:16, §2.5) are 0 GTT, 1 LOCAL, 2 NONLOCAL, 3 PCI, 4 GTT_ENTRY.
 * This enum is the union, with its own values. */
enum aub_address_space {
    AUB_SPACE_GGTT,       /* a (G)GTT virtual address */
    AUB_SPACE_LOCAL,      /* device-local memory, untranslated */
    AUB_SPACE_PHYSICAL,   /* a physical (backing-store) address */
    AUB_SPACE_GGTT_ENTRY, /* a byte offset into the GTT entry array */
    AUB_SPACE_NONLOCAL,   /* classic only */
    AUB_SPACE_PCI,        /* classic only */
};

enum aub_file_form {
    AUB_FORM_UNKNOWN,
    AUB_FORM_MEMTRACE, /* MEM_TRACE_VERSION header: Gen8+ execlist captures */
    AUB_FORM_LEGACY,   /* AUB_HEADER: Gen4..Gen7 ring captures */
};

struct aub_version {
    uint64_t file_offset;
    enum aub_file_form form;
    int has_pci_id;
    uint32_t pci_id;          /* from the "PCI-ID=0x..." text */
    uint32_t memtrace_device; /* memtrace dw2 bits 15:8 (Mesa simulator id); 0 for legacy */
    uint32_t legacy_version;  /* AUB_HEADER dw1 (major 31:24, minor 23:16); 0 for memtrace */
    char application[64];     /* legacy: the 32-byte name; memtrace: text after the PCI-ID */
    char text[256];           /* the header text as found (comment / command line) */
};

struct aub_memory_write {
    uint64_t file_offset;
    enum aub_address_space space;
    uint64_t address;
    const uint8_t *data;
    uint64_t size;
    int classic;           /* 1 when it came from a TRACE_HEADER_BLOCK */
    uint32_t classic_type; /* TRACE_HEADER_BLOCK type (BATCH, NOTYPE, ...) */
};

struct aub_register_write {
    uint64_t file_offset;
    uint32_t offset; /* MMIO offset */
    uint32_t value;
    uint32_t mask;   /* write mask low */
};

struct aub_register_poll {
    uint64_t file_offset;
    uint32_t offset;
    uint32_t mask;   /* wait until (register & mask) == value */
    uint32_t value;
    int not_equal;   /* dw2 bit 2: wait until (register & mask) != value instead
                      * (i915 aubcapture header "poll_not_equal"; Mesa writes 0) */
};

struct aub_memory_poll {
    uint64_t file_offset;
    const uint8_t *bytes; /* the whole block, header included (little-endian dwords) */
    uint32_t size;        /* bytes */
};

struct aub_comment {
    uint64_t file_offset;
    const char *text; /* NUL-terminated, bounded by the block */
};

/* A classic COMMAND_WRITE: ring content delivered inline (§5.3). */
struct aub_ring_write {
    uint64_t file_offset;
    uint32_t ring;    /* AUB_TRACE_RING_* */
    uint64_t address; /* dw3 (| dw5 << 32 with a 6-dword header) */
    const uint8_t *data;
    uint64_t size;
};

/* A classic MMIO_WRITE: data dwords written from MMIO offset address on. */
struct aub_mmio_write {
    uint64_t file_offset;
    uint32_t offset;
    const uint8_t *data;
    uint64_t size;
};

/* Any callback may be NULL (the block is then skipped). Returning -1 (with
 * err filled) stops the walk; the reader prefixes the block's offset. */
struct aub_reader_callbacks {
    int (*version)(void *context, const struct aub_version *version, struct gt_error *err);
    int (*memory_write)(void *context, const struct aub_memory_write *write, struct gt_error *err);
    int (*register_write)(void *context, const struct aub_register_write *write, struct gt_error *err);
    int (*register_poll)(void *context, const struct aub_register_poll *poll, struct gt_error *err);
    int (*memory_poll)(void *context, const struct aub_memory_poll *poll, struct gt_error *err);
    int (*comment)(void *context, const struct aub_comment *comment, struct gt_error *err);
    int (*ring_write)(void *context, const struct aub_ring_write *write, struct gt_error *err);
    int (*mmio_write)(void *context, const struct aub_mmio_write *write, struct gt_error *err);
};

/* Walks every block of the file at path (plain or gzip) in order, calling the
 * callbacks. 0 at a clean end of file; -1 + err ("path: offset 0x..: ...") on
 * I/O errors, malformed or unknown blocks, or a callback's error. */
int aub_read_file(const char *path, const struct aub_reader_callbacks *callbacks, void *context,
                  struct gt_error *err);

const char *aub_address_space_name(enum aub_address_space space);

/* ---- devices ----------------------------------------------------------- */

struct aub_device_info {
    uint32_t pci_id;
    const char *name;
    int generation; /* 4, 7, 8, 9 (Haswell: 7) */
    enum gpu_address_space_format gtt_format;
};

/* The known device for a PCI id, or NULL. */
const struct aub_device_info *aub_device_lookup(uint32_t pci_id);

/* What a capture's version block says about its device. An unknown PCI id is
 * taken by the file's form: memtrace captures are written for Gen8+ (a Gen8
 * GGTT), legacy ones for Gen4..Gen7 (the Gen6/7 GTT layout, a superset of
 * Gen4's below 4 GiB): aub-format.md §2.1-2.2. */
struct aub_device_guess {
    uint32_t pci_id;                        /* 0 when the file names none */
    const struct aub_device_info *device;   /* NULL for an unknown PCI id */
    int generation;
    enum gpu_address_space_format gtt_format;
};
void aub_version_device(const struct aub_version *version, struct aub_device_guess *out);

/* Reads only as far as a capture's version block and says its device; -1 with
 * err when the file cannot be read or does not start with a version block. */
int aub_read_device(const char *path, struct aub_device_guess *out, struct gt_error *err);

/* ---- loader ------------------------------------------------------------ */

/* One entry of the submission log, in file order. */
enum aub_event_kind {
    AUB_EVENT_REGISTER_WRITE, /* offset, value, mask */
    AUB_EVENT_REGISTER_POLL,  /* offset, mask, value */
    AUB_EVENT_RING_WRITE,     /* ring, address, data */
    AUB_EVENT_MMIO_WRITE,     /* offset, data */
};

struct aub_event {
    enum aub_event_kind kind;
    uint64_t file_offset;
    uint32_t offset;  /* register / MMIO offset */
    uint32_t value;
    uint32_t mask;
    int not_equal;    /* register poll: aub_register_poll.not_equal */
    uint32_t ring;    /* ring write: AUB_TRACE_RING_* */
    uint64_t address; /* ring write: dw3 address */
    size_t data_index; /* ring/MMIO write: first byte in the log's data pool */
    uint32_t data_size; /* bytes */
};

struct aub_submission_log {
    struct aub_event *events;
    size_t count;
    size_t capacity;
    uint8_t *data; /* ring / MMIO payload bytes, indexed by aub_event.data_index */
    size_t data_size;
    size_t data_capacity;
};

/* The payload of a ring or MMIO write event. */
const uint8_t *aub_event_data(const struct aub_submission_log *log, const struct aub_event *event);

/* What the loader built. */
struct aub_load {
    struct gpu_memory *memory;       /* owned by the load */
    enum aub_file_form form;
    uint32_t pci_id;                 /* 0 when the file names none */
    const struct aub_device_info *device; /* NULL for an unknown PCI id */
    int generation;                  /* device's, or 8 (memtrace) / 7 (legacy) if unknown */
    struct gpu_address_space ggtt;   /* the global GTT in the device's format */
    struct aub_submission_log log;
    uint64_t blocks;                 /* blocks seen by the callbacks */
    uint64_t memory_writes;
    uint64_t memory_write_bytes;
};

/* Options of a load (all may be zero / NULL):
 *  - event: called after each event is appended, with memory as the file has
 *    built it up to that block: the place for a command streamer to execute
 *    (the blocks that follow may overwrite what a submission used, §6
 *    pitfall 7). Returning -1 stops the load.
 *  - page_limit: the memory's page budget (gpu_memory_set_page_limit); 0 keeps
 *    GPU_MEMORY_DEFAULT_PAGE_LIMIT. Bounds what a hostile file can allocate. */
struct aub_load_options {
    void *context;
    int (*event)(void *context, struct aub_load *load, const struct aub_event *event,
                 struct gt_error *err);
    uint64_t page_limit;
};

/* Loads path into a fresh load: GGTT_ENTRY writes go to the GTT entry array,
 * GGTT writes through the GGTT (format from the device: 32-bit GTT on
 * Gen4..Gen7, 64-bit GGTT on Gen8+), PHYSICAL and LOCAL writes to physical
 * memory; register writes/polls and ring/MMIO writes to the log. options may
 * be NULL. On error the load is released. Classic NONLOCAL/PCI writes are
 * errors (not modelled). */
int aub_load_file(const char *path, struct aub_load *load, const struct aub_load_options *options,
                  struct gt_error *err);
void aub_load_release(struct aub_load *load);

/* ---- writer ------------------------------------------------------------ */

struct aub_writer {
    void *file;      /* gzFile */
    uint64_t offset; /* bytes written (uncompressed) */
};

/* compress: 1 = gzip, 0 = plain. */
int aub_writer_open(struct aub_writer *writer, const char *path, int compress, struct gt_error *err);
int aub_writer_close(struct aub_writer *writer, struct gt_error *err);

/* Memtrace (Gen8+) forms. The version text is "PCI-ID=0x%X <application>"
 * (§2.1); device = the dw2 15:8 simulator id (Mesa: 11 BDW, 12 SKL; 0 if
 * unknown). Memory writes longer than 64 KiB are split into several blocks;
 * space must be GGTT, LOCAL, PHYSICAL or GGTT_ENTRY. */
int aub_write_memtrace_version(struct aub_writer *writer, uint32_t pci_id, uint32_t device,
                               const char *application, struct gt_error *err);
int aub_write_memory(struct aub_writer *writer, enum aub_address_space space, uint64_t address,
                     const void *data, uint64_t size, struct gt_error *err);
int aub_write_register(struct aub_writer *writer, uint32_t offset, uint32_t value, struct gt_error *err);
int aub_write_register_poll(struct aub_writer *writer, uint32_t offset, uint32_t mask, uint32_t value,
                            struct gt_error *err);
int aub_write_comment(struct aub_writer *writer, const char *text, struct gt_error *err);

/* Legacy (Gen4..Gen7) forms: AUB_HEADER with comment "PCI-ID=0x%x" (§2.2);
 * TRACE_HEADER_BLOCK data writes (split at 32 KiB like Mesa, zero-padded to
 * dwords; space GGTT, LOCAL or GGTT_ENTRY; type AUB_TRACE_TYPE_*) and ring
 * (COMMAND_WRITE) writes, with 5-dword headers (32-bit addresses). */
int aub_write_legacy_header(struct aub_writer *writer, uint32_t pci_id, const char *application,
                            struct gt_error *err);
int aub_write_legacy_data(struct aub_writer *writer, enum aub_address_space space, uint32_t type,
                          uint32_t address, const void *data, uint64_t size, struct gt_error *err);
int aub_write_legacy_ring(struct aub_writer *writer, uint32_t ring, uint32_t address,
                          const uint32_t *dwords, uint32_t dword_count, struct gt_error *err);

#endif
