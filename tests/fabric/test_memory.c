/* tests/fabric/test_memory.c - sparse physical memory, GTT entry array, address
 * translation (GTT Gen4 / Gen6-7 / HSW, GGTT Gen8, 4-level PPGTT) and dumps.
 * Expected values are computed by hand from the PTE layouts cited in
 * fabric/memory.h (Linux intel-gtt.c / i915 encodings, notes/aub-format.md §3). */
#include "fabric/memory.h"
#include "tests/test.h"

#include <stdio.h>
#include <string.h>

static void put_u64(uint8_t *p, uint64_t value)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(value >> (8 * i));
}

static void put_u32(uint8_t *p, uint32_t value)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(value >> (8 * i));
}

static void test_unwritten_reads_zero_without_allocating(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    uint8_t buffer[10000];
    memset(buffer, 0xAA, sizeof buffer);
    CU_ASSERT_EQUAL(gpu_memory_read(memory, 0x123456789ull, buffer, sizeof buffer, &err), 0);
    for (size_t i = 0; i < sizeof buffer; i++)
        if (buffer[i] != 0) {
            CU_FAIL("unwritten memory is not zero");
            break;
        }
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(memory), 0);
    CU_ASSERT_PTR_NULL(gpu_memory_page_for_read(memory, 0x1000));
    gpu_memory_destroy(memory);
}

static void test_write_crossing_pages_reads_back(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    uint8_t data[6000], back[6004];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    /* 0xFFFF_FFFF_DFF0 + 6000 bytes spans the last three pages below 2^48. */
    uint64_t address = 0xFFFFFFFFDFF0ull;
    CU_ASSERT_EQUAL(gpu_memory_write(memory, address, data, sizeof data, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(memory), 3);
    CU_ASSERT_EQUAL(gpu_memory_read(memory, address - 2, back, sizeof data + 2, &err), 0);
    CU_ASSERT_EQUAL(back[0], 0);
    CU_ASSERT_EQUAL(back[1], 0);
    CU_ASSERT_EQUAL(memcmp(back + 2, data, sizeof data), 0);
    /* The page pointer sees the same bytes: data[0x10] starts the middle page. */
    const uint8_t *page = gpu_memory_page_for_read(memory, 0xFFFFFFFFE000ull);
    CU_ASSERT_PTR_NOT_NULL_FATAL(page);
    CU_ASSERT_EQUAL(page[0], data[0x10]);
    CU_ASSERT_EQUAL(page[0xFFF], data[0x100F]);
    /* Rewriting the same bytes allocates nothing new. */
    CU_ASSERT_EQUAL(gpu_memory_write(memory, address, data, sizeof data, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(memory), 3);
    gpu_memory_destroy(memory);
}

static void test_beyond_48_bits_is_an_error(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    uint8_t data[16] = { 1 };
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 1ull << 48, data, 1, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "0x1000000000000"));
    /* A range that starts below the limit but runs past it. */
    CU_ASSERT_EQUAL(gpu_memory_write(memory, (1ull << 48) - 8, data, 16, &err), -1);
    CU_ASSERT_EQUAL(gpu_memory_read(memory, (1ull << 48) - 8, data, 16, &err), -1);
    CU_ASSERT_EQUAL(gpu_memory_read(memory, UINT64_MAX - 2, data, 16, &err), -1);
    CU_ASSERT_PTR_NULL(gpu_memory_page_for_write(memory, 1ull << 48, &err));
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(memory), 0);
    gpu_memory_destroy(memory);
}

static void test_page_budget_is_enforced(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    gpu_memory_set_page_limit(memory, 2);
    uint8_t data[3 * 4096] = { 0 };
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0, data, 2 * 4096, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0x100000, data, 1, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "budget"));
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(memory), 2);
    gpu_memory_destroy(memory);
}

static void test_gtt_entry_array_is_separate_and_bounded(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    uint8_t entry[8];
    put_u64(entry, 0x255001);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(memory, 8, entry, 8, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(memory), 0);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entry_pages_allocated(memory), 1);
    uint8_t back[8];
    CU_ASSERT_EQUAL(gpu_memory_read(memory, 8, back, 8, &err), 0);
    CU_ASSERT_EQUAL(back[0], 0); /* physical memory untouched */
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_read(memory, 8, back, 8, &err), 0);
    CU_ASSERT_EQUAL(memcmp(back, entry, 8), 0);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(memory, GPU_GTT_ENTRY_BYTES - 4, entry, 8, &err), -1);
    gpu_memory_destroy(memory);
}

