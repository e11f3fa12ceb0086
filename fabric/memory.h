/* fabric/memory.h - the GPU's functional memory: a sparse physical backing store,
 * the global GTT's page-table-entry array, and address spaces (GTT, GGTT, PPGTT)
 * that translate GPU virtual addresses through them.
 *
 * This is the one coherent backing store of DESIGN.md "Functional and timing
 * together": every access here is untimed (the "backdoor"); the L3/URB/DRAM
 * models decide when data moves, this module decides what it is.
 *
 * Physical memory (struct gpu_memory):
 *  - 4 KiB pages allocated on first write; memory never written reads as zero
 *    (notes/aub-format.md §3.4: buffers the CPU never mapped are absent from a
 *    capture and must read as zero).
 *  - Physical addresses are 48 bits (the reader of Mesa's AUB files keeps bits
 *    47:0, aub-format.md §2.3); anything beyond is an error.
 *  - Lookup is a three-level radix table (12 + 12 + 12 bits of page number),
 *    so a page is found in three dependent loads with no hashing and no locks.
 *    Reads never modify the store, so many readers may share it.
 *  - A page budget (default GPU_MEMORY_DEFAULT_PAGE_LIMIT) bounds what a hostile
 *    input can make the store allocate; going over it is an error, not a crash.
 *
 * The GTT entry array: the global GTT's PTEs live in their own byte-addressed
 * sparse array inside struct gpu_memory, separate from physical memory. This is
 * what an AUB's GGTT_ENTRY address space writes (aub-format.md §2.3 space 4,
 * §2.5 memtype 4: "the address is a byte offset into the GGTT page-table
 * array"). On real parts the array sits in stolen memory behind the GTTMMADR
 * BAR; where exactly is not modelled, only its contents. Entry i is at byte
 * offset i * PTE size (4 bytes for Gen4..Gen7, 8 bytes for Gen8+), and maps GTT
 * page i. The array holds up to GPU_GTT_ENTRY_BYTES bytes: a 4 GiB GTT of 8-byte
 * entries.
 *
 * Address spaces (struct gpu_address_space): a small caller-owned descriptor
 * naming the memory, the translation format and (for the PPGTT) the root table.
 * Formats and their PTE layouts:
 *  - GTT_GEN4 (Gen4: G965, G35, GM965): 32-bit PTE. Bit 0 valid; bits 31:12 =
 *    physical address 31:12; bits 7:4 = physical address 35:32. Source: Linux
 *    drivers/char/agp/intel-gtt.c i965_write_entry / intel_i965_mask_memory,
 *    "Shift high bits down: addr |= (addr >> 28) & 0xf0", PTE valid = bit 0
 *    (I810_PTE_VALID). Bits 2:1 (memory type) and 3 are ignored here.
 *  - GTT_GEN6 (Gen6 and Gen7: SNB, IVB, ValleyView/BYT): 32-bit PTE. Bit 0
 *    valid; bits 31:12 = physical 31:12; bits 11:4 = physical 39:32. Source:
 *    Linux i915 GEN6_GTT_ADDR_ENCODE "(addr) | (((addr) >> 28) & 0xff0)" with the
 *    comment "gen6-hsw has bit 11-4 for physical addr bit 39-32" and
 *    GEN6_PTE_VALID = bit 0; BYT uses the same encoding (byt_pte_encode) with
 *    bit 1 = writeable, bit 2 = snooped, both ignored here.
 *  - GTT_HSW (Gen7.5 Haswell): as GTT_GEN6 but only bits 10:4 = physical
 *    38:32, bit 11 being a cacheability bit (i915 HSW_GTT_ADDR_ENCODE, mask
 *    0x7f0, and HSW_CACHEABILITY_CONTROL putting bit 3 of the control in PTE
 *    bit 11).
 *  - GGTT_GEN8 (Gen8, Gen9): 64-bit PTE; bit 0 present; bits 47:12 = physical
 *    page. Mesa's writer emits "physical page address | 1" (aub-format.md §3.1).
 *    Cache-control bits are ignored.
 *  - PPGTT_GEN8_4LEVEL (Gen8, Gen9 48-bit): PML4 -> PDP -> PD -> PT, each a 4 KiB
 *    table of 512 64-bit entries in physical memory, VA bits 47:39 / 38:30 /
 *    29:21 / 20:12; entry bit 0 present, bits 47:12 next table or page
 *    (aub-format.md §3.2). The root is the PML4's physical address (the context
 *    image's PDP0, aub-format.md §4.3). VAs may be given canonical (bits 63:48
 *    copy bit 47) or in 48-bit form (bits 63:48 zero); both are masked to 47:0.
 *  - PHYSICAL: identity, for convenience (a unit reading physical memory through
 *    the same interface).
 * The 32-bit GTTs and the GGTT cover 4 GiB of virtual space by default (every
 * index a 32-bit GTT address can form); gpu_address_space_set_size() narrows
 * that to the entries a part really has (e.g. 64 MiB = 16,384 PTEs in the
 * legacy captures, aub-format.md §3.3).
 *
 * Faults: a not-present entry at any level or an address outside the space is
 * a fault: translate returns -1, the address space's fault_count goes up and
 * last_fault says where. Faults never crash and never allocate.
 *
 * Not modelled: large pages (PS bit 7 in a Gen8 PDE/PDPE: 2 MiB / 1 GiB pages,
 * and Gen9 64 KiB pages) - an entry is always taken as the next-level table;
 * the Gen6/Gen7 two-level PPGTT (PDEs in the GGTT); Gen8 legacy 32-bit PPGTT
 * with four PDP registers; read-only / writeable enforcement; cache-control
 * and memory-type bits; TLBs (translation is always a fresh walk).
 */
