/* tools/bench/bench.c - benchmarks (skeleton). */
#include <stdio.h>

int main(void)
{
    puts("gtsim-bench: skeleton");
    return 0;
}
