/* fabric/memory.c - see memory.h for what is modelled and the sources. */
#include "fabric/memory.h"

#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Radix split of a 36-bit page number: 12 bits per level. */
#define LEVEL_BITS 12
#define LEVEL_ENTRIES (1u << LEVEL_BITS)
#define LEVEL_MASK (LEVEL_ENTRIES - 1)

struct page_table {
    uint8_t *pages[LEVEL_ENTRIES];
    /* bit i: page i holds metadata a reader cached a decoding of
     * (gpu_memory_mark_metadata); set with relaxed atomics, never cleared */
    uint64_t marked[LEVEL_ENTRIES / 64];
};

struct page_directory {
    struct page_table *tables[LEVEL_ENTRIES];
};

/* One sparse byte store: the physical memory and the GTT entry array each
 * have one. limit = first byte address it cannot hold. */
struct sparse_store {
    struct page_directory *directories[LEVEL_ENTRIES];
    uint64_t limit;
    uint64_t pages_allocated;
};

struct gpu_memory {
    struct sparse_store physical;
    struct sparse_store gtt_entries;
    uint64_t page_limit;
    /* Units on several host threads (fabric/sim.h sim_set_threads) may
     * write at once: a missing directory, table or page is made under this
     * lock and published with a release store, and lookups load the
     * pointers with acquire, so a reader never sees a half-made level. */
    pthread_mutex_t grow;
    /* advanced by every write to a marked page and every GTT entry write
     * (gpu_memory_metadata_epoch) */
    uint64_t metadata_epoch;
};

#define LOAD(pointer) __atomic_load_n(&(pointer), __ATOMIC_ACQUIRE)
#define PUBLISH(pointer, value) __atomic_store_n(&(pointer), (value), __ATOMIC_RELEASE)

/* The page table of the store holding address's page, or NULL (never written). */
static struct page_table *store_table(const struct sparse_store *store, uint64_t address)
{
    if (address >= store->limit)
        return NULL;
    uint64_t page_number = address >> GPU_PAGE_SHIFT;
    const struct page_directory *directory = LOAD(store->directories[page_number >> (2 * LEVEL_BITS)]);
    return directory ? LOAD(directory->tables[(page_number >> LEVEL_BITS) & LEVEL_MASK]) : NULL;
}

static inline bool table_marked(const struct page_table *table, uint64_t address)
{
    uint64_t i = (address >> GPU_PAGE_SHIFT) & LEVEL_MASK;
    return table && __atomic_load_n(&table->marked[i / 64], __ATOMIC_RELAXED) >> (i % 64) & 1;
}

static inline void table_mark(struct page_table *table, uint64_t address)
{
    uint64_t i = (address >> GPU_PAGE_SHIFT) & LEVEL_MASK;
    if (!table_marked(table, address))
        __atomic_fetch_or(&table->marked[i / 64], UINT64_C(1) << (i % 64), __ATOMIC_RELAXED);
}

static void advance_epoch(const struct gpu_memory *memory)
{
    __atomic_add_fetch(&((struct gpu_memory *)(uintptr_t)memory)->metadata_epoch, 1,
                       __ATOMIC_RELEASE);
}

/* address's page in a table store_table() gave (NULL: none, or never written). */
static inline uint8_t *table_page(const struct page_table *table, uint64_t address)
{
    return table ? LOAD(table->pages[(address >> GPU_PAGE_SHIFT) & LEVEL_MASK]) : NULL;
}

static const uint8_t *store_page_for_read(const struct sparse_store *store, uint64_t address)
{
    return table_page(store_table(store, address), address);
}

static uint8_t *store_page_for_write_locked(struct gpu_memory *memory, struct sparse_store *store,
                                            uint64_t address, const char *store_name,
                                            struct gt_error *err);

static uint8_t *store_page_for_write(struct gpu_memory *memory, struct sparse_store *store,
                                     uint64_t address, const char *store_name, struct gt_error *err)
{
    if (address < store->limit) {
        uint8_t *page = (uint8_t *)store_page_for_read(store, address);
        if (page)
            return page;
    }
    pthread_mutex_lock(&memory->grow);
    uint8_t *page = store_page_for_write_locked(memory, store, address, store_name, err);
    pthread_mutex_unlock(&memory->grow);
    return page;
}

