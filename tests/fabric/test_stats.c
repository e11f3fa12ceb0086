/* tests/fabric/test_stats.c - stats.json nests paths in first-seen order,
 * stats.csv quotes what needs it, integers stay exact. */
#include <inttypes.h>
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


/* The writers' own number and indentation formatting against printf's: every
 * digit count of a u64 (0, 9, 10, 99, ... UINT64_MAX) in the CSV, a JSON path
 * 40 levels deep (indentation past the writer's 64-space chunk), and names
 * with a quote, a backslash and a control character escaped in the JSON. */
static void test_numbers_and_indentation_as_printf(void)
{
    struct stats_writer *w = stats_writer_create();
    char expect[8192] = "path,value,measure,description\n";
    size_t used = strlen(expect);
    uint64_t v = 0;
    for (unsigned i = 0; i < 41; i++) {
        char name[16];
        snprintf(name, sizeof name, "n%u", i);
        stats_emit_u64(w, name, v, "", "");
        used += (size_t)snprintf(expect + used, sizeof expect - used, "%s,%" PRIu64 ",,\n", name, v);
        /* 0, 9, 10, 99, 100, ...: both ends of every length; then UINT64_MAX */
        v = i == 39 ? UINT64_MAX : (i % 2 == 0 ? v * 10 + 9 : v + 1);
    }
    char *c = render(w, false);
    CU_ASSERT_STRING_EQUAL(c, expect);
    free(c);
    stats_writer_destroy(w);

    w = stats_writer_create();
    char path[256] = "";
    for (unsigned d = 0; d < 40; d++)
        strcat(path, d ? ".a" : "a");
    stats_set_prefix(w, path);
    stats_emit_u64(w, "q\"b\\c\x01", 5, "", "");
    c = render(w, true);
    used = 0;
    used += (size_t)snprintf(expect + used, sizeof expect - used, "{");
    for (int d = 0; d < 40; d++)
        used += (size_t)snprintf(expect + used, sizeof expect - used, "\n%*s\"a\": {", 2 * (d + 1), "");
    used += (size_t)snprintf(expect + used, sizeof expect - used, "\n%*s\"q\\\"b\\\\c\\u0001\": 5", 82, "");
    for (int d = 40; d >= 0; d--)
        used += (size_t)snprintf(expect + used, sizeof expect - used, "\n%*s}", 2 * d, "");
    snprintf(expect + used, sizeof expect - used, "\n");
    CU_ASSERT_STRING_EQUAL(c, expect);
    free(c);
    stats_writer_destroy(w);
}

static const struct test_case cases[] = {
    { "json nests paths", test_json_nests_paths },
    { "csv quotes", test_csv_quotes },
    { "numbers and indentation as printf writes them", test_numbers_and_indentation_as_printf },
    { 0 }
};
TEST_SUITE(stats, cases);
