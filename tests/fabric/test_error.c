/* tests/fabric/test_error.c - error formatting. */
#include "fabric/error.h"
#include "tests/test.h"

#include <string.h>

static void test_set_formats_and_returns_minus_one(void)
{
    struct gt_error err;
    CU_ASSERT_EQUAL(gt_error_set(&err, "%s:%d: bad %s", "a.cfg", 7, "key"), -1);
    CU_ASSERT_STRING_EQUAL(err.message, "a.cfg:7: bad key");
    CU_ASSERT_EQUAL(gt_error_prefix(&err, "config"), -1);
    CU_ASSERT_STRING_EQUAL(err.message, "config: a.cfg:7: bad key");
    CU_ASSERT_EQUAL(gt_error_set(NULL, "ignored"), -1);
}

static void test_long_message_is_truncated_not_overflowed(void)
{
    struct gt_error err;
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    gt_error_set(&err, "%s", big);
    CU_ASSERT_EQUAL(strlen(err.message), GT_ERROR_MAX - 1);
}

static const struct test_case cases[] = {
    { "set formats and returns -1", test_set_formats_and_returns_minus_one },
    { "long message is truncated", test_long_message_is_truncated_not_overflowed },
    { 0 }
};
TEST_SUITE(error, cases);
