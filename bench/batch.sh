#!/bin/sh
# The batch benchmark (run on request, never in CI): shoutan batch over the corpus, games and
# results a second per core with dead stones none and auto, and -j 2 against -j 1 in one run.
# usage: bench/batch.sh [SHOUTAN [CORPUS]]   (defaults: build/cli/shoutan, ../shared/corpus)
set -eu
SHOUTAN=${1:-build/cli/shoutan}
CORPUS=${2:-../shared/corpus}
GAMES=$CORPUS/games
if [ ! -d "$GAMES" ]; then
	echo "batch bench: no corpus at $CORPUS (skipped)" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The corpus's 19x19 records, one path a line, from each collection's index (column 2: SZ).
for index in "$GAMES"/*/index.tsv; do
	dir=$(dirname "$index")
	awk -F'\t' -v d="$dir" 'NR > 1 && $2 == 19 { print d "/" $1 }' "$index"
done >"$tmp/19x19.txt"

# One batch: its summary line on stderr gives records, games, results and seconds.
run() { # NAME JOBS DEAD PATHS...   prints NAME_games_per_s, _results_per_s, _seconds
	name=$1 jobs=$2 dead=$3
	shift 3
	"$SHOUTAN" batch "$@" -j "$jobs" --dead "$dead" -o /dev/null 2>"$tmp/err"
	tail -1 "$tmp/err" | awk -v n="$name" '{
		for (i = 1; i <= NF; i++) {
			if ($(i + 1) == "games,") games = $i
			if ($(i + 1) == "results") results = $i
			if ($(i + 1) == "s,") secs = $i
		}
		printf "%s_seconds: %.2f\n%s_games_per_s: %.1f\n%s_results_per_s: %.1f\n", n, secs,
		    n, games / secs, n, results / secs
	}' | tee -a "$tmp/figures"
}

# The speed-up of two workers over one: the same work, the ratio of the times.
ratio() { # NAME ONE TWO
	awk -v n="$1" -v a="$2_seconds:" -v b="$3_seconds:" '$1 == a { t1 = $2 } $1 == b { t2 = $2 }
	    END { printf "%s: %.2f\n", n, t1 / t2 }' "$tmp/figures"
}

echo "records_19x19: $(wc -l <"$tmp/19x19.txt")"
echo "cores: $(getconf _NPROCESSORS_ONLN)"
# A first pass reads the files into the page cache, so that every timed run reads them alike.
"$SHOUTAN" batch "$GAMES" --dead none -r chinese -o /dev/null 2>/dev/null
# Dead stones none, every ruleset: the counting itself, on 19x19 records and on them all, each
# five times over so that a run lasts seconds.
for i in 1 2 3 4 5; do cat "$tmp/19x19.txt"; done >"$tmp/19x19x5.txt"
run none_19x19_j1 1 none - <"$tmp/19x19x5.txt"
run none_all_j1 1 none "$GAMES" "$GAMES" "$GAMES" "$GAMES" "$GAMES"
run none_all_j2 2 none "$GAMES" "$GAMES" "$GAMES" "$GAMES" "$GAMES"
# Dead stones judged, every ruleset: the whole corpus on every core, and on one.
run auto_all_j2 2 auto "$GAMES"
run auto_all_j1 1 auto "$GAMES"
ratio none_j2_speedup none_all_j1 none_all_j2
ratio auto_j2_speedup auto_all_j1 auto_all_j2
