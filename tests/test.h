/* tests/test.h - how a test file registers its CUnit suite.
 *
 * Each tests/<area>/test_<name>.c defines exactly one suite:
 *
 *     static void test_latency_exact(void) { CU_ASSERT_EQUAL(...); }
 *     static const struct test_case cases[] = {
 *         { "latency is exact", test_latency_exact },
 *         { 0 }
 *     };
 *     TEST_SUITE(channel, cases);      // the file is tests/fabric/test_channel.c
 *
 * The Makefile lists every test file's suite in build/<variant>/tests/suites.h and
 * tests/test_main.c registers them all. `gtsim-tests` runs everything;
 * `gtsim-tests channel` runs one suite; `gtsim-tests channel "latency is exact"`
 * runs one test. Tests run from the repository root (paths like tests/data/...).
 */
#ifndef GTSIM_TESTS_TEST_H
#define GTSIM_TESTS_TEST_H

#include <CUnit/CUnit.h>
#include <stddef.h>

struct test_case {
    const char *name;
    void (*run)(void);
};

struct test_suite {
    const char *name;
    const struct test_case *cases;
};

#define TEST_SUITE(suite_name, case_table)                                     \
    const struct test_suite test_suite_##suite_name = { #suite_name, case_table }

/* The directory holding the gtsim binary under test (set by `make test` as
 * $GTSIM); tests that run the CLI use this, falling back to build/release/gtsim. */
const char *test_gtsim_binary(void);

/* A fresh, empty temporary directory for one test's files; removed at exit. */
const char *test_temp_dir(void);

#endif
