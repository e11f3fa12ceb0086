/* spec/spec.h - the command, state-structure and register descriptions of each
 * Intel generation gtsim models (gen4, gen7, gen8, gen9), as C tables.
 *
 * The data lives in spec/data/gen*.xml (format: spec/README.md); spec/gen_pack.py
 * turns it into build/gen/spec_genN_pack.{h,c}:
 *   - per element X: struct GENn_X (one member per field), GENn_X_length,
 *     GENn_X_length_bias, GENn_X_header (designated initialisers of the header
 *     defaults), int GENn_X_pack(uint32_t *dw, const struct GENn_X *v) (returns
 *     -1, writing nothing useful, when a value does not fit its field) and
 *     void GENn_X_unpack(const uint32_t *dw, struct GENn_X *v);
 *   - per generation a struct spec_gen: every command with its header
 *     match/mask and length rule, every structure and register, each with a
 *     field-descriptor table (name, absolute start/end bit, type, enum values,
 *     where the member lives in the C struct).
 * This header is the generic, table-driven side: identify a command word, work
 * out its length, read and print fields.  It never compares names on a hot
 * path: look an element up once, keep the pointer.
 */
#ifndef GTSIM_SPEC_SPEC_H
#define GTSIM_SPEC_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec_common.h"    /* generated: enum spec_id, struct spec_<NAME> */

enum spec_type {
    SPEC_UINT,      /* unsigned integer (enums too: values != NULL) */
    SPEC_INT,       /* two's complement in the field's width */
    SPEC_BOOL,
    SPEC_FLOAT,     /* IEEE-754 single, 32-bit field */
    SPEC_UFIXED,    /* unsigned fixed point, frac fraction bits */
    SPEC_SFIXED,    /* signed fixed point, frac fraction bits */
    SPEC_ADDRESS,   /* graphics address; value keeps its low bits in place */
    SPEC_OFFSET,    /* offset from a base / register offset; as ADDRESS */
    SPEC_MBZ,       /* reserved, must be zero (no C member) */
    SPEC_MBO,       /* reserved, must be one (no C member) */
};

/* How a field's C member is stored (for generic access by tests and tools). */
enum spec_ctype { SPEC_C_NONE, SPEC_C_U32, SPEC_C_U64, SPEC_C_I32, SPEC_C_I64,
                  SPEC_C_BOOL, SPEC_C_FLOAT, SPEC_C_DOUBLE,
                  SPEC_C_STRUCT /* superset members only: an embedded struct spec_<NAME> */ };

enum spec_kind { SPEC_COMMAND, SPEC_STRUCT, SPEC_REGISTER };

/* Which pipeline a command's state packet goes down (derived once by
 * gen_pack.py from the PRM's naming: 3DSTATE_* and 3DPRIMITIVE the 3D one,
 * MEDIA_* and GPGPU_* the media/GPGPU one, the rest both; MI commands are
 * BOTH too, but the CS executes them itself). A bit mask: 3D | MEDIA = BOTH. */
enum spec_pipeline {
    SPEC_PIPELINE_NONE = 0,     /* structures and registers */
    SPEC_PIPELINE_3D = 1,
    SPEC_PIPELINE_MEDIA = 2,
    SPEC_PIPELINE_BOTH = 3,
};

/* Largest entry of a variable-length tail, in bits (gen_pack.py checks it). */
#define SPEC_MAX_TAIL_BITS 2048

struct spec_value {
    const char *name;
    uint32_t value;
};

struct spec_field {
    const char *name;          /* "Pattern Row[3]", "Constant Body.Read Length[0]" */
    uint16_t start, end;       /* absolute bit numbers in the element (or tail entry) */
    uint8_t type;              /* enum spec_type */
    uint8_t frac;              /* fraction bits of SPEC_UFIXED / SPEC_SFIXED */
    uint8_t ctype;             /* enum spec_ctype of the member, SPEC_C_NONE if none */
    uint16_t n_values;
    size_t offset;             /* offsetof the member in struct GENn_X */
    const struct spec_value *values;
    const char *src;           /* "004:23590" (seed:line), "ref", "trace" */
    size_t common_offset;      /* offsetof the member in struct spec_<NAME> (the superset) */
    uint8_t common_ctype;      /* enum spec_ctype there (maybe wider); SPEC_C_NONE if none */
};

struct spec_element {
    const char *name;
    uint8_t kind;              /* enum spec_kind */
    uint8_t gen;
    uint8_t bias;              /* DWord Length bias (commands) */
    uint8_t has_length_field;  /* DW0 has "DWord Length" at len_start..len_end */
    uint8_t len_start, len_end;
    uint16_t length;           /* fixed dwords (the whole element, or the part before a tail) */
    uint32_t match, mask;      /* commands: (dw[0] & mask) == match */
    uint32_t reg_offset;       /* registers: MMIO offset */
    uint16_t n_fields;
    const struct spec_field *fields;
    uint16_t tail_start;       /* variable-length tail: first bit, entry size in bits */
    uint16_t tail_size;
    uint16_t n_tail_fields;    /* 0: no tail */
    const struct spec_field *tail_fields;
    size_t c_size;             /* sizeof(struct GENn_X) */
    int (*pack)(uint32_t *dw, const void *v);
    void (*unpack)(const uint32_t *dw, void *v);
    const char *src;
    uint16_t id;               /* enum spec_id: the same for this name in every generation */
    uint8_t pipeline;          /* enum spec_pipeline */
    size_t common_size;        /* sizeof(struct spec_<NAME>) */
    /* GENn_<NAME>_unpack_common: fills struct spec_<NAME> (members this
     * generation lacks read 0) from the element's dwords. */
    void (*unpack_common)(const uint32_t *dw, void *v);
};

