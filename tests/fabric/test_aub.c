/* tests/fabric/test_aub.c - the AUB reader, loader and writer.
 *
 * Independent checks:
 *  - block counts, payload bytes and devices of the seven real captures in
 *    tests/data/traces equal the table of notes/aub-format.md §7;
 *  - following each capture's own submission (ELSP -> context image -> ring ->
 *    PPGTT, or PRB0 ring write -> GTT) finds the batch at the address listed in
 *    *.batches.txt, and its bytes equal the raw *.batch.NN.bin files;
 *  - block offsets in error messages are computed from the block sizes given
 *    in notes/aub-format.md §2 (12-dword version header, 7-dword 8-byte
 *    MEMORY_WRITE, 6-dword REGISTER_WRITE, 16-dword byt AUB_HEADER).
 */
#include "fabric/aub.h"
#include "tests/test.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define TRACE_DIR "tests/data/traces/"

/* ---- helpers ----------------------------------------------------------- */

struct bytes {
    uint8_t *data;
    size_t size;
};

/* Whole file, gunzipped when it is gzip (zlib reads plain files as is). */
static struct bytes read_whole(const char *path)
{
    struct bytes result = { NULL, 0 };
    gzFile file = gzopen(path, "rb");
    if (!file)
        return result;
    size_t capacity = 1 << 16;
    result.data = malloc(capacity);
    for (;;) {
        if (result.size == capacity) {
            capacity *= 2;
            result.data = realloc(result.data, capacity);
        }
        int n = gzread(file, result.data + result.size, (unsigned)(capacity - result.size));
        if (n <= 0)
            break;
        result.size += (size_t)n;
    }
    gzclose(file);
    return result;
}

static const char *write_temp(const char *dir, const char *name, const void *data, size_t size)
{
    char *path = malloc(512);
    snprintf(path, 512, "%s/%s", dir, name);
    FILE *file = fopen(path, "wb");
    if (file) {
        fwrite(data, 1, size, file);
        fclose(file);
    }
    return path;
}

