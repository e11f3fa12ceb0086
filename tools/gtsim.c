/* tools/gtsim.c - the gtsim command line (skeleton; filled in by the foundation). */
#include <stdio.h>

int main(void)
{
    puts("gtsim: skeleton");
    return 0;
}
