/* fabric/config.c - see config.h. */
#include "fabric/config.h"

#include <errno.h>
#include <libconfig.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fabric/alloc.h"
#include "fabric/file.h"

struct gt_config {
    config_t cfg;
    char *path;
    char *include_dir;
};

static int libconfig_error(const struct gt_config *c, const char *fallback_file,
                           struct gt_error *err)
{
    const char *file = config_error_file(&c->cfg);
    if (!file)
        file = fallback_file;
    if (config_error_type(&c->cfg) == CONFIG_ERR_FILE_IO)
        return gt_error_set(err, "%s: cannot read: %s", file,
                            config_error_text(&c->cfg) ? config_error_text(&c->cfg) : "I/O error");
    return gt_error_set(err, "%s:%d: %s", file, config_error_line(&c->cfg),
                        config_error_text(&c->cfg));
}

/* libconfig 1.5 (Debian's) opens an @include's file itself: the name is the
 * raw text up to the next '"' after `^[ \t]*@include[ \t]+"`, joined to the
 * include directory when one is set. When that file is a directory, fopen
 * succeeds, the first read fails, and its flex scanner calls exit(2)
 * ("input in flex scanner failed"); a FIFO or a device would block or never
 * end. So before libconfig reads anything, every @include of the text, and
 * of the files it includes (to libconfig's depth of 10), must name a regular
 * file or nothing (a missing file is libconfig's own "cannot open include
 * file"). Found by fuzz_config. Not modelled: an @include inside a comment
 * that spans lines is checked too. */
#define INCLUDE_MAX_DEPTH 10

/* The text of a file whose @includes are checked: config files are small,
 * and one larger than this is libconfig's to refuse or read (unchecked). */
#define INCLUDE_CHECK_MAX_BYTES ((size_t)64 << 20)

static char *read_text(const char *path)
{
    uint8_t *bytes;
    size_t len;
    struct gt_error ignored;
    return gt_read_file(path, INCLUDE_CHECK_MAX_BYTES, &bytes, &len, &ignored) < 0 ? NULL
                                                                                  : (char *)bytes;
}

static int check_includes(const char *text, const char *name, const char *include_dir, int depth,
                          struct gt_error *err)
{
    unsigned line = 1;
    bool line_start = true;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            line++;
            line_start = true;
            continue;
        }
        if (*p == ' ' || *p == '\t' || !line_start)
            continue;
        line_start = false;
        if (strncmp(p, "@include", 8) != 0 || (p[8] != ' ' && p[8] != '\t'))
            continue;
        const char *q = p + 8;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '"')
            continue;
        const char *end = strchr(q + 1, '"');
        if (!end)
            break;                      /* libconfig's own syntax error */
        char file[4096];
        int len = (int)(end - q - 1);
        if (include_dir)
            snprintf(file, sizeof file, "%s/%.*s", include_dir, len, q + 1);
        else
            snprintf(file, sizeof file, "%.*s", len, q + 1);
        struct stat st;
        if (stat(file, &st) == 0) {
            if (!S_ISREG(st.st_mode))
                return gt_error_set(err, "%s:%u: @include \"%.*s\": %s is not a regular file",
                                    name, line, len, q + 1, file);
            if (depth + 1 < INCLUDE_MAX_DEPTH) {
                char *included = read_text(file);
                int rc = included ? check_includes(included, file, include_dir, depth + 1, err) : 0;
                free(included);
                if (rc < 0)
                    return rc;
            }
        }
        for (; p < end; p++)
            if (*p == '\n')
                line++;
    }
    return 0;
}

int gt_config_check_includes(const char *path, const char *include_dir, struct gt_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return gt_error_set(err, "%s: is a directory, not a config file", path);
    /* a pipe (`-c <(...)`) or a device can be read once only: libconfig reads
     * it, its includes unchecked */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return 0;
    char *text = read_text(path);
    if (!text)
        return 0;                       /* the reader reports it */
    int rc = check_includes(text, path, include_dir, 0, err);
    free(text);
    return rc;
}

static struct gt_config *config_new(const char *path, const char *include_dir)
{
    struct gt_config *c = gt_xcalloc(1, sizeof *c);
    config_init(&c->cfg);
    c->path = gt_xstrdup(path);
    c->include_dir = gt_xstrdup(include_dir ? include_dir : ".");
    config_set_include_dir(&c->cfg, c->include_dir);
    return c;
}

struct gt_config *gt_config_load(const char *path, struct gt_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        gt_error_set(err, "%s: cannot open config: %s", path, strerror(errno));
        return NULL;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    fclose(f);
    if (gt_config_check_includes(path, dir, err) < 0)
        return NULL;
    struct gt_config *c = config_new(path, dir);
    if (config_read_file(&c->cfg, path) != CONFIG_TRUE) {
        libconfig_error(c, path, err);
        gt_config_free(c);
        return NULL;
    }
    return c;
}

