/* units/common/thread_msg.h - the payloads of the messages the EU, the thread
 * dispatcher and the shared functions exchange (DESIGN.md "Ports, messages and
 * time": thread dispatch requests and payloads, SEND messages, write-backs).
 *
 *  MSG_THREAD_DISPATCH, op EU_TD_DISPATCH: struct eu_dispatch followed by
 *      grf_count registers of 32 bytes. A stage sends it to the TD ("a
 *      dispatch request"); the TD forwards it unchanged to the EU it picks.
 *  MSG_THREAD_DISPATCH, op EU_TD_THREAD_END: struct eu_thread_end, EU -> TD,
 *      when a thread's slot is free again (after EOT and its last write-back,
 *      or after the EU ended it for bad programming).
 *  MSG_SEND: struct eu_send_msg followed by mlen + ex_mlen registers, EU ->
 *      the shared function chosen by SFID (003 L24296-24416).
 *  MSG_WRITEBACK: struct eu_writeback_msg followed by rlen registers, shared
 *      function -> EU; slot and dst_reg are copied from the SEND. A
 *      write-back with rlen 0 to a thread waiting at a gateway barrier
 *      (SFID 3, BarrierMsg) is the barrier's notification (n0, 003 L9087-9140).
 * All multi-byte fields are host-endian; register images are the GRF bytes.
 */
#ifndef GTSIM_UNITS_COMMON_THREAD_MSG_H
#define GTSIM_UNITS_COMMON_THREAD_MSG_H

#include <stdint.h>

#define EU_MSG_REG_BYTES 32

/* The per-thread context a shared function needs and the hardware keeps
 * beside the thread (the binding table pointer, the state bases of the
 * submitting context, its address space, the thread group's SLM and barrier).
 * The stage that dispatches a thread fills it (units/vfe for GPGPU threads);
 * the EU copies it unchanged into every SEND of the thread. valid = 0: no
 * context (the shared function treats surface accesses as to a null surface). */
