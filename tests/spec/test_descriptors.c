/* tests/spec/test_descriptors.c - the generated message-descriptor accessors
 * (build/gen/msg_desc.h) against descriptors packed here by hand from the bit positions
 * the sources give, for every shared function and generation; the constants against
 * the encodings the sources list; the generic reader and message names; and every
 * value name unique per enumeration and generation.
 * Sources: "003 Lnnnn" = shared/seeds/003_59eaf1066a666480.txt (Skylake PRM vol 7);
 * "Mesa" = Mesa 22.3.6 brw_inst.h / brw_eu_defines.h (the Gen4/Gen7 layouts and the
 * fields the seed has names only for); "IGA" = IGC's MessageDecoderOther.cpp. */
#include <string.h>

#include "msg_desc.h"
#include "tests/test.h"

/* v placed in bits hi:lo (v must fit). */
static uint32_t put(uint32_t v, unsigned hi, unsigned lo)
{
    uint32_t width_mask = hi - lo == 31 ? 0xffffffffu : (1u << (hi - lo + 1)) - 1;
    CU_ASSERT_EQUAL_FATAL(v & ~width_mask, 0);
    return v << lo;
}

/* Generic fields, 003 L24367-24376 (gen9: MLEN 28:25, RLEN 24:20, header 19, function
 * control 18:0, data format 30) and Mesa (gen4: EOT 31, target 27:24, MLEN 23:20, RLEN
 * 19:16, function control 15:0); extended descriptor 003 L24378-24386. */
static void test_generic_fields(void)
{
    uint32_t d9 = put(1, 30, 30) | put(11, 28, 25) | put(17, 24, 20) | put(1, 19, 19) |
                  put(0x5a5a5, 18, 0);
    CU_ASSERT_EQUAL(desc_msg_data_format(d9), 1);
    CU_ASSERT_EQUAL(desc_msg_mlen_gen5(d9), 11);
    CU_ASSERT_EQUAL(desc_msg_rlen_gen5(d9), 17);
    CU_ASSERT_EQUAL(desc_msg_header_present(d9), 1);
    CU_ASSERT_EQUAL(desc_msg_function_control_gen5(d9), 0x5a5a5);
    CU_ASSERT_EQUAL(desc_msg_header_present(d9 & ~(1u << 19)), 0);
    uint32_t d4 = put(1, 31, 31) | put(5, 27, 24) | put(9, 23, 20) | put(3, 19, 16) |
                  put(0xbeef, 15, 0);
    CU_ASSERT_EQUAL(desc_msg_eot(d4), 1);
    CU_ASSERT_EQUAL(desc_msg_msg_target(d4), 5);
    CU_ASSERT_EQUAL(desc_msg_mlen_gen4(d4), 9);
    CU_ASSERT_EQUAL(desc_msg_rlen_gen4(d4), 3);
    CU_ASSERT_EQUAL(desc_msg_function_control_gen4(d4), 0xbeef);
    uint32_t ex = put(0x1234, 31, 16) | put(1, 5, 5) | put(12, 3, 0) | put(3, 9, 6);
    CU_ASSERT_EQUAL(desc_exdesc_sfid(ex), 12);
    CU_ASSERT_EQUAL(desc_exdesc_eot(ex), 1);
    CU_ASSERT_EQUAL(desc_exdesc_ex_function_control(ex), 0x1234);
    CU_ASSERT_EQUAL(ex & ~(DESC_EXDESC_SFID_MASK | DESC_EXDESC_EOT_MASK), 0x123400c0u);
    /* sends: ExDesc[9:6] is the second payload's length (003 L22844; Mesa brw_message_ex_desc) */
    CU_ASSERT_EQUAL(desc_exdesc_ex_mlen(ex), 3);
    CU_ASSERT_EQUAL(desc_exdesc_ex_mlen(ex & ~put(15, 9, 6)), 0);
    /* send: ex_desc 31:16 in four 4-bit pieces (003 L22844) */
    CU_ASSERT_EQUAL(desc_exdesc_piece_31_28(ex), 0x1);
    CU_ASSERT_EQUAL(desc_exdesc_piece_27_24(ex), 0x2);
    CU_ASSERT_EQUAL(desc_exdesc_piece_23_20(ex), 0x3);
    CU_ASSERT_EQUAL(desc_exdesc_piece_19_16(ex), 0x4);
    CU_ASSERT_EQUAL(desc_exdesc_piece_31_28_encode(0xa) | desc_exdesc_piece_27_24_encode(0xb) |
                    desc_exdesc_piece_23_20_encode(0xc) | desc_exdesc_piece_19_16_encode(0xd),
                    put(0xabcd, 31, 16));
}

