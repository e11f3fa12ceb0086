/* units/cs/cs_mi.c - executing commands: the MI commands the seeds define for
 * the render engine, PIPE_CONTROL post-sync writes, PIPELINE_SELECT, and every
 * other command passed on by id as a state packet down the pipeline the spec
 * tables give it. See cs.h for what the CS models. */
#include "units/cs/cs_internal.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "fabric/port.h"
#include "fabric/sim.h"
#include "spec/bitpack.h"

/* The fields the CS reads, by command id and superset member (the compiler
 * checks the member names; spec_find_field_common finds the generation's
 * field of that member). */
#define CS_FIELD(f, X, M) [f] = { SPEC_ID_##X, offsetof(struct spec_##X, M) }
static const struct { enum spec_id id; size_t member; } field_members[F_COUNT] = {
    CS_FIELD(F_BBS_ADDRESS, MI_BATCH_BUFFER_START, BatchBufferStartAddress),
    CS_FIELD(F_BBS_SPACE, MI_BATCH_BUFFER_START, AddressSpaceIndicator),
    CS_FIELD(F_BBS_SECURITY, MI_BATCH_BUFFER_START, BufferSecurityIndicator),
    CS_FIELD(F_BBS_SECOND_LEVEL, MI_BATCH_BUFFER_START, SecondLevelBatchBuffer),
    CS_FIELD(F_BBS_PREDICATION, MI_BATCH_BUFFER_START, PredicationEnable),
    CS_FIELD(F_LRI_BYTE_DISABLES, MI_LOAD_REGISTER_IMM, ByteWriteDisables),
    CS_FIELD(F_LRM_GLOBAL, MI_LOAD_REGISTER_MEM, UseGlobalGTT),
    CS_FIELD(F_LRM_REGISTER, MI_LOAD_REGISTER_MEM, RegisterAddress),
    CS_FIELD(F_LRM_ADDRESS, MI_LOAD_REGISTER_MEM, MemoryAddress),
    CS_FIELD(F_LRR_SOURCE, MI_LOAD_REGISTER_REG, SourceRegisterAddress),
    CS_FIELD(F_LRR_DESTINATION, MI_LOAD_REGISTER_REG, DestinationRegisterAddress),
    CS_FIELD(F_SRM_GLOBAL, MI_STORE_REGISTER_MEM, UseGlobalGTT),
    CS_FIELD(F_SRM_REGISTER, MI_STORE_REGISTER_MEM, RegisterAddress),
    CS_FIELD(F_SRM_ADDRESS, MI_STORE_REGISTER_MEM, MemoryAddress),
    CS_FIELD(F_SRM_PREDICATE, MI_STORE_REGISTER_MEM, PredicateEnable),
    CS_FIELD(F_SDI_GLOBAL, MI_STORE_DATA_IMM, UseGlobalGTT),
    CS_FIELD(F_SDI_ADDRESS, MI_STORE_DATA_IMM, Address),
    CS_FIELD(F_SDI_QWORD, MI_STORE_DATA_IMM, StoreQword),
    CS_FIELD(F_SDI_DATA, MI_STORE_DATA_IMM, ImmediateData),
    CS_FIELD(F_SDX_OFFSET, MI_STORE_DATA_INDEX, Offset),
    CS_FIELD(F_SDX_DATA0, MI_STORE_DATA_INDEX, DataDWord0),
    CS_FIELD(F_SDX_DATA1, MI_STORE_DATA_INDEX, DataDWord1),
    CS_FIELD(F_SDX_PPHWSP, MI_STORE_DATA_INDEX, UsePerProcessHardwareStatusPage),
    CS_FIELD(F_PRED_LOAD, MI_PREDICATE, LoadOperation),
    CS_FIELD(F_PRED_COMBINE, MI_PREDICATE, CombineOperation),
    CS_FIELD(F_PRED_COMPARE, MI_PREDICATE, CompareOperation),
    CS_FIELD(F_SETPRED_ENABLE, MI_SET_PREDICATE, PREDICATEENABLE),
    CS_FIELD(F_CBBE_SEMAPHORE, MI_CONDITIONAL_BATCH_BUFFER_END, CompareSemaphore),
    CS_FIELD(F_CBBE_GLOBAL, MI_CONDITIONAL_BATCH_BUFFER_END, UseGlobalGTT),
    CS_FIELD(F_CBBE_DATA, MI_CONDITIONAL_BATCH_BUFFER_END, CompareDataDword),
    CS_FIELD(F_CBBE_ADDRESS, MI_CONDITIONAL_BATCH_BUFFER_END, CompareAddress),
    CS_FIELD(F_CBBE_MASK_MODE, MI_CONDITIONAL_BATCH_BUFFER_END, CompareMaskMode),
    CS_FIELD(F_ARB_ENABLE, MI_ARB_ON_OFF, ArbitrationEnable),
    CS_FIELD(F_PC_POST_SYNC, PIPE_CONTROL, PostSyncOperation),
    CS_FIELD(F_PC_ADDRESS, PIPE_CONTROL, Address),
    CS_FIELD(F_PC_IMMEDIATE, PIPE_CONTROL, ImmediateData),
    CS_FIELD(F_PC_DEST_TYPE, PIPE_CONTROL, DestinationAddressType),
    CS_FIELD(F_PC_STORE_INDEX, PIPE_CONTROL, StoreDataIndex),
    CS_FIELD(F_PC_CS_STALL, PIPE_CONTROL, CommandStreamerStallEnable),
    CS_FIELD(F_PS_SELECTION, PIPELINE_SELECT, PipelineSelection),
    CS_FIELD(F_PS_MASK, PIPELINE_SELECT, MaskBits),
    CS_FIELD(F_NOOP_ID, MI_NOOP, IdentificationNumber),
    CS_FIELD(F_NOOP_ID_WRITE, MI_NOOP, IdentificationNumberRegisterWriteEnable),
};
#undef CS_FIELD

