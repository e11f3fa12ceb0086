/* tests/support/image_compare.c - see image_compare.h. */
#include "tests/support/image_compare.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

void rgb_image_free(struct rgb_image *img)
{
    free(img->rgb);
    memset(img, 0, sizeof *img);
}

/* The next header token of a PPM (skipping white space and # comments). */
static bool ppm_token(const uint8_t *d, size_t n, size_t *at, uint32_t *value)
{
    for (;;) {
        while (*at < n && isspace((unsigned char)d[*at]))
            (*at)++;
        if (*at < n && d[*at] == '#') {
            while (*at < n && d[*at] != '\n')
                (*at)++;
            continue;
        }
        break;
    }
    if (*at >= n || !isdigit((unsigned char)d[*at]))
        return false;
    uint64_t v = 0;
    while (*at < n && isdigit((unsigned char)d[*at]) && v < 1000000)
        v = v * 10 + (uint64_t)(d[(*at)++] - '0');
    *value = (uint32_t)v;
    return true;
}

bool rgb_image_read_ppm(const char *path, struct rgb_image *out)
{
    memset(out, 0, sizeof *out);
    gzFile f = gzopen(path, "rb");
    if (!f)
        return false;
    size_t cap = 1 << 16, n = 0;
    uint8_t *d = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            uint8_t *g = realloc(d, cap);
            if (!g)
                break;
            d = g;
        }
        int r = gzread(f, d + n, (unsigned)(cap - n));
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    gzclose(f);
    size_t at = 2;
    uint32_t w, h, maxval;
    bool ok = n > 2 && d[0] == 'P' && d[1] == '6' && ppm_token(d, n, &at, &w) &&
              ppm_token(d, n, &at, &h) && ppm_token(d, n, &at, &maxval) && maxval == 255 &&
              w > 0 && h > 0 && w <= 16384 && h <= 16384;
    at++;                               /* the one white space after maxval */
    if (ok && n - at >= (size_t)w * h * 3) {
        out->width = w;
        out->height = h;
        out->rgb = malloc((size_t)w * h * 3);
        memcpy(out->rgb, d + at, (size_t)w * h * 3);
    } else {
        ok = false;
    }
    free(d);
    return ok;
}

uint32_t image_probes_read(const char *path, struct image_probe *probes, uint32_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[512];
    uint32_t count = 0;
    while (count < max && fgets(line, sizeof line, f)) {
        struct image_probe p;
        memset(&p, 0, sizeof p);
        unsigned x, y, t;
        int r, g, b, a;
        /* the coordinates' parenthesis: the first "(" followed by a digit
         * (a probe's name may hold one, e.g. "POINT 4x4 (lower-left)") */
        const char *open = strchr(line, '(');
        while (open) {
            const char *q = open + 1;
            while (*q == ' ')
                q++;
            if (isdigit((unsigned char)*q))
                break;
            open = strchr(open + 1, '(');
        }
        const char *expect = strstr(line, "expect");
        if (strncmp(line, "probe", 5) == 0 && open && expect &&
            sscanf(open, "( %u , %u )", &x, &y) == 2 &&
            sscanf(expect, "expect %d %d %d %d tol %u", &r, &g, &b, &a, &t) == 5) {
            p = (struct image_probe){ x, y, { r, g, b }, t };
        } else if (sscanf(line, "pixel(%u,%u) = %d %d %d %d", &x, &y, &r, &g, &b, &a) == 6) {
            p = (struct image_probe){ x, y, { r, g, b }, 2 };
        } else {
            continue;
        }
        probes[count++] = p;
    }
    fclose(f);
    return count;
}

static uint32_t channel_difference(uint8_t a, uint8_t b)
{
    return a > b ? (uint32_t)(a - b) : (uint32_t)(b - a);
}

/* Share of pixels whose RGB differs by more than 2 between a candidate row
 * order and a reference. */
static double off_share(const uint8_t *rgba, bool flip, const struct rgb_image *ref)
{
    uint64_t off = 0;
    for (uint32_t y = 0; y < ref->height; y++) {
        uint32_t src_row = flip ? ref->height - 1 - y : y;
        for (uint32_t x = 0; x < ref->width; x++) {
            const uint8_t *c = rgba + ((size_t)src_row * ref->width + x) * 4;
            const uint8_t *r = ref->rgb + ((size_t)y * ref->width + x) * 3;
            for (int k = 0; k < 3; k++) {
                if (channel_difference(c[k], r[k]) > 2) {
                    off++;
                    break;
                }
            }
        }
    }
    return (double)off / ((double)ref->width * ref->height);
}