/* The encoders place a value in the field's bits and drop what does not fit. */
static void test_encoders(void)
{
    CU_ASSERT_EQUAL(desc_exdesc_ex_function_control_encode(0x1234) |
                    desc_exdesc_ex_mlen_encode(3) | desc_exdesc_eot_encode(1) |
                    desc_exdesc_sfid_encode(12),
                    put(0x1234, 31, 16) | put(3, 9, 6) | put(1, 5, 5) | put(12, 3, 0));
    CU_ASSERT_EQUAL(desc_exdesc_eot_encode(0), 0);
    CU_ASSERT_EQUAL(desc_exdesc_ex_mlen_encode(0x13), put(3, 9, 6));     /* 4 bits */
    CU_ASSERT_EQUAL(desc_msg_mlen_gen5_encode(11) | desc_msg_rlen_gen5_encode(17) |
                    desc_msg_header_present_encode(1) | desc_msg_function_control_gen5_encode(0x5a5a5),
                    put(11, 28, 25) | put(17, 24, 20) | put(1, 19, 19) | put(0x5a5a5, 18, 0));
    CU_ASSERT_EQUAL(desc_msg_mlen_gen4_encode(9) | desc_msg_rlen_gen4_encode(3),
                    put(9, 23, 20) | put(3, 19, 16));
    CU_ASSERT_EQUAL(desc_gw_subfunction_encode(DESC_GW_BARRIER_MSG), put(4, 2, 0));
    /* the masks are the fields' bits: a0.0's descriptor fields are bits 28:0 (003 L24367-24376) */
    CU_ASSERT_EQUAL(DESC_MSG_MLEN_GEN5_MASK | DESC_MSG_RLEN_GEN5_MASK | DESC_MSG_HEADER_PRESENT_MASK |
                    DESC_MSG_FUNCTION_CONTROL_GEN5_MASK, 0x1fffffffu);
    uint32_t x = 0x2545f491u;
    for (int i = 0; i < 1000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        CU_ASSERT_EQUAL(desc_exdesc_ex_mlen_encode(desc_exdesc_ex_mlen(x)), x & put(15, 9, 6));
        CU_ASSERT_EQUAL(desc_dc_msg_type_encode(desc_dc_msg_type(x)), x & DESC_DC_MSG_TYPE_MASK);
        CU_ASSERT_EQUAL(desc_msg_rlen_gen5(desc_msg_rlen_gen5_encode(x)), x & 31);
    }
}

/* Gen4 math message (Mesa): function 3:0, signed 4, precision 5, saturate 6, scalar 7;
 * function codes 003 L24074-24090 (the same numbers as the gen6+ math opcode). */
static void test_math(void)
{
    uint32_t d = put(DESC_MATH_POW, 3, 0) | put(1, 4, 4) | put(0, 5, 5) | put(1, 6, 6) |
                 put(1, 7, 7);
    CU_ASSERT_EQUAL(desc_math_function(d), 10);
    CU_ASSERT_EQUAL(desc_math_signed_int(d), 1);
    CU_ASSERT_EQUAL(desc_math_precision(d), 0);
    CU_ASSERT_EQUAL(desc_math_saturate(d), 1);
    CU_ASSERT_EQUAL(desc_math_data_type(d), 1);
    CU_ASSERT_EQUAL(desc_math_precision(put(1, 5, 5)), 1);
    CU_ASSERT_EQUAL(DESC_MATH_INV, 1);
    CU_ASSERT_EQUAL(DESC_MATH_SQRT, 4);
    CU_ASSERT_EQUAL(DESC_MATH_COS, 7);
    CU_ASSERT_EQUAL(DESC_MATH_FDIV, 9);
    CU_ASSERT_EQUAL(DESC_MATH_INTDIV, 12);
    CU_ASSERT_EQUAL(DESC_MATH_INTMOD, 13);
    CU_ASSERT_EQUAL(DESC_MATH_INVM, 14);
    CU_ASSERT_EQUAL(DESC_MATH_RSQRTM, 15);
}

