/* libFuzzer harness for batch and report: a record's bytes scored into rows, the rows read back by the report, the report written as text and SVG. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "fuzz_context.h"
#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Lines in a text: each ends with a newline. */
static size_t
lines_in(const struct sht_text *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->len; i++)
		n += t->s[i] == '\n';
	if (t->len > 0 && t->s[t->len - 1] != '\n')
		abort(); /* a record's lines are whole */
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink_file;
	const struct sht_context *ctx = fuzz_context();
	const struct sht_ruleset *rulesets[1] = { ctx->registry->rulesets[0] };
	/* Dead stones none: the judge has harnesses of its own, and its playouts would slow
	 * every run. */
	json_t *params = json_pack("{s:s}", "dead", "none");
	struct batch_job job = { ctx, rulesets, 1, params, size > 0 && (data[0] & 1) ?
	    BATCH_CSV : BATCH_JSONL, true };
	struct sht_text lines, rows;
	struct batch_sink sink = { job.format, &lines, &rows };
	struct batch_counts counts;
	struct batch_record rec;
	struct report *r;

	if (sink_file == NULL && (sink_file = fopen("/dev/null", "w")) == NULL)
		abort();
	memset(&counts, 0, sizeof(counts));
	memset(&rec, 0, sizeof(rec));
	rec.name = strdup("fuzz/record.sgf");
	rec.data = malloc(size + 1);
	if (rec.name == NULL || rec.data == NULL)
		abort();
	memcpy(rec.data, data, size);
	rec.data[size] = '\0';
	rec.len = size;
	/* A file's record, never a line of standard input: a line's {"path"} would read the
	 * fuzzing machine's files. */
	sht_text_init(&lines, 4096);
	sht_text_init(&rows, 4096);
	batch_score_record(&job, &rec, &sink, &counts);
	if (lines_in(&rows) != lines_in(&lines) || counts.records != 1)
		abort(); /* one row for each line */
	r = report_new();
	for (size_t at = 0; r != NULL && at < rows.len;) {
		char *nl = memchr(rows.s + at, '\n', rows.len - at);

		if (!report_add_line(r, rows.s + at, (size_t)(nl - (rows.s + at))))
			abort(); /* the report reads every row batch writes */
		at = (size_t)(nl - rows.s) + 1;
	}
	/* And the input itself as a line of a results file: the report's reader takes anything. */
	report_add_line(r, (const char *)data, size);
	report_print(r, sink_file);
	report_svg(r, sink_file);
	report_free(r);
	sht_text_free(&lines);
	sht_text_free(&rows);
	batch_record_free(&rec);
	json_decref(params);
	return 0;
}