void cs_fields_init(struct cs *s)
{
    for (int f = 0; f < F_COUNT; f++) {
        const struct spec_element *e = spec_element_by_id((int)s->gen, field_members[f].id);
        s->field[f] = e ? spec_find_field_common(e, field_members[f].member) : NULL;
    }
}

/* A field of the command being executed; the part of it beyond the dwords
 * the command has (a shorter form, e.g. a one-dword MI_STORE_DATA_IMM) reads
 * as zero. */
static uint64_t fv(const struct cs *s, enum cs_field f)
{
    const struct spec_field *x = s->field[f];
    uint32_t bits = 32 * s->fetch_count;
    if (!x || x->start >= bits)
        return 0;
    return spec_bits_get(s->fetch, x->start, x->end < bits ? x->end : bits - 1);
}

static uint64_t faddr(const struct cs *s, enum cs_field f)
{
    const struct spec_field *x = s->field[f];
    uint32_t bits = 32 * s->fetch_count;
    if (!x || x->start >= bits)
        return 0;
    return spec_get_address(s->fetch, x->start, x->end < bits ? x->end : bits - 1) &
           0xFFFFFFFFFFFFull;
}

/* "Use Global GTT" from a non-privileged batch is a privilege access violation
 * for stores and loads (notes/004-000-commands.md §2.5): counted, not done. */
static bool global_allowed(struct cs *s, struct unit *u, bool global, const char *what)
{
    if (global && !cs_in_privileged(s)) {
        s->privilege_violations++;
        cs_report(s, u, "%s with Use Global GTT in a non-privileged batch: not performed", what);
        return false;
    }
    return true;
}