/* Sampler: gen7-9 BTI 7:0, sampler index 11:8, message type 16:12, SIMD mode 18:17,
 * gen8/9 return format 30 (notes/003 §3.2, Mesa); gen4 BTI 7:0, sampler 11:8, return
 * format 13:12, message type 15:14 (Mesa). Types: 003 notes §3.5 (L10152-10255). */
static void test_sampler(void)
{
    uint32_t d = put(0xc3, 7, 0) | put(0xa, 11, 8) | put(DESC_SAMPLER_LD_LZ, 16, 12) |
                 put(2, 18, 17) | put(1, 30, 30) | put(1, 29, 29);
    CU_ASSERT_EQUAL(desc_sampler_binding_table(d), 0xc3);
    CU_ASSERT_EQUAL(desc_sampler_sampler(d), 0xa);
    CU_ASSERT_EQUAL(desc_sampler_msg_type_gen7(d), 26);
    CU_ASSERT_EQUAL(desc_sampler_simd_mode(d), 2);
    CU_ASSERT_EQUAL(desc_sampler_return_format_gen8(d), 1);
    CU_ASSERT_EQUAL(desc_sampler_simd_mode_ext(d), 1);
    uint32_t d4 = put(0x11, 7, 0) | put(3, 11, 8) | put(2, 13, 12) | put(3, 15, 14);
    CU_ASSERT_EQUAL(desc_sampler_binding_table(d4), 0x11);
    CU_ASSERT_EQUAL(desc_sampler_sampler(d4), 3);
    CU_ASSERT_EQUAL(desc_sampler_return_format_gen4(d4), 2);
    CU_ASSERT_EQUAL(desc_sampler_msg_type_gen4(d4), 3);
    CU_ASSERT_EQUAL(DESC_SAMPLER_SAMPLE, 0);
    CU_ASSERT_EQUAL(DESC_SAMPLER_SAMPLE_D, 4);      /* 00100 */
    CU_ASSERT_EQUAL(DESC_SAMPLER_LD, 7);            /* 00111 */
    CU_ASSERT_EQUAL(DESC_SAMPLER_GATHER4, 8);       /* 01000 */
    CU_ASSERT_EQUAL(DESC_SAMPLER_RESINFO, 10);      /* 01010 */
    CU_ASSERT_EQUAL(DESC_SAMPLER_GATHER4_PO_C, 18); /* 10010 */
    CU_ASSERT_EQUAL(DESC_SAMPLER_SAMPLE_C_LZ, 25);  /* 11001 */
    CU_ASSERT_EQUAL(DESC_SAMPLER_LD_MCS, 29);       /* 11101 */
    CU_ASSERT_EQUAL(DESC_SAMPLER_LD2DMS, 30);       /* 11110 */
}

/* URB: gen8/9 003 L8488-8500 (opcode 3:0, global offset 14:4, swizzle 15, per-slot
 * offset 17) and L8859-8872 (SIMD8: channel mask present 15); gen7 (Mesa): opcode 2:0,
 * global offset 13:3, swizzle 14, complete 15, per-slot offset 16; gen4 (Mesa): opcode
 * 3:0, offset 9:4, swizzle 11:10, allocate 13, used 14, complete 15. */
