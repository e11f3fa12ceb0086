/* tools/cli.c - the gtsim command line: dispatches to the subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cmd_disasm.h"
#include "tools/commands.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv, unit_kind_lookup_fn lookup);
    const char *summary;
};

static int run_disasm(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    (void)lookup;
    return cmd_disasm(argc, argv);
}

static const struct command commands[] = {
    { "run", cmd_run, "build a machine from a config and run a workload on it" },
    { "units", cmd_units, "list every unit kind with its ports, params and stats" },
    { "decode", cmd_decode, "print every command a capture executes, with its fields" },
    { "config", cmd_config, "print the resolved config (includes and --set applied)" },
    { "sweep", cmd_sweep, "run a config over a grid of parameter values and workloads, tabulated" },
    { "compare", cmd_compare, "every stat and config value that differs between two runs" },
    { "plot", cmd_plot, "plot a stat of a sweep against a swept parameter (PNG, gnuplot)" },
    { "disasm", run_disasm, "disassemble an EU kernel or a VideoCore IV QPU program (--isa vc4)" },
    { NULL, NULL, NULL }
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gtsim COMMAND [OPTIONS]\n\n"
               "gtsim is a unit-level hardware model of GPUs (Intel Gen4-Gen9, VideoCore IV).\n\n"
               "commands:\n");
    for (const struct command *c = commands; c->name; c++)
        fprintf(f, "  %-8s %s\n", c->name, c->summary);
    fprintf(f, "\n`gtsim COMMAND --help` describes each. With no arguments, `gtsim run` runs the\n"
               "built-in workload on configs/gen9-skl-gt2.cfg.\n");
}

bool cli_parse_u64(const char *s, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-')
        return false;
    *out = v;
    return true;
}

bool cli_on_path(const char *program)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        char file[4200];
        snprintf(file, sizeof file, "%.*s/%s", (int)n, path, program);
        if (n && access(file, X_OK) == 0)
            return true;
        path += n + (path[n] == ':');
    }
    return false;
}

int gtsim_main(int argc, char **argv, unit_kind_lookup_fn lookup)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_ERROR;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return EXIT_OK;
    }
    for (const struct command *c = commands; c->name; c++)
        if (strcmp(argv[1], c->name) == 0)
            return c->run(argc - 1, argv + 1, lookup);
    fprintf(stderr, "gtsim: unknown command '%s' (try gtsim --help)\n", argv[1]);
    return EXIT_ERROR;
}