static void gprs_from_registers(const struct cs *s, uint64_t gpr[CS_ALU_GPRS])
{
    for (int i = 0; i < CS_ALU_GPRS; i++)
        gpr[i] = cs_reg_get_raw(&s->regs, REG_CS_GPR + 8 * i) |
                 ((uint64_t)cs_reg_get_raw(&s->regs, REG_CS_GPR + 8 * i + 4) << 32);
}

static void gprs_to_registers(struct cs *s, const uint64_t gpr[CS_ALU_GPRS])
{
    for (int i = 0; i < CS_ALU_GPRS; i++) {
        cs_reg_set_raw(&s->regs, REG_CS_GPR + 8 * i, (uint32_t)gpr[i]);
        cs_reg_set_raw(&s->regs, REG_CS_GPR + 8 * i + 4, (uint32_t)(gpr[i] >> 32));
    }
}

/* MI_MATH: DWords 1..n are ALU instructions on CS_GPR0-15 (seed 003
 * L1321-1528). With the "alu" ports linked the work goes to a separate ALU
 * unit (so an RTL ALU can take its place) and the CS waits for the reply. */
static void execute_mi_math(struct cs *s, struct unit *u, uint32_t length)
{
    uint32_t count = length - 1;
    s->mi_math_instructions += count;
    if (s->alu) {
        if (count > CS_ALU_MAX_INSTRUCTIONS) {
            cs_report(s, u, "MI_MATH with %u instructions: only %d go to the ALU", count,
                   CS_ALU_MAX_INSTRUCTIONS);
            count = CS_ALU_MAX_INSTRUCTIONS;
        }
        struct msg *m = msg_alloc(unit_sim(u), MSG_GENERIC, cs_alu_request_size(count));
        struct cs_alu_request *r = (struct cs_alu_request *)m->payload;
        gprs_from_registers(s, r->gpr);
        r->count = count;
        memcpy(r->instruction, s->fetch + 1, 4ull * count);
        s->awaiting_alu = true;
        if (!port_try_send(s->alu, m))
            cs_queue(s, s->alu, m);
        return;
    }
    gprs_from_registers(s, s->alu_regs.gpr);
    for (uint32_t i = 1; i < length; i++)
        if (cs_alu_execute(&s->alu_regs, s->fetch[i]) == CS_ALU_RESERVED)
            cs_report(s, u, "MI_MATH instruction 0x%08x is reserved: executed as NOOP", s->fetch[i]);
    gprs_to_registers(s, s->alu_regs.gpr);
}

/* The ALU unit's reply to MI_MATH: the GPRs after it. */
bool cs_take_alu_reply(struct cs *s, struct unit *u)
{
    struct msg *m = port_pop(s->alu_reply);
    if (!m)
        return false;
    if (m->size >= sizeof(struct cs_alu_response)) {
        const struct cs_alu_response *r = (const struct cs_alu_response *)m->payload;
        gprs_to_registers(s, r->gpr);
        if (r->malformed)
            cs_report(s, u, "the ALU called an MI_MATH request malformed");
    } else {
        cs_report(s, u, "ALU reply of %u bytes is too short: GPRs unchanged", m->size);
    }
    msg_free(unit_sim(u), m);
    s->awaiting_alu = false;
    return true;
}