static void test_gen8_ggtt_translates_and_faults(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    /* Entries as Mesa writes them (aub-format.md §3.1): page | 1. */
    uint8_t ptes[16];
    put_u64(ptes, 0x255000 | 1);
    put_u64(ptes + 8, 0x7FFFFFF000ull | 1 | 0x6); /* bits 47:12 + cache bits */
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(memory, 1 * 8, ptes, 16, &err), 0);
    struct gpu_address_space ggtt;
    gpu_address_space_init(&ggtt, memory, GPU_ADDRESS_SPACE_GGTT_GEN8, 0);
    uint64_t physical = 0;
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ggtt, 0x1234, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x255234);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ggtt, 0x2FFF, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x7FFFFFFFFFull);
    CU_ASSERT_EQUAL(ggtt.fault_count, 0);
    /* Page 3 was never written: not present. */
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ggtt, 0x3000, &physical), -1);
    CU_ASSERT_EQUAL(ggtt.fault_count, 1);
    CU_ASSERT_EQUAL(ggtt.last_fault.kind, GPU_FAULT_NOT_PRESENT);
    CU_ASSERT_EQUAL(ggtt.last_fault.virtual_address, 0x3000);
    /* Beyond 4 GiB: out of range; narrowing the space moves the limit. */
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ggtt, 1ull << 32, &physical), -1);
    CU_ASSERT_EQUAL(ggtt.last_fault.kind, GPU_FAULT_OUT_OF_RANGE);
    CU_ASSERT_EQUAL(gpu_address_space_set_size(&ggtt, 0x2000, &err), 0);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ggtt, 0x2000, &physical), -1);
    CU_ASSERT_EQUAL(ggtt.last_fault.kind, GPU_FAULT_OUT_OF_RANGE);
    CU_ASSERT_EQUAL(ggtt.fault_count, 3);
    CU_ASSERT_EQUAL(gpu_address_space_set_size(&ggtt, 1ull << 33, &err), -1);
    gpu_memory_destroy(memory);
}

static void test_32bit_gtt_pte_formats(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    /* One PTE per page: 0 = the legacy captures' PTE 0 (0x00200003, §3.3),
     * 1 = high address bits in 11:4 with bit 11 set, 2 = invalid. */
    uint8_t ptes[12];
    put_u32(ptes, 0x00200003);
    put_u32(ptes + 4, 0xABCDE000u | 0xFA0u | 1);
    put_u32(ptes + 8, 0xABCDE000u);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(memory, 0, ptes, sizeof ptes, &err), 0);
    struct gpu_address_space gen4, gen6, hsw;
    gpu_address_space_init(&gen4, memory, GPU_ADDRESS_SPACE_GTT_GEN4, 0);
    gpu_address_space_init(&gen6, memory, GPU_ADDRESS_SPACE_GTT_GEN6, 0);
    gpu_address_space_init(&hsw, memory, GPU_ADDRESS_SPACE_GTT_HSW, 0);
    uint64_t physical = 0;
    CU_ASSERT_EQUAL(gpu_address_space_translate(&gen4, 0x10, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x200010);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&gen6, 0xFFC, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x200FFC);
    /* PTE bits 11:4 = 0xFA. Gen4 keeps bits 7:4 (0xA) as physical 35:32,
     * Gen6/7 bits 11:4 (0xFA) as 39:32, Haswell bits 10:4 (0x7A) as 38:32. */
    CU_ASSERT_EQUAL(gpu_address_space_translate(&gen4, 0x1008, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0xAABCDE008ull);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&gen6, 0x1008, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0xFAABCDE008ull);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&hsw, 0x1008, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x7AABCDE008ull);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&gen6, 0x2000, &physical), -1);
    CU_ASSERT_EQUAL(gen6.last_fault.kind, GPU_FAULT_NOT_PRESENT);
    CU_ASSERT_EQUAL(gen6.last_fault.level, 1);
    CU_ASSERT_EQUAL(gpu_address_space_pte_bytes(GPU_ADDRESS_SPACE_GTT_GEN4), 4);
    CU_ASSERT_EQUAL(gpu_address_space_pte_bytes(GPU_ADDRESS_SPACE_GGTT_GEN8), 8);
    gpu_memory_destroy(memory);
}