static void put_le32(uint8_t *p, uint32_t value)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(value >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* *.batches.txt: "  batch N @ 0x...: D dwords -> file". */
struct batch_list {
    unsigned count;
    uint64_t address[4];
    unsigned dwords[4];
};

static struct batch_list read_batch_list(const char *capture)
{
    struct batch_list list = { 0, { 0 }, { 0 } };
    char path[256], line[512];
    snprintf(path, sizeof path, TRACE_DIR "%s.batches.txt", capture);
    FILE *file = fopen(path, "r");
    if (!file)
        return list;
    while (fgets(line, sizeof line, file) && list.count < 4) {
        unsigned index, dwords;
        uint64_t address;
        if (sscanf(line, " batch %u @ 0x%" SCNx64 ": %u dwords", &index, &address, &dwords) == 3) {
            list.address[list.count] = address;
            list.dwords[list.count] = dwords;
            list.count++;
        }
    }
    fclose(file);
    return list;
}

/* ---- block counts (aub-format.md §7) ----------------------------------- */

struct block_counts {
    unsigned versions;
    enum aub_file_form form;
    uint32_t pci_id;
    uint32_t memtrace_device;
    char application[64];
    unsigned writes[6];
    uint64_t write_bytes[6];
    unsigned classic_batch, classic_notype, classic_gtt_entry;
    uint64_t classic_batch_bytes, classic_notype_bytes, classic_gtt_entry_bytes;
    unsigned register_writes, register_polls, ring_writes, other;
    uint64_t ring_bytes;
};

static int count_version(void *context, const struct aub_version *version, struct gt_error *err)
{
    struct block_counts *counts = context;
    (void)err;
    counts->versions++;
    counts->form = version->form;
    counts->pci_id = version->pci_id;
    counts->memtrace_device = version->memtrace_device;
    snprintf(counts->application, sizeof counts->application, "%s", version->application);
    return 0;
}

static int count_memory_write(void *context, const struct aub_memory_write *write, struct gt_error *err)
{
    struct block_counts *counts = context;
    (void)err;
    if (write->classic) {
        if (write->space == AUB_SPACE_GGTT_ENTRY) {
            counts->classic_gtt_entry++;
            counts->classic_gtt_entry_bytes += write->size;
        } else if (write->classic_type == AUB_TRACE_TYPE_BATCH) {
            counts->classic_batch++;
            counts->classic_batch_bytes += write->size;
        } else {
            counts->classic_notype++;
            counts->classic_notype_bytes += write->size;
        }
        return 0;
    }
    counts->writes[write->space]++;
    counts->write_bytes[write->space] += write->size;
    return 0;
}

static int count_register_write(void *context, const struct aub_register_write *write, struct gt_error *err)
{
    (void)write;
    (void)err;
    ((struct block_counts *)context)->register_writes++;
    return 0;
}

static int count_register_poll(void *context, const struct aub_register_poll *poll, struct gt_error *err)
{
    (void)err;
    struct block_counts *counts = context;
    counts->register_polls++;
    /* §4.5: every poll is EXECLIST_STATUS, mask 0x10, value 0. */
    if (poll->offset != 0x2234 || poll->mask != 0x10 || poll->value != 0)
        counts->other++;
    return 0;
}

static int count_ring_write(void *context, const struct aub_ring_write *write, struct gt_error *err)
{
    (void)err;
    struct block_counts *counts = context;
    counts->ring_writes++;
    counts->ring_bytes += write->size;
    if (write->ring != AUB_TRACE_RING_PRB0)
        counts->other++;
    return 0;
}

static int count_other(void *context, const void *block, struct gt_error *err)
{
    (void)block;
    (void)err;
    ((struct block_counts *)context)->other++;
    return 0;
}

static int count_comment(void *context, const struct aub_comment *comment, struct gt_error *err)
{
    return count_other(context, comment, err);
}

static int count_memory_poll(void *context, const struct aub_memory_poll *poll, struct gt_error *err)
{
    return count_other(context, poll, err);
}

static int count_mmio_write(void *context, const struct aub_mmio_write *write, struct gt_error *err)
{
    return count_other(context, write, err);
}

static const struct aub_reader_callbacks counting_callbacks = {
    count_version, count_memory_write, count_register_write, count_register_poll,
    count_memory_poll, count_comment, count_ring_write, count_mmio_write,
};

static unsigned total_blocks(const struct block_counts *c)
{
    unsigned total = c->versions + c->classic_batch + c->classic_notype + c->classic_gtt_entry +
                     c->register_writes + c->register_polls + c->ring_writes + c->other;
    for (int i = 0; i < 6; i++)
        total += c->writes[i];
    return total;
}

struct memtrace_expectation {
    const char *capture;
    uint32_t pci_id, device;
    unsigned blocks, physical_writes;
    uint64_t physical_bytes;
};

static void check_memtrace_counts(const struct memtrace_expectation *e)
{
    char path[256];
    snprintf(path, sizeof path, TRACE_DIR "%s.aub.gz", e->capture);
    struct block_counts counts;
    memset(&counts, 0, sizeof counts);
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL_FATAL(aub_read_file(path, &counting_callbacks, &counts, &err), 0);
    CU_ASSERT_EQUAL(total_blocks(&counts), e->blocks);
    CU_ASSERT_EQUAL(counts.versions, 1);
    CU_ASSERT_EQUAL(counts.form, AUB_FORM_MEMTRACE);
    CU_ASSERT_EQUAL(counts.pci_id, e->pci_id);
    CU_ASSERT_EQUAL(counts.memtrace_device, e->device);
    CU_ASSERT_STRING_EQUAL(counts.application, "gltrace_app");
    CU_ASSERT_EQUAL(counts.writes[AUB_SPACE_GGTT], 8);
    CU_ASSERT_EQUAL(counts.write_bytes[AUB_SPACE_GGTT], 98352);
    CU_ASSERT_EQUAL(counts.writes[AUB_SPACE_GGTT_ENTRY], 3);
    CU_ASSERT_EQUAL(counts.write_bytes[AUB_SPACE_GGTT_ENTRY], 208);
    CU_ASSERT_EQUAL(counts.writes[AUB_SPACE_PHYSICAL], e->physical_writes);
    CU_ASSERT_EQUAL(counts.write_bytes[AUB_SPACE_PHYSICAL], e->physical_bytes);
    CU_ASSERT_EQUAL(counts.writes[AUB_SPACE_LOCAL], 0);
    CU_ASSERT_EQUAL(counts.register_writes, 12);
    CU_ASSERT_EQUAL(counts.register_polls, 2);
    CU_ASSERT_EQUAL(counts.ring_writes, 0);
    CU_ASSERT_EQUAL(counts.other, 0);
}

static void test_memtrace_captures_parse_completely(void)
{
    static const struct memtrace_expectation expectations[] = {
        { "bdw_compute", 0x1616, 11, 650, 624, 2462504 },
        { "bdw_tri", 0x1616, 11, 1168, 1142, 4580168 },
        { "skl_compute", 0x1912, 12, 650, 624, 2462504 },
        { "skl_tri", 0x1912, 12, 1169, 1143, 4580200 },
    };
    for (size_t i = 0; i < sizeof expectations / sizeof expectations[0]; i++)
        check_memtrace_counts(&expectations[i]);
}

struct legacy_expectation {
    const char *capture;
    uint32_t pci_id;
    unsigned blocks, batch_blocks, notype_blocks, rings;
    uint64_t batch_bytes, notype_bytes;
};

static void test_legacy_captures_parse_completely(void)
{
    static const struct legacy_expectation expectations[] = {
        { "byt_compute", 0x0F31, 16, 2, 9, 2, 49152, 73728 },
        { "byt_tri", 0x0F31, 49, 2, 42, 2, 49152, 1159168 },
        { "g965_tri", 0x29A2, 73, 1, 68, 1, 24576, 2138112 },
    };
    for (size_t i = 0; i < sizeof expectations / sizeof expectations[0]; i++) {
        const struct legacy_expectation *e = &expectations[i];
        char path[256];
        snprintf(path, sizeof path, TRACE_DIR "%s.aub.gz", e->capture);
        struct block_counts counts;
        memset(&counts, 0, sizeof counts);
        struct gt_error err = { "" };
        CU_ASSERT_EQUAL_FATAL(aub_read_file(path, &counting_callbacks, &counts, &err), 0);
        CU_ASSERT_EQUAL(total_blocks(&counts), e->blocks);
        CU_ASSERT_EQUAL(counts.form, AUB_FORM_LEGACY);
        CU_ASSERT_EQUAL(counts.pci_id, e->pci_id);
        CU_ASSERT_STRING_EQUAL(counts.application, "gltrace_app");
        CU_ASSERT_EQUAL(counts.writes[AUB_SPACE_GGTT_ENTRY], 1);
        CU_ASSERT_EQUAL(counts.write_bytes[AUB_SPACE_GGTT_ENTRY], 8);
        CU_ASSERT_EQUAL(counts.writes[AUB_SPACE_GGTT] + counts.writes[AUB_SPACE_PHYSICAL], 0);
        CU_ASSERT_EQUAL(counts.classic_gtt_entry, 1);
        CU_ASSERT_EQUAL(counts.classic_gtt_entry_bytes, 65536);
        CU_ASSERT_EQUAL(counts.classic_batch, e->batch_blocks);
        CU_ASSERT_EQUAL(counts.classic_batch_bytes, e->batch_bytes);
        CU_ASSERT_EQUAL(counts.classic_notype, e->notype_blocks);
        CU_ASSERT_EQUAL(counts.classic_notype_bytes, e->notype_bytes);
        CU_ASSERT_EQUAL(counts.ring_writes, e->rings);
        CU_ASSERT_EQUAL(counts.ring_bytes, 8 * e->rings);
        CU_ASSERT_EQUAL(counts.register_writes + counts.register_polls + counts.other, 0);
    }
}

/* ---- batches through the capture's own submissions --------------------- */

struct submission_check {
    const char *capture;
    struct batch_list batches;
    unsigned found;
    unsigned elsp_writes;
    uint32_t elsp[4];
    unsigned mismatches;
};

static int compare_batch(struct submission_check *check, struct gpu_address_space *space, uint64_t address)
{
    struct gt_error err;
    unsigned k = check->found++;
    if (k >= check->batches.count) {
        CU_FAIL("more submissions than batches.txt lists");
        return 0;
    }
    CU_ASSERT_EQUAL(address, check->batches.address[k]);
    char path[256];
    snprintf(path, sizeof path, TRACE_DIR "%s.batch.%02u.bin", check->capture, k);
    struct bytes expected = read_whole(path);
    CU_ASSERT_EQUAL(expected.size, check->batches.dwords[k] * 4u);
    uint8_t *actual = calloc(1, expected.size + 1);
    CU_ASSERT_EQUAL(gpu_address_space_read(space, address, actual, expected.size, &err), 0);
    int same = expected.data && memcmp(actual, expected.data, expected.size) == 0;
    CU_ASSERT(same);
    if (!same)
        check->mismatches++;
    /* Last dword of each listed batch is MI_BATCH_BUFFER_END (§4.6 step 4). */
    if (expected.size >= 4)
        CU_ASSERT_EQUAL(get_le32(actual + expected.size - 4), 0x05000000);
    free(actual);
    free(expected.data);
    return 0;
}

/* Gen8/Gen9: the 4th ELSP write submits (§4.4); follow descriptor -> context
 * image (§4.3) -> ring (§4.6) -> PPGTT. */
static int execlist_hook(void *context, struct aub_load *load, const struct aub_event *event,
                         struct gt_error *err)
{
    struct submission_check *check = context;
    (void)err;
    if (event->kind != AUB_EVENT_REGISTER_WRITE || event->offset != 0x2230)
        return 0;
    check->elsp[check->elsp_writes++ % 4] = event->value;
    if (check->elsp_writes % 4)
        return 0;
    CU_ASSERT_EQUAL(check->elsp[0], 0);
    CU_ASSERT_EQUAL(check->elsp[1], 0);
    uint64_t descriptor = (uint64_t)check->elsp[2] << 32 | check->elsp[3];
    CU_ASSERT_EQUAL(descriptor, 0x2339);
    uint64_t lrca = descriptor & 0xFFFFF000u;
    uint8_t image[0x45 * 4];
    struct gt_error read_err;
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_read(&load->ggtt, lrca + 0x1000, image, sizeof image, &read_err), 0);
    CU_ASSERT_EQUAL(get_le32(image + 0x01 * 4), 0x1100101B);
    CU_ASSERT_EQUAL(get_le32(image + 0x08 * 4), 0x2038);
    CU_ASSERT_EQUAL(get_le32(image + 0x44 * 4), 0x05000000);
    uint32_t head = get_le32(image + 0x05 * 4), tail = get_le32(image + 0x07 * 4);
    uint32_t ring_start = get_le32(image + 0x09 * 4);
    uint64_t pml4 = (uint64_t)get_le32(image + 0x31 * 4) << 32 | get_le32(image + 0x33 * 4);
    CU_ASSERT_EQUAL(head, 0);
    CU_ASSERT_EQUAL(tail, 16);
    CU_ASSERT_EQUAL(ring_start, 0x1000);
    uint8_t ring[16];
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_read(&load->ggtt, ring_start + head, ring, sizeof ring, &read_err), 0);
    CU_ASSERT_EQUAL(get_le32(ring), 0x18800101); /* MI_BATCH_BUFFER_START, PPGTT */
    uint64_t batch = get_le32(ring + 4) | (uint64_t)get_le32(ring + 8) << 32;
    CU_ASSERT_EQUAL(batch >> 48, 0xFFFF); /* canonical (§3.2) */
    struct gpu_address_space ppgtt;
    gpu_address_space_init(&ppgtt, load->memory, GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL, pml4);
    return compare_batch(check, &ppgtt, batch & 0xFFFFFFFFFFFFull);
}