static uint8_t *store_page_for_write_locked(struct gpu_memory *memory, struct sparse_store *store,
                                            uint64_t address, const char *store_name,
                                            struct gt_error *err)
{
    if (address >= store->limit) {
        gt_error_set(err, "%s address 0x%" PRIx64 " is beyond the limit 0x%" PRIx64, store_name,
                     address, store->limit);
        return NULL;
    }
    uint64_t page_number = address >> GPU_PAGE_SHIFT;
    struct page_directory **directory = &store->directories[page_number >> (2 * LEVEL_BITS)];
    if (!*directory) {
        struct page_directory *made = calloc(1, sizeof *made);
        PUBLISH(*directory, made);
        if (!*directory) {
            gt_error_set(err, "out of host memory for a %s page directory", store_name);
            return NULL;
        }
    }
    struct page_table **table = &(*directory)->tables[(page_number >> LEVEL_BITS) & LEVEL_MASK];
    if (!*table) {
        struct page_table *made = calloc(1, sizeof *made);
        PUBLISH(*table, made);
        if (!*table) {
            gt_error_set(err, "out of host memory for a %s page table", store_name);
            return NULL;
        }
    }
    uint8_t **page = &(*table)->pages[page_number & LEVEL_MASK];
    if (!*page) {
        uint64_t in_use = memory->physical.pages_allocated + memory->gtt_entries.pages_allocated;
        if (in_use >= memory->page_limit) {
            gt_error_set(err, "%s page at 0x%" PRIx64 " would exceed the budget of %" PRIu64 " pages",
                         store_name, address & ~(uint64_t)(GPU_PAGE_SIZE - 1), memory->page_limit);
            return NULL;
        }
        uint8_t *made = calloc(1, GPU_PAGE_SIZE);
        PUBLISH(*page, made);
        if (!*page) {
            gt_error_set(err, "out of host memory for a %s page", store_name);
            return NULL;
        }
        store->pages_allocated++;
    }
    return *page;
}

static void store_free(struct sparse_store *store)
{
    for (unsigned d = 0; d < LEVEL_ENTRIES; d++) {
        struct page_directory *directory = store->directories[d];
        if (!directory)
            continue;
        for (unsigned t = 0; t < LEVEL_ENTRIES; t++) {
            struct page_table *table = directory->tables[t];
            if (!table)
                continue;
            for (unsigned p = 0; p < LEVEL_ENTRIES; p++)
                free(table->pages[p]);
            free(table);
        }
        free(directory);
    }
}

static int check_range(const struct sparse_store *store, uint64_t address, uint64_t size,
                       const char *store_name, struct gt_error *err)
{
    if (address >= store->limit || size > store->limit - address)
        return gt_error_set(err, "%s range 0x%" PRIx64 "+0x%" PRIx64 " is beyond the limit 0x%" PRIx64,
                            store_name, address, size, store->limit);
    return 0;
}

static int store_read(const struct sparse_store *store, uint64_t address, void *destination,
                      uint64_t size, const char *store_name, struct gt_error *err)
{
    if (check_range(store, address, size, store_name, err))
        return -1;
    uint8_t *out = destination;
    while (size) {
        uint64_t in_page = address & (GPU_PAGE_SIZE - 1);
        uint64_t chunk = GPU_PAGE_SIZE - in_page;
        if (chunk > size)
            chunk = size;
        const uint8_t *page = store_page_for_read(store, address);
        if (page)
            memcpy(out, page + in_page, chunk);
        else
            memset(out, 0, chunk);
        out += chunk;
        address += chunk;
        size -= chunk;
    }
    return 0;
}

static int store_write(struct gpu_memory *memory, struct sparse_store *store, uint64_t address,
                       const void *source, uint64_t size, const char *store_name, struct gt_error *err)
{
    if (check_range(store, address, size, store_name, err))
        return -1;
    const uint8_t *in = source;
    while (size) {
        uint64_t in_page = address & (GPU_PAGE_SIZE - 1);
        uint64_t chunk = GPU_PAGE_SIZE - in_page;
        if (chunk > size)
            chunk = size;
        struct page_table *table = store_table(store, address);
        uint8_t *page = table_page(table, address);
        if (!page) {            /* made now (store_page_for_write), its table with it */
            if (!(page = store_page_for_write(memory, store, address, store_name, err)))
                return -1;
            table = store_table(store, address);
        }
        memcpy(page + in_page, in, chunk);
        if (store == &memory->gtt_entries || table_marked(table, address))
            advance_epoch(memory);
        in += chunk;
        address += chunk;
        size -= chunk;
    }
    return 0;
}

