/* tests/fabric/test_stats.c - stats.json nests paths in first-seen order,
 * stats.csv quotes what needs it, integers stay exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/stats.h"
#include "fabric/unit.h"
#include "tests/test.h"

static char *render(const struct stats_writer *w, bool json)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (json)
        stats_write_json(w, f, NULL);
    else
        stats_write_csv(w, f, NULL);
    fclose(f);
    return buf;
}

static void test_json_nests_paths(void)
{
    struct stats_writer *w = stats_writer_create();
    stats_set_prefix(w, "gpu.slice0.subslice1.eu3");
    stats_emit_u64(w, "thread_cycles", 18446744073709551615ull, "cycles", "max u64 stays exact");
    stats_set_prefix(w, "gpu.slice0.subslice1.eu10");
    stats_emit(w, "ratio", 0.25, "", "");
    stats_set_prefix(w, "gpu");
    stats_emit(w, "bad", 0.0 / 0.0, "", "NaN is null in JSON");
    char *j = render(w, true);
    const char *expect =
        "{\n"
        "  \"gpu\": {\n"
        "    \"slice0\": {\n"
        "      \"subslice1\": {\n"
        "        \"eu3\": {\n"
        "          \"thread_cycles\": 18446744073709551615\n"
        "        },\n"
        "        \"eu10\": {\n"
        "          \"ratio\": 0.25\n"
        "        }\n"
        "      }\n"
        "    },\n"
        "    \"bad\": null\n"
        "  }\n"
        "}\n";
    CU_ASSERT_STRING_EQUAL(j, expect);
    free(j);
    double v;
    CU_ASSERT_TRUE(stats_lookup(w, "gpu.slice0.subslice1.eu10.ratio", &v));
    CU_ASSERT_DOUBLE_EQUAL(v, 0.25, 0);
    CU_ASSERT_FALSE(stats_lookup(w, "gpu.slice0", &v));
    stats_writer_destroy(w);
}

static void test_csv_quotes(void)
{
    struct stats_writer *w = stats_writer_create();
    stats_emit_u64(w, "a", 7, "msgs", "plain");
    stats_emit_u64(w, "b", 8, "", "with, comma and \"quotes\"");
    char *c = render(w, false);
    CU_ASSERT_STRING_EQUAL(c, "path,value,measure,description\n"
                              "a,7,msgs,plain\n"
                              "b,8,,\"with, comma and \"\"quotes\"\"\"\n");
    free(c);
    stats_writer_destroy(w);
}

static const struct test_case cases[] = {
    { "json nests paths", test_json_nests_paths },
    { "csv quotes", test_csv_quotes },
    { 0 }
};
TEST_SUITE(stats, cases);