/* Gen4/Gen7: the PRB0 ring write carries MI_BATCH_BUFFER_START + address (§5.3). */
static int legacy_hook(void *context, struct aub_load *load, const struct aub_event *event, struct gt_error *err)
{
    struct submission_check *check = context;
    (void)err;
    if (event->kind != AUB_EVENT_RING_WRITE)
        return 0;
    CU_ASSERT_EQUAL(event->ring, AUB_TRACE_RING_PRB0);
    CU_ASSERT_EQUAL_FATAL(event->data_size, 8);
    const uint8_t *data = aub_event_data(&load->log, event);
    CU_ASSERT_EQUAL(get_le32(data), 0x18800000);
    /* The GTT maps page i to physical 0x200000 + i * 4 KiB (§3.3). */
    uint64_t physical = 0;
    CU_ASSERT_EQUAL(gpu_address_space_translate(&load->ggtt, get_le32(data + 4), &physical), 0);
    CU_ASSERT_EQUAL(physical, get_le32(data + 4) + 0x200000u);
    return compare_batch(check, &load->ggtt, get_le32(data + 4));
}

static void check_submissions(const char *capture, const char *path, int legacy, unsigned *mismatches)
{
    struct submission_check check;
    memset(&check, 0, sizeof check);
    check.capture = capture;
    check.batches = read_batch_list(capture);
    CU_ASSERT_FATAL(check.batches.count > 0);
    struct aub_load_options options = { &check, legacy ? legacy_hook : execlist_hook, 0 };
    struct aub_load load;
    struct gt_error err = { "" };
    int result = aub_load_file(path, &load, &options, &err);
    if (result)
        fprintf(stderr, "\n%s\n", err.message);
    CU_ASSERT_EQUAL_FATAL(result, 0);
    CU_ASSERT_EQUAL(check.found, check.batches.count);
    CU_ASSERT_EQUAL(load.ggtt.fault_count, 0);
    if (mismatches)
        *mismatches += check.mismatches;
    aub_load_release(&load);
}

static void test_batches_equal_raw_files_gen8_gen9(void)
{
    const char *captures[] = { "skl_compute", "skl_tri", "bdw_compute", "bdw_tri" };
    for (int i = 0; i < 4; i++) {
        char path[256];
        snprintf(path, sizeof path, TRACE_DIR "%s.aub.gz", captures[i]);
        unsigned mismatches = 0;
        check_submissions(captures[i], path, 0, &mismatches);
        CU_ASSERT_EQUAL(mismatches, 0);
    }
}

static void test_batches_equal_raw_files_gen4_gen7(void)
{
    const char *captures[] = { "byt_compute", "byt_tri", "g965_tri" };
    for (int i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, TRACE_DIR "%s.aub.gz", captures[i]);
        unsigned mismatches = 0;
        check_submissions(captures[i], path, 1, &mismatches);
        CU_ASSERT_EQUAL(mismatches, 0);
    }
}

static void test_load_records_device_and_register_log(void)
{
    struct aub_load load;
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL_FATAL(aub_load_file(TRACE_DIR "skl_compute.aub.gz", &load, NULL, &err), 0);
    CU_ASSERT_EQUAL(load.pci_id, 0x1912);
    CU_ASSERT_EQUAL(load.generation, 9);
    CU_ASSERT_EQUAL(load.ggtt.format, GPU_ADDRESS_SPACE_GGTT_GEN8);
    /* §4.1 / §7: 3 GFX_MODE, HWS_PGA, ELSP x4, poll, ELSP x4, poll. */
    static const struct { enum aub_event_kind kind; uint32_t offset, value; } expected[] = {
        { AUB_EVENT_REGISTER_WRITE, 0x229C, 0x80008000 }, { AUB_EVENT_REGISTER_WRITE, 0x1229C, 0x80008000 },
        { AUB_EVENT_REGISTER_WRITE, 0x2229C, 0x80008000 }, { AUB_EVENT_REGISTER_WRITE, 0x2080, 0x19000 },
        { AUB_EVENT_REGISTER_WRITE, 0x2230, 0 }, { AUB_EVENT_REGISTER_WRITE, 0x2230, 0 },
        { AUB_EVENT_REGISTER_WRITE, 0x2230, 0 }, { AUB_EVENT_REGISTER_WRITE, 0x2230, 0x2339 },
        { AUB_EVENT_REGISTER_POLL, 0x2234, 0 },
        { AUB_EVENT_REGISTER_WRITE, 0x2230, 0 }, { AUB_EVENT_REGISTER_WRITE, 0x2230, 0 },
        { AUB_EVENT_REGISTER_WRITE, 0x2230, 0 }, { AUB_EVENT_REGISTER_WRITE, 0x2230, 0x2339 },
        { AUB_EVENT_REGISTER_POLL, 0x2234, 0 },
    };
    size_t n = sizeof expected / sizeof expected[0];
    CU_ASSERT_EQUAL_FATAL(load.log.count, n);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(load.log.events[i].kind, expected[i].kind);
        CU_ASSERT_EQUAL(load.log.events[i].offset, expected[i].offset);
        CU_ASSERT_EQUAL(load.log.events[i].value, expected[i].value);
    }
    CU_ASSERT_EQUAL(load.log.events[8].mask, 0x10);
    CU_ASSERT_EQUAL(load.log.events[8].not_equal, 0);
    /* Events are in file order. */
    for (size_t i = 1; i < n; i++)
        CU_ASSERT(load.log.events[i].file_offset > load.log.events[i - 1].file_offset);
    /* GGTT 0x1000-0x19FFF -> 25 consecutive physical pages from 0x255000 (§4.2, §7). */
    uint64_t physical = 0;
    CU_ASSERT_EQUAL(gpu_address_space_translate(&load.ggtt, 0x1000, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x255000);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&load.ggtt, 0x19FFF, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x255000 + 0x18FFF);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&load.ggtt, 0x1A000, &physical), -1);
    aub_load_release(&load);

    CU_ASSERT_EQUAL_FATAL(aub_load_file(TRACE_DIR "g965_tri.aub.gz", &load, NULL, &err), 0);
    CU_ASSERT_EQUAL(load.pci_id, 0x29A2);
    CU_ASSERT_EQUAL(load.generation, 4);
    CU_ASSERT_EQUAL(load.ggtt.format, GPU_ADDRESS_SPACE_GTT_GEN4);
    CU_ASSERT_EQUAL_FATAL(load.log.count, 1);
    CU_ASSERT_EQUAL(load.log.events[0].kind, AUB_EVENT_RING_WRITE);
    CU_ASSERT_EQUAL(load.log.events[0].address, 0x235000); /* §5.3 dw3 */
    /* GTT image: 528 pages 0x10000-0x234000 -> physical + 0x200000 (§7). */
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(load.memory), 528);
    aub_load_release(&load);

    /* A page budget below what the capture needs stops the load with an error
     * naming the block (byt_tri needs 283 pages). */
    struct aub_load_options tight = { NULL, NULL, 100 };
    CU_ASSERT_EQUAL(aub_load_file(TRACE_DIR "byt_tri.aub.gz", &load, &tight, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "budget"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "offset 0x"));

    CU_ASSERT_EQUAL_FATAL(aub_load_file(TRACE_DIR "byt_tri.aub.gz", &load, NULL, &err), 0);
    CU_ASSERT_EQUAL(load.generation, 7);
    CU_ASSERT_EQUAL(load.ggtt.format, GPU_ADDRESS_SPACE_GTT_GEN6);
    aub_load_release(&load);
}

