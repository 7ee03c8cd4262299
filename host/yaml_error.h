/* Errors in YAML files, the rulesets' and the daemon's settings alike: "file:line:column: why". */
#ifndef SHOUTAN_YAML_ERROR_H
#define SHOUTAN_YAML_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <yaml.h>

/* Writes "path:line:column: why" for a place in the file (libyaml counts from 0, people and
 * editors from 1), or "path: why" when mark is NULL.  Returns false. */
bool sht_yaml_error(char *err, size_t errlen, const char *path, const yaml_mark_t *mark,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
bool sht_yaml_verror(char *err, size_t errlen, const char *path, const yaml_mark_t *mark,
    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
/* The parser's own complaint about a file that is not YAML: "path:line:column: YAML error: "
 * with libyaml's problem and its context.  Returns false. */
bool sht_yaml_parser_error(char *err, size_t errlen, const char *path,
    const yaml_parser_t *parser);

#endif
