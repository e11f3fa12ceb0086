/* units/common/thread_payload.c - the thread payload builder; see
 * thread_payload.h for what it builds and the seed lines. */
#include "units/common/thread_payload.h"

#include <string.h>

static void put32(uint8_t *r, unsigned dw, uint32_t v)
{
    memcpy(r + dw * 4, &v, 4);
}

void thread_payload_r0(const struct thread_r0 *f, uint8_t r0[EU_MSG_REG_BYTES])
{
    uint32_t barrier = 0;
    if (f->barrier_id >= 0)     /* 003 L17304-17336: R0.2[29] enable, ID in [31] and [27:24] */
        barrier = 1u << 29 | ((uint32_t)f->barrier_id & 15) << 24 |
                  ((uint32_t)f->barrier_id >> 4 & 1) << 31;
    put32(r0, 0, (f->slm_base / 4096u & 0x3f) << 24);
    put32(r0, 1, f->group_id[0]);
    put32(r0, 2, barrier | (f->slm_enable ? 1u << 28 : 0));
    put32(r0, 3, (f->sampler_state_pointer & ~31u) | (f->per_thread_scratch & 15));
    put32(r0, 4, f->binding_table_pointer & ~31u);
    put32(r0, 5, (f->scratch_space_offset & ~0x3ffu) | (f->gpgpu ? 1u << 9 : 0) | (f->fftid & 0x1ff));
    put32(r0, 6, f->group_id[1]);
    put32(r0, 7, f->group_id[2]);
}

uint32_t thread_payload_regs(uint32_t header_regs, const struct thread_constants *c)
{
    uint64_t regs = (uint64_t)header_regs + c->cross_thread_regs + c->per_thread_regs;
    return regs > THREAD_PAYLOAD_MAX_REGS ? THREAD_PAYLOAD_MAX_REGS : (uint32_t)regs;
}

/* Copies the register at byte offset off of the buffer when it holds it in full. */
static void copy_reg(const struct thread_constants *c, uint64_t off, uint8_t *dst)
{
    if (c->data && off + EU_MSG_REG_BYTES <= c->data_bytes)
        memcpy(dst, c->data + off, EU_MSG_REG_BYTES);
}

uint32_t thread_payload_constants(const struct thread_constants *c, uint32_t thread_index,
                                  uint8_t (*grf)[EU_MSG_REG_BYTES], uint32_t first,
                                  uint32_t total)
{
    uint32_t r = first;
    for (uint32_t i = 0; i < c->cross_thread_regs && r < total; i++, r++)
        copy_reg(c, (uint64_t)i * EU_MSG_REG_BYTES, grf[r]);
    for (uint32_t i = 0; i < c->per_thread_regs && r < total; i++, r++) {
        uint64_t reg = (uint64_t)c->cross_thread_regs + c->read_offset_regs +
                       (uint64_t)thread_index * c->per_thread_regs + i;
        copy_reg(c, reg * EU_MSG_REG_BYTES, grf[r]);
    }
    return r;
}

void thread_payload_context(const struct thread_context_source *src, struct eu_thread_context *ctx)
{
    bool barrier = src->barrier_id >= 0;
    *ctx = (struct eu_thread_context){
        .space_root = src->space_root,
        .space_format = src->space_format,
        .valid = 1,
        .gen = src->gen,
        .barrier_id = (uint8_t)(barrier ? src->barrier_id : 0),
        .binding_table = src->binding_table,
        .surface_state_base = src->surface_state_base,
        .general_state_base = src->general_state_base,
        .dynamic_state_base = src->dynamic_state_base,
        .general_state_size = src->general_state_pages * 4096u,
        .binding_table_entries = src->binding_table_entries,
        .slm_base = src->slm_base,
        .slm_size = src->slm_size,
        .group = src->group,
        .barrier_threads = (uint16_t)(barrier ? src->barrier_threads : 0),
        .scratch_slot = (uint16_t)src->scratch_slot,
    };
}