static void test_urb(void)
{
    uint32_t d = put(DESC_URB_SIMD8_WRITE, 3, 0) | put(2047, 14, 4) | put(1, 15, 15) |
                 put(1, 17, 17);
    CU_ASSERT_EQUAL(desc_urb_opcode_gen8(d), 7);
    CU_ASSERT_EQUAL(desc_urb_global_offset_gen8(d), 2047);
    CU_ASSERT_EQUAL(desc_urb_channel_mask(d), 1);
    CU_ASSERT_EQUAL(desc_urb_swizzle_gen8(d), 1);
    CU_ASSERT_EQUAL(desc_urb_per_slot_offset_gen8(d), 1);
    CU_ASSERT_EQUAL(desc_urb_per_slot_offset_gen8(d & ~(1u << 17)), 0);
    CU_ASSERT_EQUAL(desc_urb_global_offset_gen8(put(5, 14, 4) | put(15, 3, 0)), 5);
    uint32_t d7 = put(DESC_URB_READ_OWORD, 2, 0) | put(0x5a5, 13, 3) | put(1, 14, 14) |
                  put(1, 15, 15) | put(1, 16, 16);
    CU_ASSERT_EQUAL(desc_urb_opcode_gen7(d7), 3);
    CU_ASSERT_EQUAL(desc_urb_global_offset_gen7(d7), 0x5a5);
    CU_ASSERT_EQUAL(desc_urb_swizzle_gen7(d7), 1);
    CU_ASSERT_EQUAL(desc_urb_complete(d7), 1);
    CU_ASSERT_EQUAL(desc_urb_per_slot_offset_gen7(d7), 1);
    uint32_t d4 = put(1, 3, 0) | put(0x2a, 9, 4) | put(2, 11, 10) | put(1, 13, 13) |
                  put(0, 14, 14) | put(1, 15, 15);
    CU_ASSERT_EQUAL(desc_urb_opcode_gen4(d4), 1);
    CU_ASSERT_EQUAL(desc_urb_offset(d4), 0x2a);
    CU_ASSERT_EQUAL(desc_urb_swizzle_gen4(d4), 2);
    CU_ASSERT_EQUAL(desc_urb_allocate(d4), 1);
    CU_ASSERT_EQUAL(desc_urb_used(d4), 0);
    CU_ASSERT_EQUAL(desc_urb_complete(d4), 1);
    /* 003 L8488-8500: 0 WRITE_HWORD ... 6 ATOMIC_ADD, 7 SIMD8_WRITE, 8 SIMD8_READ */
    CU_ASSERT_EQUAL(DESC_URB_WRITE_HWORD, 0);
    CU_ASSERT_EQUAL(DESC_URB_READ_HWORD, 2);
    CU_ASSERT_EQUAL(DESC_URB_ATOMIC_MOV, 4);
    CU_ASSERT_EQUAL(DESC_URB_ATOMIC_ADD, 6);
    CU_ASSERT_EQUAL(DESC_URB_SIMD8_READ, 8);
}

/* Render cache (SFID 5, gen7-9): message type 17:14, render-target write subtype 10:8,
 * slot group 11, last render target 12, per-sample 13 (IGA tryDecodeRC; Mesa), BTI 7:0;
 * RT write = 12, RT read = 13 (IGA RT_WRITE 0xC / RT_READ 0xD). Gen4 data port
 * read/write (Mesa): read BTI 7:0, control 11:8, type 13:12, target cache 15:14; write
 * BTI 7:0, control 10:8, last RT 11, type 14:12, send commit 15. */
static void test_render_cache_and_gen4_dp(void)
{
    uint32_t d = put(0x40, 7, 0) |
                 put(DESC_RT_WRITE_SIMD8_DUAL_SOURCE_SUBSPANS_2_3_HIGH, 10, 8) |
                 put(1, 11, 11) | put(0, 12, 12) | put(1, 13, 13) |
                 put(DESC_RC_RENDER_TARGET_WRITE, 17, 14);
    CU_ASSERT_EQUAL(desc_rc_binding_table(d), 0x40);
    CU_ASSERT_EQUAL(desc_rc_rt_subtype(d), 3);
    CU_ASSERT_EQUAL(desc_rc_rt_slot_group(d), 1);
    CU_ASSERT_EQUAL(desc_rc_rt_last(d), 0);
    CU_ASSERT_EQUAL(desc_rc_rt_last(d | 1u << 12), 1);
    CU_ASSERT_EQUAL(desc_rc_rt_per_sample(d), 1);
    CU_ASSERT_EQUAL(desc_rc_msg_type(d), 12);
    CU_ASSERT_EQUAL(desc_rc_msg_control(d), 0x2b);   /* 13:8 = 1 0 1 011 */
    CU_ASSERT_EQUAL(DESC_RC_RENDER_TARGET_READ, 13);
    CU_ASSERT_EQUAL(DESC_RT_WRITE_SIMD16_SINGLE_SOURCE, 0);
    CU_ASSERT_EQUAL(DESC_RT_WRITE_SIMD8_SINGLE_SOURCE, 4);
    uint32_t r4 = put(0x21, 7, 0) | put(0xc, 11, 8) |
                  put(DESC_DPR_DWORD_SCATTERED_READ, 13, 12) | put(2, 15, 14);
    CU_ASSERT_EQUAL(desc_dpr_binding_table(r4), 0x21);
    CU_ASSERT_EQUAL(desc_dpr_msg_control(r4), 0xc);
    CU_ASSERT_EQUAL(desc_dpr_msg_type(r4), 3);
    CU_ASSERT_EQUAL(desc_dpr_target_cache(r4), 2);
    uint32_t w4 = put(0x22, 7, 0) | put(4, 10, 8) | put(1, 11, 11) |
                  put(DESC_DPW_RENDER_TARGET_WRITE, 14, 12) | put(1, 15, 15);
    CU_ASSERT_EQUAL(desc_dpw_binding_table(w4), 0x22);
    CU_ASSERT_EQUAL(desc_dpw_msg_control(w4), 4);
    CU_ASSERT_EQUAL(desc_dpw_last_rt(w4), 1);
    CU_ASSERT_EQUAL(desc_dpw_msg_type(w4), 4);
    CU_ASSERT_EQUAL(desc_dpw_send_commit(w4), 1);
}

