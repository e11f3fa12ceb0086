/* spec/bitpack.h - bit-field helpers used by the generated pack/unpack code
 * (build/gen/spec_genN_pack.c) and by spec.c.  Bit numbers are absolute within
 * a dword array: bit b lives in dw[b / 32] at position b % 32.  A field is at
 * most 64 bits wide.  Putting ORs into place (fields may overlap: alternate
 * views of the same bits); callers zero the destination first. */
#ifndef GTSIM_SPEC_BITPACK_H
#define GTSIM_SPEC_BITPACK_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t spec_bits_get(const uint32_t *dw, unsigned start, unsigned end)
{
    uint64_t v = 0;
    unsigned got = 0;
    for (unsigned b = start; b <= end;) {
        unsigned lo = b % 32, n = 32 - lo;
        if (n > end - b + 1)
            n = end - b + 1;
        uint64_t part = (uint64_t)(dw[b / 32] >> lo) & (n == 32 ? 0xffffffffu : ((1u << n) - 1));
        v |= part << got;
        got += n;
        b += n;
    }
    return v;
}

static inline void spec_bits_put(uint32_t *dw, unsigned start, unsigned end, uint64_t v)
{
    for (unsigned b = start; b <= end;) {
        unsigned lo = b % 32, n = 32 - lo;
        if (n > end - b + 1)
            n = end - b + 1;
        uint32_t m = n == 32 ? 0xffffffffu : ((1u << n) - 1);
        dw[b / 32] |= ((uint32_t)v & m) << lo;
        v = n == 64 ? 0 : v >> n;
        b += n;
    }
}

static inline bool spec_fits_uint(uint64_t v, unsigned width)
{
    return width >= 64 || (v >> width) == 0;
}

static inline bool spec_fits_int(int64_t v, unsigned width)
{
    if (width >= 64)
        return true;
    int64_t lim = (int64_t)1 << (width - 1);
    return v >= -lim && v < lim;
}

static inline int64_t spec_sign_extend(uint64_t v, unsigned width)
{
    if (width >= 64)
        return (int64_t)v;
    uint64_t sign = (uint64_t)1 << (width - 1);
    return (int64_t)((v ^ sign) - sign);
}

/* Address/offset fields keep their value's low bits in place: the field at
 * bits hi:lo of its first dword stores v >> lo; v must have its low lo bits
 * clear and fit in hi + 1 bits. */
static inline int spec_put_address(uint32_t *dw, unsigned start, unsigned end, uint64_t v)
{
    unsigned lo = start % 32, width = end - start + 1;
    if (lo && (v & (((uint64_t)1 << lo) - 1)))
        return -1;
    if (!spec_fits_uint(v >> lo, width))
        return -1;
    spec_bits_put(dw, start, end, v >> lo);
    return 0;
}

static inline uint64_t spec_get_address(const uint32_t *dw, unsigned start, unsigned end)
{
    return spec_bits_get(dw, start, end) << (start % 32);
}

static inline int spec_put_fixed(uint32_t *dw, unsigned start, unsigned end, double v,
                                 unsigned frac, bool is_signed)
{
    unsigned width = end - start + 1;
    if (!isfinite(v))
        return -1;
    double scaled = ldexp(v, (int)frac);
    if (scaled > 9.0e18 || scaled < -9.0e18)
        return -1;
    int64_t raw = llround(scaled);
    if (is_signed ? !spec_fits_int(raw, width) : (raw < 0 || !spec_fits_uint((uint64_t)raw, width)))
        return -1;
    spec_bits_put(dw, start, end, (uint64_t)raw);
    return 0;
}

static inline double spec_get_fixed(const uint32_t *dw, unsigned start, unsigned end,
                                    unsigned frac, bool is_signed)
{
    uint64_t raw = spec_bits_get(dw, start, end);
    double v = is_signed ? (double)spec_sign_extend(raw, end - start + 1) : (double)raw;
    return ldexp(v, -(int)frac);
}

static inline void spec_put_float(uint32_t *dw, unsigned start, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    spec_bits_put(dw, start, start + 31, u);
}

static inline float spec_get_float(const uint32_t *dw, unsigned start)
{
    uint32_t u = (uint32_t)spec_bits_get(dw, start, start + 31);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

#endif
