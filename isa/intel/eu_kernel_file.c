/* isa/intel/eu_kernel_file.c - reading EU kernels from files: raw binary, or the hex
 * text intel-gen4asm writes without -b: one instruction per line,
 *     { 0x00600001, 0x204003bd, 0x008d0060, 0x00000000 },
 * (little-endian DWords in instruction order; a compact instruction is two words).
 */
#include "isa/intel/eu_isa.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/file.h"

int eu_parse_hex_text(const char *text, size_t n, uint8_t **bytes, size_t *len,
                      struct gt_error *err)
{
    *bytes = NULL;
    *len = 0;
    size_t cap = 64, used = 0;
    uint8_t *b = malloc(cap);
    if (!b)
        return gt_error_set(err, "out of memory");
    unsigned line = 1, words_in_line = 0;
    size_t i = 0;
    while (i < n) {
        char c = text[i];
        if (c == '\n') {
            if (words_in_line != 0 && words_in_line != 2 && words_in_line != 4) {
                free(b);
                return gt_error_set(err, "line %u: %u words (an instruction is 2 or 4 32-bit words)",
                                    line, words_in_line);
            }
            words_in_line = 0;
            line++;
            i++;
            continue;
        }
        if (c == '0' && i + 1 < n && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
            size_t j = i + 2;
            uint32_t v = 0;
            unsigned digits = 0;
            while (j < n && isxdigit((unsigned char)text[j])) {
                int d = isdigit((unsigned char)text[j]) ? text[j] - '0'
                                                        : (tolower((unsigned char)text[j]) - 'a' + 10);
                v = (v << 4) | (uint32_t)d;
                digits++;
                j++;
            }
            if (digits == 0 || digits > 8) {
                free(b);
                return gt_error_set(err, "line %u: bad hex word (%u digits; expected 1 to 8)",
                                    line, digits);
            }
            if (used + 4 > cap) {
                cap *= 2;
                uint8_t *nb = realloc(b, cap);
                if (!nb) {
                    free(b);
                    return gt_error_set(err, "out of memory");
                }
                b = nb;
            }
            for (unsigned k = 0; k < 4; k++)
                b[used++] = (uint8_t)(v >> (8 * k));
            words_in_line++;
            i = j;
            continue;
        }
        if (c == '{' || c == '}' || c == ',' || c == ';' || isspace((unsigned char)c)) {
            i++;
            continue;
        }
        if (c == '/' && i + 1 < n && text[i + 1] == '/') { /* comment to end of line */
            while (i < n && text[i] != '\n')
                i++;
            continue;
        }
        free(b);
        return gt_error_set(err, "line %u: unexpected character '%c' in hex text", line,
                            isprint((unsigned char)c) ? c : '?');
    }
    if (words_in_line != 0 && words_in_line != 2 && words_in_line != 4) {
        free(b);
        return gt_error_set(err, "line %u: %u words (an instruction is 2 or 4 32-bit words)",
                            line, words_in_line);
    }
    *bytes = b;
    *len = used;
    return 0;
}

static bool looks_like_hex_text(const uint8_t *p, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (!(isxdigit(c) || isspace(c) || c == '{' || c == '}' || c == ',' || c == 'x' ||
              c == 'X' || c == ';' || c == '/'))
            return false;
    }
    return true;
}

int eu_load_kernel_file(const char *path, uint8_t **bytes, size_t *len, struct gt_error *err)
{
    *bytes = NULL;
    *len = 0;
    uint8_t *b;
    size_t used;
    if (gt_read_file(path, 64u << 20, &b, &used, err) != 0)
        return -1;
    if (looks_like_hex_text(b, used)) {
        int r = eu_parse_hex_text((const char *)b, used, bytes, len, err);
        free(b);
        if (r != 0)
            return gt_error_prefix(err, "%s", path);
        return 0;
    }
    *bytes = b;
    *len = used;
    return 0;
}
