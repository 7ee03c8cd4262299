#!/bin/sh
# The shoutan command as a user runs it: output people read, --json, stdin, and error messages
# that name the file, the line and the move.  Usage: cli_test.sh SHOUTAN SOURCE_DIR
set -u
SHOUTAN=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

check() { # check NAME EXPECTED-SUBSTRING COMMAND...
	name=$1 want=$2
	shift 2
	out=$("$@" 2>&1)
	case "$out" in
	*"$want"*) passed=$((passed + 1)) ;;
	*) failed=$((failed + 1)); printf 'FAIL %s: wanted "%s" in:\n%s\n' "$name" "$want" "$out" ;;
	esac
}

check_rc() { # check_rc NAME RC COMMAND...
	name=$1 want=$2
	shift 2
	"$@" >/dev/null 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then passed=$((passed + 1)); else
		failed=$((failed + 1)); printf 'FAIL %s: exit %s, wanted %s\n' "$name" "$rc" "$want"; fi
}

demo=$SRC/examples/demo-9x9.sgf
# Bent four in the corner (tests/data/board/bent-four-corner.case): the Japanese rules call the
# white corner dead; Chinese rules leave it to be played out and say so.
bent4='(;SZ[9]AB[ba][ea][ab][eb][ec][ed][ae][be][ce][de][ee]AW[da][bb][cb][db][bc][cc][dc][ad][bd][cd][dd];B[];W[])'
check "japanese: bent four in the corner is dead" "dead (11): D9 B8 C8 D8 B7 C7 D7 A6 B6 C6 D6" \
	sh -c "echo '$bent4' | \"$SHOUTAN\" score - -r japanese --dead auto"
check "japanese: the note says why" "dead because only a ko could save it" \
	sh -c "echo '$bent4' | \"$SHOUTAN\" score - -r japanese --dead auto"
check "chinese: bent four is left to play" "only a ko decides it" \
	sh -c "echo '$bent4' | \"$SHOUTAN\" score - -r chinese --dead auto"
check "rulesets lists chinese" "chinese        chinese   19x19  7.5    B" "$SHOUTAN" rulesets
check "rulesets lists han17" "han17          han17     17x17  0      W" "$SHOUTAN" rulesets
check "score tromp-taylor" "tromp-taylor: Black wins by 2 points (B+2)" \
	"$SHOUTAN" score "$demo" -r tromp-taylor
check "score native text" "黑胜1子" "$SHOUTAN" score "$demo" -r chinese --dead none
check "score --komi in zi" "Black wins by 3 points (B+3)" \
	"$SHOUTAN" score "$demo" -r chinese --dead none --komi 3zi
check "score --json" '"re": "B+2"' "$SHOUTAN" score "$demo" -r tromp-taylor --json
check "score from stdin" "B+2" sh -c "\"$SHOUTAN\" score - -r tromp-taylor < \"$demo\""
check "ruleset from RU" "chinese: " "$SHOUTAN" score "$demo"
check "compare marks a changed winner" "* japanese" "$SHOUTAN" compare "$demo" \
	-r chinese,japanese,tromp-taylor --dead none
check "compare says the winners differ" "the winner differs" "$SHOUTAN" compare "$demo" \
	-r chinese,japanese --dead none
check "compare --json" '"winners_agree": false' "$SHOUTAN" compare "$demo" \
	-r chinese,japanese --dead none --json
check "describe marks reconstructions" "[R]" "$SHOUTAN" describe han17
check "replay" "end: ended" "$SHOUTAN" replay "$demo" -r japanese

printf '(;GM[1]FF[4]SZ[9]KM[7]\n;B[ee];W[cc]\n;B[ee])\n' > "$TMP/occupied.sgf"
check "illegal move names file, line and move" \
	"$TMP/occupied.sgf:3: move 3 (B E5): point is occupied" "$SHOUTAN" score "$TMP/occupied.sgf"
check_rc "illegal move exits 1" 1 "$SHOUTAN" score "$TMP/occupied.sgf"
printf '(;GM[1]FF[4]SZ[9]\n;B[ee];W[cc\n' > "$TMP/broken.sgf"
check "broken SGF names line and column" "$TMP/broken.sgf:2:9: property value is not closed" \
	"$SHOUTAN" score "$TMP/broken.sgf"
printf '{"size": 9, "moves": ["B E5", "W C7", "B pass", "W pass"], "komi": 7}\n' > "$TMP/g.json"
check "JSON game input" "White wins by 7 points (W+7)" \
	"$SHOUTAN" score "$TMP/g.json" -r tromp-taylor
check "unknown ruleset" "unknown ruleset 'nosuch'" "$SHOUTAN" score "$demo" -r nosuch
check "bad dead list" "dead: 'Z9' is not a vertex of the 9x9 board" \
	"$SHOUTAN" score "$demo" --dead Z9
check_rc "usage error exits 2" 2 "$SHOUTAN" score
check "missing file" "nofile.sgf: No such file" "$SHOUTAN" score "$TMP/nofile.sgf"
mkdir "$TMP/rs"
printf 'plugin: chinese\nparameters:\n  komi: plenty\n' > "$TMP/rs/broken.yaml"
check "broken ruleset file names line and column" \
	"broken.yaml:3:9: komi: 'plenty' is not a number" "$SHOUTAN" --rulesets-dir "$TMP/rs" rulesets

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
