/* tools/csv.h - reading and writing the CSV tables of the architects' commands
 * (stats.csv of a run, results.csv of a sweep): RFC 4180 fields, a field that
 * holds a comma, a quote or a newline is quoted and its quotes doubled. */
#ifndef GTSIM_TOOLS_CSV_H
#define GTSIM_TOOLS_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "fabric/error.h"

/* A whole table in memory: rows[0] is the header. */
struct csv_table {
    char ***rows;                   /* rows[r][c], each row `columns[r]` fields */
    int *columns;
    int row_count;
};

/* Reads `path`; an error names it. */
int csv_read(const char *path, struct csv_table *t, struct gt_error *err);
void csv_free(struct csv_table *t);
/* The header's column named `name`, or -1. */
int csv_column(const struct csv_table *t, const char *name);
/* Field c of row r, "" past the row's end. */
const char *csv_field(const struct csv_table *t, int r, int c);

void csv_write_field(FILE *f, const char *s);
/* `s` as a JSON string, quotes included. */
void json_write_string(FILE *f, const char *s);
/* True when the whole of `s` reads as a number (into *v). */
bool csv_number(const char *s, double *v);

#endif