/* Data cache ports: msg type 17:14 (DC0) / 18:14 (DC1), category 18, BTI 7:0; message
 * control (Mesa brw_eu.h descriptors; 003 L7444-7533 names them): untyped channel mask
 * 11:8 and SIMD mode 13:12, atomic op 11:8 / SIMD8 12 / return data 13, byte scattered
 * SIMD16 8 and data size 11:10, A64 scattered subtype 9:8 and SIMD16 12 (A64 untyped
 * SIMD16 12 as well), dword block
 * size 9:8, OWord block size 10:8, typed slot group 13, scratch write 17 / DWord 16 /
 * invalidate 15 / block size 13:12 / HWord offset 11:0 (003 L6015: 12 bits). */
static void test_data_cache(void)
{
    uint32_t u = put(0xfe, 7, 0) | put(0xe, 11, 8) | put(1, 13, 12) |
                 put(DESC_DC1_UNTYPED_SURFACE_WRITE, 18, 14);
    CU_ASSERT_EQUAL(desc_dc_binding_table(u), 0xfe);
    CU_ASSERT_EQUAL(desc_dc_channel_mask(u), 0xe);
    CU_ASSERT_EQUAL(desc_dc_simd_mode(u), 1);
    CU_ASSERT_EQUAL(desc_dc_msg_control(u), 0x1e);
    CU_ASSERT_EQUAL(desc_dc1_msg_type(u), 9);
    uint32_t a64 = put(DESC_DC1_A64_SCATTERED_WRITE, 18, 14);
    CU_ASSERT_EQUAL(desc_dc1_msg_type(a64), 0x1a);
    CU_ASSERT_EQUAL(desc_dc_msg_type(a64), 0xa);     /* DC0 reads four of the five bits */
    CU_ASSERT_EQUAL(desc_dc_category(a64), 1);
    uint32_t at = put(DESC_ATOMIC_CMPWR, 11, 8) | put(1, 12, 12) | put(1, 13, 13) |
                  put(DESC_DC0_UNTYPED_ATOMIC, 17, 14);
    CU_ASSERT_EQUAL(desc_dc_atomic_op(at), 14);
    CU_ASSERT_EQUAL(desc_dc_atomic_simd8(at), 1);
    CU_ASSERT_EQUAL(desc_dc_atomic_return_data(at), 1);
    CU_ASSERT_EQUAL(desc_dc_msg_type(at), 6);
    CU_ASSERT_EQUAL(desc_dc_category(at), 0);
    uint32_t by = put(1, 8, 8) | put(2, 11, 10) | put(DESC_DC0_BYTE_SCATTERED_READ, 17, 14);
    CU_ASSERT_EQUAL(desc_dc_byte_simd16(by), 1);
    CU_ASSERT_EQUAL(desc_dc_data_size(by), 2);
    CU_ASSERT_EQUAL(desc_dc_msg_type(by), 4);
    uint32_t a64b = put(1, 9, 8) | put(1, 11, 10) | put(1, 12, 12);
    CU_ASSERT_EQUAL(desc_dc_a64_scattered_subtype(a64b), 1);
    CU_ASSERT_EQUAL(desc_dc_data_size(a64b), 1);
    CU_ASSERT_EQUAL(desc_dc_a64_scattered_simd16(a64b), 1);
    CU_ASSERT_EQUAL(desc_dc_a64_simd16(put(1, 12, 12) | put(0xf, 11, 8)), 1);
    CU_ASSERT_EQUAL(desc_dc_a64_simd16(put(1, 13, 13)), 0);
    CU_ASSERT_EQUAL(desc_dc_dword_block_size(put(3, 9, 8) | put(1, 10, 10)), 3);
    CU_ASSERT_EQUAL(desc_dc_oword_block_size(put(4, 10, 8) | put(1, 11, 11)), 4);
    CU_ASSERT_EQUAL(desc_dc_typed_slot_group(put(1, 13, 13)), 1);
    CU_ASSERT_EQUAL(desc_dc_typed_slot_group(put(1, 12, 12)), 0);
    uint32_t sc = put(1, 18, 18) | put(1, 17, 17) | put(0, 16, 16) | put(1, 15, 15) |
                  put(3, 13, 12) | put(0xabc, 11, 0);
    CU_ASSERT_EQUAL(desc_dc_category(sc), 1);
    CU_ASSERT_EQUAL(desc_dc_scratch_write(sc), 1);
    CU_ASSERT_EQUAL(desc_dc_scratch_dword(sc), 0);
    CU_ASSERT_EQUAL(desc_dc_scratch_invalidate(sc), 1);
    CU_ASSERT_EQUAL(desc_dc_scratch_block_size(sc), 3);
    CU_ASSERT_EQUAL(desc_dc_scratch_offset(sc), 0xabc);
    /* encodings (Mesa brw_eu_defines.h HSW_DATAPORT_DC_PORT0/PORT1_*) */
    CU_ASSERT_EQUAL(DESC_DC0_OWORD_BLOCK_READ, 0);
    CU_ASSERT_EQUAL(DESC_DC0_DWORD_SCATTERED_READ, 3);
    CU_ASSERT_EQUAL(DESC_DC0_MEMORY_FENCE, 7);
    CU_ASSERT_EQUAL(DESC_DC0_OWORD_BLOCK_WRITE, 8);
    CU_ASSERT_EQUAL(DESC_DC0_BYTE_SCATTERED_WRITE, 12);
    CU_ASSERT_EQUAL(DESC_DC0_UNTYPED_SURFACE_WRITE, 13);
    CU_ASSERT_EQUAL(DESC_DC1_UNTYPED_SURFACE_READ, 1);
    CU_ASSERT_EQUAL(DESC_DC1_TYPED_SURFACE_READ, 5);
    CU_ASSERT_EQUAL(DESC_DC1_TYPED_SURFACE_WRITE, 13);
    CU_ASSERT_EQUAL(DESC_DC1_A64_UNTYPED_SURFACE_READ, 0x11);
    CU_ASSERT_EQUAL(DESC_DC1_A64_UNTYPED_ATOMIC, 0x12);
    CU_ASSERT_EQUAL(DESC_DC1_A64_UNTYPED_SURFACE_WRITE, 0x19);
    CU_ASSERT_EQUAL(DESC_DC1_A64_SCATTERED_READ, 0x10);
    /* atomic ops: 003 L18634-18680 (low nibble) */
    CU_ASSERT_EQUAL(DESC_ATOMIC_AND, 1);
    CU_ASSERT_EQUAL(DESC_ATOMIC_MOV, 4);
    CU_ASSERT_EQUAL(DESC_ATOMIC_REVSUB, 9);
    CU_ASSERT_EQUAL(DESC_ATOMIC_UMIN, 13);
    CU_ASSERT_EQUAL(DESC_ATOMIC_PREDEC, 15);
    CU_ASSERT_EQUAL(DESC_ATOMIC_FMAX, 1);
    CU_ASSERT_EQUAL(DESC_ATOMIC_FCMPWR, 3);
}