#ifndef GTSIM_FABRIC_MEMORY_H
#define GTSIM_FABRIC_MEMORY_H

#include "fabric/error.h"

#include <stdbool.h>
#include <stdint.h>

#define GPU_PAGE_SHIFT 12
#define GPU_PAGE_SIZE (1u << GPU_PAGE_SHIFT)
#define GPU_PHYSICAL_ADDRESS_BITS 48
#define GPU_PHYSICAL_ADDRESS_LIMIT (UINT64_C(1) << GPU_PHYSICAL_ADDRESS_BITS)
/* Bytes of the GTT entry array: a 4 GiB GGTT of 8-byte PTEs. */
#define GPU_GTT_ENTRY_BYTES (UINT64_C(8) << 20)
/* Default page budget: 4 GiB of backing store (1 Mi pages). */
#define GPU_MEMORY_DEFAULT_PAGE_LIMIT (UINT64_C(1) << 20)

struct gpu_memory;

/* Creates an empty memory (everything reads as zero). NULL + err on failure. */
struct gpu_memory *gpu_memory_create(struct gt_error *err);
void gpu_memory_destroy(struct gpu_memory *memory);

/* Sets the most pages (physical + GTT entry array) the memory may allocate. */
void gpu_memory_set_page_limit(struct gpu_memory *memory, uint64_t max_pages);

/* Pages allocated so far in physical memory / in the GTT entry array. */
uint64_t gpu_memory_pages_allocated(const struct gpu_memory *memory);
uint64_t gpu_memory_gtt_entry_pages_allocated(const struct gpu_memory *memory);

/* A 64-bit digest (FNV-1a) of what reads see: every page of physical memory
 * and of the GTT entry array holding a non-zero byte, with its page number, in
 * address order. Memories that read alike have the same digest, however their
 * pages came to be allocated (tests compare runs with it). Not to be called
 * while units write. */
uint64_t gpu_memory_digest(const struct gpu_memory *memory);

/* Backdoor access to physical memory: any byte range below 2^48, crossing
 * pages freely. Reads of unwritten memory give zeros and allocate nothing.
 * -1 + err when the range leaves 48 bits or the page budget is exhausted. */
int gpu_memory_read(const struct gpu_memory *memory, uint64_t physical_address, void *destination,
                    uint64_t size, struct gt_error *err);
int gpu_memory_write(struct gpu_memory *memory, uint64_t physical_address, const void *source,
                     uint64_t size, struct gt_error *err);

/* Hot-path page access. page_address is any address inside the page.
 * For read: the page's 4 KiB or NULL when it was never written (reads as zero)
 * or lies beyond 48 bits. For write: the page, allocated (zeroed) on first use;
 * NULL + err beyond 48 bits or over budget. */
const uint8_t *gpu_memory_page_for_read(const struct gpu_memory *memory, uint64_t page_address);
uint8_t *gpu_memory_page_for_write(struct gpu_memory *memory, uint64_t page_address,
                                   struct gt_error *err);