/* MI_PREDICATE (004 L21115-21157): MItemp0 = SRC0, MItemp1 = SRC1. */
static void execute_mi_predicate(struct cs *s)
{
    uint64_t src0 = cs_reg_get_raw(&s->regs, REG_PREDICATE_SRC0) |
                    ((uint64_t)cs_reg_get_raw(&s->regs, REG_PREDICATE_SRC0 + 4) << 32);
    uint64_t src1 = cs_reg_get_raw(&s->regs, REG_PREDICATE_SRC1) |
                    ((uint64_t)cs_reg_get_raw(&s->regs, REG_PREDICATE_SRC1 + 4) << 32);
    uint64_t data = cs_reg_get_raw(&s->regs, REG_PREDICATE_DATA) |
                    ((uint64_t)cs_reg_get_raw(&s->regs, REG_PREDICATE_DATA + 4) << 32);
    bool compare = false;
    switch (fv(s, F_PRED_COMPARE)) {
    case 0: compare = true; break;                          /* TRUE */
    case 1: compare = false; break;                         /* FALSE */
    case 2:                                                 /* SRCS_EQUAL */
        data = src0 - src1;
        cs_reg_set_raw(&s->regs, REG_PREDICATE_DATA, (uint32_t)data);
        cs_reg_set_raw(&s->regs, REG_PREDICATE_DATA + 4, (uint32_t)(data >> 32));
        compare = src0 == src1;
        break;
    case 3: compare = (src0 - src1) == data; break;         /* DELTAS_EQUAL */
    }
    bool combined = compare;
    switch (fv(s, F_PRED_COMBINE)) {
    case 0: combined = compare; break;                      /* SET */
    case 1: combined = compare && s->predicate; break;      /* AND */
    case 2: combined = compare || s->predicate; break;      /* OR */
    case 3: combined = compare != s->predicate; break;      /* XOR */
    }
    switch (fv(s, F_PRED_LOAD)) {
    case 2: s->predicate = combined; break;                 /* LOAD */
    case 3: s->predicate = !combined; break;                /* LOADINV */
    default: break;                                         /* KEEP (1 reserved) */
    }
    cs_reg_set_raw(&s->regs, REG_PREDICATE_RESULT, s->predicate);
}

/* MI_SET_PREDICATE (004 L21844-21883): whether following commands are NOOPed. */
static bool set_predicate_noops(const struct cs *s)
{
    bool result = cs_reg_get_raw(&s->regs, REG_PREDICATE_RESULT) & 1;
    bool result2 = cs_reg_get_raw(&s->regs, REG_PREDICATE_RESULT_2) & 1;
    switch (s->set_predicate) {
    case 0x0: return false;
    case 0x1: return !result2;
    case 0x2: return result2;
    case 0x3: return !result;
    case 0x4: return result;
    case 0x5: return false;             /* one slice enabled: the model runs them */
    case 0xF: return true;
    default: return false;
    }
}

/* GPGPU_WALKER with Indirect Parameter Enable (DW0 bit 10): the group
 * counts come from GPGPU_DISPATCHDIMX/Y/Z (0x2500/0x2504/0x2508, loaded by
 * MI_LOAD_REGISTER_MEM: seed 003 L16947-16980), which the CS holds; the
 * packet carries them in the dimension fields, so the front end sees the
 * walker as it runs (the raw dwords stay as fetched). */
static void indirect_dims(struct cs *s, struct unit *u, struct spec_GPGPU_WALKER *v)
{
    v->ThreadGroupIDXDimension = cs_reg_read(s, u, 0x2500u);
    v->ThreadGroupIDYDimension = cs_reg_read(s, u, 0x2504u);
    v->ThreadGroupIDZDimension = cs_reg_read(s, u, 0x2508u);
}

/* Sends the command in s->fetch as a state packet (units/common/state_packet.h)
 * down the pipeline(s) the spec tables give it. */