/* Pixel interpolator, 003 L8232-8280: message data 7:0, slot group 11, message type
 * 13:12, interpolation mode 14, SIMD mode 16. Gateway, 003 L9024-9036: SubFuncID 2:0,
 * 011b GetTimeStamp, 100b BarrierMsg. Thread spawner (notes/003 §8 [EXT]): opcode 0,
 * request type 1, resource select 4. */
static void test_pi_gateway_ts(void)
{
    uint32_t pi = put(0x7f, 7, 0) | put(1, 11, 11) | put(2, 13, 12) | put(1, 14, 14) |
                  put(1, 16, 16);
    CU_ASSERT_EQUAL(desc_pi_message_data(pi), 0x7f);
    CU_ASSERT_EQUAL(desc_pi_slot_group(pi), 1);
    CU_ASSERT_EQUAL(desc_pi_message_type(pi), 2);
    CU_ASSERT_EQUAL(desc_pi_nopersp(pi), 1);
    CU_ASSERT_EQUAL(desc_pi_simd_mode(pi), 1);
    CU_ASSERT_EQUAL(desc_pi_simd_mode(pi & ~(1u << 16)), 0);
    CU_ASSERT_EQUAL(desc_gw_subfunction(put(4, 2, 0) | put(1, 19, 19)), 4);
    CU_ASSERT_EQUAL(DESC_GW_GET_TIMESTAMP, 3);
    CU_ASSERT_EQUAL(DESC_GW_BARRIER_MSG, 4);
    uint32_t ts = put(1, 0, 0) | put(0, 1, 1) | put(1, 4, 4);
    CU_ASSERT_EQUAL(desc_ts_opcode(ts), 1);
    CU_ASSERT_EQUAL(desc_ts_request_type(ts), 0);
    CU_ASSERT_EQUAL(desc_ts_resource_select(ts), 1);
    CU_ASSERT_EQUAL(desc_ts_request_type(put(1, 1, 1)), 1);
}

