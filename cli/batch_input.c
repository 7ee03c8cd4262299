/* shoutan batch's input: the records that files, folders, archives and standard input hold. */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "batch.h"

/* What the operands name, listed before any record is read, so that the records can be
 * counted for the progress bar: a file, an archive, or a path that cannot be read. */
struct item {
	char *path;
	bool archive;
	char *error;          /* why the path cannot be read, or NULL */
	enum batch_error kind;
};

struct batch_input {
	struct item *items;
	size_t nitems, cap;
	long total;
	size_t next;          /* the next item to read */
	struct archive *ar;   /* the archive whose members are being read, or NULL */
	const char *ar_path;
	bool stdin_jsonl;
	long line;            /* standard input's line, for --stdin-jsonl */
	char *buf;
	size_t bufcap;
};

static bool
ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && strcasecmp(name + n - s, suffix) == 0;
}

static bool
is_sgf_name(const char *name)
{
	return ends_with(name, ".sgf");
}

bool
batch_is_archive(const char *name)
{
	static const char *const suffixes[] = { ".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2",
		".tbz2", ".tar.xz", ".txz", ".7z" };

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (ends_with(name, suffixes[i]))
			return true;
	return false;
}

void
batch_record_free(struct batch_record *rec)
{
	free(rec->name);
	free(rec->data);
	free(rec->why);
	memset(rec, 0, sizeof(*rec));
}

