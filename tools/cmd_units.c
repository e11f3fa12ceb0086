/* tools/cmd_units.c - `gtsim units`: every unit kind with its ports, params
 * and stats, and their help. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fabric/port.h"
#include "tools/commands.h"
#include "units/registry.h"

static void print_kind(const struct unit_ops *ops, void *context)
{
    const char *only = context;
    if (only && strcmp(only, ops->kind) != 0)
        return;
    printf("%s%s\n  %s\n", ops->kind, ops->placeholder ? " (placeholder)" : "", ops->help);
    printf("  params:\n");
    if (!ops->params || !ops->params->path)
        printf("    (none)\n");
    for (const struct param_desc *p = ops->params; p && p->path; p++) {
        char def[96], range[96];
        switch (p->type) {
        case PARAM_BOOL:
            snprintf(def, sizeof def, "%s", p->def ? "true" : "false");
            range[0] = 0;
            break;
        case PARAM_DOUBLE:
            snprintf(def, sizeof def, "%g", p->fdef);
            snprintf(range, sizeof range, " [%g..%g]", p->fmin, p->fmax);
            break;
        case PARAM_STRING:
            snprintf(def, sizeof def, "\"%s\"", p->sdef ? p->sdef : "");
            range[0] = 0;
            break;
        default:
            snprintf(def, sizeof def, "%" PRId64, p->def);
            snprintf(range, sizeof range, " [%" PRId64 "..%" PRId64 "]", p->min, p->max);
            break;
        }
        printf("    %-16s %-6s default %s%s\n        %s\n", p->path, param_type_name(p->type), def,
               range, p->help);
    }
    printf("  ports:\n");
    if (ops->port && (!ops->ports || !ops->ports->name))
        printf("    (any name, either direction: made when a link names them)\n");
    else if (!ops->ports || !ops->ports->name)
        printf("    (none)\n");
    for (const struct port_desc *d = ops->ports; d && d->name; d++) {
        char count[80];
        if (d->count_param)
            snprintf(count, sizeof count, "[%s]", d->count_param);
        else if (d->count > 1)
            snprintf(count, sizeof count, "[%u]", d->count);
        else
            count[0] = 0;
        char kinds[160];
        printf("    %s%-*s %-3s %s%s%s\n        carries: %s\n", d->name,
               (int)(16 - strlen(d->name)), count, d->direction == PORT_IN ? "in" : "out",
               (d->flags & PORT_OPTIONAL) ? "(optional) " : "",
               (d->flags & PORT_OPEN) ? "(open: one port per link) " : "", d->help ? d->help : "",
               msg_kinds_text(d->msg_kinds, kinds, sizeof kinds));
    }
    printf("  stats (besides ticks, busy_ticks and per-port counters):\n");
    if (!ops->stats || !ops->stats->name)
        printf("    (none)\n");
    for (const struct stat_desc *s = ops->stats; s && s->name; s++)
        printf("    %-16s %-9s %s\n", s->name, s->measure, s->help);
    if (ops->key_figures && ops->key_figures->label) {
        printf("  key figures (in the run summary):\n");
        for (const struct key_figure *k = ops->key_figures; k->label; k++)
            printf("    %s: %s%s%s\n", k->label, k->stat, k->other ? ", " : "",
                   k->other ? k->other : "");
    }
    printf("\n");
}

int cmd_units(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: gtsim units [KIND]\n\n"
                   "Lists every unit kind (or one) with its params (type, default, range, help),\n"
                   "ports (direction, array size, help, the message kinds each carries), stats\n"
                   "and the key figures it gives the run summary. Every unit also has the\n"
                   "fabric's stats: ticks, busy_ticks, and per port: received (inputs); sent,\n"
                   "stalled_full, stalled_width, peak_occupancy (outputs).\n");
            return EXIT_OK;
        }
        if (argv[i][0] == '-') {
            fprintf(stderr, "gtsim units: unknown option '%s'\n", argv[i]);
            return EXIT_ERROR;
        }
        only = argv[i];
    }
    if (only && !lookup(only)) {
        fprintf(stderr, "gtsim units: no unit kind '%s'\n", only);
        return EXIT_ERROR;
    }
    if (only) {
        print_kind(lookup(only), NULL);
        return EXIT_OK;
    }
    unit_kinds_each(print_kind, NULL);
    return EXIT_OK;
}