/* The generic reader: the SFID's group, the fallback group, then the generic fields;
 * message names per generation. */
static void test_generic_reader(void)
{
    uint32_t v = 0;
    uint32_t dc1 = put(0x33, 7, 0) | put(DESC_DC1_A64_UNTYPED_SURFACE_READ, 18, 14) |
                   put(2, 28, 25) | put(4, 24, 20);
    CU_ASSERT(msg_desc_field(9, 12, dc1, DESC_F_MSG_TYPE, &v) && v == 0x11);
    /* the fallback group, the generic fields, SFID 9 read as the data cache */
    CU_ASSERT(msg_desc_field(9, 12, dc1, DESC_F_BINDING_TABLE, &v) && v == 0x33);
    CU_ASSERT(msg_desc_field(9, 12, dc1, DESC_F_MLEN, &v) && v == 2);
    CU_ASSERT(msg_desc_field(8, 9, dc1, DESC_F_BINDING_TABLE, &v) && v == 0x33);
    CU_ASSERT(!msg_desc_field(9, 12, dc1, DESC_F_SAMPLER, &v));
    CU_ASSERT(!msg_desc_field(4, 12, dc1, DESC_F_BINDING_TABLE, &v));  /* gen4: no SFID 12 */
    CU_ASSERT(msg_desc_field(4, 12, dc1, DESC_F_MLEN, &v) && v == (dc1 >> 20 & 15));
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(9, 12, dc1), "a64_untyped_surface_read");
    uint32_t urb = put(DESC_URB_SIMD8_READ, 3, 0) | put(9, 14, 4);
    CU_ASSERT(msg_desc_field(8, 6, urb, DESC_F_GLOBAL_OFFSET, &v) && v == 9);
    CU_ASSERT(msg_desc_field(7, 6, urb, DESC_F_GLOBAL_OFFSET, &v) && v == (urb >> 3 & 0x7ff));
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(9, 6, urb), "simd8_read");
    /* gen7: the opcode is 2:0, so SIMD8_READ's 8 reads as 0 */
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(7, 6, urb), "write_hword");
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(7, 6, put(2, 2, 0)), "read_hword");
    uint32_t rc13 = put(13, 17, 14);
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(7, 5, rc13), "typed_surface_write");
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(8, 5, rc13), "typed_surface_write");
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(9, 5, rc13), "render_target_read");
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(9, 2, put(26, 16, 12)), "ld_lz");
    CU_ASSERT_PTR_NULL(msg_desc_message_name(8, 2, put(26, 16, 12)));   /* ld_lz: gen9 */
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(4, 1, put(8, 3, 0)), "sincos");
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(4, 5, put(4, 14, 12)), "render_target_write");
    CU_ASSERT_STRING_EQUAL(msg_desc_message_name(9, 3, put(3, 2, 0)), "get_timestamp");
    CU_ASSERT_PTR_NULL(msg_desc_message_name(9, 1, 0));     /* no SFID 1 after gen5 */
}

