/* tests/test_main.c - the CUnit runner for every suite (see tests/test.h).
 * Exits nonzero when any assertion or test fails, or when a named suite or test
 * does not exist; CUnit's own run summary is printed, then one plain line
 * "N passed, N failed" for tools that read closing lines. */
#define _XOPEN_SOURCE 700
#include "test.h"

#include <CUnit/Basic.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SUITE(sym) extern const struct test_suite sym;
#include "suites.h"
#undef SUITE

static const struct test_suite *const all_suites[] = {
#define SUITE(sym) &sym,
#include "suites.h"
#undef SUITE
    NULL
};

struct temp_dirs {
    char paths[256][64];
    unsigned count;
};

static struct temp_dirs *temp_dirs_list(void)
{
    /* The runner's only static: the list of temp dirs to remove at exit. Test
     * infrastructure, not model state. */
    static struct temp_dirs dirs;
    return &dirs;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static void remove_temp_dirs(void)
{
    struct temp_dirs *d = temp_dirs_list();
    for (unsigned i = 0; i < d->count; i++)
        nftw(d->paths[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *test_temp_dir(void)
{
    struct temp_dirs *d = temp_dirs_list();
    if (d->count == 256)
        return "/tmp";
    char *p = d->paths[d->count];
    snprintf(p, 64, "/tmp/gtsim-test-XXXXXX");
    if (!mkdtemp(p))
        return "/tmp";
    if (d->count++ == 0)
        atexit(remove_temp_dirs);
    return p;
}

const char *test_gtsim_binary(void)
{
    const char *g = getenv("GTSIM");
    return (g && *g) ? g : "build/release/gtsim";
}

int main(int argc, char **argv)
{
    const char *only_suite = argc > 1 ? argv[1] : NULL;
    const char *only_test = argc > 2 ? argv[2] : NULL;

    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "gtsim-tests: cannot initialise CUnit\n");
        return 2;
    }
    unsigned registered = 0;
    for (const struct test_suite *const *s = all_suites; *s; s++) {
        if (only_suite && strcmp(only_suite, (*s)->name) != 0)
            continue;
        CU_pSuite suite = CU_add_suite((*s)->name, NULL, NULL);
        for (const struct test_case *c = (*s)->cases; c->name; c++) {
            if (only_test && strcmp(only_test, c->name) != 0)
                continue;
            CU_add_test(suite, c->name, c->run);
            registered++;
        }
    }
    if (registered == 0) {
        fprintf(stderr, "gtsim-tests: no test matches%s%s%s%s\n", only_suite ? " suite " : "",
                only_suite ? only_suite : "", only_test ? " test " : "", only_test ? only_test : "");
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_NORMAL);
    CU_basic_run_tests();
    unsigned run = CU_get_number_of_tests_run();
    unsigned failed = CU_get_number_of_tests_failed();
    unsigned asserts_failed = CU_get_number_of_failures();
    printf("\n%u passed, %u failed\n", run - failed, failed);
    CU_cleanup_registry();
    return (failed || asserts_failed) ? 1 : 0;
}
