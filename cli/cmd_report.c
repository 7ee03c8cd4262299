/* shoutan report RESULTS: the research summary of batch's JSON lines, as tables and charts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

bool
cli_write_svg(struct cli *cli, struct report *r, const char *file)
{
	FILE *f = fopen(file, "w");
	bool ok;

	if (f == NULL) {
		fprintf(stderr, "shoutan %s: %s: %s\n", cli->command, file, strerror(errno));
		return false;
	}
	ok = report_svg(r, f);
	if (fclose(f) != 0 || !ok) {
		fprintf(stderr, "shoutan %s: %s: cannot write it\n", cli->command, file);
		return false;
	}
	return true;
}

int
cmd_report(struct cli *cli, int argc, char **argv)
{
	struct cli_args args;
	struct report *r = NULL;
	FILE *in = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = cli_parse_args(cli, argc, argv, &args);

	if (rc < 0 && args.noperands != 1)
		rc = cli_usage_error(cli, args.noperands == 0 ? "RESULTS is missing (batch's JSON "
		    "lines, or - for standard input)" : "takes one RESULTS file");
	if (rc >= 0)
		goto done;
	in = strcmp(args.operands[0], "-") == 0 ? stdin : fopen(args.operands[0], "r");
	if (in == NULL || (r = report_new()) == NULL) {
		fprintf(stderr, "shoutan report: %s: %s\n", args.operands[0], strerror(errno));
		rc = CLI_FAILED;
		goto done;
	}
	/* A CSV header or a blank line is not a row: the count of lines left out says so. */
	while ((n = getline(&line, &cap, in)) > 0)
		if (line[strspn(line, " \t\r\n")] != '\0')
			report_add_line(r, line, (size_t)n);
	report_print(r, stdout);
	rc = args.svg != NULL && !cli_write_svg(cli, r, args.svg) ? CLI_FAILED : CLI_OK;
done:
	if (in != NULL && in != stdin)
		fclose(in);
	free(line);
	report_free(r);
	cli_args_free(&args);
	return rc;
}
