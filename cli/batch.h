/* shoutan batch: what its files share: the records it reads, the lines it writes, the counts. */
#ifndef SHOUTAN_BATCH_H
#define SHOUTAN_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "host.h"
#include "json_text.h"

/* A record bigger than this is not read: it gets a too_large error line (the daemon's own
 * limit on a request is far smaller; the biggest real collections are a few megabytes). */
#define BATCH_MAX_RECORD_BYTES (64u << 20)

/* The kinds of error a batch counts: the protocol's, and a record that could not be read. */
enum batch_error {
	BATCH_ERR_BAD_SGF,
	BATCH_ERR_ILLEGAL_MOVE,
	BATCH_ERR_UNKNOWN_RULESET,
	BATCH_ERR_TOO_LARGE,
	BATCH_ERR_INVALID_GAME,
	BATCH_ERR_INTERNAL,
	BATCH_ERR_UNREADABLE,
	BATCH_NERRORS
};

/* Its name in output and summaries ("bad_sgf", "unreadable", ...). */
const char *batch_error_name(enum batch_error e);

/* One record: a file, an archive's member, or a line of standard input. */
struct batch_record {
	char *name;        /* as the output names it: the path, "archive.zip:member", "-:LINE" */
	char *data;        /* its bytes, NUL-terminated (NULL when it could not be read) */
	size_t len;
	bool json_line;    /* a line of --stdin-jsonl */
	bool unreadable;   /* then kind and why say what went wrong */
	enum batch_error kind;
	char *why;
};

void batch_record_free(struct batch_record *rec);

/* The input: every record the operands name, in a stable order (the operands' order; a
 * folder's files sorted by name, recursively; an archive's members as stored). */
struct batch_input;

/* paths: files, folders, archives, or "-" for a list of such paths on standard input, one a
 * line; with stdin_jsonl (and no paths) standard input's lines are the records.  Never fails
 * for a path that cannot be read: that is a record with an error. */
struct batch_input *batch_input_open(const char *const *paths, int npaths, bool stdin_jsonl);
/* The records in all, or -1 when standard input's lines are the records. */
long batch_input_total(const struct batch_input *in);
/* The next record (free it with batch_record_free); false at the end. */
bool batch_input_next(struct batch_input *in, struct batch_record *rec);
void batch_input_close(struct batch_input *in);

/* Whether a name is an archive that batch reads its members from (.zip, .tar, .tar.gz, .tgz,
 * .tar.bz2, .tar.xz, .7z). */
bool batch_is_archive(const char *name);

enum batch_format { BATCH_JSONL, BATCH_CSV };

/* What every game of the batch is scored with. */
struct batch_job {
	const struct sht_context *ctx;
	const struct sht_ruleset **rulesets;
	int nrulesets;
	json_t *params;    /* dead, komi: the score method's params beside the game */
	enum batch_format format;
	bool summary;      /* the rows go to the report too */
};

/* Where a record's rows go: its lines in the batch's format, and with a summary asked for each
 * row as a JSON line too, which the report reads whatever the format. */
struct batch_sink {
	enum batch_format format;
	struct sht_text *lines;
	struct sht_text *rows;   /* NULL without a summary */
};

/* What a record gave: games read, results written, errors by kind. */
struct batch_counts {
	long records, games, results;
	long errors[BATCH_NERRORS];
};

void batch_counts_add(struct batch_counts *into, const struct batch_counts *c);

/* The record's lines (one per game and ruleset, or one error line) into the sink. */
void batch_score_record(const struct batch_job *job, const struct batch_record *rec,
    struct batch_sink *out, struct batch_counts *counts);
/* One error line for a whole record, which the caller counts. */
void batch_error_line(struct batch_sink *out, const char *name, enum batch_error kind,
    const char *message);
/* The CSV's first line: the column names, which are the JSON lines' keys. */
void batch_csv_header(struct sht_text *out);

#endif