static void send_state(struct cs *s, struct unit *u, const struct spec_element *e, uint32_t n,
                       uint64_t address, bool ppgtt)
{
    struct port *targets[2] = { (e->pipeline & SPEC_PIPELINE_3D) ? s->vf : NULL,
                                (e->pipeline & SPEC_PIPELINE_MEDIA) ? s->vfe : NULL };
    if (!targets[0] && !targets[1]) {
        s->state_dropped++;
        return;
    }
    for (int t = 0; t < 2; t++) {
        if (!targets[t])
            continue;
        size_t common_offset = cs_state_common_offset(n);
        struct msg *m = msg_alloc(unit_sim(u), MSG_STATE, (uint32_t)(common_offset + e->common_size));
        struct cs_state_packet *p = (struct cs_state_packet *)m->payload;
        memset(p, 0, sizeof *p);
        p->id = e->id;
        p->gen = s->gen;
        p->dword_count = n;
        p->address = address;
        p->ppgtt = ppgtt;
        p->common_offset = (uint32_t)common_offset;
        const struct gpu_address_space *space = s->ppgtt_valid ? &s->ppgtt : &s->ggtt;
        p->space_format = (uint32_t)space->format;
        p->space_root = space->root;
        memcpy(p->dwords, s->fetch, 4ull * n);
        void *common = (uint8_t *)p + common_offset;
        if (n >= e->length)
            e->unpack_common(p->dwords, common);
        else
            memset(common, 0, e->common_size);      /* a truncated command: all fields 0 */
        if (e->id == SPEC_ID_GPGPU_WALKER && n >= e->length && (s->fetch[0] & (1u << 10)))
            indirect_dims(s, u, common);
        s->state_packets++;
        if (!port_try_send(targets[t], m))
            cs_queue(s, targets[t], m);     /* back-pressure: parsing stops until it leaves */
    }
}

void cs_print_command(struct cs *s, const struct spec_element *e, uint32_t n, uint64_t address,
                      bool ppgtt)
{
    if (!s->print)
        return;
    fprintf(s->print, "0x%08" PRIx64 "%s:  0x%08x:  %s\n", address, ppgtt ? " (ppgtt)" : "",
            s->fetch[0], e ? e->name : "UNKNOWN");
    if (e)
        spec_print_element(s->print, e, s->fetch, n, "    ");
}

/* ---- command families ---------------------------------------------------- */

/* MI_NOOP, MI_BATCH_BUFFER_END, MI_BATCH_BUFFER_START. */
static void execute_batch_control(struct cs *s, struct unit *u, enum spec_id id, uint64_t address)
{
    switch (id) {
    case SPEC_ID_MI_NOOP:
        if (fv(s, F_NOOP_ID_WRITE))
            cs_reg_set_raw(&s->regs, REG_NOPID, (uint32_t)fv(s, F_NOOP_ID));
        return;
    case SPEC_ID_MI_BATCH_BUFFER_END:
        if (s->batch[1].active)
            s->batch[1].active = false;
        else if (s->batch[0].active)
            s->batch[0].active = false;
        else
            cs_report(s, u, "MI_BATCH_BUFFER_END in the ring at 0x%" PRIx64 ": ignored", address);
        return;
    default:
        break;
    }
    /* MI_BATCH_BUFFER_START */
    if (fv(s, F_BBS_PREDICATION) && !(cs_reg_get_raw(&s->regs, REG_PREDICATE_RESULT_1) & 1)) {
        s->predicated_off++;
        return;
    }
    bool second = fv(s, F_BBS_SECOND_LEVEL) != 0;
    if (s->batch[1].active) {
        /* "MI_BATCH_BUFFER_START command is not allowed inside a second
         * level batch buffer" (004 notes §2.4): the ring stops. */
        cs_hang(s, u, address, "MI_BATCH_BUFFER_START inside a second-level batch");
        return;
    }
    if (second && !s->batch[0].active) {
        cs_hang(s, u, address, "second-level MI_BATCH_BUFFER_START from the ring");
        return;
    }
    bool use_ppgtt = s->field[F_BBS_SPACE] ? fv(s, F_BBS_SPACE) == 1 : false;
    cs_begin_batch(s, u, faddr(s, F_BBS_ADDRESS), use_ppgtt, second);
    if (s->field[F_BBS_SECURITY] && fv(s, F_BBS_SECURITY))
        cs_current_batch(s)->privileged = false;   /* Gen4: non-secure batch */
}

