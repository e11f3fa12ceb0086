/* tests/fabric/test_recording.c - port recordings: a written recording reads
 * back message for message, and malformed files give an error naming the
 * file and line, never a crash. */
#include <stdio.h>
#include <string.h>

#include "fabric/recording.h"
#include "tests/test.h"

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/r.rec", test_temp_dir());
    struct recording_header h = { .direction = PORT_OUT, .period_ps = 869 };
    snprintf(h.unit, sizeof h.unit, "gpu.cs");
    snprintf(h.kind, sizeof h.kind, "cs");
    snprintf(h.port, sizeof h.port, "vf");
    struct gt_error err;
    struct recorder *w = recorder_open(path, &h, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    const uint8_t payload[5] = { 0x0a, 0x00, 0xff, 0x12, 0x80 };
    recorder_write_raw(w, 12, 7, 2, payload, 5);
    recorder_write_raw(w, 13, 8, 0, NULL, 0);
    CU_ASSERT_EQUAL(recorder_count(w), 2);
    CU_ASSERT_EQUAL(recorder_close(w, &err), 0);

    struct recording *r = recording_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    const struct recording_header *got = recording_header(r);
    CU_ASSERT_STRING_EQUAL(got->unit, "gpu.cs");
    CU_ASSERT_STRING_EQUAL(got->port, "vf");
    CU_ASSERT_EQUAL(got->direction, PORT_OUT);
    CU_ASSERT_EQUAL(got->period_ps, 869);
    struct recorded_msg m;
    CU_ASSERT_EQUAL(recording_next(r, &m, &err), 1);
    CU_ASSERT_EQUAL(m.cycle, 12);
    CU_ASSERT_EQUAL(m.tag, 7);
    CU_ASSERT_EQUAL(m.kind, 2);
    CU_ASSERT_EQUAL(m.size, 5);
    CU_ASSERT_EQUAL(memcmp(m.payload, payload, 5), 0);
    CU_ASSERT_EQUAL(recording_next(r, &m, &err), 1);
    CU_ASSERT_EQUAL(m.size, 0);
    CU_ASSERT_EQUAL(recording_next(r, &m, &err), 0);
    recording_close(r);

    /* a port of an array, with the channel's timing */
    h.index = 2;
    h.indexed = true;
    h.link = (struct link_params){ 4, 16, 1 };
    snprintf(h.port, sizeof h.port, "client_reply");
    w = recorder_open(path, &h, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(recorder_close(w, &err), 0);
    r = recording_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    got = recording_header(r);
    CU_ASSERT_STRING_EQUAL(got->port, "client_reply");
    CU_ASSERT_EQUAL(got->index, 2);
    CU_ASSERT_TRUE(got->indexed);
    CU_ASSERT_EQUAL(got->link.latency, 4);
    CU_ASSERT_EQUAL(got->link.capacity, 16);
    CU_ASSERT_EQUAL(got->link.width, 1);
    CU_ASSERT_EQUAL(recording_next(r, &m, &err), 0);
    recording_close(r);
}

#define HEADER "gtsim-port-recording 1\nunit u\nkind k\nport p in\nperiod_ps 1000\n"

static void test_malformed_files(void)
{
    static const struct { const char *text, *says; bool at_open; } bad[] = {
        { "not a recording\n", ":1: not a gtsim port recording", true },
        { "gtsim-port-recording 1\nunit u\n", "header ends early", true },
        { "gtsim-port-recording 1\nunit u\nkind k\nport p sideways\nperiod_ps 1\n",
          "bad header line", true },
        { "gtsim-port-recording 1\nunit u\nkind k\nport p[x] in\nperiod_ps 1\n",
          ":4: bad port index", true },
        { "gtsim-port-recording 1\nunit u\nkind k\nport p[3 in\nperiod_ps 1\n",
          ":4: bad port index", true },
        { "gtsim-port-recording 1\nunit u\nkind k\nport p in\nlink 1 0 1\nperiod_ps 1\n",
          ":5: bad link line", true },
        { "gtsim-port-recording 1\nunit u\nkind k\nport p in\nlink 1 2\nperiod_ps 1\n",
          ":5: bad link line", true },
        { HEADER "m 1 2 3\n", ":6: expected 'm CYCLE TAG KIND SIZE HEX'", false },
        { HEADER "m 1 2 0 4 0a0b\n", ":6: 4 payload bytes announced, 4 hex digits given", false },
        { HEADER "m 1 2 0 2 0xzz\n", ":6: bad hex digit", false },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/bad%zu.rec", test_temp_dir(), i);
        write_text(path, bad[i].text);
        struct gt_error err = { "" };
        struct recording *r = recording_open(path, &err);
        if (bad[i].at_open) {
            CU_ASSERT_PTR_NULL(r);
        } else {
            CU_ASSERT_PTR_NOT_NULL_FATAL(r);
            struct recorded_msg m;
            CU_ASSERT_EQUAL(recording_next(r, &m, &err), -1);
            recording_close(r);
        }
        if (!strstr(err.message, bad[i].says))
            fprintf(stderr, "\ncase %zu: %s\n", i, err.message);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].says));
        CU_ASSERT_PTR_NOT_NULL(strstr(err.message, path));
    }
    struct gt_error err;
    CU_ASSERT_PTR_NULL(recording_open("/nonexistent/x.rec", &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cannot read recording"));
}

static const struct test_case cases[] = {
    { "round trip", test_round_trip },
    { "malformed files", test_malformed_files },
    { 0 }
};
TEST_SUITE(recording, cases);
