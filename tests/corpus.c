/* Helpers for the conformance runs: finding the shared corpus, reading files, skipping cleanly. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "corpus.h"

const char *
corpus_join(const char *dir, const char *rel)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return path;
}

const char *
corpus_dir(int argc, char **argv, const char *needed)
{
	const char *dir = argc > 1 ? argv[1] : getenv("SHOUTAN_CORPUS");
	struct stat st;

	if (dir == NULL || stat(corpus_join(dir, needed), &st) != 0) {
		printf("SKIP: the shared corpus is not here (%s/%s); nothing to check\n",
		    dir != NULL ? dir : "(no path given)", needed);
		exit(SKIP_EXIT);
	}
	return dir;
}

char *
corpus_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long size;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)size + 1);
	if (buf != NULL) {
		*len = fread(buf, 1, (size_t)size, f);
		buf[*len] = '\0';
	}
	fclose(f);
	return buf;
}