/* MI_LOAD_REGISTER_IMM/MEM/REG and MI_STORE_REGISTER_MEM. */
static void execute_register_command(struct cs *s, struct unit *u, enum spec_id id, uint32_t n)
{
    switch (id) {
    case SPEC_ID_MI_LOAD_REGISTER_IMM: {
        if (fv(s, F_LRI_BYTE_DISABLES) == 0xF)
            return;     /* "Byte Write Disables = 1111b will behave as a NOOP" */
        uint32_t disables = (uint32_t)fv(s, F_LRI_BYTE_DISABLES);
        for (uint32_t i = 1; i + 1 < n; i += 2) {
            uint32_t offset = s->fetch[i] & 0x7FFFFC;
            uint32_t value = s->fetch[i + 1];
            if (disables) {
                uint32_t keep = 0;
                for (int byte = 0; byte < 4; byte++)
                    if (disables & (1u << byte))
                        keep |= 0xFFu << (8 * byte);
                value = (cs_reg_get_raw(&s->regs, offset) & keep) | (value & ~keep);
            }
            cs_reg_write(s, u, offset, value);
        }
        return;
    }
    case SPEC_ID_MI_LOAD_REGISTER_MEM: {
        bool global = fv(s, F_LRM_GLOBAL);
        if (!global_allowed(s, u, global, "MI_LOAD_REGISTER_MEM"))
            return;
        uint32_t value;
        uint64_t a = faddr(s, F_LRM_ADDRESS);
        if (!cs_mem_read(s, cs_space_for(s, global), a, &value, 4)) {
            cs_report(s, u, "MI_LOAD_REGISTER_MEM from 0x%" PRIx64 " faulted: register unchanged", a);
            return;
        }
        cs_reg_write(s, u, (uint32_t)faddr(s, F_LRM_REGISTER), value);
        return;
    }
    case SPEC_ID_MI_LOAD_REGISTER_REG:
        cs_reg_write(s, u, (uint32_t)faddr(s, F_LRR_DESTINATION),
                     cs_reg_read(s, u, (uint32_t)faddr(s, F_LRR_SOURCE)));
        return;
    default: {
        /* MI_STORE_REGISTER_MEM */
        if (fv(s, F_SRM_PREDICATE) && !s->predicate) {
            s->predicated_off++;
            return;
        }
        bool global = fv(s, F_SRM_GLOBAL);
        if (!global_allowed(s, u, global, "MI_STORE_REGISTER_MEM"))
            return;
        uint32_t value = cs_reg_read(s, u, (uint32_t)faddr(s, F_SRM_REGISTER));
        cs_mem_write(s, u, cs_space_for(s, global), faddr(s, F_SRM_ADDRESS), &value, 4);
        return;
    }
    }
}

/* MI_STORE_DATA_IMM and MI_STORE_DATA_INDEX. */
static void execute_store_data(struct cs *s, struct unit *u, enum spec_id id, uint32_t n)
{
    if (id == SPEC_ID_MI_STORE_DATA_IMM) {
        bool global = fv(s, F_SDI_GLOBAL);
        if (!global_allowed(s, u, global, "MI_STORE_DATA_IMM"))
            return;
        /* DWord Length 2 stores one dword, 3 a qword (Gen8 also "Store Qword"). */
        uint64_t data = fv(s, F_SDI_DATA);
        bool qword = fv(s, F_SDI_QWORD) || n >= 5;
        cs_mem_write(s, u, cs_space_for(s, global), faddr(s, F_SDI_ADDRESS), &data, qword ? 8 : 4);
        return;
    }
    /* MI_STORE_DATA_INDEX: offset into the hardware status page (HWS_PGA,
     * GGTT), or the per-process one (the LRCA's page) when asked. */
    uint64_t base = cs_reg_get_raw(&s->regs, REG_HWS_PGA) & 0xFFFFF000u;
    if (fv(s, F_SDX_PPHWSP))
        base = ((uint64_t)s->elsp[3]) & 0xFFFFF000u;
    uint64_t a = base + (fv(s, F_SDX_OFFSET) << 2);
    uint32_t data[2] = { (uint32_t)fv(s, F_SDX_DATA0), (uint32_t)fv(s, F_SDX_DATA1) };
    cs_mem_write(s, u, &s->ggtt, a, data, n >= 4 ? 8 : 4);
}