/* ---- writer ------------------------------------------------------------ */

/* Re-emits every block of a capture through the writer. */
struct rewriter {
    struct aub_writer writer;
};

static int rewrite_version(void *context, const struct aub_version *version, struct gt_error *err)
{
    struct rewriter *r = context;
    if (version->form == AUB_FORM_MEMTRACE)
        return aub_write_memtrace_version(&r->writer, version->pci_id, version->memtrace_device,
                                          version->application, err);
    return aub_write_legacy_header(&r->writer, version->pci_id, version->application, err);
}

static int rewrite_memory_write(void *context, const struct aub_memory_write *write, struct gt_error *err)
{
    struct rewriter *r = context;
    if (write->classic)
        return aub_write_legacy_data(&r->writer, write->space, write->classic_type, (uint32_t)write->address,
                                     write->data, write->size, err);
    return aub_write_memory(&r->writer, write->space, write->address, write->data, write->size, err);
}

static int rewrite_register_write(void *context, const struct aub_register_write *write, struct gt_error *err)
{
    return aub_write_register(&((struct rewriter *)context)->writer, write->offset, write->value, err);
}

static int rewrite_register_poll(void *context, const struct aub_register_poll *poll, struct gt_error *err)
{
    return aub_write_register_poll(&((struct rewriter *)context)->writer, poll->offset, poll->mask, poll->value, err);
}

static int rewrite_ring_write(void *context, const struct aub_ring_write *write, struct gt_error *err)
{
    uint32_t dwords[64];
    uint32_t count = (uint32_t)(write->size / 4);
    if (count > 64)
        return gt_error_set(err, "ring write too long for the test");
    for (uint32_t i = 0; i < count; i++)
        dwords[i] = get_le32(write->data + 4 * i);
    return aub_write_legacy_ring(&((struct rewriter *)context)->writer, write->ring, (uint32_t)write->address,
                                 dwords, count, err);
}

static const struct aub_reader_callbacks rewrite_callbacks = {
    .version = rewrite_version,
    .memory_write = rewrite_memory_write,
    .register_write = rewrite_register_write,
    .register_poll = rewrite_register_poll,
    .ring_write = rewrite_ring_write,
};

static void compare_loaded_memory(const char *original, const char *copy)
{
    struct aub_load a, b;
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL_FATAL(aub_load_file(original, &a, NULL, &err), 0);
    CU_ASSERT_EQUAL_FATAL(aub_load_file(copy, &b, NULL, &err), 0);
    CU_ASSERT_EQUAL(a.pci_id, b.pci_id);
    CU_ASSERT_EQUAL(a.generation, b.generation);
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(a.memory), gpu_memory_pages_allocated(b.memory));
    CU_ASSERT(gpu_memory_pages_allocated(a.memory) > 0);
    /* Every page either capture touches lies below 5 MiB (§7). */
    size_t size = 5u << 20;
    uint8_t *x = malloc(size), *y = malloc(size);
    CU_ASSERT_EQUAL(gpu_memory_read(a.memory, 0, x, size, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_read(b.memory, 0, y, size, &err), 0);
    CU_ASSERT(memcmp(x, y, size) == 0);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_read(a.memory, 0, x, 1u << 16, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_read(b.memory, 0, y, 1u << 16, &err), 0);
    CU_ASSERT(memcmp(x, y, 1u << 16) == 0);
    CU_ASSERT_EQUAL_FATAL(a.log.count, b.log.count);
    for (size_t i = 0; i < a.log.count; i++) {
        CU_ASSERT_EQUAL(a.log.events[i].kind, b.log.events[i].kind);
        CU_ASSERT_EQUAL(a.log.events[i].offset, b.log.events[i].offset);
        CU_ASSERT_EQUAL(a.log.events[i].value, b.log.events[i].value);
        CU_ASSERT_EQUAL(a.log.events[i].mask, b.log.events[i].mask);
        CU_ASSERT_EQUAL(a.log.events[i].data_size, b.log.events[i].data_size);
    }
    free(x);
    free(y);
    aub_load_release(&a);
    aub_load_release(&b);
}

static void test_rewritten_captures_load_to_the_same_memory(void)
{
    const char *captures[] = { "skl_tri", "byt_tri", "g965_tri" };
    for (int i = 0; i < 3; i++) {
        char original[256], copy[512];
        snprintf(original, sizeof original, TRACE_DIR "%s.aub.gz", captures[i]);
        snprintf(copy, sizeof copy, "%s/%s.rewritten.aub%s", test_temp_dir(), captures[i], i == 1 ? "" : ".gz");
        struct rewriter r;
        struct gt_error err = { "" };
        CU_ASSERT_EQUAL_FATAL(aub_writer_open(&r.writer, copy, i != 1, &err), 0);
        CU_ASSERT_EQUAL(aub_read_file(original, &rewrite_callbacks, &r, &err), 0);
        CU_ASSERT_EQUAL_FATAL(aub_writer_close(&r.writer, &err), 0);
        compare_loaded_memory(original, copy);
        /* And the rewritten file still yields the right batches. */
        check_submissions(captures[i], copy, i != 0, NULL);
    }
}

/* Hand-built memtrace file: every block form, odd sizes, read back field by field. */
struct recorded {
    unsigned writes, registers, polls, comments;
    struct aub_memory_write write[8];
    uint8_t write_data[8][64];
    struct aub_register_write reg;
    struct aub_register_poll poll;
    char comment[64];
    struct aub_version version;
};

static int record_version(void *context, const struct aub_version *version, struct gt_error *err)
{
    (void)err;
    ((struct recorded *)context)->version = *version;
    return 0;
}

static int record_memory_write(void *context, const struct aub_memory_write *write, struct gt_error *err)
{
    struct recorded *r = context;
    (void)err;
    if (r->writes < 8) {
        r->write[r->writes] = *write;
        memcpy(r->write_data[r->writes], write->data, write->size < 64 ? write->size : 64);
    }
    r->writes++;
    return 0;
}

static int record_register_write(void *context, const struct aub_register_write *write, struct gt_error *err)
{
    struct recorded *r = context;
    (void)err;
    r->reg = *write;
    r->registers++;
    return 0;
}

static int record_register_poll(void *context, const struct aub_register_poll *poll, struct gt_error *err)
{
    struct recorded *r = context;
    (void)err;
    r->poll = *poll;
    r->polls++;
    return 0;
}

