/* tools/gtsim.c - the gtsim binary: the command line with the standard kinds. */
#include "tools/commands.h"
#include "units/registry.h"

int main(int argc, char **argv)
{
    return gtsim_main(argc, argv, unit_kind_find);
}
