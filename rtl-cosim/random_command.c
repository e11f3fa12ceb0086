/* rtl-cosim/random_command.c - see random_command.h. */
#include "rtl-cosim/random_command.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/commands.h"

#define WAVE_BEFORE 300     /* cycles dumped before the first mismatch */
#define WAVE_AFTER 64       /* and after it */

int random_command_main(const struct random_command *c, int argc, char **argv)
{
    const char *wave = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(c->usage, stdout);
            return EXIT_OK;
        }
        if (!v) {
            fprintf(stderr, "gtsim-cosim %s: %s needs a value (try --help)\n", c->name, a);
            return EXIT_ERROR;
        }
        i++;
        if (!strcmp(a, "--impl")) {
            *c->impl = v;
        } else if (!strcmp(a, "--wave")) {
            wave = v;
        } else if (!c->option(c->context, a, v)) {
            fprintf(stderr, "gtsim-cosim %s: bad option '%s %s' (try --help)\n", c->name, a, v);
            return EXIT_ERROR;
        }
    }
    /* Lockstep runs first without a wave; the run is deterministic, so a
     * mismatch is run again dumping only the cycles around it. Other impls
     * dump the whole run. */
    bool lockstep = strncmp(*c->impl, "lockstep", 8) == 0;
    struct random_outcome out = { 0 };
    struct gt_error err;
    if (c->run(c->context, lockstep ? NULL : wave, 0, 0, false, &out, &err) < 0) {
        fprintf(stderr, "gtsim-cosim %s: %s\n", c->name, err.message);
        return EXIT_ERROR;
    }
    c->print(c->context);
    if (!lockstep)
        return out.mismatches || out.failed ? 3 : EXIT_OK;
    printf("  compared %" PRIu64 " %s, %" PRIu64 " mismatching\n", out.compared, c->compared,
           out.mismatches);
    if (out.mismatches)
        printf("  first mismatch at cycle %" PRIu64 ": %s\n", out.first_mismatch,
               out.first_report ? out.first_report : "");
    if (wave && out.mismatches) {
        uint64_t from = out.first_mismatch > WAVE_BEFORE ? out.first_mismatch - WAVE_BEFORE : 0;
        uint64_t to = out.first_mismatch + WAVE_AFTER;
        struct random_outcome again;
        if (c->run(c->context, wave, from, to, true, &again, &err) < 0) {
            fprintf(stderr, "gtsim-cosim %s: %s\n", c->name, err.message);
            return EXIT_ERROR;
        }
        printf("  wave: %s (cycles %" PRIu64 "..%" PRIu64 ")\n", wave, from, to);
    } else if (wave) {
        printf("  wave: none written (no mismatch)\n");
    }
    return out.mismatches || out.failed ? 3 : EXIT_OK;
}
