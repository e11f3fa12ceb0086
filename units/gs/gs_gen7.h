/* units/gs/gs_gen7.h - the GS's SIMD4x2 (vec4) thread payload: the dispatch
 * modes SINGLE, DUAL_INSTANCE and DUAL_OBJECT, the only ones Gen7 has
 * (genxml gen7.xml 3DSTATE_GS Dispatch Mode) and Gen8/Gen9's SIMD4x2 forms.
 *
 * Modes (seed 004 3DSTATE_GS Dispatch Mode, L3296-3303):
 *  - SINGLE: one instance of one object per thread.
 *  - DUAL_INSTANCE: two instances of one object; "a trailing dispatch of only
 *    one instance" when InstanceCount is odd.
 *  - DUAL_OBJECT: one instance of two objects; "The GS unit attempt[s] to pair
 *    objects together into one dispatch, but under some circumstances only
 *    one object may be dispatched (as controlled by the DispatchMask)". Not
 *    valid for objects of more than 16 vertices, nor with InstanceCount > 1;
 *    both dual modes need at least two GS URB entries (L3303).
 * Payload (seed 003 "SIMD 4x2 Thread Payload", L13244-13570):
 *  - R0.0 / R0.1: GS Instance ID [31:27] (not valid in DUAL_OBJECT: 0 here)
 *    | URB Return Handle [15:0] of the lower (DW3:0) / upper (DW7:4) half;
 *    R0.2 topology and Hint are written by gs.c (put_r0_topology).
 *  - R1 when Include PrimitiveID: R1.0 object 0's Primitive ID, R1.4 object
 *    1's ("Only valid in DUAL_OBJECT mode"), the rest MBZ.
 *  - ICP handles when Include Vertex Handles: SINGLE / DUAL_INSTANCE eight
 *    per register (DWn = ICP n); DUAL_OBJECT four per object per register
 *    (object 0's ICP 4k..4k+3 in DW3:0, object 1's in DW7:4 of register k).
 *  - push constants, then the pushed vertex data from Dispatch GRF Start
 *    Register For URB Data (or right after the constants when that lies
 *    inside them, counted by gs.c): SINGLE / DUAL_INSTANCE "Vertex 1
 *    immediately follows Vertex 0 ... no upper/lower swizzling", Vertex URB
 *    Entry Read Length registers each; DUAL_OBJECT "split into upper and
 *    lower halves with Object 0 input vertices in the lower half, and
 *    Object 1 input vertices in the upper half": the seed's figure is
 *    missing, so the split is read as Mesa's vec4 GS reads it (public fact:
 *    its dual-object attribute setup puts one vec4 per register), each
 *    256-bit URB row of a vertex giving two registers, register 2r + h
 *    holding 128-bit element h of row r, object 0's in DW3:0, object 1's in
 *    DW7:4.
 * Not modelled: the semaphore handle (R0.2[12:0]) and index (R0.2[31:24]).
 */
#ifndef GTSIM_UNITS_GS_GS_GEN7_H
#define GTSIM_UNITS_GS_GS_GEN7_H

#include <stdbool.h>
#include <stdint.h>

#include "units/common/thread_msg.h"

/* 3DSTATE_GS Dispatch Mode (genxml): 0 SINGLE, 1 DUAL_INSTANCE, 2
 * DUAL_OBJECT (SIMD4x2), 3 SIMD8 (Gen8+ only). */
enum gs_dispatch_mode {
    GS_DISPATCH_SINGLE = 0,
    GS_DISPATCH_DUAL_INSTANCE,
    GS_DISPATCH_DUAL_OBJECT,
    GS_DISPATCH_SIMD8
};

/* DUAL_OBJECT is "Not valid for objects with more than 16 vertices" (004 L3299) */
#define GS_DUAL_OBJECT_MAX_VERTICES 16u

/* What one half of a SIMD4x2 thread (DW3:0 or DW7:4) shades. */
struct gs_simd4x2_half {
    uint32_t instance;              /* GS Instance ID (DUAL_OBJECT: not valid, 0) */
    uint32_t output_handle;         /* URB Return Handle */
    uint32_t primitive_id;
    uint32_t vertex_count;
    const uint32_t *icp_handles;    /* vertex_count input handles */
    const uint8_t *vertex_data;     /* vertex_count x read_length rows of 32 bytes, or NULL */
};

/* The state that shapes the payload. */
struct gs_simd4x2_form {
    bool dual_object, include_primitive_id, include_vertex_handles;
    uint32_t read_length;           /* Vertex URB Entry Read Length (256-bit rows) */
    uint32_t grf_start;             /* Dispatch GRF Start Register For URB Data */
    uint32_t constant_regs;         /* push constant registers */
};

/* Where each part of the payload starts (0 = absent) and its size. */
struct gs_simd4x2_layout {
    uint32_t primitive_id_reg, handle_reg, constant_reg, data_reg, total;
    bool grf_start_adjusted;        /* Dispatch GRF Start inside the fixed part: moved */
    bool truncated;                 /* more than THREAD_PAYLOAD_MAX_REGS registers: cut */
};

/* The layout for objects of vertex_count vertices. */
void gs_simd4x2_layout(const struct gs_simd4x2_form *f, uint32_t vertex_count,
                       struct gs_simd4x2_layout *out);

/* Writes R0.0/R0.1, R1, the ICP handles and the vertex data of `count`
 * halves (1 or 2) into grf (l->total registers; R0's other fields, the
 * topology and the constants are the caller's). In DUAL_OBJECT half h is
 * object h; else the halves are instances of one object and the object's
 * primitive id, handles and data come from half 0. */
void gs_simd4x2_write(const struct gs_simd4x2_form *f, const struct gs_simd4x2_layout *l,
                      uint8_t (*grf)[EU_MSG_REG_BYTES], const struct gs_simd4x2_half *halves,
                      uint32_t count);

#endif