struct eu_thread_context {
    uint64_t space_root;            /* PPGTT PML4 (physical) when space_format is the PPGTT */
    uint8_t space_format;           /* enum gpu_address_space_format of the context */
    uint8_t valid;
    uint8_t gen;                    /* 7, 8 or 9: the layouts of state in memory */
    uint8_t barrier_id;             /* the group's barrier on its subslice (R0.2[27:24]) */
    uint32_t binding_table;         /* offset of the binding table from surface_state_base */
    uint64_t surface_state_base;    /* STATE_BASE_ADDRESS */
    uint64_t general_state_base;    /* A32 stateless base */
    uint64_t dynamic_state_base;
    uint32_t general_state_size;    /* bytes of A32 stateless space; 0 = unchecked */
    uint32_t binding_table_entries; /* from the interface descriptor; 0 = unknown */
    uint32_t slm_base, slm_size;    /* the group's SLM in its subslice, bytes; size 0 = none */
    uint32_t group;                 /* thread group number (the dispatcher's) */
    uint16_t barrier_threads;       /* threads the group's barrier waits for; 0 = no barrier */
    uint16_t scratch_slot;          /* the dispatcher's per-thread scratch index */
    /* The render cache's view of a pixel shader thread's subspans (the
     * hardware's pixel scoreboard entry, which a headerless render target
     * write relies on: "as if ... the same value that was delivered in R0 and
     * R1 on the pixel shader thread dispatch", seed 003 L8063-8075). The PS
     * dispatcher (WM) fills it; other stages leave it zero. subspans: how many
     * of the dispatch's 2x2 subspans are in use (0-8; slot 4k+i is subspan k,
     * pixel i in UL, UR, LL, LR order, 003 L7688-7735); pixel_x[k]/pixel_y[k]:
     * screen position of subspan k's upper-left pixel (the payload's R1.2-R1.5
     * and R2.2-R2.5 X/Y, U16); pixel_mask: bit 4k+i set when that pixel is lit
     * (the payload's R1.7[31:16] / R2.7[31:16] Pixel/Sample Mask, subspans
     * 0-3 in bits 15:0, 4-7 in bits 31:16; at 1x, one bit a pixel). */
    uint8_t subspans;
    uint16_t pixel_x[8], pixel_y[8];
    uint32_t pixel_mask;
    /* Multisampling (seed 003 L15582-15690, L16076-16096): with
     * sample_masks_valid set, sample_mask[4k+i] is the coverage of pixel i of
     * subspan k, bit s = sample s covered (up to 16x), which the render
     * cache ANDs into the pixel's write coverage; 0 = not given (every sample
     * of a lit pixel, as at 1x). */
    uint8_t sample_masks_valid;
    uint16_t sample_mask[32];
    /* Sampler State Pointer of the thread's stage (3DSTATE_SAMPLER_STATE_POINTERS_xx,
     * or the interface descriptor's), bytes from dynamic_state_base: the sampler
     * uses it for messages without a header (003 L3476-3480: "from the command
     * stream"; a header's M0.3[31:5] overrides it). 0 when the stage has none. */
    uint32_t sampler_state;
    /* A PS thread's primitive, as the pixel back end (late depth/stencil) and
     * the pixel interpolator (SFID 14) need it. The hardware keeps the
     * primitive's setup beside the thread in the windower and the PI takes
     * the planes from there (seed 003 L8214-8418 leaves the path open); the
     * model carries the few values with the thread instead. WM fills it for
     * PS threads; other stages leave it zero.
     *  draw: the 3DPRIMITIVE the thread's pixels came from, numbered from 1
     *      (setup_primitive.draw + 1; 0 = unknown); the pixel back end numbers
     *      its draws by it (images.json), draws.csv uses the same numbers;
     *  pixel_flags: enum eu_pixel_flags;
     *  viewport_index / rt_array_index: the primitive's (R0.0), for the CC
     *      viewport's depth clamp and the depth buffer's slice;
     *  setup: the screen-linear planes (value = a0 + a1 dx + a2 dy with
     *      dx = x + offset - x0, dy = y + offset - y0; offset 0.5 for pixel
     *      centres, 0 for UL_CORNER) of depth and of the barycentric weights
     *      of vertices 1 and 2, and the vertices' 1/w (primitive.h). */
    uint32_t draw;
    uint8_t pixel_flags;
    uint8_t viewport_index;
    uint16_t rt_array_index;
    struct eu_pixel_setup {
        float x0, y0, offset;
        float depth[3];                 /* a0, a1, a2 */
        float barycentric[2][3];        /* b1, b2: a0, a1, a2 */
        float vertex_inverse_w[3];
    } setup;
    /* The sample positions the thread's pixels were rasterized with, for
     * the pixel interpolator's sample-position and centroid messages:
     * sample_count samples (1-16; 0 = not given: 1x at the pixel centre),
     * sample_position[s] = X << 4 | Y in U0.4 pixels from the pixel's
     * upper-left corner (3DSTATE_SAMPLE_PATTERN's encoding). WM fills it. */
    uint8_t sample_count;
    uint8_t sample_position[16];
    /* Antialiased lines (seed 003 L14978-14992, L15498-15527): with
     * aa_alpha_valid set, aa_alpha[4k+i] is the coverage ("Antialias Alpha")
     * of pixel i of subspan k, U0.8 (255 = 1.0), which the render cache
     * multiplies into Src0.alpha before alpha to coverage and alpha to one
     * (L16448). The seed passes the value "through the Windower Thread
     * Dispatch payload" for the shader to hand on unmodified (L14992), but
     * neither its Gen9 payload (L15701-16384) nor the RT write payload
     * (L7856-7950) has a place for it: the model carries it with the thread,
     * as it does the masks. WM fills it for AA line dispatches. */
    uint8_t aa_alpha_valid;
    uint8_t aa_alpha[32];
    /* Per-sample dispatch (EU_PIXEL_PER_SAMPLE; seed 003 L16046-16096): the
     * dispatch's Starting Sample Pair Index, as in the payload's R0.0[7:6]
     * (L16149; 16x needs 0-7: bit 8, "reserved for expansion of" it, L16148,
     * carries the third bit). Slot group g (slots 4g..4g+3) holds sample
     * (2 SSPI + g) mod N of subspan (2 SSPI + g) / N, N the sample count
     * (the seed's table, L16076-16096; also L7700-7725); the render cache
     * takes it from the RT write's header, or from here for a headerless
     * write (L7702: "from the message header"). WM fills it. */
    uint8_t starting_sample_pair;
};