static char *
text_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
text_printf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n >= 0 && (s = malloc((size_t)n + 1)) != NULL) {
		va_start(ap, fmt);
		vsnprintf(s, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	return s;
}

static void
add_item(struct batch_input *in, const char *path, bool archive, enum batch_error kind,
    char *error)
{
	struct item *it;

	if (in->nitems == in->cap) {
		size_t cap = in->cap ? in->cap * 2 : 64;
		struct item *bigger = realloc(in->items, cap * sizeof(*bigger));

		if (bigger == NULL) {
			free(error);
			return;
		}
		in->items = bigger;
		in->cap = cap;
	}
	it = &in->items[in->nitems++];
	it->path = strdup(path);
	it->archive = archive;
	it->kind = kind;
	it->error = error;
	in->total++;
}

static void
add_unreadable(struct batch_input *in, const char *path, const char *what)
{
	add_item(in, path, false, BATCH_ERR_UNREADABLE, text_printf("%s: %s", path, what));
}

static struct archive *
archive_open(const char *path)
{
	struct archive *ar = archive_read_new();

	if (ar == NULL)
		return NULL;
	archive_read_support_filter_all(ar);
	archive_read_support_format_all(ar);
	/* A file that cannot be opened, or is no archive, fails at its first header, where the
	 * caller reads archive_error_string. */
	(void)archive_read_open_filename(ar, path, 1 << 16);
	return ar;
}

/* An archive's SGF members, counted in a first pass; a damaged archive is one record with
 * its error. */
static void
add_archive(struct batch_input *in, const char *path)
{
	struct archive *ar = archive_open(path);
	struct archive_entry *e;
	long members = 0;
	int r = ARCHIVE_FATAL;

	if (ar == NULL) {
		add_unreadable(in, path, "out of memory");
		return;
	}
	while ((r = archive_read_next_header(ar, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN)
		members += archive_entry_filetype(e) == AE_IFREG &&
		    is_sgf_name(archive_entry_pathname(e));
	if (r != ARCHIVE_EOF) {
		add_item(in, path, false, BATCH_ERR_UNREADABLE, text_printf("%s: not an archive that "
		    "can be read: %s", path, archive_error_string(ar) ? archive_error_string(ar) :
		    "unknown error"));
	} else {
		add_item(in, path, true, BATCH_ERR_UNREADABLE, NULL);
		/* add_item counted it as one record: it is as many as its members. */
		in->total += members - 1;
	}
	archive_read_free(ar);
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_path(struct batch_input *in, const char *path, bool named);

/* A folder's SGF files and archives, sorted by name, and its folders' in turn; names that
 * start with a dot are skipped, and so are links to folders (a link may make a cycle). */
static void
add_folder(struct batch_input *in, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (d == NULL) {
		add_unreadable(in, path, strerror(errno));
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **bigger = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));

			if (bigger == NULL)
				break;
			names = bigger;
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), compare_names);
	for (size_t i = 0; i < n; i++) {
		char *full = names[i] ? text_printf("%s%s%s", path,
		    path[strlen(path) - 1] == '/' ? "" : "/", names[i]) : NULL;

		if (full != NULL)
			add_path(in, full, false);
		free(full);
		free(names[i]);
	}
	free(names);
}

/* A path named on the command line is read whatever its name; in a folder, only SGF files
 * and archives are games. */
static void
add_path(struct batch_input *in, const char *path, bool named)
{
	struct stat st;

	if ((named ? stat(path, &st) : lstat(path, &st)) != 0) {
		add_unreadable(in, path, strerror(errno));
		return;
	}
	if (!named && S_ISLNK(st.st_mode)) {
		if (stat(path, &st) != 0 || S_ISDIR(st.st_mode))
			return;
	}
	if (S_ISDIR(st.st_mode))
		add_folder(in, path);
	else if (batch_is_archive(path))
		add_archive(in, path);
	else if (named || (S_ISREG(st.st_mode) && is_sgf_name(path)))
		add_item(in, path, false, BATCH_ERR_UNREADABLE, NULL);
}

struct batch_input *
batch_input_open(const char *const *paths, int npaths, bool stdin_jsonl)
{
	struct batch_input *in = calloc(1, sizeof(*in));

	if (in == NULL)
		return NULL;
	in->stdin_jsonl = stdin_jsonl;
	if (stdin_jsonl) {
		in->total = -1;
		return in;
	}
	for (int i = 0; i < npaths; i++) {
		if (strcmp(paths[i], "-") != 0) {
			add_path(in, paths[i], true);
			continue;
		}
		/* A list of paths, one a line. */
		while (getline(&in->buf, &in->bufcap, stdin) > 0) {
			in->buf[strcspn(in->buf, "\r\n")] = '\0';
			if (in->buf[0] != '\0')
				add_path(in, in->buf, true);
		}
	}
	return in;
}

long
batch_input_total(const struct batch_input *in)
{
	return in->total;
}

void
batch_input_close(struct batch_input *in)
{
	if (in == NULL)
		return;
	for (size_t i = 0; i < in->nitems; i++) {
		free(in->items[i].path);
		free(in->items[i].error);
	}
	free(in->items);
	if (in->ar != NULL)
		archive_read_free(in->ar);
	free(in->buf);
	free(in);
}

static bool
unreadable(struct batch_record *rec, enum batch_error kind, char *why)
{
	rec->unreadable = true;
	rec->kind = kind;
	rec->why = why;
	return true;
}

static bool
too_large(struct batch_record *rec)
{
	return unreadable(rec, BATCH_ERR_TOO_LARGE, text_printf("%s: more than %u MB; a record "
	    "that large is not read", rec->name, BATCH_MAX_RECORD_BYTES >> 20));
}

/* A file's bytes, NUL-terminated, at most BATCH_MAX_RECORD_BYTES. */
static bool
read_file(struct batch_record *rec)
{
	FILE *f = fopen(rec->name, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf;

	if (f == NULL)
		return unreadable(rec, BATCH_ERR_UNREADABLE, text_printf("%s: %s", rec->name,
		    strerror(errno)));
	buf = malloc(cap + 1);
	while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n > BATCH_MAX_RECORD_BYTES)
			break;
		if (n == cap) {
			char *bigger = realloc(buf, (cap *= 2) + 1);

			if (bigger == NULL) {
				free(buf);
				buf = NULL;
			} else {
				buf = bigger;
			}
		}
	}
	if (buf == NULL || ferror(f)) {
		int e = ferror(f) ? errno : ENOMEM;

		fclose(f);
		free(buf);
		return unreadable(rec, BATCH_ERR_UNREADABLE, text_printf("%s: %s", rec->name,
		    strerror(e)));
	}
	fclose(f);
	if (n > BATCH_MAX_RECORD_BYTES) {
		free(buf);
		return too_large(rec);
	}
	buf[n] = '\0';
	rec->data = buf;
	rec->len = n;
	return true;
}