struct gt_config *gt_config_parse(const char *text, const char *include_dir,
                                  struct gt_error *err)
{
    if (check_includes(text, "(text)", include_dir ? include_dir : ".", 0, err) < 0)
        return NULL;
    struct gt_config *c = config_new("(text)", include_dir);
    if (config_read_string(&c->cfg, text) != CONFIG_TRUE) {
        libconfig_error(c, "(text)", err);
        gt_config_free(c);
        return NULL;
    }
    return c;
}

void gt_config_free(struct gt_config *c)
{
    if (!c)
        return;
    config_destroy(&c->cfg);
    free(c->path);
    free(c->include_dir);
    free(c);
}

void *gt_config_root(const struct gt_config *c) { return config_root_setting(&c->cfg); }
const char *gt_config_path(const struct gt_config *c) { return c->path; }

static bool parse_long(const char *s, long long *out)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

/* libconfig names: a letter or '*', then letters, digits, '-', '_', '*'. */
static bool valid_name(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '*'))
        return false;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '*'))
            return false;
    return true;
}

static int infer_type(const char *value)
{
    long long i;
    double d;
    if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)
        return CONFIG_TYPE_BOOL;
    if (parse_long(value, &i))
        return (i > INT32_MAX || i < INT32_MIN) ? CONFIG_TYPE_INT64 : CONFIG_TYPE_INT;
    if (parse_double(value, &d))
        return CONFIG_TYPE_FLOAT;
    return CONFIG_TYPE_STRING;
}

static int set_value(config_setting_t *s, const char *value, const char *key,
                     struct gt_error *err)
{
    long long i = 0;
    double d = 0;
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_BOOL:
        if (strcmp(value, "true") && strcmp(value, "false"))
            return gt_error_set(err, "--set %s: wants true or false, not '%s'", key, value);
        config_setting_set_bool(s, strcmp(value, "true") == 0);
        return 0;
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        if (!parse_long(value, &i))
            return gt_error_set(err, "--set %s: wants an integer, not '%s'", key, value);
        config_setting_set_int64(s, i);
        return 0;
    case CONFIG_TYPE_FLOAT:
        if (!parse_double(value, &d))
            return gt_error_set(err, "--set %s: wants a number, not '%s'", key, value);
        config_setting_set_float(s, d);
        return 0;
    case CONFIG_TYPE_STRING: {
        size_t n = strlen(value);
        if (n >= 2 && value[0] == '"' && value[n - 1] == '"') {
            char *copy = gt_xstrdup(value + 1);
            copy[n - 2] = 0;
            config_setting_set_string(s, copy);
            free(copy);
        } else {
            config_setting_set_string(s, value);
        }
        return 0;
    }
    default:
        return gt_error_set(err, "--set %s: is a group or list, not a value", key);
    }
}

int gt_config_set(struct gt_config *c, const char *assignment, struct gt_error *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment)
        return gt_error_set(err, "--set '%s': expected KEY=VALUE", assignment);
    char key[512];
    snprintf(key, sizeof key, "%.*s", (int)(eq - assignment), assignment);
    const char *value = eq + 1;
    config_setting_t *group = config_root_setting(&c->cfg);
    char *p = key;
    for (;;) {
        char *dot = strchr(p, '.');
        if (dot)
            *dot = 0;
        if (!*p || !valid_name(p)) {
            if (dot)
                *dot = '.';
            return gt_error_set(err, "--set '%s': '%s' is not a valid key", assignment, key);
        }
        config_setting_t *member = config_setting_get_member(group, p);
        if (dot) {
            if (!member)
                member = config_setting_add(group, p, CONFIG_TYPE_GROUP);
            else if (config_setting_type(member) != CONFIG_TYPE_GROUP) {
                *dot = '.';
                return gt_error_set(err, "--set '%s': '%.*s' is a value, not a group",
                                    assignment, (int)(dot - key), key);
            }
            group = member;
            *dot = '.';
            p = dot + 1;
            continue;
        }
        if (member && config_setting_is_aggregate(member))
            return gt_error_set(err, "--set '%s': '%s' is a group or list, not a value",
                                assignment, key);
        int type = infer_type(value);
        if (member) {
            /* Replaced, not edited: the new setting has no file:line, so an
             * error about it names --set rather than the old line. A value
             * that reads as the old type keeps it ("3" for a float). */
            int old = config_setting_type(member);
            if (old == CONFIG_TYPE_FLOAT && (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64))
                type = CONFIG_TYPE_FLOAT;
            if (old == CONFIG_TYPE_STRING)
                type = CONFIG_TYPE_STRING;
            config_setting_remove(group, p);
            member = NULL;
        }
        if (!member)
            member = config_setting_add(group, p, type);
        if (!member)
            return gt_error_set(err, "--set '%s': cannot add '%s'", assignment, key);
        return set_value(member, value, key, err);
    }
}

int gt_config_write(const struct gt_config *c, FILE *f, struct gt_error *err)
{
    config_write(&c->cfg, f);
    if (ferror(f))
        return gt_error_set(err, "writing the resolved config failed");
    return 0;
}