/* eu_thread_context.pixel_flags */
enum eu_pixel_flags {
    /* WM did not test the thread's pixels early (the PS kills pixels,
     * computes depth, writes oMask, or Early Depth/Stencil Control is
     * PSEXEC, seed 003 L15709-15775, L15298-15317): the pixel back end runs
     * the depth/stencil test and update when the thread writes its pixels
     * (after alpha test and oMask, L16420-16431) and reports the passes in
     * the thread end (struct eu_thread_end.pixels_depth_passed) */
    EU_PIXEL_LATE_DEPTH_STENCIL = 1u << 0,
    EU_PIXEL_BACK_FACING = 1u << 1,     /* the primitive is back-facing (two-sided stencil) */
    EU_PIXEL_PER_SAMPLE = 1u << 2,      /* MSDISPMODE_PERSAMPLE: slots are samples (starting_sample_pair) */
};

/* The Fixed Function Identifier a stage puts in its dispatches (sr0.0[27:24],
 * 003 L11158-11160; "forwarded on the message bus for all out-going messages
 * from this thread", L19942). The shared function that takes a thread's EOT
 * tells the owning stage by it ("EOT returns to owning FF via FFID/FFTID",
 * notes/003-skl-pipeline.md §10): the URB unit sends a struct eu_thread_end
 * (request_id = ctx.group, where a 3D stage puts its own request number) on
 * its port "eot_<stage>" (eot_vs, eot_hs, eot_ds, eot_gs) once the EOT
 * write reached its GO point. The numbers themselves are a gap in the seeds: these are the model's (GPGPU's 7
 * is what units/vfe has always used). */
enum ff_id {
    FFID_NONE = 0,
    FFID_VS = 1,
    FFID_HS = 2,
    FFID_DS = 3,
    FFID_GS = 4,
    FFID_CLIP = 5,
    FFID_SF = 6,
    FFID_GPGPU = 7,
    FFID_PS = 8,
    FFID_COUNT
};

enum eu_td_op {
    EU_TD_DISPATCH = 1,
    EU_TD_THREAD_END = 2,
    /* The Gen4 URB (units/urb_fence) -> a GS or CLIP stage on its "eot_<stage>"
     * port: a thread's URB_WRITE with Complete and Used set handed the entry
     * urb_handle to the stage (seed 001 L2636-2640, the FF unit "snooping"
     * the thread's URB messages); struct eu_thread_end with request_id =
     * ctx.group, eot_header_dword2 = M0.2 of that write (its PrimType and
     * PrimStart/PrimEnd, units/urb_fence/urb_fence.h). The thread goes on. */
    EU_TD_URB_OUTPUT = 3,
};

struct eu_dispatch {
    uint32_t op;                /* EU_TD_DISPATCH */
    uint32_t request_id;        /* the requester's; echoed in the thread end */
    uint64_t inst_base;         /* Instruction Base Address (GPU virtual) */
    uint64_t space_root;        /* PPGTT PML4 (physical) when space_format is the PPGTT */
    uint32_t kernel_offset;     /* kernel start pointer, relative to inst_base */
    uint8_t space_format;       /* enum gpu_address_space_format for instruction fetch */
    uint8_t gen;                /* 7, 8 or 9 */
    uint8_t simd;               /* dispatch width 8, 16 or 32 */
    uint8_t priority;           /* larger = more urgent (TD arbitration) */
    uint32_t dmask;             /* dispatch mask (sr0.2) */
    uint16_t grf_start;         /* first GRF the payload fills (normally 0) */
    uint16_t grf_count;         /* payload registers that follow */
    uint32_t ffid;              /* requesting fixed function (sr0.0[27:24]) */
    /* The thread's "transparent header" from the stage's state (seed 003
     * L11090-11130): cr0.0 (FP mode bit 0, rounding mode 5:4) and cr0.1
     * (Illegal Opcode Exception Enable bit 12, Software Exception Enable
     * bit 13) as the EU loads them; 0 = the reset values. */
    uint32_t cr0_0, cr0_1;
    /* The System Routine (STATE_SIP, seed 003 L22196: relative to General
     * State Base Address), as a GPU virtual address; sip_valid = 0: none was
     * programmed, and exceptions end the thread. */
    uint64_t sip;
    uint8_t sip_valid;
    uint16_t eu;                /* set by the TD: which EU got it */
    uint16_t slot;              /* set by the EU: which thread slot */
    struct eu_thread_context ctx;       /* carried with the thread's SENDs */
    uint8_t grf[][EU_MSG_REG_BYTES];
};

