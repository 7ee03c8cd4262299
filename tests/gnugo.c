/* GNU Go 3.8 asked for a final score over GTP, for the conformance runs that set it beside
 * Shoutan. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnugo.h"

/* Through GTP with no shell in between (paths are passed as they are): loadsgf, komi,
 * final_score, under Chinese or Japanese rules (gnugo.h). */
bool
gnugo_score(const char *gnugo, const char *path, bool chinese, int komi_half, int *black_half)
{
	int to_child[2], from_child[2];
	pid_t pid;
	FILE *in, *out;
	char line[512];
	bool ok = false;

	if (strpbrk(path, " \t\r\n") != NULL)
		return false; /* a GTP argument ends at white space */
	if (pipe(to_child) != 0)
		return false;
	if (pipe(from_child) != 0) {
		close(to_child[0]);
		close(to_child[1]);
		return false;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(to_child[0], 0);
		dup2(from_child[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(to_child[0]);
		close(to_child[1]);
		close(from_child[0]);
		close(from_child[1]);
		execl(gnugo, gnugo, "--mode", "gtp", chinese ? "--chinese-rules" : "--japanese-rules",
		    (char *)NULL);
		_exit(127);
	}
	close(to_child[0]);
	close(from_child[1]);
	if (pid < 0) {
		close(to_child[1]);
		close(from_child[0]);
		return false;
	}
	in = fdopen(to_child[1], "w");
	out = fdopen(from_child[0], "r");
	if (in != NULL) {
		/* The komi command after loadsgf: the komi Shoutan counted with, whatever KM said. */
		fprintf(in, "1 loadsgf %s\n2 komi %.1f\n3 final_score\n4 quit\n", path,
		    komi_half / 2.0);
		fclose(in);
	} else {
		close(to_child[1]);
	}
	while (out != NULL && fgets(line, sizeof(line), out) != NULL) {
		char w;
		double m;

		if (strncmp(line, "=3 ", 3) != 0)
			continue;
		if (sscanf(line + 3, "%c+%lf", &w, &m) == 2 && (w == 'B' || w == 'W')) {
			*black_half = (int)(m * 2 + 0.5) * (w == 'B' ? 1 : -1);
			ok = true;
		} else if (line[3] == '0') {
			*black_half = 0;
			ok = true;
		}
	}
	if (out != NULL)
		fclose(out);
	else
		close(from_child[0]);
	waitpid(pid, NULL, 0);
	return ok;
}