static int record_comment(void *context, const struct aub_comment *comment, struct gt_error *err)
{
    struct recorded *r = context;
    (void)err;
    snprintf(r->comment, sizeof r->comment, "%s", comment->text);
    r->comments++;
    return 0;
}

static void test_memtrace_writer_round_trip(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/handmade.aub", test_temp_dir());
    struct aub_writer writer;
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL_FATAL(aub_writer_open(&writer, path, 0, &err), 0);
    uint8_t ptes[16] = { 0 };
    ptes[0] = 0x01; ptes[1] = 0x70; /* PTE[1] = 0x7001 */
    ptes[8] = 0x01; ptes[9] = 0x30; /* PTE[2] = 0x3001 */
    const uint8_t odd[7] = { 1, 2, 3, 4, 5, 6, 7 };
    CU_ASSERT_EQUAL(aub_write_memtrace_version(&writer, 0x1912, 12, "roundtrip", &err), 0);
    CU_ASSERT_EQUAL(aub_write_memory(&writer, AUB_SPACE_GGTT_ENTRY, 8, ptes, 16, &err), 0);
    CU_ASSERT_EQUAL(aub_write_memory(&writer, AUB_SPACE_GGTT, 0x1FFD, odd, 7, &err), 0);
    CU_ASSERT_EQUAL(aub_write_memory(&writer, AUB_SPACE_PHYSICAL, 0x123456789ABCull, odd, 3, &err), 0);
    CU_ASSERT_EQUAL(aub_write_register(&writer, 0x2230, 0x2339, &err), 0);
    CU_ASSERT_EQUAL(aub_write_register_poll(&writer, 0x2234, 0x10, 0, &err), 0);
    CU_ASSERT_EQUAL(aub_write_comment(&writer, "hello gtsim", &err), 0);
    CU_ASSERT_EQUAL(aub_write_memory(&writer, AUB_SPACE_NONLOCAL, 0, odd, 1, &err), -1);
    CU_ASSERT_EQUAL_FATAL(aub_writer_close(&writer, &err), 0);

    /* Byte-level: the header block is exactly as §2.1 describes. */
    struct bytes raw = read_whole(path);
    CU_ASSERT_FATAL(raw.size >= 48);
    CU_ASSERT_EQUAL(get_le32(raw.data) & 0xFFFF0000u, 0xF70E0000u);
    CU_ASSERT_EQUAL(get_le32(raw.data + 4), 1);
    CU_ASSERT_EQUAL(get_le32(raw.data + 8), 0x0C00);
    CU_ASSERT_EQUAL(memcmp(raw.data + 20, "PCI-ID=0x1912 roundtrip", 23), 0);
    free(raw.data);

    struct recorded r;
    memset(&r, 0, sizeof r);
    struct aub_reader_callbacks callbacks = { .version = record_version, .memory_write = record_memory_write,
                                              .register_write = record_register_write,
                                              .register_poll = record_register_poll, .comment = record_comment };
    CU_ASSERT_EQUAL_FATAL(aub_read_file(path, &callbacks, &r, &err), 0);
    CU_ASSERT_EQUAL(r.version.pci_id, 0x1912);
    CU_ASSERT_EQUAL(r.version.memtrace_device, 12);
    CU_ASSERT_STRING_EQUAL(r.version.application, "roundtrip");
    CU_ASSERT_EQUAL_FATAL(r.writes, 3);
    CU_ASSERT_EQUAL(r.write[0].space, AUB_SPACE_GGTT_ENTRY);
    CU_ASSERT_EQUAL(r.write[0].address, 8);
    CU_ASSERT_EQUAL(r.write[0].size, 16);
    CU_ASSERT_EQUAL(memcmp(r.write_data[0], ptes, 16), 0);
    CU_ASSERT_EQUAL(r.write[1].space, AUB_SPACE_GGTT);
    CU_ASSERT_EQUAL(r.write[1].size, 7);
    CU_ASSERT_EQUAL(r.write[2].address, 0x123456789ABCull);
    CU_ASSERT_EQUAL(r.write[2].space, AUB_SPACE_PHYSICAL);
    CU_ASSERT_EQUAL(r.reg.offset, 0x2230);
    CU_ASSERT_EQUAL(r.reg.value, 0x2339);
    CU_ASSERT_EQUAL(r.reg.mask, 0xFFFFFFFFu);
    CU_ASSERT_EQUAL(r.poll.offset, 0x2234);
    CU_ASSERT_EQUAL(r.poll.mask, 0x10);
    CU_ASSERT_STRING_EQUAL(r.comment, "hello gtsim");

    /* Loaded: the GGTT write crossing GGTT pages 1 -> 2 lands at physical
     * 0x7FFD..0x7FFF and 0x3000..0x3003. */
    struct aub_load load;
    CU_ASSERT_EQUAL_FATAL(aub_load_file(path, &load, NULL, &err), 0);
    uint8_t back[4];
    CU_ASSERT_EQUAL(gpu_memory_read(load.memory, 0x7FFD, back, 3, &err), 0);
    CU_ASSERT_EQUAL(memcmp(back, odd, 3), 0);
    CU_ASSERT_EQUAL(gpu_memory_read(load.memory, 0x3000, back, 4, &err), 0);
    CU_ASSERT_EQUAL(memcmp(back, odd + 3, 4), 0);
    CU_ASSERT_EQUAL(gpu_memory_read(load.memory, 0x123456789ABCull, back, 4, &err), 0);
    CU_ASSERT_EQUAL(memcmp(back, odd, 3), 0);
    CU_ASSERT_EQUAL(back[3], 0);
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(load.memory), 3);
    CU_ASSERT_EQUAL(load.log.count, 2);
    aub_load_release(&load);
}

