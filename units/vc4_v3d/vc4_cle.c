/* units/vc4_v3d/vc4_cle.c - the control list executor's two threads; see vc4_cle.h. */
#include "units/vc4_v3d/vc4_cle.h"

#include <string.h>

#include "units/vc4_v3d/vc4_shade.h"
#include "vc4_packets.h"
#include "vc4_v3d_regs.h"

void vc4_cle_init(struct vc4_cle *c, uint32_t address_mask)
{
    memset(c, 0, sizeof *c);
    c->thread[0].binning = true;
    c->address_mask = address_mask;
    c->limit = 1u << 24;
}

static void start(struct vc4_cle_thread *t)
{
    t->steps_since_start = 0;
    t->traced = 0;
    t->state = t->ca == t->ea ? VC4_CLE_STOPPED_AT_END : VC4_CLE_RUNNING;
}

bool vc4_cle_write(struct vc4_cle *c, uint32_t offset, uint32_t value)
{
    unsigned n = (offset & 4) ? 1 : 0;
    struct vc4_cle_thread *t = &c->thread[n];
    switch (offset) {
    case V3D_CT0CA: case V3D_CT1CA:
        /* writable while stopped; leaves the thread stopped (Tables 53, 54) */
        if (t->state != VC4_CLE_RUNNING && t->state != VC4_CLE_WAITING) {
            t->ca = value;
            t->state = VC4_CLE_STOPPED_AT_END;
        }
        return true;
    case V3D_CT0EA: case V3D_CT1EA:
        t->ea = value;
        if (t->state == VC4_CLE_STOPPED_AT_END)
            start(t);
        return true;
    case V3D_CT0CS: case V3D_CT1CS:
        if (value >> V3D_CTnCS_CTRSTA_SHIFT & 1) {          /* reset: stop, clear */
            t->state = VC4_CLE_STOPPED_AT_END;
            t->depth = 0;
            t->semaphore = 0;
            return true;
        }
        /* CTRUN = 0 stops a running thread; CTSUBS = 1 restarts one stopped at a halt
         * [chosen order: the seed does not say how a write of both combines] */
        if (!(value >> V3D_CTnCS_CTRUN_SHIFT & 1) && t->state == VC4_CLE_RUNNING)
            t->state = VC4_CLE_STOPPED_AT_END;
        if ((value >> V3D_CTnCS_CTSUBS_SHIFT & 1) && t->state == VC4_CLE_HALTED)
            start(t);                                        /* clears "stopped at halt" */
        return true;
    case V3D_BFC:
        if (value & 1)
            c->bfc = 0;
        return true;
    case V3D_RFC:
        if (value & 1)
            c->rfc = 0;
        return true;
    default:
        return false;
    }
}

uint32_t vc4_cle_read(const struct vc4_cle *c, uint32_t offset)
{
    switch (offset) {
    case V3D_CT0CS: case V3D_CT1CS: {
        const struct vc4_cle_thread *t = &c->thread[(offset & 4) ? 1 : 0];
        bool running = t->state == VC4_CLE_RUNNING || t->state == VC4_CLE_WAITING;
        return (uint32_t)(t->state == VC4_CLE_ERROR) << V3D_CTnCS_CTERR_SHIFT |
               (uint32_t)(t->state == VC4_CLE_HALTED) << V3D_CTnCS_CTSUBS_SHIFT |
               (uint32_t)running << V3D_CTnCS_CTRUN_SHIFT |
               (t->depth & V3D_CTnCS_CTRTSD_MASK) << V3D_CTnCS_CTRTSD_SHIFT |
               (t->semaphore & V3D_CTnCS_CTSEMA_MASK) << V3D_CTnCS_CTSEMA_SHIFT;
    }
    case V3D_CT0CA: return c->thread[0].ca;
    case V3D_CT1CA: return c->thread[1].ca;
    case V3D_CT0EA: return c->thread[0].ea;
    case V3D_CT1EA: return c->thread[1].ea;
    case V3D_BFC: return c->bfc & V3D_BFC_BMFCT_MASK;
    case V3D_RFC: return c->rfc & V3D_RFC_RMFCT_MASK;
    default: return 0;
    }
}

