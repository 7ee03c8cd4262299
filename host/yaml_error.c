/* Errors in YAML files named by place, one way for the rulesets and the daemon's settings. */
#include <stdio.h>

#include "yaml_error.h"

bool
sht_yaml_verror(char *err, size_t errlen, const char *path, const yaml_mark_t *mark,
    const char *fmt, va_list ap)
{
	int n;

	/* libyaml counts lines and columns from 0; people and editors count from 1. */
	if (mark != NULL)
		n = snprintf(err, errlen, "%s:%zu:%zu: ", path, mark->line + 1, mark->column + 1);
	else
		n = snprintf(err, errlen, "%s: ", path);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	return false;
}

bool
sht_yaml_error(char *err, size_t errlen, const char *path, const yaml_mark_t *mark,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sht_yaml_verror(err, errlen, path, mark, fmt, ap);
	va_end(ap);
	return false;
}

bool
sht_yaml_parser_error(char *err, size_t errlen, const char *path,
    const yaml_parser_t *parser)
{
	return sht_yaml_error(err, errlen, path, &parser->problem_mark, "YAML error: %s%s%s",
	    parser->problem ? parser->problem : "unreadable", parser->context ? " " : "",
	    parser->context ? parser->context : "");
}
