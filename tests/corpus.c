/* Helpers for the conformance runs: finding the shared corpus, reading files, skipping cleanly. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "corpus.h"

const char *
corpus_join(const char *dir, const char *rel)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return path;
}

int
corpus_split_tabs(char *line, char **field, int n)
{
	int nf = 0;

	while (nf < n) {
		field[nf++] = line;
		line = strchr(line, '\t');
		if (line == NULL)
			break;
		*line++ = '\0';
	}
	return nf;
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

void
corpus_walk_sgf(const char *dir, void (*fn)(const char *path, void *arg), void *arg)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		size_t len = strlen(names[i]->d_name);

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				corpus_walk_sgf(path, fn, arg);
			else if (len > 4 && strcasecmp(names[i]->d_name + len - 4, ".sgf") == 0)
				fn(path, arg);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}
