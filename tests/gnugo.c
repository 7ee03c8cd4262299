/* GNU Go 3.8 asked over GTP, for the conformance runs that set it beside Shoutan. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnugo.h"

/* Through GTP with no shell in between: each command numbered from 1, then quit; the answer
 * is the one numbered as the last command (gnugo.h). */
bool
gnugo_ask(const char *gnugo, bool chinese, const char *script, char *answer, size_t size)
{
	int to_child[2], from_child[2], last = 0;
	pid_t pid;
	FILE *in, *out;
	char line[4096], tag[16];
	bool ok = false;

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
		for (const char *s = script; *s != '\0';) {
			size_t n = strcspn(s, "\n");

			if (n > 0)
				fprintf(in, "%d %.*s\n", ++last, (int)n, s);
			s += n + (s[n] == '\n');
		}
		fprintf(in, "%d quit\n", last + 1);
		fclose(in);
	} else {
		close(to_child[1]);
	}
	snprintf(tag, sizeof(tag), "=%d ", last);
	while (out != NULL && fgets(line, sizeof(line), out) != NULL) {
		if (strncmp(line, tag, strlen(tag)) != 0)
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		snprintf(answer, size, "%s", line + strlen(tag));
		ok = true;
	}
	if (out != NULL)
		fclose(out);
	else
		close(from_child[0]);
	waitpid(pid, NULL, 0);
	return ok;
}

bool
gnugo_score(const char *gnugo, const char *path, bool chinese, int komi_half, int *black_half)
{
	char script[4200], answer[64], w;
	double m;

	if (strpbrk(path, " \t\r\n") != NULL)
		return false; /* a GTP argument ends at white space */
	/* The komi command after loadsgf: the komi Shoutan counted with, whatever KM said. */
	snprintf(script, sizeof(script), "loadsgf %s\nkomi %.1f\nfinal_score", path,
	    komi_half / 2.0);
	if (!gnugo_ask(gnugo, chinese, script, answer, sizeof(answer)))
		return false;
	if (sscanf(answer, "%c+%lf", &w, &m) == 2 && (w == 'B' || w == 'W')) {
		*black_half = (int)(m * 2 + 0.5) * (w == 'B' ? 1 : -1);
		return true;
	}
	if (answer[0] == '0') {
		*black_half = 0;
		return true;
	}
	return false;
}
