/* Sorting requests by expected cost before they reach a worker, from their bytes alone. */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "triage.h"

static const char *
find(const char *s, size_t len, const char *what)
{
	return memmem(s, len, what, strlen(what));
}

bool
triage_heavy(const char *line, size_t len)
{
	const char *end = line + len, *p;

	if (find(line, len, "\"score\"") == NULL && find(line, len, "\"compare\"") == NULL)
		return false;
	/* The ruleset's default (usually auto) applies when "dead" is absent. */
	if ((p = find(line, len, "\"dead\"")) == NULL)
		return true;
	for (p += 6; p < end && (*p == ' ' || *p == '\t' || *p == ':'); p++)
		;
	if (p < end && *p == '[')
		return false;
	return !((size_t)(end - p) >= 6 && memcmp(p, "\"none\"", 6) == 0);
}
