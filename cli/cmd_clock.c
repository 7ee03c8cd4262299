/* shoutan clock: a game's clocks move by move, with the referee's calls and the flag's fall. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

const char *
cli_ms(json_int_t ms, char *buf, size_t len)
{
	long long v = ms < 0 ? 0 : (long long)ms;

	snprintf(buf, len, "%lld:%02lld:%02lld.%03lld", v / 3600000, v / 60000 % 60, v / 1000 % 60,
	    v % 1000);
	return buf;
}

static void
print_clock(const json_t *r)
{
	const json_t *moves = json_object_get(r, "moves"), *m, *flag = json_object_get(r, "flag");
	const json_t *tc = json_object_get(r, "time_control");
	size_t i, k;
	char a[32], b[32];

	printf("time control: %s, main %s\n", json_string_value(json_object_get(tc, "type")),
	    cli_ms(json_integer_value(json_object_get(tc, "main_ms")), a, sizeof(a)));
	json_array_foreach(moves, i, m) {
		const json_t *clock = json_object_get(m, "clock"), *call;
		const json_t *periods = json_object_get(clock, "periods");

		printf("%4lld %s %s  left %s", (long long)json_integer_value(json_object_get(m, "move")),
		    json_string_value(json_object_get(m, "color")),
		    cli_ms(json_integer_value(json_object_get(m, "ms")), a, sizeof(a)),
		    cli_ms(json_integer_value(json_object_get(clock, "main_ms")), b, sizeof(b)));
		if (periods != NULL && strcmp(json_string_value(json_object_get(tc, "type")),
		    "dumiao") == 0)
			printf(", 读秒 %lld min", (long long)json_integer_value(periods));
		else if (periods != NULL)
			printf(", %lld period%s", (long long)json_integer_value(periods),
			    json_integer_value(periods) == 1 ? "" : "s");
		if (json_object_get(clock, "moves_left") != NULL)
			printf(", %lld moves in %s",
			    (long long)json_integer_value(json_object_get(clock, "moves_left")),
			    cli_ms(json_integer_value(json_object_get(clock, "period_left_ms")), b,
			    sizeof(b)));
		printf("\n");
		json_array_foreach(json_object_get(m, "calls"), k, call)
			printf("           +%s  %s\n", cli_ms(json_integer_value(json_object_get(call,
			    "at_ms")), a, sizeof(a)), json_string_value(json_object_get(call, "text")));
	}
	if (json_is_object(flag))
		printf("lost on time: %s at move %lld, %s into the move (game time %s)\n",
		    json_string_value(json_object_get(flag, "color")),
		    (long long)json_integer_value(json_object_get(flag, "move")),
		    cli_ms(json_integer_value(json_object_get(flag, "at_ms")), a, sizeof(a)),
		    cli_ms(json_integer_value(json_object_get(flag, "game_ms")), b, sizeof(b)));
	else
		printf("no flag fell\n");
}

int
cmd_clock(struct cli *cli, int argc, char **argv)
{
	return cli_timed_command(cli, argc, argv, "clock", print_clock);
}
