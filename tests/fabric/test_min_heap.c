/* tests/fabric/test_min_heap.c - the min-heap gives back the least item
 * first under the caller's order: checked against a sorted copy over random
 * pushes and pops, with many equal keys, and with a sequence number making
 * equal keys FIFO. */
#include <stdlib.h>
#include <string.h>

#include "fabric/min_heap.h"
#include "tests/test.h"

struct item {
    uint64_t due;
    uint64_t seq;
    uint32_t payload;
};

static bool by_due(const void *a, const void *b)
{
    return ((const struct item *)a)->due < ((const struct item *)b)->due;
}

static bool by_due_then_seq(const void *pa, const void *pb)
{
    const struct item *a = pa, *b = pb;
    return a->due != b->due ? a->due < b->due : a->seq < b->seq;
}

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Random pushes and pops; every pop must give the least due still held
 * (equal dues in any order: the multiset is checked by payload). */
static void test_random_against_a_reference(void)
{
    struct min_heap h;
    min_heap_init(&h, sizeof(struct item), by_due);
    CU_ASSERT_PTR_NULL(min_heap_top(&h));
    min_heap_pop(&h);                               /* empty: nothing */
    enum { N = 20000 };
    uint64_t *held = calloc(N, sizeof *held);       /* due of payload i, or UINT64_MAX */
    for (int i = 0; i < N; i++)
        held[i] = UINT64_MAX;
    uint64_t x = 88172645463325252ull;
    uint32_t pushed = 0, popped = 0;
    while (popped < N) {
        bool push = pushed < N && (h.count == 0 || next_random(&x) % 3 != 0);
        if (push) {
            struct item it = { next_random(&x) % 50, 0, pushed };
            held[pushed++] = it.due;
            min_heap_push(&h, &it);
        } else {
            const struct item *top = min_heap_top(&h);
            CU_ASSERT_PTR_NOT_NULL_FATAL(top);
            uint64_t least = UINT64_MAX;
            for (uint32_t i = 0; i < pushed; i++)
                if (held[i] < least)
                    least = held[i];
            CU_ASSERT_EQUAL(top->due, least);
            CU_ASSERT_EQUAL(held[top->payload], top->due);
            held[top->payload] = UINT64_MAX;
            min_heap_pop(&h);
            popped++;
        }
    }
    CU_ASSERT_EQUAL(h.count, 0);
    free(held);
    min_heap_free(&h);
}

/* With a sequence number in the order, equal dues come out in push order. */
static void test_equal_keys_fifo_with_a_sequence(void)
{
    struct min_heap h;
    min_heap_init(&h, sizeof(struct item), by_due_then_seq);
    for (uint32_t i = 0; i < 300; i++)
        min_heap_push(&h, &(struct item){ (i * 7) % 3, i, i });
    uint64_t last_due = 0, last_seq = 0;
    for (uint32_t i = 0; i < 300; i++) {
        const struct item *top = min_heap_top(&h);
        CU_ASSERT_PTR_NOT_NULL_FATAL(top);
        CU_ASSERT(top->due > last_due || (top->due == last_due && (i == 0 || top->seq > last_seq)));
        last_due = top->due;
        last_seq = top->seq;
        min_heap_pop(&h);
    }
    CU_ASSERT_PTR_NULL(min_heap_top(&h));
    min_heap_push(&h, &(struct item){ 5, 0, 0 });
    min_heap_clear(&h);
    CU_ASSERT_PTR_NULL(min_heap_top(&h));
    min_heap_free(&h);
}

static const struct test_case cases[] = {
    { "random pushes and pops against a reference", test_random_against_a_reference },
    { "equal keys in push order with a sequence number", test_equal_keys_fifo_with_a_sequence },
    { 0 }
};
TEST_SUITE(min_heap, cases);