/* MI_CONDITIONAL_BATCH_BUFFER_END (004 L19772-19813). */
static void execute_conditional_end(struct cs *s, struct unit *u)
{
    if (!fv(s, F_CBBE_SEMAPHORE))
        return;     /* "If clear, the parser will continue to the next command" */
    bool global = fv(s, F_CBBE_GLOBAL);
    uint32_t words[2] = { 0, 0xFFFFFFFFu };
    uint64_t a = faddr(s, F_CBBE_ADDRESS);
    if (!cs_mem_read(s, cs_space_for(s, global), a, words, fv(s, F_CBBE_MASK_MODE) ? 8 : 4)) {
        cs_report(s, u, "MI_CONDITIONAL_BATCH_BUFFER_END compare address 0x%" PRIx64
                  " faulted: batch continues", a);
        return;
    }
    uint32_t value = words[0] & (fv(s, F_CBBE_MASK_MODE) ? words[1] : 0xFFFFFFFFu);
    if (value > (uint32_t)fv(s, F_CBBE_DATA))
        return;     /* greater: continue (004 L19772-19813) */
    /* end the batch; ending a second level ends its parent too */
    s->batch[0].active = s->batch[1].active = false;
}

/* PIPE_CONTROL: the post-sync write, its packet down the pipelines, and a CS
 * Stall's wait for the GPGPU front end. */
static void execute_pipe_control(struct cs *s, struct unit *u, const struct spec_element *e,
                                 uint32_t n, uint64_t address, bool ppgtt)
{
    /* Post-sync (004 notes §3: 15:14 0 none, 1 immediate qword, 2 PS depth
     * count, 3 timestamp). "If executed in non-secure batch buffer, the
     * address given will be in a PPGTT address space" (§2.5). */
    uint64_t op = fv(s, F_PC_POST_SYNC);
    if (op) {
        bool global = cs_in_privileged(s) && (s->field[F_PC_DEST_TYPE] ? fv(s, F_PC_DEST_TYPE)
                                                                         : true);
        uint64_t value = op == 1 ? fv(s, F_PC_IMMEDIATE) : op == 3 ? cs_timestamp_now(s, u) : 0;
        if (op == 2)
            s->not_modelled++;      /* no depth test behind yet: count 0 */
        uint64_t a = faddr(s, F_PC_ADDRESS);
        if (fv(s, F_PC_STORE_INDEX))
            a = (cs_reg_get_raw(&s->regs, REG_HWS_PGA) & 0xFFFFF000u) + (a & 0xFFF);
        if (cs_mem_write(s, u, cs_space_for(s, global), a, &value, 8))
            s->post_sync_writes++;
    }
    send_state(s, u, e, n, address, ppgtt);     /* ordering token down the 3D pipe */
    if (fv(s, F_PC_CS_STALL) && s->vfe && s->vfe_drained) {
        /* CS Stall: parsing waits until the GPGPU work before it has
         * drained (the host sync's handshake with the front end; the
         * 3D pipe behind has no threads in flight to wait for). */
        struct msg *d = msg_alloc(unit_sim(u), MSG_MMIO, sizeof(struct cs_mmio));
        ((struct cs_mmio *)d->payload)->op = CS_MMIO_SYNC;
        if (s->pending_count || !port_try_send(s->vfe, d))
            cs_queue(s, s->vfe, d);
        s->awaiting_drain = true;
        s->drain_for_host = false;
        s->cs_stalls++;
    }
    if (fv(s, F_PC_CS_STALL) && s->vf && s->pipe_drained) {
        /* ... and the 3D pipeline's work before it: the in-band sync
         * (units/common/mmio.h) comes back with the pipeline's registers */
        cs_send_pipe_sync(s, u);
        s->drain_for_host = false;
    }
}