/* Builds a 4-level PPGTT by hand: PML4 at physical 0 (as in the captures),
 * tables at 0x1000.., mapping va -> data_page. */
static void map_ppgtt_page(struct gpu_memory *memory, uint64_t va, uint64_t data_page)
{
    struct gt_error err;
    uint64_t tables[4] = { 0x0, 0x1000, 0x2000, 0x3000 }; /* PML4, PDP, PD, PT */
    for (int level = 4; level >= 1; level--) {
        uint64_t index = (va >> (12 + 9 * (level - 1))) & 511;
        uint64_t next = level > 1 ? tables[4 - level + 1] : data_page;
        uint8_t entry[8];
        put_u64(entry, next | 3);
        CU_ASSERT_EQUAL(gpu_memory_write(memory, tables[4 - level] + index * 8, entry, 8, &err), 0);
    }
}

static void test_ppgtt_4level_walk(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    /* The batch address of skl_compute batch 1 (aub-format.md §7). Indices:
     * 47:39 = 0x1FF, 38:30 = 0x1FB, 29:21 = 0x1FF, 20:12 = 0x1EE. */
    uint64_t va = 0xFFFEFFFEE000ull;
    map_ppgtt_page(memory, va, 0x255000);
    struct gpu_address_space ppgtt;
    gpu_address_space_init(&ppgtt, memory, GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL, 0);
    uint64_t physical = 0;
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ppgtt, va + 0x123, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x255123);
    /* Canonical form (bits 63:48 copy bit 47), as in MI_BATCH_BUFFER_START. */
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ppgtt, 0xFFFFFFFEFFFEE000ull, &physical), 0);
    CU_ASSERT_EQUAL(physical, 0x255000);
    CU_ASSERT_EQUAL(ppgtt.fault_count, 0);
    /* Neither canonical nor 48-bit: out of range. */
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ppgtt, 0x0001FFFEFFFEE000ull, &physical), -1);
    CU_ASSERT_EQUAL(ppgtt.last_fault.kind, GPU_FAULT_OUT_OF_RANGE);
    /* Absent at each level: the next PT entry (level 1), another PD entry
     * (level 2), another PDP entry (3), another PML4 entry (4). */
    uint64_t missing[4] = { va + 0x1000, va - 0x200000, va - 0x40000000ull, 0x1000 };
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_EQUAL(gpu_address_space_translate(&ppgtt, missing[i], &physical), -1);
        CU_ASSERT_EQUAL(ppgtt.last_fault.kind, GPU_FAULT_NOT_PRESENT);
        CU_ASSERT_EQUAL(ppgtt.last_fault.level, i + 1);
    }
    CU_ASSERT_EQUAL(ppgtt.fault_count, 5);
    /* A root elsewhere sees nothing. */
    struct gpu_address_space other;
    gpu_address_space_init(&other, memory, GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL, 0x8000);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&other, va, &physical), -1);
    CU_ASSERT_EQUAL(other.last_fault.level, 4);
    gpu_memory_destroy(memory);
}

static void test_virtual_read_write_cross_discontiguous_pages(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    /* GGTT pages 1 and 2 map to physical pages in reverse order. */
    uint8_t ptes[16];
    put_u64(ptes, 0x9000 | 1);
    put_u64(ptes + 8, 0x5000 | 1);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(memory, 8, ptes, 16, &err), 0);
    struct gpu_address_space ggtt;
    gpu_address_space_init(&ggtt, memory, GPU_ADDRESS_SPACE_GGTT_GEN8, 0);
    uint8_t data[0x1000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i ^ (i >> 8));
    CU_ASSERT_EQUAL(gpu_address_space_write(&ggtt, 0x1800, data, sizeof data, &err), 0);
    uint8_t physical_bytes[0x800];
    CU_ASSERT_EQUAL(gpu_memory_read(memory, 0x9800, physical_bytes, 0x800, &err), 0);
    CU_ASSERT_EQUAL(memcmp(physical_bytes, data, 0x800), 0);
    CU_ASSERT_EQUAL(gpu_memory_read(memory, 0x5000, physical_bytes, 0x800, &err), 0);
    CU_ASSERT_EQUAL(memcmp(physical_bytes, data + 0x800, 0x800), 0);
    uint8_t back[0x1800];
    CU_ASSERT_EQUAL(gpu_address_space_read(&ggtt, 0x1800, back, sizeof data, &err), 0);
    CU_ASSERT_EQUAL(memcmp(back, data, sizeof data), 0);
    /* Page 2's unwritten half reads zero; running into unmapped page 3 is an
     * error naming the address, with the rest of the destination zeroed. */
    memset(back, 0xAA, sizeof back);
    CU_ASSERT_EQUAL(gpu_address_space_read(&ggtt, 0x2000, back, 0x1800, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "0x3000"));
    CU_ASSERT_EQUAL(memcmp(back, data + 0x800, 0x800), 0);
    for (size_t i = 0x800; i < sizeof back; i++)
        if (back[i] != 0) {
            CU_FAIL("unwritten or faulting bytes are not zero");
            break;
        }
    CU_ASSERT_EQUAL(gpu_address_space_write(&ggtt, 0x2FFF, data, 2, &err), -1);
    CU_ASSERT_EQUAL(ggtt.fault_count, 2);
    gpu_memory_destroy(memory);
}