static void test_legacy_writer_round_trip(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/handmade-legacy.aub.gz", test_temp_dir());
    struct aub_writer writer;
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL_FATAL(aub_writer_open(&writer, path, 1, &err), 0);
    /* 16 Gen4 PTEs: GTT page i -> physical 0x200000 + i pages, valid. */
    uint8_t ptes[64];
    for (int i = 0; i < 16; i++)
        put_le32(ptes + 4 * i, 0x00200003u + 0x1000u * (uint32_t)i);
    size_t size = 40000; /* more than one 32 KiB block */
    uint8_t *data = malloc(size);
    for (size_t i = 0; i < size; i++)
        data[i] = (uint8_t)(i * 13);
    uint32_t ring[2] = { 0x18800000, 0x1000 };
    CU_ASSERT_EQUAL(aub_write_legacy_header(&writer, 0x29A2, "legacy", &err), 0);
    CU_ASSERT_EQUAL(aub_write_legacy_data(&writer, AUB_SPACE_GGTT_ENTRY, 0, 0, ptes, sizeof ptes, &err), 0);
    CU_ASSERT_EQUAL(aub_write_legacy_data(&writer, AUB_SPACE_GGTT, AUB_TRACE_TYPE_BATCH, 0x1000, data, size, &err), 0);
    CU_ASSERT_EQUAL(aub_write_legacy_ring(&writer, AUB_TRACE_RING_PRB0, 0xC000, ring, 2, &err), 0);
    CU_ASSERT_EQUAL(aub_write_legacy_data(&writer, AUB_SPACE_PHYSICAL, 0, 0, data, 4, &err), -1);
    CU_ASSERT_EQUAL_FATAL(aub_writer_close(&writer, &err), 0);

    struct block_counts counts;
    memset(&counts, 0, sizeof counts);
    CU_ASSERT_EQUAL_FATAL(aub_read_file(path, &counting_callbacks, &counts, &err), 0);
    CU_ASSERT_EQUAL(counts.form, AUB_FORM_LEGACY);
    CU_ASSERT_EQUAL(counts.pci_id, 0x29A2);
    CU_ASSERT_STRING_EQUAL(counts.application, "legacy");
    CU_ASSERT_EQUAL(counts.classic_gtt_entry, 1);
    CU_ASSERT_EQUAL(counts.classic_batch, 2);
    CU_ASSERT_EQUAL(counts.classic_batch_bytes, 40000);
    CU_ASSERT_EQUAL(counts.ring_writes, 1);

    struct aub_load load;
    CU_ASSERT_EQUAL_FATAL(aub_load_file(path, &load, NULL, &err), 0);
    CU_ASSERT_EQUAL(load.generation, 4);
    uint8_t *back = malloc(size);
    CU_ASSERT_EQUAL(gpu_memory_read(load.memory, 0x201000, back, size, &err), 0);
    CU_ASSERT(memcmp(back, data, size) == 0);
    CU_ASSERT_EQUAL(gpu_address_space_read(&load.ggtt, 0x1000, back, size, &err), 0);
    CU_ASSERT(memcmp(back, data, size) == 0);
    CU_ASSERT_EQUAL_FATAL(load.log.count, 1);
    CU_ASSERT_EQUAL(load.log.events[0].address, 0xC000);
    CU_ASSERT_EQUAL(get_le32(aub_event_data(&load.log, &load.log.events[0]) + 4), 0x1000);
    aub_load_release(&load);
    free(back);
    free(data);
}

/* Blocks no capture holds, hand-built from their documented layouts:
 * MEMORY_WRITE_DISCONTIGUOUS (i915 aubcapture header: dw1 count 19:4, space
 * 31:28, 63 packed {u64 address, u32 size}, then the data), MEMORY_POLL,
 * classic COMMENT and MMIO_WRITE trace blocks (§2.5). */
