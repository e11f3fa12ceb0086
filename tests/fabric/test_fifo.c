/* tests/fabric/test_fifo.c - the growable ring (fabric/fifo.h): elements
 * leave in the order they came, across growth and wrap-around, and an empty
 * queue says so. */
#include "../test.h"

#include "fabric/fifo.h"

struct item {
    uint32_t a;
    uint64_t b;
};

static void test_order_across_growth_and_wrap(void)
{
    struct fifo f;
    fifo_init(&f, sizeof(struct item));
    struct item out;
    CU_ASSERT_FALSE(fifo_pop(&f, &out));
    /* fill part way, drain some (the head moves), then push past the first
     * capacity so the copy must unwrap the ring */
    uint32_t next_in = 0, next_out = 0;
    for (; next_in < 200; next_in++)
        fifo_push(&f, &(struct item){ next_in, 1000ull + next_in });
    for (; next_out < 150; next_out++) {
        CU_ASSERT_TRUE_FATAL(fifo_pop(&f, &out));
        CU_ASSERT_EQUAL(out.a, next_out);
        CU_ASSERT_EQUAL(out.b, 1000ull + next_out);
    }
    for (; next_in < 1000; next_in++)
        fifo_push(&f, &(struct item){ next_in, 1000ull + next_in });
    CU_ASSERT_EQUAL(fifo_count(&f), 1000 - 150);
    for (; next_out < 1000; next_out++) {
        CU_ASSERT_TRUE_FATAL(fifo_pop(&f, &out));
        CU_ASSERT_EQUAL(out.a, next_out);
        CU_ASSERT_EQUAL(out.b, 1000ull + next_out);
    }
    CU_ASSERT_EQUAL(fifo_count(&f), 0);
    CU_ASSERT_FALSE(fifo_pop(&f, &out));
    fifo_release(&f);
    CU_ASSERT_EQUAL(fifo_count(&f), 0);
    fifo_push(&f, &(struct item){ 7, 8 });          /* usable again after release */
    CU_ASSERT_TRUE(fifo_pop(&f, &out));
    CU_ASSERT_EQUAL(out.a, 7);
    fifo_release(&f);
}

static const struct test_case cases[] = {
    { "order across growth and wrap", test_order_across_growth_and_wrap },
    { 0 }
};
TEST_SUITE(fifo, cases);