static void test_dump_writes_the_range_to_a_file(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    uint8_t ptes[16];
    put_u64(ptes, 0x9000 | 1);
    put_u64(ptes + 8, 0x5000 | 1);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(memory, 8, ptes, 16, &err), 0);
    uint8_t data[100];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(200 - i);
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0x9FD0, data, 48, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0x5000, data + 48, 52, &err), 0);
    struct gpu_address_space ggtt;
    gpu_address_space_init(&ggtt, memory, GPU_ADDRESS_SPACE_GGTT_GEN8, 0);
    char path[256];
    snprintf(path, sizeof path, "%s/dump.bin", test_temp_dir());
    CU_ASSERT_EQUAL_FATAL(gpu_address_space_dump(&ggtt, 0x1FD0, 100, path, &err), 0);
    FILE *file = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(file);
    uint8_t back[200];
    size_t n = fread(back, 1, sizeof back, file);
    fclose(file);
    CU_ASSERT_EQUAL(n, 100);
    CU_ASSERT_EQUAL(memcmp(back, data, 100), 0);
    /* An unmapped range is an error naming the file. */
    CU_ASSERT_EQUAL(gpu_address_space_dump(&ggtt, 0x3000, 4, path, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "dump.bin"));
    CU_ASSERT_EQUAL(gpu_address_space_dump(&ggtt, 0x1000, 4, "/nonexistent-dir/x.bin", &err), -1);
    gpu_memory_destroy(memory);
}

/* The metadata epoch (memory.h gpu_memory_mark_metadata): writes to unmarked
 * pages leave it, writes to marked pages and to GTT entries advance it, a
 * never-written page cannot be marked, and a PPGTT walk marks the four
 * page-table pages it read (and no other). */
static void test_metadata_epoch(void)
{
    struct gt_error err;
    struct gpu_memory *memory = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    uint8_t byte = 1;
    uint64_t e0 = gpu_memory_metadata_epoch(memory);
    CU_ASSERT_FALSE(gpu_memory_mark_metadata(memory, 0x40000));    /* never written */
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0x40000, &byte, 1, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_metadata_epoch(memory), e0);         /* not marked */
    CU_ASSERT_TRUE(gpu_memory_mark_metadata(memory, 0x40123));
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0x40fff, &byte, 1, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_metadata_epoch(memory), e0 + 1);
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0x41000, &byte, 1, &err), 0);  /* next page */
    CU_ASSERT_EQUAL(gpu_memory_metadata_epoch(memory), e0 + 1);
    CU_ASSERT_PTR_NOT_NULL(gpu_memory_page_for_write(memory, 0x40000, &err));
    CU_ASSERT_EQUAL(gpu_memory_metadata_epoch(memory), e0 + 2);
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(memory, 0, &byte, 1, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_metadata_epoch(memory), e0 + 3);
    /* a walk marks PML4, PDP, PD and PT (0x0-0x3000, map_ppgtt_page), not the data */
    uint64_t va = 0xFFFEFFFEE000ull, physical;
    map_ppgtt_page(memory, va, 0x255000);
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0x255000, &byte, 1, &err), 0);
    struct gpu_address_space ppgtt;
    gpu_address_space_init(&ppgtt, memory, GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL, 0);
    uint64_t e1 = gpu_memory_metadata_epoch(memory);
    CU_ASSERT_EQUAL(gpu_address_space_translate(&ppgtt, va, &physical), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(memory, 0x255000, &byte, 1, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_metadata_epoch(memory), e1);
    for (uint64_t table = 0; table < 0x4000; table += 0x1000) {
        CU_ASSERT_EQUAL(gpu_memory_write(memory, table + 0x800, &byte, 1, &err), 0);
        CU_ASSERT_EQUAL(gpu_memory_metadata_epoch(memory), ++e1);
    }
    gpu_memory_destroy(memory);
}