static double reference_disagreement(const struct rgb_image *a, const struct rgb_image *b)
{
    uint64_t off = 0, n = (uint64_t)a->width * a->height;
    for (uint64_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            if (channel_difference(a->rgb[i * 3 + k], b->rgb[i * 3 + k]) > 2) {
                off++;
                break;
            }
    return (double)off / (double)n;
}

struct image_verdict image_judge(const uint8_t *rgba, uint32_t width, uint32_t height,
                                 const struct rgb_image *refs, uint32_t ref_count,
                                 const struct image_probe *probes, uint32_t probe_count)
{
    struct image_verdict best = { .pass = false, .off_share = 1.0, .allowed_share = 0.01,
                                  .probes_bad = probe_count, .probes = probe_count };
    if (ref_count == 0 || !rgba)
        return best;
    for (uint32_t i = 0; i < ref_count; i++)
        if (refs[i].width != width || refs[i].height != height)
            return best;
    double allowed = 0.01;
    if (ref_count >= 2) {
        double d = reference_disagreement(&refs[0], &refs[1]);
        if (d > allowed)
            allowed = d;
    }
    bool have = false;
    for (int flip = 0; flip < 2; flip++) {
        double share = 1.0;
        for (uint32_t i = 0; i < ref_count; i++) {
            double s = off_share(rgba, flip, &refs[i]);
            if (s < share)
                share = s;
        }
        uint32_t bad = 0;
        for (uint32_t p = 0; p < probe_count; p++) {
            const struct image_probe *q = &probes[p];
            if (q->x >= width || q->y >= height) {
                bad++;
                continue;
            }
            /* GL row y counts from the bottom; the candidate's row as it
             * would be displayed (top first) is height-1-y, which is memory
             * row height-1-y unflipped, or memory row y flipped. */
            uint32_t top_row = height - 1 - q->y;
            uint32_t memory_row = flip ? height - 1 - top_row : top_row;
            const uint8_t *c = rgba + ((size_t)memory_row * width + q->x) * 4;
            for (int k = 0; k < 3; k++) {
                if (q->expect[k] >= 0 &&
                    channel_difference(c[k], (uint8_t)q->expect[k]) > q->tolerance) {
                    bad++;
                    break;
                }
            }
        }
        struct image_verdict v = { .pass = share <= allowed && bad == 0, .flipped = flip != 0,
                                   .off_share = share, .allowed_share = allowed,
                                   .probes_bad = bad, .probes = probe_count };
        /* the better order: a pass, then fewer pixels off, then fewer probes bad */
        if (!have || (v.pass && !best.pass) ||
            (v.pass == best.pass && (v.off_share < best.off_share ||
                                     (v.off_share == best.off_share && v.probes_bad < best.probes_bad)))) {
            best = v;
            have = true;
        }
    }
    return best;
}

bool image_judge_test(const char *dir, const char *test, const uint8_t *rgba, uint32_t width,
                      uint32_t height, struct image_verdict *verdict)
{
    static const char *const renderers[] = { "llvmpipe", "softpipe" };
    struct rgb_image refs[2];
    uint32_t count = 0;
    char path[1024];
    for (int r = 0; r < 2; r++) {
        snprintf(path, sizeof path, "%s/ref_%s_%s.ppm.gz", dir, renderers[r], test);
        if (rgb_image_read_ppm(path, &refs[count]))
            count++;
    }
    struct image_probe probes[IMAGE_MAX_PROBES];
    uint32_t probe_count = 0;
    size_t len = strlen(test);
    bool rt1 = len > 4 && strcmp(test + len - 4, "_rt1") == 0;
    if (!rt1) {                          /* RT1's probes are float checks, not pixels */
        snprintf(path, sizeof path, "%s/ref_llvmpipe_%s.txt", dir, test);
        probe_count = image_probes_read(path, probes, IMAGE_MAX_PROBES);
    }
    *verdict = image_judge(rgba, width, height, refs, count, probes, probe_count);
    for (uint32_t i = 0; i < count; i++)
        rgb_image_free(&refs[i]);
    return verdict->pass;
}
