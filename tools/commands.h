/* tools/commands.h - the gtsim subcommands. Each takes argv from its own name
 * on (argv[0] = "run") and returns the process exit status. */
#ifndef GTSIM_TOOLS_COMMANDS_H
#define GTSIM_TOOLS_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_units(int argc, char **argv);

/* Exit statuses. */
enum {
    EXIT_OK = 0,
    EXIT_ERROR = 1,         /* bad config, bad arguments, unreadable input */
    EXIT_DEADLOCK = 2,      /* the run stopped on the watchdog */
};

#endif
