/* The research summary of a batch's results: tallies read row by row, a text report, SVG charts. */
#ifndef SHOUTAN_REPORT_H
#define SHOUTAN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

struct report;

struct report *report_new(void);
void report_free(struct report *r);
/* One result row as batch writes it (its JSON line's object); rows of one game come together,
 * as batch writes them. */
void report_add(struct report *r, const json_t *row);
/* One JSON line of a batch's output; false (and nothing added) when it is not one. */
bool report_add_line(struct report *r, const char *line, size_t len);
/* The tables for people: rulesets, ruleset pairs, winner changes by board size and by period,
 * agreement with the record by collection. */
void report_print(struct report *r, FILE *f);
/* The same as charts in one SVG 1.1 document: a histogram of margin differences for each
 * ruleset pair, winner changes by board size and by period, agreement by collection. */
bool report_svg(struct report *r, FILE *f);

#endif
