/* tools/csv.c - see csv.h. */
#include "tools/csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/alloc.h"

struct growing {
    char *text;
    size_t length, capacity;
};

static void grow_put(struct growing *g, char c)
{
    if (g->length + 1 >= g->capacity) {
        g->capacity = g->capacity ? 2 * g->capacity : 64;
        g->text = gt_xrealloc(g->text, g->capacity);
    }
    g->text[g->length++] = c;
    g->text[g->length] = 0;
}

static char *grow_take(struct growing *g)
{
    char *s = g->text ? g->text : gt_xstrdup("");
    memset(g, 0, sizeof *g);
    return s;
}

static void add_field(char ***row, int *count, char *field)
{
    *row = gt_xrealloc(*row, (size_t)(*count + 1) * sizeof **row);
    (*row)[(*count)++] = field;
}

static void add_row(struct csv_table *t, char **row, int count)
{
    t->rows = gt_xrealloc(t->rows, (size_t)(t->row_count + 1) * sizeof *t->rows);
    t->columns = gt_xrealloc(t->columns, (size_t)(t->row_count + 1) * sizeof *t->columns);
    t->rows[t->row_count] = row;
    t->columns[t->row_count++] = count;
}

int csv_read(const char *path, struct csv_table *t, struct gt_error *err)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f)
        return gt_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    struct growing field = { 0 };
    char **row = NULL;
    int count = 0;
    bool quoted = false, any = false;
    int c;
    while ((c = fgetc(f)) != EOF) {
        any = true;
        if (quoted) {
            if (c != '"') {
                grow_put(&field, (char)c);
                continue;
            }
            int next = fgetc(f);
            if (next == '"') {
                grow_put(&field, '"');
                continue;
            }
            quoted = false;
            if (next == EOF)
                break;
            c = next;
        }
        if (c == '"' && field.length == 0) {
            quoted = true;
        } else if (c == ',') {
            add_field(&row, &count, grow_take(&field));
        } else if (c == '\n') {
            add_field(&row, &count, grow_take(&field));
            add_row(t, row, count);
            row = NULL;
            count = 0;
            any = false;
        } else if (c != '\r') {
            grow_put(&field, (char)c);
        }
    }
    if (any) {
        add_field(&row, &count, grow_take(&field));
        add_row(t, row, count);
    }
    free(field.text);
    fclose(f);
    if (t->row_count == 0)
        return gt_error_set(err, "%s: empty, no header", path);
    return 0;
}

void csv_free(struct csv_table *t)
{
    for (int r = 0; r < t->row_count; r++) {
        for (int c = 0; c < t->columns[r]; c++)
            free(t->rows[r][c]);
        free(t->rows[r]);
    }
    free(t->rows);
    free(t->columns);
    memset(t, 0, sizeof *t);
}

int csv_column(const struct csv_table *t, const char *name)
{
    for (int c = 0; t->row_count && c < t->columns[0]; c++)
        if (strcmp(t->rows[0][c], name) == 0)
            return c;
    return -1;
}

const char *csv_field(const struct csv_table *t, int r, int c)
{
    if (r < 0 || r >= t->row_count || c < 0 || c >= t->columns[r])
        return "";
    return t->rows[r][c];
}

void csv_write_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

bool csv_number(const char *s, double *v)
{
    char *end = NULL;
    if (!*s)
        return false;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == 0 && errno == 0;
}
