#!/bin/sh
# The endgame study (run on request, never in CI): GNU Go plays out each record's endgame
# (`--score aftermath`), and Shoutan counts the board GNU Go leaves, beside GNU Go's own count
# and Shoutan's own settle step, so that the dead-stone verdict, the counting and the endgame
# play can be told apart (docs/dead-stones.md, "Every Edo-period record").
# usage: bench/aftermath.sh [SHOUTAN [CORPUS [COLLECTION [EVERY]]]]
#   defaults: build/cli/shoutan, ../shared/corpus, edo-period, 1 (every record; 2 takes every
#   second one).  Territory counting, the record's komi (0 where it has no KM, as the
#   Edo-period records had none).  About 6 s a record on one core (an hour and more for the 656 Edo-period records).
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

# Whether the margins $1 and $2 are the same (an empty one is no margin).
same() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 == b + 0) }'; }

awk -F'\t' -v every="$EVERY" 'NR > 1 && $2 == 19 && (NR - 2) % every == 0 { print $1 "\t" $5 }' \
    "$DIR/index.tsv" >"$tmp/list"
n=0 settle=0 board=0 gnugo=0
while IFS="$(printf '\t')" read -r file result; do
	want=$(margin "$result")
	[ -n "$want" ] || continue
	# GNU Go and Shoutan would both assume a komi where KM is missing; these had none.
	if grep -q 'KM\[' "$DIR/$file"; then cp "$DIR/$file" "$tmp/in.sgf"; else
		sed '1s/^(;/(;KM[0]/' "$DIR/$file" >"$tmp/in.sgf"; fi
	"$GNUGO" --infile "$tmp/in.sgf" --score aftermath --japanese-rules >"$tmp/log" 2>&1 ||
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
	if same "$own" "$want"; then settle=$((settle + 1)); fi
	if same "$on_board" "$want"; then board=$((board + 1)); fi
	if same "$gg" "$want"; then gnugo=$((gnugo + 1)); fi
	printf '%s\trecord %s\tsettle %s\tgnugo-board %s\tgnugo %s\n' "$file" "$want" "$own" \
	    "$on_board" "$gg"
done <"$tmp/list"
printf 'aftermath: records=%d exact: shoutan_settle=%d shoutan_on_gnugo_board=%d gnugo=%d\n' \
    "$n" "$settle" "$board" "$gnugo"