/* gpu_memory_digest: what reads see, in address order. Zeros written (a page
 * allocated) read as unwritten memory does; a byte changed, the same bytes at
 * another address, or a GTT entry written each change it; the same writes in
 * another order do not. The FNV-1a figure of an empty memory is worked out
 * here by hand: the offset basis folded with "gtt". */
static void test_digest_is_what_reads_see(void)
{
    struct gt_error err;
    struct gpu_memory *a = gpu_memory_create(&err), *b = gpu_memory_create(&err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    uint64_t empty = UINT64_C(0xcbf29ce484222325);
    for (const char *c = "gtt"; *c; c++)
        empty = (empty ^ (uint8_t)*c) * UINT64_C(0x100000001b3);
    CU_ASSERT_EQUAL(gpu_memory_digest(a), empty);
    uint8_t zeros[64] = { 0 };
    CU_ASSERT_EQUAL(gpu_memory_write(a, 0x7000, zeros, sizeof zeros, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_pages_allocated(a), 1);
    CU_ASSERT_EQUAL(gpu_memory_digest(a), empty);
    uint32_t x = 0x11223344, y = 0x55667788;
    CU_ASSERT_EQUAL(gpu_memory_write(a, 0x1000, &x, 4, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(a, UINT64_C(0x123456789000), &y, 4, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(b, UINT64_C(0x123456789000), &y, 4, &err), 0);
    CU_ASSERT_NOT_EQUAL(gpu_memory_digest(a), gpu_memory_digest(b));
    CU_ASSERT_EQUAL(gpu_memory_write(b, 0x1000, &x, 4, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_digest(a), gpu_memory_digest(b));   /* the order does not count */
    uint8_t one = 1;
    CU_ASSERT_EQUAL(gpu_memory_write(b, 0x1fff, &one, 1, &err), 0);
    CU_ASSERT_NOT_EQUAL(gpu_memory_digest(a), gpu_memory_digest(b));
    one = 0;                    /* back to what a holds */
    CU_ASSERT_EQUAL(gpu_memory_write(b, 0x1fff, &one, 1, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_digest(a), gpu_memory_digest(b));
    struct gpu_memory *c = gpu_memory_create(&err);   /* x one page further on */
    CU_ASSERT_EQUAL(gpu_memory_write(c, 0x2000, &x, 4, &err), 0);
    CU_ASSERT_EQUAL(gpu_memory_write(c, UINT64_C(0x123456789000), &y, 4, &err), 0);
    CU_ASSERT_NOT_EQUAL(gpu_memory_digest(c), gpu_memory_digest(a));
    uint64_t before = gpu_memory_digest(b);
    uint64_t pte = 0x3001;
    CU_ASSERT_EQUAL(gpu_memory_gtt_entries_write(b, 8, &pte, sizeof pte, &err), 0);
    CU_ASSERT_NOT_EQUAL(gpu_memory_digest(b), before);
    gpu_memory_destroy(a);
    gpu_memory_destroy(b);
    gpu_memory_destroy(c);
}

static const struct test_case cases[] = {
    { "metadata epoch: marked pages, GTT entries, the walk's tables", test_metadata_epoch },
    { "unwritten memory reads zero", test_unwritten_reads_zero_without_allocating },
    { "write across pages reads back", test_write_crossing_pages_reads_back },
    { "beyond 48 bits is an error", test_beyond_48_bits_is_an_error },
    { "page budget is enforced", test_page_budget_is_enforced },
    { "GTT entry array is separate", test_gtt_entry_array_is_separate_and_bounded },
    { "Gen8 GGTT translates and faults", test_gen8_ggtt_translates_and_faults },
    { "32-bit GTT PTE formats", test_32bit_gtt_pte_formats },
    { "PPGTT 4-level walk", test_ppgtt_4level_walk },
    { "virtual read/write across pages", test_virtual_read_write_cross_discontiguous_pages },
    { "dump writes the range", test_dump_writes_the_range_to_a_file },
    { "digest: what reads see, in any write order", test_digest_is_what_reads_see },
    { 0 }
};
TEST_SUITE(memory, cases);