static void test_rare_blocks(void)
{
    const char *dir = test_temp_dir();
    uint8_t file[4 * 256];
    memset(file, 0, sizeof file);
    size_t at = 0;
    /* Discontiguous: 2 + 189 + 2 dwords, PHYSICAL, two elements. */
    put_le32(file + at, 0xF70B0000 | (2 + 189 + 2 - 1));
    put_le32(file + at + 4, 2u << 28 | 2u << 4);
    put_le32(file + at + 8, 0x1FFE);  /* element 0: address low, high, size */
    put_le32(file + at + 12, 0);
    put_le32(file + at + 16, 3);
    put_le32(file + at + 20, 0x5000); /* element 1 */
    put_le32(file + at + 24, 0x1);
    put_le32(file + at + 28, 5);
    memcpy(file + at + 4 * (2 + 189), "abcdefgh", 8);
    at += 4 * (2 + 189 + 2);
    /* MEMORY_POLL, 6 dwords, reported raw. */
    put_le32(file + at, 0xF7050005);
    put_le32(file + at + 4, 0xABCD);
    at += 24;
    /* Classic comment "hi gtsim" (8 bytes) and an MMIO write of two dwords. */
    put_le32(file + at, 0xE0C10003);
    put_le32(file + at + 4, AUB_TRACE_OPERATION_COMMENT);
    put_le32(file + at + 16, 8);
    memcpy(file + at + 20, "hi gtsim", 8);
    at += 28;
    put_le32(file + at, 0xE0C10003);
    put_le32(file + at + 4, AUB_TRACE_OPERATION_MMIO_WRITE);
    put_le32(file + at + 12, 0x2030);
    put_le32(file + at + 16, 8);
    put_le32(file + at + 20, 0x10);
    put_le32(file + at + 24, 0x20);
    at += 28;
    /* A DUMP_BMP block is skipped: 2 + 0 dwords. */
    put_le32(file + at, 0xE09E0000);
    at += 8;
    const char *path = write_temp(dir, "rare.aub", file, at);

    struct recorded r;
    memset(&r, 0, sizeof r);
    struct aub_reader_callbacks callbacks = { .memory_write = record_memory_write, .comment = record_comment };
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL_FATAL(aub_read_file(path, &callbacks, &r, &err), 0);
    CU_ASSERT_EQUAL_FATAL(r.writes, 2);
    CU_ASSERT_EQUAL(r.write[0].space, AUB_SPACE_PHYSICAL);
    CU_ASSERT_EQUAL(r.write[0].address, 0x1FFE);
    CU_ASSERT_EQUAL(r.write[0].size, 3);
    CU_ASSERT_EQUAL(memcmp(r.write_data[0], "abc", 3), 0);
    CU_ASSERT_EQUAL(r.write[1].address, 0x100005000ull);
    CU_ASSERT_EQUAL(memcmp(r.write_data[1], "defgh", 5), 0);
    CU_ASSERT_STRING_EQUAL(r.comment, "hi gtsim");

    struct block_counts counts;
    memset(&counts, 0, sizeof counts);
    CU_ASSERT_EQUAL(aub_read_file(path, &counting_callbacks, &counts, &err), 0);
    CU_ASSERT_EQUAL(counts.other, 3); /* memory poll, comment, MMIO write */

    struct aub_load load;
    CU_ASSERT_EQUAL_FATAL(aub_load_file(path, &load, NULL, &err), 0);
    uint8_t back[8];
    CU_ASSERT_EQUAL(gpu_memory_read(load.memory, 0x1FFE, back, 3, &err), 0);
    CU_ASSERT_EQUAL(memcmp(back, "abc", 3), 0);
    CU_ASSERT_EQUAL(gpu_memory_read(load.memory, 0x100005000ull, back, 5, &err), 0);
    CU_ASSERT_EQUAL(memcmp(back, "defgh", 5), 0);
    CU_ASSERT_EQUAL_FATAL(load.log.count, 1);
    CU_ASSERT_EQUAL(load.log.events[0].kind, AUB_EVENT_MMIO_WRITE);
    CU_ASSERT_EQUAL(load.log.events[0].offset, 0x2030);
    CU_ASSERT_EQUAL(load.log.events[0].data_size, 8);
    CU_ASSERT_EQUAL(get_le32(aub_event_data(&load.log, &load.log.events[0]) + 4), 0x20);
    aub_load_release(&load);

    /* An element running past the block is an error at offset 0. */
    put_le32(file + 28, 9);
    free((void *)path);
    path = write_temp(dir, "rare-bad.aub", file, 4 * (2 + 189 + 2));
    CU_ASSERT_EQUAL(aub_read_file(path, &callbacks, &r, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "offset 0x0:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "element 1"));
    free((void *)path);
}

/* ---- malformed input --------------------------------------------------- */

static void expect_error_at(const char *dir, const char *name, const uint8_t *data, size_t size, const char *offset_text,
                            const char *what)
{
    const char *path = write_temp(dir, name, data, size);
    struct gt_error err = { "" };
    struct block_counts counts;
    memset(&counts, 0, sizeof counts);
    CU_ASSERT_EQUAL(aub_read_file(path, &counting_callbacks, &counts, &err), -1);
    if (!strstr(err.message, offset_text) || (what && !strstr(err.message, what))) {
        fprintf(stderr, "\n%s: expected \"%s\" and \"%s\" in: %s\n", name, offset_text, what ? what : "",
                err.message);
        CU_FAIL("error message does not name the offset / problem");
    }
    /* The loader fails the same way. */
    struct aub_load load;
    CU_ASSERT_EQUAL(aub_load_file(path, &load, NULL, &err), -1);
    CU_ASSERT_PTR_NULL(load.memory);
    free((void *)path);
}

static void test_truncated_files_name_the_offset(void)
{
    const char *dir = test_temp_dir();
    struct bytes skl = read_whole(TRACE_DIR "skl_compute.aub.gz");
    struct bytes byt = read_whole(TRACE_DIR "byt_compute.aub.gz");
    CU_ASSERT_EQUAL_FATAL(skl.size, 2574148); /* §7 */
    CU_ASSERT_EQUAL_FATAL(byt.size, 188804);
    /* skl: version 0x00-0x2F (12 dwords), MEMORY_WRITE 0x30-0x4B (7), three
     * REGISTER_WRITEs 0x4C, 0x64, 0x7C (6 each), next block at 0x94. */
    expect_error_at(dir, "t2", skl.data, 2, "offset 0x0:", "inside a block header");
    expect_error_at(dir, "t30", skl.data, 30, "offset 0x0:", "file ends");
    expect_error_at(dir, "t60", skl.data, 60, "offset 0x30:", "file ends");
    expect_error_at(dir, "t80", skl.data, 80, "offset 0x4c:", "file ends");
    expect_error_at(dir, "t147", skl.data, 147, "offset 0x7c:", "file ends");
    expect_error_at(dir, "t150", skl.data, 150, "offset 0x94:", NULL);
    /* byt: AUB_HEADER 0x00-0x3F (16 dwords), MEMORY_WRITE 0x40-0x5B, the
     * 65,536-byte GTT trace block at 0x5C: cut inside its data. */
    expect_error_at(dir, "b64", byt.data, 64 + 3, "offset 0x40:", NULL);
    expect_error_at(dir, "b1000", byt.data, 92 + 20 + 1000, "offset 0x5c:", "file ends");
    expect_error_at(dir, "b100", byt.data, 100, "offset 0x5c:", "file ends");
    /* Cutting exactly at a block boundary is a shorter, valid file. */
    const char *path = write_temp(dir, "cut148", skl.data, 0x94);
    struct block_counts counts;
    memset(&counts, 0, sizeof counts);
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL(aub_read_file(path, &counting_callbacks, &counts, &err), 0);
    CU_ASSERT_EQUAL(total_blocks(&counts), 5);
    free((void *)path);
    /* A truncated gzip stream: an error, not a crash. */
    struct bytes gz = { NULL, 0 };
    FILE *file = fopen(TRACE_DIR "skl_compute.aub.gz", "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(file);
    gz.data = malloc(20000);
    gz.size = fread(gz.data, 1, 20000, file);
    fclose(file);
    path = write_temp(dir, "cut.aub.gz", gz.data, gz.size / 2);
    CU_ASSERT_EQUAL(aub_read_file(path, &counting_callbacks, &counts, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "offset 0x"));
    free((void *)path);
    free(gz.data);
    free(skl.data);
    free(byt.data);
}

static void test_bad_blocks_name_the_offset(void)
{
    const char *dir = test_temp_dir();
    struct bytes skl = read_whole(TRACE_DIR "skl_compute.aub.gz");
    CU_ASSERT_FATAL(skl.size > 0x94);
    /* The valid version block (48 bytes), then a hand-made block at 0x30. */
    uint8_t file[0x30 + 64];
    memcpy(file, skl.data, 0x30);
    uint8_t *block = file + 0x30;
    memset(block, 0, 64);

    put_le32(block, 0xE1000000); /* type 7, opcode 0x02 */
    expect_error_at(dir, "opcode", file, sizeof file, "offset 0x30:", "unknown opcode 0x02");
    put_le32(block, 0x12345678); /* type 0 */
    expect_error_at(dir, "type", file, sizeof file, "offset 0x30:", "not 7");
    put_le32(block, 0xF7090000); /* memtrace sub-opcode 0x09 */
    expect_error_at(dir, "sub", file, sizeof file, "offset 0x30:", "sub-opcode 0x09");
    put_le32(block, 0xF7010005); /* REGISTER_COMPARE */
    expect_error_at(dir, "compare", file, sizeof file, "offset 0x30:", "not modelled");
    put_le32(block, 0xE0AA0000); /* classic sub-opcode 0x2A */
    expect_error_at(dir, "classic", file, sizeof file, "offset 0x30:", "sub-opcode 0x2a");
    /* Length running past the end of the file. */
    put_le32(block, 0xF7060000 | 100);
    expect_error_at(dir, "length", file, sizeof file, "offset 0x30:", "file ends");
    put_le32(block, 0xF706FFFF);
    expect_error_at(dir, "length-max", file, sizeof file, "offset 0x30:", "file ends");
    /* MEMORY_WRITE whose size field is larger than its block. */
    put_le32(block, 0xF7060005);
    put_le32(block + 12, 2u << 28);
    put_le32(block + 16, 0xFFFFFFFF);
    expect_error_at(dir, "size", file, 0x30 + 24, "offset 0x30:", "runs past the block");
    /* MEMORY_WRITE to an unknown address space (3). */
    put_le32(block + 12, 3u << 28);
    put_le32(block + 16, 4);
    expect_error_at(dir, "space", file, 0x30 + 24, "offset 0x30:", "address space 3");
    /* A block too short for its kind: a 2-dword MEMORY_WRITE. */
    put_le32(block, 0xF7060001);
    expect_error_at(dir, "short", file, 0x30 + 8, "offset 0x30:", "needs at least 5");
    /* TRACE_HEADER_BLOCK with a huge data size: refused, nothing allocated. */
    memset(block, 0, 64);
    put_le32(block, 0xE0C10003);
    put_le32(block + 4, 0x00000001);
    put_le32(block + 16, 0xFFFFFFFC);
    expect_error_at(dir, "huge", file, 0x30 + 20, "offset 0x30:", "exceeds");
    /* Under the limit but absent: truncated, buffer grows only with the data. */
    put_le32(block + 16, 48u << 20);
    expect_error_at(dir, "big", file, sizeof file, "offset 0x30:", "file ends");
    put_le32(block + 16, 6);
    expect_error_at(dir, "unaligned", file, sizeof file, "offset 0x30:", "whole number of dwords");
    /* Unknown trace operation and memtype. */
    put_le32(block + 16, 4);
    put_le32(block + 4, 0x00000009);
    expect_error_at(dir, "operation", file, 0x30 + 24, "offset 0x30:", "unknown operation 9");
    put_le32(block + 4, 0x00070001);
    expect_error_at(dir, "memtype", file, 0x30 + 24, "offset 0x30:", "memtype 7");
    /* AUB_HEADER whose comment length runs past its block. */
    memset(block, 0, 64);
    put_le32(block, 0xE085000E);
    put_le32(block + 48, 1000);
    expect_error_at(dir, "comment", file, sizeof file, "offset 0x30:", "comment length 1000");
    /* The loader refuses a GGTT write to an unmapped GGTT page. */
    memset(block, 0, 64);
    put_le32(block, 0xF7060005);
    put_le32(block + 4, 0x5000);
    put_le32(block + 12, 0);
    put_le32(block + 16, 4);
    const char *path = write_temp(dir, "unmapped", file, 0x30 + 24);
    struct aub_load load;
    struct gt_error err = { "" };
    CU_ASSERT_EQUAL(aub_load_file(path, &load, NULL, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "offset 0x30:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not present"));
    free((void *)path);
    CU_ASSERT_EQUAL(aub_read_file("tests/data/traces/no-such-file.aub", NULL, NULL, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no-such-file"));
    free(skl.data);
}

/* Corrupt a real capture at many places: every outcome is 0 or -1. */
static void test_corrupted_captures_never_crash(void)
{
    const char *dir = test_temp_dir();
    struct bytes byt = read_whole(TRACE_DIR "byt_compute.aub.gz");
    CU_ASSERT_FATAL(byt.size > 1000);
    uint8_t *copy = malloc(byt.size);
    uint32_t state = 12345;
    unsigned failures = 0;
    for (int round = 0; round < 60; round++) {
        memcpy(copy, byt.data, byt.size);
        for (int flips = 0; flips < 4; flips++) {
            state = state * 1103515245u + 12345u;
            /* Even rounds hit the first three block headers (at 0x0, 0x40,
             * 0x5C, §7 layout), odd rounds anywhere. */
            static const size_t header_bytes[] = { 0, 1, 2, 3, 0x40, 0x41, 0x42, 0x43, 0x5C, 0x5E, 0x5F };
            size_t at = header_bytes[(state >> 8) % (sizeof header_bytes / sizeof header_bytes[0])];
            if (round % 2)
                at = (state >> 4) % byt.size;
            copy[at] ^= (uint8_t)(1u << (state >> 28 & 7));
        }
        const char *path = write_temp(dir, "corrupt", copy, byt.size);
        struct aub_load load;
        struct gt_error err = { "" };
        int result = aub_load_file(path, &load, NULL, &err);
        CU_ASSERT(result == 0 || result == -1);
        if (result == 0)
            aub_load_release(&load);
        else
            failures++;
        free((void *)path);
    }
    CU_ASSERT(failures > 0); /* header corruption is noticed */
    free(copy);
    free(byt.data);
}

/* §7: physical pages touched (Gen8/Gen9) and GTT image pages (Gen4/Gen7; the
 * same bytes at GTT + 0x200000). */
static void test_loaded_page_census_matches_the_notes(void)
{
    static const struct { const char *capture; uint64_t pages; } census[] = {
        { "bdw_compute", 637 }, { "bdw_tri", 1154 }, { "skl_compute", 637 }, { "skl_tri", 1154 },
        { "byt_compute", 18 },  { "byt_tri", 283 },  { "g965_tri", 528 },
    };
    for (size_t i = 0; i < sizeof census / sizeof census[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, TRACE_DIR "%s.aub.gz", census[i].capture);
        struct aub_load load;
        struct gt_error err = { "" };
        CU_ASSERT_EQUAL_FATAL(aub_load_file(path, &load, NULL, &err), 0);
        CU_ASSERT_EQUAL(gpu_memory_pages_allocated(load.memory), census[i].pages);
        /* Gen4/Gen7: the GTT image starts at GTT 0x10000 = physical 0x210000. */
        if (load.form == AUB_FORM_LEGACY) {
            CU_ASSERT_PTR_NOT_NULL(gpu_memory_page_for_read(load.memory, 0x210000));
            CU_ASSERT_PTR_NULL(gpu_memory_page_for_read(load.memory, 0x20F000));
        }
        aub_load_release(&load);
    }
}

static void test_device_table(void)
{
    const struct aub_device_info *info = aub_device_lookup(0x1912);
    CU_ASSERT_PTR_NOT_NULL_FATAL(info);
    CU_ASSERT_EQUAL(info->generation, 9);
    info = aub_device_lookup(0x1616);
    CU_ASSERT_PTR_NOT_NULL_FATAL(info);
    CU_ASSERT_EQUAL(info->generation, 8);
    info = aub_device_lookup(0x0F31);
    CU_ASSERT_PTR_NOT_NULL_FATAL(info);
    CU_ASSERT_EQUAL(info->generation, 7);
    CU_ASSERT_EQUAL(info->gtt_format, GPU_ADDRESS_SPACE_GTT_GEN6);
    info = aub_device_lookup(0x29A2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(info);
    CU_ASSERT_EQUAL(info->generation, 4);
    CU_ASSERT_EQUAL(info->gtt_format, GPU_ADDRESS_SPACE_GTT_GEN4);
    CU_ASSERT_PTR_NULL(aub_device_lookup(0x1234));
}

/* aub_read_device: the generation of each capture (trace README: skl Gen9,
 * bdw Gen8, byt Gen7, g965 Gen4, with their PCI ids), and a clear error for a
 * file that does not start with a version block. */
static void test_read_device(void)
{
    static const struct { const char *name; int gen; uint32_t pci; } caps[] = {
        { "skl_compute", 9, 0x1912 }, { "skl_tri", 9, 0x1912 }, { "bdw_compute", 8, 0x1616 },
        { "bdw_tri", 8, 0x1616 }, { "byt_compute", 7, 0x0f31 }, { "byt_tri", 7, 0x0f31 },
        { "g965_tri", 4, 0x29a2 },
    };
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/traces/%s.aub.gz", caps[i].name);
        struct aub_device_guess g;
        struct gt_error err;
        CU_ASSERT_EQUAL_FATAL(aub_read_device(path, &g, &err), 0);
        CU_ASSERT_EQUAL(g.generation, caps[i].gen);
        CU_ASSERT_EQUAL(g.pci_id, caps[i].pci);
    }
    char path[512];
    snprintf(path, sizeof path, "%s/headless.aub", test_temp_dir());
    struct aub_writer w;
    struct gt_error err;
    CU_ASSERT_EQUAL_FATAL(aub_writer_open(&w, path, 0, &err), 0);
    uint32_t word = 0x12345678;
    CU_ASSERT_EQUAL(aub_write_memory(&w, AUB_SPACE_PHYSICAL, 0x1000, &word, 4, &err), 0);
    CU_ASSERT_EQUAL(aub_writer_close(&w, &err), 0);
    struct aub_device_guess g;
    CU_ASSERT_EQUAL(aub_read_device(path, &g, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "byte offset 0: the capture does not start with a "
                                  "version block"));
    CU_ASSERT_EQUAL(aub_read_device("tests/data/no-such.aub", &g, &err), -1);
}

static const struct test_case cases[] = {
    { "read device", test_read_device },
    { "memtrace captures parse completely", test_memtrace_captures_parse_completely },
    { "legacy captures parse completely", test_legacy_captures_parse_completely },
    { "Gen8/Gen9 batches equal the raw files", test_batches_equal_raw_files_gen8_gen9 },
    { "Gen4/Gen7 batches equal the raw files", test_batches_equal_raw_files_gen4_gen7 },
    { "load records device and register log", test_load_records_device_and_register_log },
    { "rewritten captures load to the same memory", test_rewritten_captures_load_to_the_same_memory },
    { "memtrace writer round trip", test_memtrace_writer_round_trip },
    { "legacy writer round trip", test_legacy_writer_round_trip },
    { "rare block forms", test_rare_blocks },
    { "truncated files name the offset", test_truncated_files_name_the_offset },
    { "bad blocks name the offset", test_bad_blocks_name_the_offset },
    { "corrupted captures never crash", test_corrupted_captures_never_crash },
    { "loaded page census matches the notes", test_loaded_page_census_matches_the_notes },
    { "device table", test_device_table },
    { 0 }
};
TEST_SUITE(aub, cases);
