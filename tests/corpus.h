/* Helpers for the conformance runs: finding the shared corpus, reading files, skipping cleanly. */
#ifndef SHOUTAN_TESTS_CORPUS_H
#define SHOUTAN_TESTS_CORPUS_H

#include <stddef.h>

/* meson counts a test that exits with this code as skipped. */
#define SKIP_EXIT 77

/* The corpus folder from argv[1] or $SHOUTAN_CORPUS; exits with SKIP_EXIT and a message when
 * the folder or the file under it that the run needs is absent. */
const char *corpus_dir(int argc, char **argv, const char *needed);
/* The whole file, NUL-terminated, or NULL. */
char *corpus_read(const char *path, size_t *len);
/* Calls fn(path, arg) for every .sgf file under dir, recursively, in sorted order (so reports
 * read the same on every machine). */
void corpus_walk_sgf(const char *dir, void (*fn)(const char *path, void *arg), void *arg);
/* "dir/rel" in a static buffer. */
const char *corpus_join(const char *dir, const char *rel);
/* Splits a tab-separated line (the corpus's .tsv files) in place into at most n fields, empty
 * ones kept, as strtok would not; returns how many it found. */
int corpus_split_tabs(char *line, char **field, int n);

#endif