/* A member of a superset struct spec_<NAME> (spec_common.h). */
struct spec_member {
    const char *name;          /* the C member name, as in struct GENn_<NAME> */
    size_t offset, size;       /* offsetof, sizeof (the whole array for arrays) */
    uint8_t ctype;             /* enum spec_ctype (SPEC_C_STRUCT: an embedded superset) */
    uint16_t count;            /* array entries, 0 when not an array */
    const char *struct_name;   /* SPEC_C_STRUCT: the embedded element's name */
    uint16_t present;          /* bit (1 << gen) per generation that has the member */
};

/* A superset struct: the union of every generation's members of one name. */
struct spec_common {
    const char *name;
    uint16_t id;               /* enum spec_id */
    uint8_t kind;              /* enum spec_kind */
    uint8_t pipeline;          /* enum spec_pipeline */
    uint16_t present;          /* bit (1 << gen) per generation that has the element */
    size_t size;               /* sizeof(struct spec_<NAME>) */
    uint16_t n_members;
    const struct spec_member *members;
};

struct spec_gen {
    int gen;
    const char *platform;
    size_t n_commands, n_structs, n_registers;
    const struct spec_element *commands;   /* most specific mask first */
    const struct spec_element *structs;    /* by name */
    const struct spec_element *registers;  /* by name */
    const struct spec_element *const *by_id;   /* [SPEC_ID_COUNT]: NULL where absent */
};

/* The tables of generation gen (4, 7, 8, 9); NULL for any other. */
const struct spec_gen *spec_gen_get(int gen);

/* The command whose header matches dw[0]; NULL when avail == 0 or none does. */
const struct spec_element *spec_find_command(int gen, const uint32_t *dw, size_t avail);

/* A command, structure or register by its name; NULL when absent. */
const struct spec_element *spec_find_element(int gen, enum spec_kind kind, const char *name);

/* The command, structure or register with id `id` in generation gen; NULL
 * when that generation has no such element. */
const struct spec_element *spec_element_by_id(int gen, enum spec_id id);

/* The superset description of id (members, present bits); NULL for
 * SPEC_ID_NONE or an id out of range. */
const struct spec_common *spec_common_get(enum spec_id id);

/* The field of e whose superset member sits at common_offset in struct
 * spec_<NAME> (an offsetof() the compiler checks, rather than a name typed
 * in a string); NULL when e's generation lacks the member. */
const struct spec_field *spec_find_field_common(const struct spec_element *e, size_t common_offset);

/* The register at MMIO offset off; NULL when the generation does not list it. */
const struct spec_element *spec_find_register(int gen, uint32_t off);

/* Total dwords of the command starting at dw (DWord Length + bias, or the
 * fixed length); always >= 1.  It may exceed what the buffer holds: check. */
uint32_t spec_command_length(const struct spec_element *cmd, const uint32_t *dw);

/* Field `name` of element e (as in the data: "Pattern Row[3]",
 * "Constant Body.Buffer[1]"); NULL when absent.  Look fields up once. */
const struct spec_field *spec_find_field(const struct spec_element *e, const char *name);

/* The raw bits of field f in the element at dw (at most 64). */
uint64_t spec_field_raw(const struct spec_field *f, const uint32_t *dw);

/* Writes the field's value as text ("true", "12 (SIMD16)", "0x00010000", "0.5")
 * into buf; returns what snprintf returns. */
int spec_field_format(const struct spec_field *f, const uint32_t *dw, char *buf, size_t n);

/* Name of raw value v in the field's value list, NULL when it has none. */
const char *spec_field_value_name(const struct spec_field *f, uint64_t v);

/* Prints "name: value" for every field (not MBZ/MBO) of element e at dw, one
 * per line after indent, and every entry of a variable tail up to avail dwords
 * (or the command's length).  Returns the number of dwords described. */
uint32_t spec_print_element(FILE *out, const struct spec_element *e, const uint32_t *dw,
                            size_t avail, const char *indent);

/* Walks a batch of n dwords from dw: prints each command ("0x%04x: NAME" with
 * its dword offset, then its fields indented) until MI_BATCH_BUFFER_END or the
 * end of the buffer.  A dword no command matches is printed as unknown and
 * skipped; a command running past the end is printed as truncated and ends
 * the walk.  Returns the number of commands identified; *unknown (if not
 * NULL) gets the number of unidentified dwords. */
size_t spec_print_batch(FILE *out, int gen, const uint32_t *dw, size_t n, size_t *unknown);

#endif