/* A command the CS does not execute: an MI command it does not model is a
 * no-op; anything else goes down its pipeline as a state packet. */
static void pass_on(struct cs *s, struct unit *u, const struct spec_element *e, uint32_t n,
                    uint64_t address, bool ppgtt)
{
    uint32_t header = s->fetch[0];
    if ((header >> 29) == 0) {
        s->not_modelled++;
        cs_report(s, u, "%s at 0x%" PRIx64 " is not modelled: executed as MI_NOOP", e->name, address);
        return;
    }
    /* 3DPRIMITIVE and GPGPU_WALKER: DW0 bit 8 "Predicate Enable" (004 notes §2.6). */
    if ((e->id == SPEC_ID_3DPRIMITIVE || e->id == SPEC_ID_GPGPU_WALKER) &&
        (header & (1u << 8)) && !s->predicate) {
        s->predicated_off++;
        return;
    }
    send_state(s, u, e, n, address, ppgtt);
}

void cs_execute(struct cs *s, struct unit *u, const struct spec_element *e, uint32_t n,
                uint64_t address, bool ppgtt)
{
    enum spec_id id = (enum spec_id)e->id;
    if (s->set_predicate && id != SPEC_ID_MI_SET_PREDICATE && set_predicate_noops(s)) {
        s->predicated_off++;
        return;
    }
    switch (id) {
    case SPEC_ID_MI_NOOP:
    case SPEC_ID_MI_BATCH_BUFFER_END:
    case SPEC_ID_MI_BATCH_BUFFER_START:
        execute_batch_control(s, u, id, address);
        return;
    case SPEC_ID_MI_LOAD_REGISTER_IMM:
    case SPEC_ID_MI_LOAD_REGISTER_MEM:
    case SPEC_ID_MI_LOAD_REGISTER_REG:
    case SPEC_ID_MI_STORE_REGISTER_MEM:
        execute_register_command(s, u, id, n);
        return;
    case SPEC_ID_MI_STORE_DATA_IMM:
    case SPEC_ID_MI_STORE_DATA_INDEX:
        execute_store_data(s, u, id, n);
        return;
    case SPEC_ID_MI_MATH:
        execute_mi_math(s, u, n);
        return;
    case SPEC_ID_MI_PREDICATE:
        execute_mi_predicate(s);
        return;
    case SPEC_ID_MI_SET_PREDICATE:
        s->set_predicate = (uint32_t)fv(s, F_SETPRED_ENABLE);
        return;
    case SPEC_ID_MI_CONDITIONAL_BATCH_BUFFER_END:
        execute_conditional_end(s, u);
        return;
    case SPEC_ID_MI_FLUSH:
    case SPEC_ID_MI_ARB_CHECK:
        return;         /* caches are not modelled; no arbitration between contexts */
    case SPEC_ID_MI_ARB_ON_OFF:
        if (!cs_in_privileged(s))
            s->privilege_violations++;  /* "converted to a no-op" (004 L19152) */
        return;
    case SPEC_ID_MI_USER_INTERRUPT:
        s->user_interrupts++;
        return;
    case SPEC_ID_PIPE_CONTROL:
        execute_pipe_control(s, u, e, n, address, ppgtt);
        return;
    case SPEC_ID_PIPELINE_SELECT: {
        uint32_t selection = (uint32_t)fv(s, F_PS_SELECTION);
        if (s->field[F_PS_MASK]) {
            uint32_t mask = (uint32_t)fv(s, F_PS_MASK) & 3;
            selection = (s->pipeline & ~mask) | (selection & mask);
        }
        s->pipeline = selection;
        send_state(s, u, e, n, address, ppgtt);
        return;
    }
    case SPEC_ID_STATE_BASE_ADDRESS:
        send_state(s, u, e, n, address, ppgtt);
        return;
    default:
        pass_on(s, u, e, n, address, ppgtt);
        return;
    }
}