/* Every accessor agrees with the generic reader for its field on its generations. */
static void test_accessors_agree_with_reader(void)
{
    uint32_t x = 0x9e3779b9u;
    for (int i = 0; i < 2000; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        uint32_t v;
        CU_ASSERT(msg_desc_field(9, 10, x, DESC_F_MSG_TYPE, &v) && v == desc_dc_msg_type(x));
        CU_ASSERT(msg_desc_field(8, 12, x, DESC_F_MSG_TYPE, &v) && v == desc_dc1_msg_type(x));
        CU_ASSERT(msg_desc_field(7, 2, x, DESC_F_MSG_TYPE, &v) &&
                  v == desc_sampler_msg_type_gen7(x));
        CU_ASSERT(msg_desc_field(4, 2, x, DESC_F_MSG_TYPE, &v) &&
                  v == desc_sampler_msg_type_gen4(x));
        CU_ASSERT(msg_desc_field(7, 6, x, DESC_F_OPCODE, &v) && v == desc_urb_opcode_gen7(x));
        CU_ASSERT(msg_desc_field(9, 6, x, DESC_F_OPCODE, &v) && v == desc_urb_opcode_gen8(x));
        CU_ASSERT(msg_desc_field(4, 6, x, DESC_F_OPCODE, &v) && v == desc_urb_opcode_gen4(x));
        CU_ASSERT(msg_desc_field(9, 11, x, DESC_F_SLOT_GROUP, &v) && v == desc_pi_slot_group(x));
        CU_ASSERT(msg_desc_field(9, 3, x, DESC_F_SUBFUNCTION, &v) &&
                  v == desc_gw_subfunction(x));
        CU_ASSERT(msg_desc_field(4, 1, x, DESC_F_FUNCTION, &v) && v == desc_math_function(x));
    }
}

/* Every value name is unique per enumeration and generation (so a name identifies one
 * encoding), and every value has at most one name. */
static void test_value_names_unique(void)
{
    static const int gens[] = { 4, 7, 8, 9 };
    unsigned named = 0;
    for (int t = 0; t < DESC_TABLE_COUNT; t++) {
        CU_ASSERT_PTR_NOT_NULL(msg_desc_table_names[t]);
        for (unsigned g = 0; g < sizeof gens / sizeof gens[0]; g++) {
            const char *names[64] = { 0 };
            for (unsigned v = 0; v < 64; v++) {
                names[v] = msg_desc_enum_name(gens[g], (enum msg_desc_table)t, v);
                if (!names[v])
                    continue;
                named++;
                for (unsigned w = 0; w < v; w++)
                    CU_ASSERT(!names[w] || strcmp(names[w], names[v]) != 0);
            }
        }
    }
    CU_ASSERT(named > 100);
    for (int f = 0; f < DESC_F_COUNT; f++)
        CU_ASSERT_PTR_NOT_NULL(msg_desc_field_names[f]);
}

static const struct test_case cases[] = {
    { "generic fields and the extended descriptor", test_generic_fields },
    { "encoders", test_encoders },
    { "gen4 math", test_math },
    { "sampler", test_sampler },
    { "urb", test_urb },
    { "render cache and gen4 data ports", test_render_cache_and_gen4_dp },
    { "data cache ports", test_data_cache },
    { "pixel interpolator, gateway, thread spawner", test_pi_gateway_ts },
    { "generic reader and message names", test_generic_reader },
    { "accessors agree with the reader", test_accessors_agree_with_reader },
    { "value names unique", test_value_names_unique },
    { 0 }
};
TEST_SUITE(descriptors, cases);
