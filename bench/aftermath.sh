#!/bin/sh
# The endgame study (run on request, never in CI): GNU Go plays out each record's endgame
# (`--score aftermath`), and Shoutan counts the board GNU Go leaves, beside GNU Go's own count
# and Shoutan's own settle step, so that the dead-stone verdict, the counting and the endgame
# play can be told apart (docs/dead-stones.md, "Every Edo-period record").
# usage: bench/aftermath.sh [SHOUTAN [CORPUS [COLLECTION [EVERY]]]]
#   defaults: build/cli/shoutan, ../shared/corpus, edo-period, 1 (every record; 2 takes every
#   second one).  Japanese counting, as the Edo-period records were counted, whatever a
#   record's RU; the record's komi (0 where it has no KM, as the Edo-period records had none).
#   About 6 s a record on one core: an hour and more for the 656 Edo-period records.
set -eu
SHOUTAN=${1:-build/cli/shoutan}
CORPUS=${2:-../shared/corpus}
COLLECTION=${3:-edo-period}
EVERY=${4:-1}
DIR=$CORPUS/games/$COLLECTION
GNUGO=${SHOUTAN_GNUGO:-/usr/games/gnugo}
if [ ! -f "$DIR/index.tsv" ]; then
	echo "aftermath: no collection at $DIR (skipped)" >&2
	exit 77
fi
if [ ! -x "$GNUGO" ]; then
	echo "aftermath: no GNU Go at $GNUGO (skipped; set SHOUTAN_GNUGO)" >&2
	exit 77
fi
PLUGINS=$(dirname "$SHOUTAN")/../plugins
RULESETS=$(dirname "$0")/../rulesets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A result as a signed number of points for Black ("B+3" 3, "W+2.5" -2.5, "Jigo" 0); empty
# for a resignation, a time-out or anything else that is not a count.
margin() {
	echo "$1" | awk '/^(0|Jigo|Draw)$/ { print 0; exit }
		/^[BW]\+[0-9.]+$/ { v = substr($0, 3) + 0; print ($0 ~ /^W/ ? -v : v) }'
}

# Shoutan's result of the record at $1, as "B+3": the parenthesised result of its first line.
count() {
	"$SHOUTAN" --plugins-dir "$PLUGINS" --rulesets-dir "$RULESETS" score "$1" -r japanese \
	    --dead auto 2>/dev/null | sed -n '1s/.*(\([^)]*\)).*/\1/p'
}

# How the margin $1 stands to the record's $2: "exact", "within2" or "far", then 1 when the
# winner is the same and 0 when not (an empty margin is "far 0").
grade() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "" || b == "") { print "far 0"; exit }
		d = a - b; if (d < 0) d = -d
		kind = "far"; if (d <= 2) kind = "within2"; if (d == 0) kind = "exact"
		same = 0; if ((a > 0) == (b > 0) && (a < 0) == (b < 0)) same = 1
		print kind, same }'
}

# The 19x19 records and their results, from the index's SZ and RE columns (found by name: the
# collections' indexes differ).
awk -F'\t' -v every="$EVERY" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["SZ"] == 19 && (NR - 2) % every == 0 { print $1 "\t" $col["RE"] }' \
    "$DIR/index.tsv" >"$tmp/list"
n=0
: >"$tmp/grades"
while IFS="$(printf '\t')" read -r file result; do
	want=$(margin "$result")
	[ -n "$want" ] || continue
	# GNU Go and Shoutan would both assume a komi where KM is missing; these had none.  GNU Go
	# seeds its random moves from the clock unless told: --seed 1 makes a run repeatable.
	if grep -q 'KM\[' "$DIR/$file"; then cp "$DIR/$file" "$tmp/in.sgf"; else
		sed '1s/^(;/(;KM[0]/' "$DIR/$file" >"$tmp/in.sgf"; fi
	"$GNUGO" --infile "$tmp/in.sgf" --score aftermath --japanese-rules --seed 1 >"$tmp/log" 2>&1 ||
	    continue
	gg=$(awk '/^Black wins by/ { print $4 } /^White wins by/ { print -$4 } /^Jigo/ { print 0 }' \
	    "$tmp/log")
	[ -n "$gg" ] || continue
	# GNU Go's moves ("273 black (X) move T6") as SGF nodes after the record's last one, and
	# two passes: a finished game, which Shoutan counts as it stands.
	awk '{ text = text $0 "\n" } END {
		i = length(text); while (i > 0 && substr(text, i, 1) != ")") i--
		printf "%s", substr(text, 1, i - 1) }' "$tmp/in.sgf" >"$tmp/played.sgf"
	awk '$4 == "move" && $5 != "PASS" {
		x = index("ABCDEFGHJKLMNOPQRST", substr($5, 1, 1)); y = substr($5, 2) + 0
		printf ";%s[%c%c]", ($2 == "black" ? "B" : "W"), 96 + x, 96 + 20 - y }
		END { print ";B[];W[])" }' "$tmp/log" >>"$tmp/played.sgf"
	on_board=$(margin "$(count "$tmp/played.sgf")")
	own=$(margin "$(count "$tmp/in.sgf")")
	n=$((n + 1))
	printf 'settle %s\nboard %s\ngnugo %s\n' "$(grade "$own" "$want")" \
	    "$(grade "$on_board" "$want")" "$(grade "$gg" "$want")" >>"$tmp/grades"
	printf '%s\trecord %s\tsettle %s\tgnugo-board %s\tgnugo %s\n' "$file" "$want" "$own" \
	    "$on_board" "$gg"
done <"$tmp/list"
# Exact, within 2 points (exact included) and the same winner, for each count.
awk -v n="$n" '{ cls[$1, $2]++; won[$1] += $3 }
	function line(k, name) {
		e = cls[k, "exact"] + 0
		printf "aftermath: %s records=%d exact=%d within2=%d same_winner=%d\n", name, n, e,
		    e + cls[k, "within2"], won[k] + 0 }
	END { line("settle", "shoutan_settle"); line("board", "shoutan_on_gnugo_board")
		line("gnugo", "gnugo") }' "$tmp/grades"