struct gpu_memory *gpu_memory_create(struct gt_error *err)
{
    struct gpu_memory *memory = calloc(1, sizeof *memory);
    if (!memory) {
        gt_error_set(err, "out of host memory creating the GPU memory");
        return NULL;
    }
    memory->physical.limit = GPU_PHYSICAL_ADDRESS_LIMIT;
    memory->gtt_entries.limit = GPU_GTT_ENTRY_BYTES;
    memory->page_limit = GPU_MEMORY_DEFAULT_PAGE_LIMIT;
    pthread_mutex_init(&memory->grow, NULL);
    return memory;
}

void gpu_memory_destroy(struct gpu_memory *memory)
{
    if (!memory)
        return;
    store_free(&memory->physical);
    store_free(&memory->gtt_entries);
    pthread_mutex_destroy(&memory->grow);
    free(memory);
}

void gpu_memory_set_page_limit(struct gpu_memory *memory, uint64_t max_pages)
{
    memory->page_limit = max_pages;
}

uint64_t gpu_memory_pages_allocated(const struct gpu_memory *memory)
{
    return memory->physical.pages_allocated;
}

uint64_t gpu_memory_gtt_entry_pages_allocated(const struct gpu_memory *memory)
{
    return memory->gtt_entries.pages_allocated;
}

/* FNV-1a, 64 bits, over n bytes, from hash h. */
static uint64_t fnv1a(uint64_t h, const void *bytes, size_t n)
{
    const uint8_t *b = bytes;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* Folds every page of store holding a non-zero byte into h: its page number,
 * then its bytes, in address order. */
static uint64_t store_digest(const struct sparse_store *store, uint64_t h)
{
    static const uint8_t zeros[GPU_PAGE_SIZE];
    for (uint64_t d = 0; d < LEVEL_ENTRIES; d++) {
        const struct page_directory *directory = LOAD(store->directories[d]);
        for (uint64_t t = 0; directory && t < LEVEL_ENTRIES; t++) {
            const struct page_table *table = LOAD(directory->tables[t]);
            for (uint64_t p = 0; table && p < LEVEL_ENTRIES; p++) {
                const uint8_t *page = LOAD(table->pages[p]);
                if (!page || memcmp(page, zeros, GPU_PAGE_SIZE) == 0)
                    continue;   /* reads as zeros, as an unwritten page does */
                uint64_t number = (d << (2 * LEVEL_BITS)) | (t << LEVEL_BITS) | p;
                h = fnv1a(h, &number, sizeof number);
                h = fnv1a(h, page, GPU_PAGE_SIZE);
            }
        }
    }
    return h;
}

uint64_t gpu_memory_digest(const struct gpu_memory *memory)
{
    uint64_t h = store_digest(&memory->physical, UINT64_C(0xcbf29ce484222325));
    h = fnv1a(h, "gtt", 3);     /* the two stores' pages apart */
    return store_digest(&memory->gtt_entries, h);
}

int gpu_memory_read(const struct gpu_memory *memory, uint64_t physical_address, void *destination,
                    uint64_t size, struct gt_error *err)
{
    return store_read(&memory->physical, physical_address, destination, size, "physical", err);
}

int gpu_memory_write(struct gpu_memory *memory, uint64_t physical_address, const void *source,
                     uint64_t size, struct gt_error *err)
{
    return store_write(memory, &memory->physical, physical_address, source, size, "physical", err);
}

const uint8_t *gpu_memory_page_for_read(const struct gpu_memory *memory, uint64_t page_address)
{
    return store_page_for_read(&memory->physical, page_address);
}

uint8_t *gpu_memory_page_for_write(struct gpu_memory *memory, uint64_t page_address,
                                   struct gt_error *err)
{
    uint8_t *page = store_page_for_write(memory, &memory->physical, page_address, "physical", err);
    if (page && table_marked(store_table(&memory->physical, page_address), page_address))
        advance_epoch(memory);      /* before the caller's write: see memory.h */
    return page;
}

bool gpu_memory_mark_metadata(const struct gpu_memory *memory, uint64_t physical_address)
{
    struct page_table *table = store_table(&memory->physical, physical_address);
    if (!table_page(table, physical_address))
        return false;
    table_mark(table, physical_address);
    return true;
}

uint64_t gpu_memory_metadata_epoch(const struct gpu_memory *memory)
{
    return __atomic_load_n(&memory->metadata_epoch, __ATOMIC_ACQUIRE);
}

int gpu_memory_gtt_entries_read(const struct gpu_memory *memory, uint64_t byte_offset,
                                void *destination, uint64_t size, struct gt_error *err)
{
    return store_read(&memory->gtt_entries, byte_offset, destination, size, "GTT entry", err);
}

int gpu_memory_gtt_entries_write(struct gpu_memory *memory, uint64_t byte_offset, const void *source,
                                 uint64_t size, struct gt_error *err)
{
    return store_write(memory, &memory->gtt_entries, byte_offset, source, size, "GTT entry", err);
}

/* ---- address spaces ---------------------------------------------------- */

/* Little-endian loads from the stores; an unwritten page reads as zero. */
static uint64_t page_u64(const uint8_t *page, uint64_t address)
{
    if (!page)
        return 0;
    const uint8_t *p = page + (address & (GPU_PAGE_SIZE - 1));
    uint64_t value = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&value, p, sizeof value); /* one load on little-endian hosts */
#else
    for (int i = 7; i >= 0; i--)
        value = (value << 8) | p[i];
#endif
    return value;
}