enum eu_thread_status {
    EU_THREAD_OK = 0,           /* ended by EOT */
    EU_THREAD_ILLEGAL = 1,      /* illegal instruction (counted) */
    EU_THREAD_FETCH_FAULT = 2,  /* instruction fetch faulted */
    EU_THREAD_RUNAWAY = 3,      /* exceeded max_thread_instructions */
    EU_THREAD_BAD_DISPATCH = 4, /* malformed dispatch, never started */
};

struct eu_thread_end {
    uint32_t op;                /* EU_TD_THREAD_END */
    uint32_t request_id;
    uint16_t slot;
    uint16_t status;            /* enum eu_thread_status */
    uint32_t ffid;
    uint64_t instructions;
    /* Meaningful only in the pixel back end's PS thread ends to WM:
     * the pixels (samples) the thread's render target writes put in memory,
     * and, for a thread tested late (EU_PIXEL_LATE_DEPTH_STENCIL), the pixels
     * that passed depth and stencil (WM adds them to PS_DEPTH_COUNT and both
     * to its per-draw record). */
    uint32_t pixels_written;
    uint32_t pixels_depth_passed;
    /* Meaningful only in the URB's notices: DWord 2 of the EOT write's
     * message header (0 without a header). A Gen7 GS thread puts its output
     * vertex counts there (bits 15:0 slot 0, 31:16 slot 1; Mesa's vec4 GS
     * generator, generate_gs_set_vertex_count: public fact, the seeds have
     * no Gen7 GS page), where Gen8+ writes them into the URB entry. */
    uint32_t eot_header_dword2;
    /* Meaningful only in EU_TD_URB_OUTPUT notices: the completed entry. */
    uint32_t urb_handle;
    /* Meaningful only in the thread-end notices a shared function sends the
     * owning stage (the URB's, the pixel back end's): the thread_life_ps of
     * the EOT SEND they answer (struct eu_send_msg), so the stage counts the
     * thread's life on the EU, not its wait for a slot. 0 in the EU's own
     * ends to the TD. */
    uint64_t thread_life_ps;
};

enum eu_send_flags {
    EU_SEND_EOT = 1,
    EU_SEND_HEADER = 2,
    EU_SEND_SENDC = 4,
    EU_SEND_DST_NULL = 8,
    EU_SEND_SPLIT = 16,
    /* With EU_SEND_EOT: the EU ended the thread for bad programming (illegal
     * instruction, instruction fetch fault, instruction limit) before its own
     * EOT; the message carries no data and the receiver only does the thread
     * end's bookkeeping (units/eu/eu_schedule.c end_thread). */
    EU_SEND_THREAD_KILLED = 32,
};

struct eu_send_msg {
    uint8_t sfid;
    uint8_t mlen;               /* registers of the first part */
    uint8_t ex_mlen;            /* sends: registers of the second part */
    uint8_t rlen;               /* registers the reply must carry */
    uint8_t slot;               /* sending thread slot */
    uint8_t dst_reg;            /* first write-back GRF */
    uint8_t exec_size;
    uint8_t flags;              /* enum eu_send_flags */
    uint32_t desc, ex_desc;
    uint32_t exec_mask;         /* enabled channels */
    uint32_t ffid;
    uint32_t reserved;
    /* In an EOT SEND (EU_SEND_EOT, the EU's killed-thread EOT too): the
     * thread's life on the EU in picoseconds, from the cycle the EU took its
     * dispatch into a slot to the cycle this message left the EU. Model
     * bookkeeping, not a hardware field: the stages' thread_cycles and the
     * per-draw and per-walker occupancy (tools/dispatch_stats.h) sum it, so
     * the time a request waits in the TD for a free slot is not thread life
     * (issue 14). A slot held after the EOT left, for write-backs still owed,
     * is not in it (the EU's own thread_cycles has it). 0 in other SENDs. */
    uint64_t thread_life_ps;
    struct eu_thread_context ctx;       /* the sending thread's (from its dispatch) */
    uint8_t regs[][EU_MSG_REG_BYTES];
};

/* A thread life in picoseconds in cycles of a clock of period_ps, to the
 * nearest (exact when the EU and the counting stage share a clock). */
static inline uint64_t thread_life_cycles(uint64_t life_ps, uint64_t period_ps)
{
    return period_ps ? (life_ps + period_ps / 2) / period_ps : 0;
}

struct eu_writeback_msg {
    uint8_t slot;
    uint8_t dst_reg;
    uint8_t rlen;
    uint8_t reserved;
    uint32_t reserved2;
    uint8_t regs[][EU_MSG_REG_BYTES];
};

#endif