/* The current member's bytes. */
static bool
read_member(struct batch_input *in, struct batch_record *rec, la_int64_t size)
{
	size_t cap = size > 0 && size <= BATCH_MAX_RECORD_BYTES ? (size_t)size : 1 << 16, n = 0;
	char *buf;
	la_ssize_t got;

	if (size > BATCH_MAX_RECORD_BYTES)
		return too_large(rec);
	if ((buf = malloc(cap + 1)) == NULL)
		return unreadable(rec, BATCH_ERR_UNREADABLE, text_printf("%s: out of memory",
		    rec->name));
	while ((got = archive_read_data(in->ar, buf + n, cap - n)) > 0) {
		n += (size_t)got;
		if (n > BATCH_MAX_RECORD_BYTES) {
			free(buf);
			return too_large(rec);
		}
		if (n == cap) {
			char *bigger = realloc(buf, (cap *= 2) + 1);

			if (bigger == NULL) {
				free(buf);
				return unreadable(rec, BATCH_ERR_UNREADABLE, text_printf("%s: out of "
				    "memory", rec->name));
			}
			buf = bigger;
		}
	}
	if (got < 0) {
		free(buf);
		return unreadable(rec, BATCH_ERR_UNREADABLE, text_printf("%s: %s", rec->name,
		    archive_error_string(in->ar) ? archive_error_string(in->ar) : "damaged"));
	}
	buf[n] = '\0';
	rec->data = buf;
	rec->len = n;
	return true;
}

/* The next SGF member of the open archive; false when it has no more (it is closed then). */
static bool
next_member(struct batch_input *in, struct batch_record *rec)
{
	struct archive_entry *e;
	int r;

	while ((r = archive_read_next_header(in->ar, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		if (archive_entry_filetype(e) != AE_IFREG || !is_sgf_name(archive_entry_pathname(e)))
			continue;
		rec->name = text_printf("%s:%s", in->ar_path, archive_entry_pathname(e));
		return rec->name != NULL && read_member(in, rec, archive_entry_size_is_set(e) ?
		    archive_entry_size(e) : -1);
	}
	if (r != ARCHIVE_EOF) {
		/* Damaged after the members read so far: one record says so. */
		rec->name = strdup(in->ar_path);
		unreadable(rec, BATCH_ERR_UNREADABLE, text_printf("%s: damaged after its last member "
		    "read: %s", in->ar_path, archive_error_string(in->ar) ?
		    archive_error_string(in->ar) : "unknown error"));
	}
	archive_read_free(in->ar);
	in->ar = NULL;
	return r != ARCHIVE_EOF;
}

bool
batch_input_next(struct batch_input *in, struct batch_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	if (in->stdin_jsonl) {
		ssize_t n;

		/* Blank lines are no records: a file's last newline, a stream's keep-alive. */
		do {
			if ((n = getline(&in->buf, &in->bufcap, stdin)) <= 0)
				return false;
			in->line++;
			in->buf[strcspn(in->buf, "\r\n")] = '\0';
		} while (in->buf[strspn(in->buf, " \t")] == '\0');
		rec->name = text_printf("-:%ld", in->line);
		rec->data = strdup(in->buf);
		rec->len = strlen(in->buf);
		rec->json_line = true;
		return rec->name != NULL && rec->data != NULL;
	}
	for (;;) {
		struct item *it;

		if (in->ar != NULL && next_member(in, rec))
			return true;
		if (in->next == in->nitems)
			return false;
		it = &in->items[in->next++];
		if (it->error != NULL) {
			rec->name = strdup(it->path);
			return unreadable(rec, it->kind, strdup(it->error));
		}
		if (!it->archive) {
			rec->name = strdup(it->path);
			return read_file(rec);
		}
		in->ar = archive_open(it->path);
		in->ar_path = it->path;
		if (in->ar == NULL) {
			rec->name = strdup(it->path);
			return unreadable(rec, BATCH_ERR_UNREADABLE, text_printf("%s: out of memory",
			    it->path));
		}
	}
}