static uint64_t load_u64(const struct sparse_store *store, uint64_t address)
{
    return page_u64(store_page_for_read(store, address), address);
}

static uint32_t load_u32(const struct sparse_store *store, uint64_t address)
{
    const uint8_t *page = store_page_for_read(store, address);
    if (!page)
        return 0;
    const uint8_t *p = page + (address & (GPU_PAGE_SIZE - 1));
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define GTT_DEFAULT_SIZE (UINT64_C(1) << 32)
#define PPGTT_48BIT_SIZE (UINT64_C(1) << 48)
/* Gen8+ table entries and GGTT PTEs: bits 47:12 address (memory.h). */
#define GEN8_ENTRY_ADDRESS_MASK UINT64_C(0x0000FFFFFFFFF000)
#define ENTRY_PRESENT 1u

static uint64_t default_size(enum gpu_address_space_format format)
{
    switch (format) {
    case GPU_ADDRESS_SPACE_PHYSICAL:
        return GPU_PHYSICAL_ADDRESS_LIMIT;
    case GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL:
        return PPGTT_48BIT_SIZE;
    case GPU_ADDRESS_SPACE_GTT_GEN4:
    case GPU_ADDRESS_SPACE_GTT_GEN6:
    case GPU_ADDRESS_SPACE_GTT_HSW:
    case GPU_ADDRESS_SPACE_GGTT_GEN8:
        break;
    }
    return GTT_DEFAULT_SIZE;
}

void gpu_address_space_init(struct gpu_address_space *space, struct gpu_memory *memory,
                            enum gpu_address_space_format format, uint64_t root)
{
    memset(space, 0, sizeof *space);
    space->memory = memory;
    space->format = format;
    space->root = root & GEN8_ENTRY_ADDRESS_MASK;
    space->size = default_size(format);
}

int gpu_address_space_set_size(struct gpu_address_space *space, uint64_t size, struct gt_error *err)
{
    if (size > default_size(space->format))
        return gt_error_set(err, "%s address space cannot be 0x%" PRIx64 " bytes (at most 0x%" PRIx64 ")",
                            gpu_address_space_format_name(space->format), size,
                            default_size(space->format));
    space->size = size;
    return 0;
}

unsigned gpu_address_space_pte_bytes(enum gpu_address_space_format format)
{
    switch (format) {
    case GPU_ADDRESS_SPACE_GTT_GEN4:
    case GPU_ADDRESS_SPACE_GTT_GEN6:
    case GPU_ADDRESS_SPACE_GTT_HSW:
        return 4;
    case GPU_ADDRESS_SPACE_GGTT_GEN8:
        return 8;
    case GPU_ADDRESS_SPACE_PHYSICAL:
    case GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL:
        break;
    }
    return 0;
}

const char *gpu_address_space_format_name(enum gpu_address_space_format format)
{
    switch (format) {
    case GPU_ADDRESS_SPACE_PHYSICAL: return "physical";
    case GPU_ADDRESS_SPACE_GTT_GEN4: return "Gen4 GTT";
    case GPU_ADDRESS_SPACE_GTT_GEN6: return "Gen6/Gen7 GTT";
    case GPU_ADDRESS_SPACE_GTT_HSW: return "Haswell GTT";
    case GPU_ADDRESS_SPACE_GGTT_GEN8: return "Gen8 GGTT";
    case GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL: return "Gen8 4-level PPGTT";
    }
    return "unknown";
}

const char *gpu_fault_kind_name(enum gpu_fault_kind kind)
{
    switch (kind) {
    case GPU_FAULT_NONE: return "no fault";
    case GPU_FAULT_NOT_PRESENT: return "not present";
    case GPU_FAULT_OUT_OF_RANGE: return "out of range";
    }
    return "unknown";
}

static int fault(struct gpu_address_space *space, enum gpu_fault_kind kind, uint64_t virtual_address,
                 int level)
{
    space->fault_count++;
    space->last_fault.kind = kind;
    space->last_fault.virtual_address = virtual_address;
    space->last_fault.level = level;
    return -1;
}

/* Physical address of a 32-bit GTT PTE's page (formats in memory.h). */
static uint64_t gtt32_page_address(enum gpu_address_space_format format, uint32_t pte)
{
    uint64_t low = pte & 0xFFFFF000u;
    switch (format) {
    case GPU_ADDRESS_SPACE_GTT_GEN4:
        return low | (uint64_t)((pte >> 4) & 0xF) << 32;   /* bits 7:4 -> 35:32 */
    case GPU_ADDRESS_SPACE_GTT_HSW:
        return low | (uint64_t)((pte >> 4) & 0x7F) << 32;  /* bits 10:4 -> 38:32 */
    default:
        return low | (uint64_t)((pte >> 4) & 0xFF) << 32;  /* bits 11:4 -> 39:32 */
    }
}

int gpu_address_space_translate(struct gpu_address_space *space, uint64_t virtual_address,
                                uint64_t *physical_address)
{
    const struct gpu_memory *memory = space->memory;
    uint64_t address = virtual_address;

    if (space->format == GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL) {
        /* Canonical (63:48 = copies of bit 47) or 48-bit form: mask to 47:0
         * (aub-format.md §3.2). Anything else is outside the space. */
        uint64_t upper = address >> 48;
        if (upper != 0 && upper != 0xFFFF)
            return fault(space, GPU_FAULT_OUT_OF_RANGE, virtual_address, 0);
        address &= PPGTT_48BIT_SIZE - 1;
    }
    if (address >= space->size)
        return fault(space, GPU_FAULT_OUT_OF_RANGE, virtual_address, 0);

    uint64_t page_offset = address & (GPU_PAGE_SIZE - 1);
    uint64_t page_index = address >> GPU_PAGE_SHIFT;
    switch (space->format) {
    case GPU_ADDRESS_SPACE_PHYSICAL:
        *physical_address = address;
        return 0;
    case GPU_ADDRESS_SPACE_GTT_GEN4:
    case GPU_ADDRESS_SPACE_GTT_GEN6:
    case GPU_ADDRESS_SPACE_GTT_HSW: {
        uint32_t pte = load_u32(&memory->gtt_entries, page_index * 4);
        if (!(pte & ENTRY_PRESENT))
            return fault(space, GPU_FAULT_NOT_PRESENT, virtual_address, 1);
        *physical_address = gtt32_page_address(space->format, pte) | page_offset;
        return 0;
    }
    case GPU_ADDRESS_SPACE_GGTT_GEN8: {
        uint64_t pte = load_u64(&memory->gtt_entries, page_index * 8);
        if (!(pte & ENTRY_PRESENT))
            return fault(space, GPU_FAULT_NOT_PRESENT, virtual_address, 1);
        *physical_address = (pte & GEN8_ENTRY_ADDRESS_MASK) | page_offset;
        return 0;
    }
    case GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL: {
        uint64_t table = space->root;
        for (int level = 4; level >= 1; level--) {
            unsigned shift = GPU_PAGE_SHIFT + 9 * (unsigned)(level - 1);
            uint64_t index = (address >> shift) & 511;
            /* the page-table pages are metadata: a write to one advances
             * the epoch that cached translations hold by */
            struct page_table *pt = store_table(&memory->physical, table);
            if (pt)
                table_mark(pt, table);
            uint64_t entry = page_u64(table_page(pt, table), table + index * 8);
            if (!(entry & ENTRY_PRESENT))
                return fault(space, GPU_FAULT_NOT_PRESENT, virtual_address, level);
            table = entry & GEN8_ENTRY_ADDRESS_MASK;
        }
        *physical_address = table | page_offset;
        return 0;
    }
    }
    return fault(space, GPU_FAULT_OUT_OF_RANGE, virtual_address, 0);
}

static int fault_error(const struct gpu_address_space *space, struct gt_error *err)
{
    const struct gpu_fault *f = &space->last_fault;
    if (f->kind == GPU_FAULT_NOT_PRESENT)
        return gt_error_set(err, "%s fault at 0x%" PRIx64 ": not present (level %d entry)",
                            gpu_address_space_format_name(space->format), f->virtual_address, f->level);
    return gt_error_set(err, "%s fault at 0x%" PRIx64 ": %s",
                        gpu_address_space_format_name(space->format), f->virtual_address,
                        gpu_fault_kind_name(f->kind));
}

int gpu_address_space_read(struct gpu_address_space *space, uint64_t virtual_address, void *destination,
                           uint64_t size, struct gt_error *err)
{
    uint8_t *out = destination;
    uint64_t address = virtual_address;
    while (size) {
        uint64_t chunk = GPU_PAGE_SIZE - (address & (GPU_PAGE_SIZE - 1));
        if (chunk > size)
            chunk = size;
        uint64_t physical;
        if (gpu_address_space_translate(space, address, &physical)) {
            memset(out, 0, size);
            return fault_error(space, err);
        }
        /* physical + chunk stays inside one page, so below 2^48. */
        if (store_read(&space->memory->physical, physical, out, chunk, "physical", err))
            return -1;
        out += chunk;
        address += chunk;
        size -= chunk;
    }
    return 0;
}

int gpu_address_space_write(struct gpu_address_space *space, uint64_t virtual_address,
                            const void *source, uint64_t size, struct gt_error *err)
{
    const uint8_t *in = source;
    uint64_t address = virtual_address;
    while (size) {
        uint64_t chunk = GPU_PAGE_SIZE - (address & (GPU_PAGE_SIZE - 1));
        if (chunk > size)
            chunk = size;
        uint64_t physical;
        if (gpu_address_space_translate(space, address, &physical))
            return fault_error(space, err);
        if (store_write(space->memory, &space->memory->physical, physical, in, chunk, "physical", err))
            return -1;
        in += chunk;
        address += chunk;
        size -= chunk;
    }
    return 0;
}

int gpu_address_space_dump(struct gpu_address_space *space, uint64_t virtual_address, uint64_t size,
                           const char *path, struct gt_error *err)
{
    FILE *file = fopen(path, "wb");
    if (!file)
        return gt_error_set(err, "%s: cannot create: %s", path, strerror(errno));
    uint8_t page[GPU_PAGE_SIZE];
    uint64_t address = virtual_address;
    while (size) {
        uint64_t chunk = GPU_PAGE_SIZE - (address & (GPU_PAGE_SIZE - 1));
        if (chunk > size)
            chunk = size;
        if (gpu_address_space_read(space, address, page, chunk, err)) {
            fclose(file);
            return gt_error_prefix(err, "%s", path);
        }
        if (fwrite(page, 1, chunk, file) != chunk) {
            fclose(file);
            return gt_error_set(err, "%s: write failed: %s", path, strerror(errno));
        }
        address += chunk;
        size -= chunk;
    }
    if (fclose(file))
        return gt_error_set(err, "%s: write failed: %s", path, strerror(errno));
    return 0;
}