/* Metadata: pages a reader caches a decoding of (page tables, binding tables,
 * surface states). A reader marks each such page it read (false: the page was
 * never written, so nothing can be marked and nothing should be cached), and
 * its cache holds while gpu_memory_metadata_epoch() is what it was before the
 * reads: every write to a marked page and every GTT entry write advances it
 * (gpu_memory_page_for_write advances it when it hands out a marked page, so
 * the caller writes at once). The PPGTT walk of gpu_address_space_translate
 * marks the page-table pages it reads. On several host threads a write and a
 * read of one metadata page in one parallel step race as any two accesses of
 * one byte do; none is deterministic then. */
bool gpu_memory_mark_metadata(const struct gpu_memory *memory, uint64_t physical_address);
uint64_t gpu_memory_metadata_epoch(const struct gpu_memory *memory);

/* The GTT entry array: byte offsets below GPU_GTT_ENTRY_BYTES. */
int gpu_memory_gtt_entries_read(const struct gpu_memory *memory, uint64_t byte_offset,
                                void *destination, uint64_t size, struct gt_error *err);
int gpu_memory_gtt_entries_write(struct gpu_memory *memory, uint64_t byte_offset, const void *source,
                                 uint64_t size, struct gt_error *err);

enum gpu_address_space_format {
    GPU_ADDRESS_SPACE_PHYSICAL,
    GPU_ADDRESS_SPACE_GTT_GEN4,
    GPU_ADDRESS_SPACE_GTT_GEN6,
    GPU_ADDRESS_SPACE_GTT_HSW,
    GPU_ADDRESS_SPACE_GGTT_GEN8,
    GPU_ADDRESS_SPACE_PPGTT_GEN8_4LEVEL,
};

enum gpu_fault_kind {
    GPU_FAULT_NONE,
    GPU_FAULT_NOT_PRESENT,  /* an entry on the walk has its present/valid bit clear */
    GPU_FAULT_OUT_OF_RANGE, /* the address lies outside the space */
};

struct gpu_fault {
    enum gpu_fault_kind kind;
    uint64_t virtual_address;
    /* For NOT_PRESENT: the level whose entry was absent: 4 PML4, 3 PDP, 2 PD,
     * 1 PT (PPGTT); 1 for a GTT PTE. 0 otherwise. */
    int level;
};

struct gpu_address_space {
    struct gpu_memory *memory;
    enum gpu_address_space_format format;
    uint64_t root;          /* PPGTT_GEN8_4LEVEL: physical address of the PML4 */
    uint64_t size;          /* bytes of virtual space: addresses at or above fault */
    uint64_t fault_count;   /* faults seen by translate/read/write */
    struct gpu_fault last_fault;
};

/* Describes an address space over memory. root is used by the PPGTT only. */
void gpu_address_space_init(struct gpu_address_space *space, struct gpu_memory *memory,
                            enum gpu_address_space_format format, uint64_t root);
/* Narrows a GTT to size bytes of virtual space (at most its default). */
int gpu_address_space_set_size(struct gpu_address_space *space, uint64_t size, struct gt_error *err);

/* Bytes of one PTE in the GTT entry array for a GTT format (4 or 8), 0 for
 * PHYSICAL and the PPGTT. */
unsigned gpu_address_space_pte_bytes(enum gpu_address_space_format format);
const char *gpu_address_space_format_name(enum gpu_address_space_format format);
const char *gpu_fault_kind_name(enum gpu_fault_kind kind);

/* Translates one virtual address. 0 and *physical_address on success; -1 on a
 * fault (counted, recorded in last_fault). */
int gpu_address_space_translate(struct gpu_address_space *space, uint64_t virtual_address,
                                uint64_t *physical_address);

/* Reads/writes a virtual range page by page. On a fault: -1 + err naming the
 * address; a read zero-fills the destination from the faulting page on; a
 * write has written the pages before the faulting one. */
int gpu_address_space_read(struct gpu_address_space *space, uint64_t virtual_address, void *destination,
                           uint64_t size, struct gt_error *err);
int gpu_address_space_write(struct gpu_address_space *space, uint64_t virtual_address,
                            const void *source, uint64_t size, struct gt_error *err);

/* Writes size bytes read through space from virtual_address to a new file at
 * path (for `--dump GPUADDR:BYTES:FILE`). Faults and I/O errors are errors. */
int gpu_address_space_dump(struct gpu_address_space *space, uint64_t virtual_address, uint64_t size,
                           const char *path, struct gt_error *err);

#endif