bool vc4_cle_busy(const struct vc4_cle *c)
{
    for (int n = 0; n < 2; n++)
        if (c->thread[n].state == VC4_CLE_RUNNING || c->thread[n].state == VC4_CLE_WAITING ||
            (c->pipe && (c->pipe->owed[n] || (n == 1 && vc4_3d_fragments_busy(c->pipe)))))
            return true;
    return false;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void frame_done(struct vc4_cle *c, struct vc4_cle_thread *t)
{
    c->rfc = (c->rfc + 1) & 0xff;
    c->rfc_total++;
    t->stores_eof++;
}

bool vc4_cle_step(struct vc4_cle *c, unsigned n, struct gpu_memory *mem)
{
    struct vc4_cle_thread *t = &c->thread[n & 1];
    if (c->pipe && c->pipe->owed[n & 1]) {
        /* the pipeline's work for the last record holds the thread (vc4_3d.h "Timing") */
        c->pipe->owed[n & 1]--;
        c->pipe->stats.held_cycles[n & 1]++;
        return true;
    }
    if (t->state == VC4_CLE_WAITING) {
        if (!t->semaphore) {
            t->semaphore_waits++;
            return false;
        }
        t->semaphore--;
        t->state = VC4_CLE_RUNNING;
    }
    if (t->state != VC4_CLE_RUNNING)
        return false;
    if (t->ca == t->ea) {
        t->state = VC4_CLE_STOPPED_AT_END;
        return true;
    }
    if (!t->binning && c->pipe && vc4_3d_fragments_busy(c->pipe)) {
        /* fragment shaders still running on the QPUs: records that need the finished tile
         * buffer wait, primitive lists go on until the FEP's queue is full (vc4_3d.h) */
        uint8_t next = 0;
        gpu_memory_read(mem, t->ca & c->address_mask, &next, 1, NULL);
        if (!vc4_render_record_passes_fragments(next) ||
            c->pipe->job_count >= VC4_FRAGMENT_QUEUE_LIMIT) {
            c->pipe->stats.fragment_queue_wait_cycles++;
            return false;
        }
    }
    if (c->pipe && c->pipe->queue_vertices) {
        /* a primitive record waits for its vertices, shaded on the QPU units (vc4_3d.h) */
        uint8_t next = 0;
        gpu_memory_read(mem, t->ca & c->address_mask, &next, 1, NULL);
        bool primitives = t->binning
            ? next == VC4_PACKET_VERTEX_ARRAY_PRIMITIVES || next == VC4_PACKET_INDEXED_PRIMITIVE_LIST
            : next == VC4_PACKET_COMPRESSED_PRIMITIVE_LIST ||
              next == VC4_PACKET_CLIPPED_PRIMITIVE_WITH_COMPRESSED_PRIMITIVE_LIST;
        if (primitives && !vc4_3d_vertices_ready(c->pipe, mem, n & 1, t->ca & c->address_mask)) {
            c->pipe->stats.vertex_wait_cycles[n & 1]++;
            return false;
        }
    }
    if (t->steps_since_start++ >= c->limit) {
        t->state = VC4_CLE_ERROR;
        t->overflows++;
        return true;
    }
    uint8_t b[16] = { 0 };
    uint32_t at = t->ca;
    if (gpu_memory_read(mem, at & c->address_mask, b, 1, NULL) < 0) {
        t->invalid++;
        t->state = VC4_CLE_ERROR;
        return true;
    }
    uint8_t id = b[0];
    const struct vc4_packet_info *info = &vc4_packets[id];
    if ((id == VC4_PACKET_COMPRESSED_PRIMITIVE_LIST ||
         id == VC4_PACKET_CLIPPED_PRIMITIVE_WITH_COMPRESSED_PRIMITIVE_LIST) &&
        !t->binning && c->pipe) {
        /* variable length: the renderer decodes it up to its escape (Tables 39-41); 49 has
         * its clipped data word first (Table 44) */
        uint32_t length = id == VC4_PACKET_COMPRESSED_PRIMITIVE_LIST
            ? vc4_render_compressed(c->pipe, mem, (at + 1) & c->address_mask)
            : vc4_render_clipped(c->pipe, mem, (at + 1) & c->address_mask);
        vc4_3d_vertices_done(c->pipe, n & 1);
        if (!length) {
            t->invalid++;
            t->state = VC4_CLE_ERROR;
            return true;
        }
        t->records++;
        t->by_id[id]++;
        t->ca = at + 1 + length;
        return true;
    }
    if (!info->name || info->length == 0) {
        t->invalid++;
        t->state = VC4_CLE_ERROR;
        return true;
    }
    if (info->length > 1)
        gpu_memory_read(mem, (at + 1) & c->address_mask, b + 1, info->length - 1u, NULL);
    if (t->traced < VC4_CLE_TRACE_MAX) {
        t->trace_id[t->traced] = id;
        t->trace_address[t->traced] = at;
        t->traced++;
    }
    t->records++;
    t->by_id[id]++;
    /* 56 Primitive List Format is marked R in Table 38 but the kernel accepts it in binning
     * lists and Mesa emits it there (vc4-submit.md §10.1, §11) */
    if ((info->cl == 'B' && !t->binning) ||
        (info->cl == 'R' && t->binning && id != VC4_PACKET_PRIMITIVE_LIST_FORMAT))
        t->wrong_list++;
    t->ca = at + info->length;
    if (c->pipe) {
        if (t->binning)
            vc4_bin_record(c->pipe, mem, b);
        else
            vc4_render_record(c->pipe, mem, b);
        vc4_3d_vertices_done(c->pipe, n & 1);
    }
    struct vc4_cle_thread *other = &c->thread[(n & 1) ^ 1];
    switch (id) {
    case VC4_PACKET_HALT:
        t->state = VC4_CLE_HALTED;
        break;
    case VC4_PACKET_BRANCH:
        t->ca = rd32(b + 1);
        break;
    case VC4_PACKET_BRANCH_TO_SUB_LIST:
        if (t->depth >= 2) {
            t->overflows++;
            t->state = VC4_CLE_ERROR;
            break;
        }
        t->return_stack[t->depth++] = t->ca;
        t->ca = rd32(b + 1);
        break;
    case VC4_PACKET_RETURN_FROM_SUB_LIST:
        if (t->depth)
            t->ca = t->return_stack[--t->depth];
        break;
    case VC4_PACKET_INCREMENT_SEMAPHORE:
        if (t->binning && c->pipe) {
            /* "after tile lists are flushed" (Table 38, ID 7): held until the Flush */
            t->deferred_increments++;
            break;
        }
        if (other->semaphore < V3D_CTnCS_CTSEMA_MASK)
            other->semaphore++;
        else
            t->overflows++;
        break;
    case VC4_PACKET_WAIT_ON_SEMAPHORE:
        t->state = VC4_CLE_WAITING;
        break;
    case VC4_PACKET_TILE_BINNING_MODE_CONFIGURATION:
        t->tile_alloc = rd32(b + 1);
        t->tiles_x = b[13];
        t->tiles_y = b[14];
        t->have_tiles = true;
        break;
    case VC4_PACKET_FLUSH:
        if (t->binning && t->have_tiles && !c->pipe) {
            /* the binner is not modelled: every tile list is empty and capped */
            static const uint8_t ret = VC4_PACKET_RETURN_FROM_SUB_LIST;
            for (uint32_t i = 0; i < t->tiles_x * t->tiles_y; i++)
                gpu_memory_write(mem, (t->tile_alloc + 32 * i) & c->address_mask, &ret, 1,
                                 NULL);
        }
        for (; t->deferred_increments; t->deferred_increments--) {
            if (other->semaphore < V3D_CTnCS_CTSEMA_MASK)
                other->semaphore++;
            else
                t->overflows++;
        }
        c->bfc = (c->bfc + 1) & 0xff;
        c->bfc_total++;
        break;
    case VC4_PACKET_STORE_MULTI_SAMPLE_RESOLVED_TILE_COLOR_BUFFER_AND_EOF:
        frame_done(c, t);
        break;
    case VC4_PACKET_STORE_FULL_RESOLUTION_TILE_BUFFER:
        if (b[1] & 8)
            frame_done(c, t);
        break;
    case VC4_PACKET_STORE_TILE_BUFFER_GENERAL:
        if (b[3] & 8)
            frame_done(c, t);
        break;
    default:
        break;
    }
    return true;
}
