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
# Five dame between two living groups, in a record with no moves (so not finished): dead: auto
# settles them alternately from Black, and shows the moves; an explicit dead: none settles nothing.
dame5='(;SZ[8:5]AB[ba][da][ab][bb][cb][db][bc][dc][ad][bd][cd][dd][be][de]AW[fa][ha][fb][gb][hb][fc][hc][fd][gd][hd][fe][he])'
check "score shows the settle moves" "settle (5): B E5 dame, W E4 dame, B E3 dame, W E2 dame, B E1 dame" \
	sh -c "echo '$dame5' | \"$SHOUTAN\" score - -r chinese --dead auto"
check "the note says what settling decided" "counted as it stands the result would be W+2.5, settled it is W+1.5" \
	sh -c "echo '$dame5' | \"$SHOUTAN\" score - -r chinese --dead auto"
check "auto-thorough settles too" "settle (5): B E5 dame" \
	sh -c "echo '$dame5' | \"$SHOUTAN\" score - -r chinese --dead auto-thorough"
check "auto-thorough counts three times and stops when they agree" \
	"auto-thorough: 3 counts, each judged with its own playout seed, agree: W+1.5 (3)" \
	sh -c "echo '$dame5' | \"$SHOUTAN\" score - -r chinese --dead auto-thorough"
check "auto counts a record that stopped before the end twice" \
	"auto (a record that stopped before the end): 2 counts, each judged with its own playout seed, agree: W+1.5 (2)" \
	sh -c "echo '$dame5' | \"$SHOUTAN\" score - -r chinese --dead auto"
check "the settle list in JSON" '"settle":[{"move":"E5","color":"B","reason":"dame","unsure":false}' \
	sh -c "echo '$dame5' | \"$SHOUTAN\" score - -r chinese --dead auto --json --compact"
check "dead: none settles nothing" "White wins by 2.5 points (W+2.5)" \
	sh -c "echo '$dame5' | \"$SHOUTAN\" score - -r chinese --dead none"
# A record that stops at a pass was finished (servers stop at the first pass of a game that
# went to counting): nothing the record left open is read into it.  F1 is judged dead.  Where
# the settle step's order has Black fill E1 first (half the orders), a finished game keeps F1
# dead (W+0.5); the same position with Black to move and no pass is an unfinished game, where
# E1 joins F1 back to Black's wall and it counts alive again (B+0.5).  Either way the median
# of the two, the one worse for Black to move, is counted.
cut='(;GM[1]FF[4]SZ[9:5]RU[Japanese]KM[0.5]AB[aa][ba][ca][da][bb][db][ac][bc][cc][dc][bd][dd][be][de][fe]AW[fa][ga][ha][ia][eb][fb][hb][ec][gc][ic][ed][fd][gd][hd][id][he]'
check "a record that stops at a pass is settled as finished" \
	"orders of equal moves give W+2.5 (4), W+0.5 (4): the median is counted, of two the one worse for the side to move" \
	sh -c "echo '${cut}PL[W];W[])' | \"$SHOUTAN\" score - --dead auto"
check "a record that stops before is settled as unfinished" "give W+2.5 (4), B+0.5 (4)" \
	sh -c "echo '${cut}PL[B])' | \"$SHOUTAN\" score - --dead auto"
# A snapback (tests/data/board/settle-snapback.case): Black's E5 in atari beside White's dead
# E4 F4 G5 lives, as taking it would be retaken with them, so the dead list leaves it out.  (The
# Japanese confirmation once called it dead by ko, and the settle step revived it; a fight
# beside stones called dead is no longer searched, so the verdict is right from the start.)
snapback='(;GM[1]FF[4]SZ[9:5]AB[ea][ha][db][gb][hb][ib][dc][ec][fc][hc][dd][fd][gd][hd][id][de][ee][fe][he]AW[ba][ca][da][ga][ab][bb][cb][eb][fb][bc][cc][ad][bd][cd][be][ce])'
check "the dead list leaves out a snapback's stone" '"dead":["G5","E4","F4"]' \
	sh -c "echo '$snapback' | \"$SHOUTAN\" score - -r japanese --dead auto --json --compact"
# Black's E5 in atari, Black to move: the playouts, half of them White's first, call it dead;
# the settle step connects it at F5 and counts it alive, and a note names it for a person to
# check (the dead list says what was counted).
atari='(;GM[1]FF[4]SZ[9:5]PL[B]AB[ea][ga][ia][fb][gb][hb][ib][ec][fc][hc][ed][gd][hd][id][ee][fe][ge][ie]AW[ba][da][ab][bb][cb][db][eb][bc][dc][ad][bd][cd][dd][be][de])'
check "a note names the chains settling found alive" "the settle step found alive 1 chain the verdict called dead (1 stone; joined to a live chain by a settle move of their owner, or their capture would be a snapback; unsure): E5" \
	sh -c "echo '$atari' | \"$SHOUTAN\" score - -r japanese --dead auto"
check "the dead list leaves out a chain settling found alive" '"dead":[]' \
	sh -c "echo '$atari' | \"$SHOUTAN\" score - -r japanese --dead auto --json --compact"
check "rulesets lists chinese" "chinese        chinese   19x19  7.5    B" "$SHOUTAN" rulesets
check "rulesets lists han17" "han17          han17     17x17  0      W" "$SHOUTAN" rulesets
check "score tromp-taylor" "tromp-taylor: Black wins by 2 points (B+2)" \
	"$SHOUTAN" score "$demo" -r tromp-taylor
check "score native text" "黑胜1子" "$SHOUTAN" score "$demo" -r chinese --dead none
check "score --komi in zi" "Black wins by 3 points (B+3)" \
	"$SHOUTAN" score "$demo" -r chinese --dead none --komi 3zi
check "score --json" '"re":"B+2"' "$SHOUTAN" score "$demo" -r tromp-taylor --json
check "score from stdin" "B+2" sh -c "\"$SHOUTAN\" score - -r tromp-taylor < \"$demo\""
check "ruleset from RU" "chinese: " "$SHOUTAN" score "$demo"
# A random position (not a game) whose judgement hangs on the playouts: dead: auto counts it
# three times, keeps the count whose result is the median of the three, lists their results and
# names the chains the counts disagree on.
luck='(;SZ[9]KM[0]RU[Japanese]AB[ad][bd][bg][ch][df][di][ee][eh][fb][fd][fh][gc][hg][hh][hi][id]AW[ac][ae][af][ah][ai][ba][bc][cc][cg][ci][dd][dh][eb][ef][ei][fc][fg][fi][ga][gd][gf][gh][hb][hc][hd][he][hf][ic])'
out=$(echo "$luck" | "$SHOUTAN" score - --dead auto 2>&1)
kept=$(printf '%s\n' "$out" | sed -n '1s/.*(\([BW]+[0-9.]*\)).*/\1/p')
median=$(printf '%s\n' "$out" | sed -n 's/.*the median of 3 counts, each judged with its own playout seed: //p' |
	tr ',' '\n' | sed 's/ *\([BW]\)+\([0-9.]*\) (\([0-9]*\))/\1 \2 \3/' |
	awk '{ for (i = 0; i < $3; i++) print ($1 == "B" ? $2 : -$2), $1 "+" $2 }' | sort -n |
	sed -n 2p | cut -d' ' -f2)
if [ -n "$kept" ] && [ "$kept" = "$median" ]; then passed=$((passed + 1)); else
	failed=$((failed + 1)); printf 'FAIL auto keeps the median of three counts (%s, median %s):\n%s\n' \
	"$kept" "$median" "$out"; fi
check "auto names the chains the counts disagree on" "the counts differ on" \
	sh -c "echo '$luck' | \"$SHOUTAN\" score - --dead auto"

# compare judges the final position once for the rulesets that judge it alike: each ruleset's
# score object there is byte for byte what score gives under that ruleset alone.
for dead in auto auto-thorough; do
	all=$("$SHOUTAN" compare "$demo" --dead "$dead" --json --compact 2>&1)
	for r in japanese chinese aga tromp-taylor tibetan ancient new-zealand; do
		one=$("$SHOUTAN" score "$demo" -r "$r" --dead "$dead" --json --compact 2>&1)
		case "$all" in
		*"$one"*) passed=$((passed + 1)) ;;
		*) failed=$((failed + 1)); printf 'FAIL compare --dead %s under %s is not score:\n%s\n' \
			"$dead" "$r" "$one" ;;
		esac
	done
done
check "compare marks a changed winner" "* japanese" "$SHOUTAN" compare "$demo" \
	-r chinese,japanese,tromp-taylor --dead none
check "compare says the winners differ" "the winner differs" "$SHOUTAN" compare "$demo" \
	-r chinese,japanese --dead none
check "compare --json" '"winners_agree":false' "$SHOUTAN" compare "$demo" \
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

# Clocks: a 读秒 game in JSON, a byo-yomi record in SGF, a bad time control.
cp "$SRC/examples/clock-dumiao.json" "$TMP/dumiao.json"
check "clock: 读秒 calls the minutes" "+0:01:00.000  还剩1分钟" "$SHOUTAN" clock "$TMP/dumiao.json"
check "clock: the last minute is counted" "+0:01:59.000  9" "$SHOUTAN" clock "$TMP/dumiao.json"
check "clock: the flag falls at 60 s" "lost on time: B at move 3, 0:02:00.000 into the move" \
	"$SHOUTAN" clock "$TMP/dumiao.json"
check "clock --json" '"kind":"time_lost"' "$SHOUTAN" clock "$TMP/dumiao.json" --json
printf '(;SZ[9]TM[60]OT[3x30 byo-yomi];B[ee]BL[50];W[cc]WL[55];B[gg]BL[20]OB[3]\n;W[dd]WL[1.5];B[ff]BL[10]OB[2])\n' > "$TMP/timed.sgf"
check "clock from SGF BL/OB" "+0:00:30.000  2 periods left" "$SHOUTAN" clock "$TMP/timed.sgf"
check "clock from SGF, Canadian: a period completed" "   7 B 0:00:10.000  left 0:00:00.000, 3 moves in 0:00:30.000" \
	sh -c "echo '(;SZ[9]TM[60]OT[3/30 Canadian];B[aa]BL[50];W[ii]WL[59];B[ba]BL[25]OB[2];W[hi]WL[58];B[ca]BL[15]OB[1];W[gi]WL[57];B[da]BL[5]OB[0])' | \"$SHOUTAN\" clock -"
check "clock --clock overrides" "time control: fischer" "$SHOUTAN" clock "$TMP/timed.sgf" \
	--clock type=fischer,main=60,increment=10
check "clock: a bad time control is named" "clock: unknown time control 'sandglass'" \
	"$SHOUTAN" clock "$TMP/dumiao.json" --clock type=sandglass
check "clock: a record without times says which move" "move 1 (B): the record gives no time left" \
	sh -c "echo '(;SZ[9]TM[60];B[ee])' | \"$SHOUTAN\" clock -"

# The referee: the same event log under Chinese and Japanese rules.
cat > "$TMP/events.json" <<'JSON'
{"size": 9, "events": [
 {"type": "move", "vertex": "E5"}, {"type": "move", "vertex": "C3"},
 {"type": "move", "color": "W", "vertex": "D3"},
 {"type": "disturb", "color": "W"}, {"type": "move", "vertex": "G7"}]}
JSON
check "referee chinese: two moves in a row is a warning" "W move      D3   warning" \
	"$SHOUTAN" referee "$TMP/events.json" -r chinese
check "referee chinese: two warnings lose" "outcome: forfeit B+F" \
	"$SHOUTAN" referee "$TMP/events.json" -r chinese
check "referee chinese-1988: two moves in a row lose" "outcome: infraction B+F" \
	"$SHOUTAN" referee "$TMP/events.json" -r chinese-1988
check "referee japanese: an infraction loses" "W move      D3   loss" \
	"$SHOUTAN" referee "$TMP/events.json" -r japanese
check "referee: resignation" "outcome: resignation W+R" sh -c \
	"echo '{\"events\": [{\"type\": \"resign\", \"color\": \"B\"}]}' | \"$SHOUTAN\" referee - -r chinese"
check "referee: counting after two passes" "outcome: counting W+7.5" sh -c \
	"echo '{\"size\": 9, \"events\": [{\"type\": \"pass\"}, {\"type\": \"pass\"}]}' | \"$SHOUTAN\" referee - -r chinese --dead none"
cat > "$TMP/timed-events.json" <<'JSON'
{"size": 9, "clock": {"type": "dumiao", "main": "1m", "periods": 1}, "events": [
 {"type": "move", "vertex": "E5", "seconds": 30}, {"type": "move", "vertex": "C3", "seconds": 5},
 {"type": "move", "vertex": "G7", "seconds": 95}]}
JSON
check "referee: the referee counts the last minute" "10，超时判负" \
	"$SHOUTAN" referee "$TMP/timed-events.json" -r chinese
check "referee: lost on time" "outcome: time W+T" \
	"$SHOUTAN" referee "$TMP/timed-events.json" -r chinese
check "referee: the example's sealed move" "W seal      C7   accepted sealed at adjournment" \
	"$SHOUTAN" referee "$SRC/examples/referee-events.json" -r chinese
check "referee: the example ends on time" "outcome: time W+T" \
	"$SHOUTAN" referee "$SRC/examples/referee-events.json" -r chinese
# A ko retaken at once and a suicide: void and the turn lost (Chinese); a loss (Japanese).
cat > "$TMP/ko.json" <<'JSON'
{"size": 9, "events": [
 {"type": "move", "vertex": "B3"}, {"type": "move", "vertex": "C3"},
 {"type": "move", "vertex": "A2"}, {"type": "move", "vertex": "D2"},
 {"type": "move", "vertex": "B1"}, {"type": "move", "vertex": "C1"},
 {"type": "move", "vertex": "E9"}, {"type": "move", "vertex": "B2"},
 {"type": "move", "vertex": "C2"}, {"type": "move", "vertex": "B2"},
 {"type": "move", "vertex": "E8"}, {"type": "move", "vertex": "A1"}]}
JSON
check "referee chinese: a ko retaken at once is void" \
	"W move      B2   void     immediate ko recapture: the move is void and the turn is lost" \
	"$SHOUTAN" referee "$TMP/ko.json" -r chinese
check "referee chinese: suicide is void" "W move      A1   void     suicide" \
	"$SHOUTAN" referee "$TMP/ko.json" -r chinese
check "referee japanese: the ko retake loses" "outcome: infraction B+F" \
	"$SHOUTAN" referee "$TMP/ko.json" -r japanese
# A triple ko (three kos on one board, set up), played round twice: superko voids the move that
# repeats (Chinese), the cycle ends the game without result (Japanese), or as the event's
# cycles parameter says (Chinese practice: draw, or replay).
cat > "$TMP/triple.json" <<'JSON'
{"size": 9, "dead": "none",
 "setup": {"B": ["B3", "A2", "B1", "B7", "A8", "B9", "G3", "F2", "G1", "H2"],
           "W": ["C3", "D2", "C1", "C7", "D8", "C9", "H3", "J2", "H1", "B2", "B8"]},
 "events": [
  {"type": "move", "vertex": "C2"}, {"type": "move", "vertex": "G2"},
  {"type": "move", "vertex": "C8"}, {"type": "move", "vertex": "B2"},
  {"type": "move", "vertex": "H2"}, {"type": "move", "vertex": "B8"},
  {"type": "move", "vertex": "C2"}, {"type": "move", "vertex": "G2"},
  {"type": "move", "vertex": "C8"}, {"type": "move", "vertex": "B2"},
  {"type": "move", "vertex": "H2"}, {"type": "move", "vertex": "B8"},
  {"type": "move", "vertex": "C2"}]}
JSON
check "referee chinese: superko voids the repeating move" \
	"W move      B8   void     repeats an earlier position (superko)" \
	"$SHOUTAN" referee "$TMP/triple.json" -r chinese
check "referee japanese: a long cycle has no result" "outcome: no_result Void" \
	"$SHOUTAN" referee "$TMP/triple.json" -r japanese
# The same kos in a record, which score and replay judge: under simple ko the history is asked
# once at the end, and a state seen three times replays the game asking at every move.  Round
# the kos once the start comes back a second time, and play goes on; twice, the cycle ends the
# game where it began, also when a move refused later (on a stone) would have stopped it.
triple_setup='"setup": {"black": ["B3", "A2", "B1", "B7", "A8", "B9", "G3", "F2", "G1", "H2"],
  "white": ["C3", "D2", "C1", "C7", "D8", "C9", "H3", "J2", "H1", "B2", "B8"]}'
triple_round='"B C2", "W G2", "B C8", "W B2", "B H2", "W B8"'
echo "{\"size\": 9, $triple_setup, \"moves\": [$triple_round, \"B D5\", \"W E5\"]}" \
	> "$TMP/triple-once.json"
echo "{\"size\": 9, $triple_setup, \"moves\": [$triple_round, $triple_round, \"B C2\"]}" \
	> "$TMP/triple-game.json"
echo "{\"size\": 9, $triple_setup, \"moves\": [$triple_round, $triple_round, \"B C2\", \"W A2\"]}" \
	> "$TMP/triple-refused.json"
check "replay japanese: a ko round once goes on" "japanese: 8 moves, 0 not ok; end: playing" \
	"$SHOUTAN" replay "$TMP/triple-once.json" -r japanese
check "replay japanese: round twice, the cycle ends the game" \
	"end: no_result — move 12 repeats an earlier position" \
	"$SHOUTAN" replay "$TMP/triple-game.json" -r japanese
check "score japanese: the cycle's result" "No result: move 12 repeats a position (Void)" \
	"$SHOUTAN" score "$TMP/triple-game.json" -r japanese --dead none
check "score japanese: the cycle ends the game before a refused move" \
	"No result: move 12 repeats a position (Void)" \
	"$SHOUTAN" score "$TMP/triple-refused.json" -r japanese --dead none
check "replay chinese: superko voids the record's move that repeats the start" \
	"move 6 W B8: void (superko)" "$SHOUTAN" replay "$TMP/triple-once.json" -r chinese
mkdir "$TMP/rs-practice"
cp "$SRC"/rulesets/*.yaml "$TMP/rs-practice/"
printf 'plugin: chinese\nparameters:\n  ko: chinese-practice\n' > "$TMP/rs-practice/practice.yaml"
printf 'plugin: chinese\nparameters:\n  ko: chinese-practice\n  cycles: replay\n' \
	> "$TMP/rs-practice/practice-replay.yaml"
check "referee chinese practice: a long cycle is a draw" "outcome: draw 0" \
	"$SHOUTAN" --rulesets-dir "$TMP/rs-practice" referee "$TMP/triple.json" -r practice
check "referee chinese practice: or the game is replayed" "outcome: replay Void" \
	"$SHOUTAN" --rulesets-dir "$TMP/rs-practice" referee "$TMP/triple.json" -r practice-replay
check "referee from SGF: the record's board and clock" "+0:00:30.000  2 periods left" \
	"$SHOUTAN" referee "$TMP/timed.sgf" -r japanese
check "referee from SGF: the record's moves" "B move      F4   accepted" \
	"$SHOUTAN" referee "$TMP/timed.sgf" -r japanese
check_rc "referee needs a ruleset" 1 "$SHOUTAN" referee "$TMP/events.json"

check "clock: the ruleset's time control" "time control: dumiao, main 2:00:00.000" \
	sh -c "echo '{\"moves\": [{\"seconds\": 30}]}' | \"$SHOUTAN\" clock - -r chinese"
mkdir "$TMP/rs-clock"
printf 'plugin: chinese\nclock:\n  type: sandglass\n' > "$TMP/rs-clock/bad-clock.yaml"
check "a bad clock in a ruleset names line and column" \
	"bad-clock.yaml:3:9: unknown time control 'sandglass'" \
	"$SHOUTAN" --rulesets-dir "$TMP/rs-clock" rulesets

# One komi order everywhere (issue 11, item 7): the demo's KM[7] makes it a draw for score and
# for the referee alike (the referee once ignored KM and said W+0.5).
check "score: the demo is a draw at the record's komi" "Draw (0)" "$SHOUTAN" score "$demo" -r chinese
check "referee: the demo is a draw at the record's komi" "outcome: counting 0" \
	"$SHOUTAN" referee "$demo" -r chinese

# ---- Command-line manners: help, unknown options, --version, several files, --tree, legal,
# compact JSON, usage lines that say what each command takes, the manual page, the examples.

# run COMMAND...: its standard output, standard error and exit status in $TMP/out, err, $rc.
run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }
# The subcommands, as `shoutan --help` lists them under "commands:".
commands=$("$SHOUTAN" --help | sed -n '/^commands:/,/^[^ ]/s/^  \([a-z][a-z]*\).*/\1/p')
[ "$(echo "$commands" | wc -w)" -ge 8 ] && pass || fail "shoutan --help lists the commands: $commands"
for cmd in $commands; do
	run "$SHOUTAN" "$cmd" --help
	if [ "$rc" -eq 0 ] && [ ! -s "$TMP/err" ] && head -1 "$TMP/out" | grep -q "^usage: shoutan $cmd "; then
		pass; else fail "$cmd --help: exit $rc, stdout: $(head -1 "$TMP/out"), stderr: $(cat "$TMP/err")"; fi
	cp "$TMP/out" "$TMP/help-$cmd"
	run "$SHOUTAN" help "$cmd"
	if [ "$rc" -eq 0 ] && cmp -s "$TMP/out" "$TMP/help-$cmd"; then pass; else
		fail "shoutan help $cmd: exit $rc, not what $cmd --help prints"; fi
done
run "$SHOUTAN" --help
[ "$rc" -eq 0 ] && grep -q '^usage: shoutan ' "$TMP/out" && [ ! -s "$TMP/err" ] && pass ||
	fail "shoutan --help: exit $rc, stdout $(head -1 "$TMP/out")"
cp "$TMP/out" "$TMP/help-all"
run "$SHOUTAN" help
[ "$rc" -eq 0 ] && cmp -s "$TMP/out" "$TMP/help-all" && pass || fail "shoutan help: not what --help prints"
check_rc "help for a command there is not" 2 "$SHOUTAN" help nosuch
check "help for a command there is not names it" "shoutan help: unknown command 'nosuch'" \
	"$SHOUTAN" help nosuch
check_rc "--help answers when the rulesets cannot load" 0 \
	"$SHOUTAN" --rulesets-dir "$TMP/rs" score --help

# An unknown option is named, with the command's usage, on stderr; exit 2; nothing on stdout.
run "$SHOUTAN" score "$demo" --foo
if [ "$rc" -eq 2 ] && [ ! -s "$TMP/out" ] && grep -q "^shoutan score: unknown option '--foo'$" "$TMP/err" &&
	grep -q '^usage: shoutan score ' "$TMP/err"; then pass; else
	fail "score --foo: exit $rc, stderr: $(cat "$TMP/err")"; fi
check "an unknown global option is named" "shoutan: unknown option '--frobnicate'" \
	"$SHOUTAN" --frobnicate rulesets
check "an option without its value says so" "shoutan score: option '--komi' needs a value (X)" \
	"$SHOUTAN" score "$demo" --komi
check "a bad value is named" "shoutan score: --tree takes the number of a game tree" \
	"$SHOUTAN" score "$demo" --tree first

# Each command takes exactly the options its usage line names.  The options: every one that
# some usage line names, and the spellings the command once took without saying so.
sample_value() { # the value the test gives an option, or "" for a flag
	case $1 in
	-r | --ruleset | --rulesets) echo chinese ;;
	--dead) echo none ;;
	--komi) echo 6.5 ;;
	--tree) echo 0 ;;
	--clock) echo type=absolute,main=10m ;;
	--json | --compact | --stdin-jsonl | --summary) echo "" ;;
	--svg) echo "$TMP/sample.svg" ;;
	-j) echo 1 ;;
	--format) echo jsonl ;;
	-o) echo "$TMP/batch-sample.jsonl" ;;
	*) echo "NO-SAMPLE" ;;
	esac
}
all_options=$(for cmd in $commands; do head -1 "$TMP/help-$cmd"; done |
	grep -o '[[ |]-[-a-z]*[a-z]' | cut -c2- | sort -u)
[ "$(echo "$all_options" | wc -w)" -ge 7 ] && pass || fail "usage lines name the options: $all_options"
for cmd in $commands; do
	usage=$(head -1 "$TMP/help-$cmd")
	for opt in $all_options --ruleset --rulesets; do
		value=$(sample_value "$opt")
		if [ "$value" = NO-SAMPLE ]; then
			fail "the test has no sample value for $opt (add one to sample_value)"
			continue
		fi
		# shellcheck disable=SC2086 # a flag has no value: no word at all
		run "$SHOUTAN" "$cmd" "$opt" $value
		if echo "$usage" | grep -q -- "[[ |]$opt[] |]\|[[ |]$opt\$"; then
			# Listed: parsing passes it, to stop at the missing operand, or runs.
			if [ "$rc" -eq 0 ] || grep -q ' \(is\|are\) missing' "$TMP/err"; then pass; else
				fail "$cmd lists $opt but refuses it: $(head -1 "$TMP/err")"; fi
		else
			if [ "$rc" -eq 2 ] && grep -q "^shoutan $cmd: unknown option '$opt'$" "$TMP/err"; then
				pass; else fail "$cmd takes $opt, which its usage line does not name"; fi
		fi
	done
done
check "replay lists --komi" "--komi X" "$SHOUTAN" replay --help
check "replay --komi is the replay's komi" '"komi":3.5' \
	"$SHOUTAN" replay "$demo" -r japanese --komi 3.5 --json

version=$(sed -n "s/^ *version : '\([^']*\)'.*/\1/p" "$SRC/meson.build" | head -1)
run "$SHOUTAN" --version
[ -n "$version" ] && [ "$rc" -eq 0 ] && grep -q "^shoutan $version " "$TMP/out" && pass ||
	fail "--version: exit $rc, '$(cat "$TMP/out")', wanted shoutan $version"

# Several files: each scored in turn, past one that fails; the exit status says one did.
cp "$demo" "$TMP/a.sgf"
run "$SHOUTAN" score "$TMP/a.sgf" "$TMP/occupied.sgf" "$TMP/g.json" -r tromp-taylor --dead none
[ "$rc" -eq 1 ] && pass || fail "score with a failing file: exit $rc, wanted 1"
sed -n '1p;2p' "$TMP/out" | tr '\n' '|' | grep -q "^==> $TMP/a.sgf <==|tromp-taylor: Black wins by 2 points" &&
	pass || fail "score: the first file's name, then its score: $(head -2 "$TMP/out")"
grep -q "^==> $TMP/g.json <==" "$TMP/out" && grep -q "White wins by 7 points (W+7)" "$TMP/out" &&
	pass || fail "score goes on past a failing file: $(cat "$TMP/out")"
grep -q "$TMP/occupied.sgf:3: move 3 (B E5): point is occupied" "$TMP/err" && pass ||
	fail "score names the failing file: $(cat "$TMP/err")"
run "$SHOUTAN" score "$TMP/a.sgf" "$TMP/occupied.sgf" "$TMP/g.json" -r tromp-taylor --dead none --json
[ "$rc" -eq 1 ] && [ "$(wc -l < "$TMP/out")" -eq 3 ] && pass ||
	fail "score --json: one line per file, exit 1: exit $rc, $(wc -l < "$TMP/out") lines"
sed -n 1p "$TMP/out" | grep -q "^{\"file\":\"$TMP/a.sgf\",\"result\":{\"ruleset\":\"tromp-taylor\",.*\"re\":\"B+2\"" &&
	pass || fail "score --json line 1: $(sed -n 1p "$TMP/out")"
sed -n 2p "$TMP/out" | grep -q "^{\"file\":\"$TMP/occupied.sgf\",\"error\":{\"message\":\"$TMP/occupied.sgf:3: move 3 (B E5): point is occupied\",\"kind\":\"illegal_move\"}}$" &&
	pass || fail "score --json line 2: $(sed -n 2p "$TMP/out")"
sed -n 3p "$TMP/out" | grep -q "^{\"file\":\"$TMP/g.json\",\"result\":{.*\"re\":\"W+7\"" &&
	pass || fail "score --json line 3: $(sed -n 3p "$TMP/out")"
check_rc "score of files that all score exits 0" 0 "$SHOUTAN" score "$TMP/a.sgf" "$TMP/g.json"
check "standard input is read once" "standard input (-) can be read once" \
	"$SHOUTAN" score - - < "$demo"

# --tree: a game of an SGF collection.
printf '(;SZ[9];B[ee];W[];B[])\n(;SZ[9]\n;B[]\n;W[ee];B[];W[])\n' > "$TMP/two.sgf"
check "--tree 0 is the first game" "Black wins by 73.5 points" \
	"$SHOUTAN" score "$TMP/two.sgf" --tree 0 -r tromp-taylor --dead none
check "--tree 1 is the second" "White wins by 88.5 points" \
	"$SHOUTAN" score "$TMP/two.sgf" --tree 1 -r tromp-taylor --dead none
check "--tree 1 for compare" "W+88.5" "$SHOUTAN" compare "$TMP/two.sgf" --tree 1 -r tromp-taylor --dead none
check "--tree 1 for replay" "4 moves" "$SHOUTAN" replay "$TMP/two.sgf" --tree 1
check "a tree the file does not have" "game tree 2 does not exist (the file has 2)" \
	"$SHOUTAN" score "$TMP/two.sgf" --tree 2
check "--tree on a JSON game" "--tree picks a game tree of an SGF collection" \
	"$SHOUTAN" score "$TMP/g.json" --tree 1
printf '(;SZ[9];B[ee])\n(;SZ[9]\n;B[ee]\n;W[ee])\n' > "$TMP/two-illegal.sgf"
check "an illegal move in tree 1 names its line" "$TMP/two-illegal.sgf:4: move 2 (W E5): point is occupied" \
	"$SHOUTAN" score "$TMP/two-illegal.sgf" --tree 1

# legal: the daemon's method from the command line.
printf '{"size": 9, "moves": ["B B1", "W A1"]}\n' > "$TMP/capture.json"
check "legal: a capture" "B A2: legal, captures 1: A1" "$SHOUTAN" legal "$TMP/capture.json" B A2
check "legal: MOVE in one word" "B A2: legal, captures 1: A1" "$SHOUTAN" legal "$TMP/capture.json" "B A2"
check "legal: an occupied point" "B B1: illegal: occupied; consequence: reject" \
	"$SHOUTAN" legal "$TMP/capture.json" B B1 -r japanese
check "legal --json" '{"legal":true,"reason":null,"consequence":"none","captures":["A1"]}' \
	"$SHOUTAN" legal "$TMP/capture.json" B A2 --json
check "legal: a bad vertex" "move: 'Z9' is not a vertex of the 9x9 board" \
	"$SHOUTAN" legal "$TMP/capture.json" B Z9
check_rc "legal without a move" 2 "$SHOUTAN" legal "$TMP/capture.json"

# JSON: one line for a pipe, indented on a terminal, one line there too with --compact.
run "$SHOUTAN" rulesets --json
[ "$(wc -l < "$TMP/out")" -eq 1 ] && pass || fail "--json into a pipe is one line"
run "$SHOUTAN" rulesets --compact
[ "$(wc -l < "$TMP/out")" -eq 1 ] && grep -q '^{"rulesets":\[{"name":' "$TMP/out" && pass ||
	fail "--compact is one line of JSON: $(head -c 100 "$TMP/out")"
if command -v script >/dev/null; then
	check "--json on a terminal is indented" '"re": "B+2"' \
		script -qec "\"$SHOUTAN\" score \"$demo\" -r tromp-taylor --json" /dev/null
	check "--compact on a terminal is one line" '"re":"B+2"' \
		script -qec "\"$SHOUTAN\" score \"$demo\" -r tromp-taylor --compact" /dev/null
else
	fail "script(1) (bsdutils) is needed to give the command a terminal"
fi

# The manual page names every command, and every option of every usage line.
man=$(sed 's/\\-/-/g' "$SRC/docs/man/shoutan.1")
for cmd in $commands; do
	echo "$man" | grep -q "^\.B[IR]* $cmd\b" && pass || fail "shoutan.1 has no entry for $cmd"
done
for opt in $all_options --version --help --socket --rulesets-dir --plugins-dir; do
	echo "$man" | grep -q -- "$opt\b" && pass || fail "shoutan.1 does not name $opt"
done

# The examples run as the README runs them.
for script in "$SRC"/examples/*; do
	if [ -f "$script" ] && head -c 2 "$script" | grep -q '^#!'; then
		[ -x "$script" ] && pass || fail "$script has a #! line but is not executable"
	fi
done
grep -q '^ *examples/socat-version.sh ' "$SRC/README.md" && [ -x "$SRC/examples/socat-version.sh" ] &&
	pass || fail "README runs examples/socat-version.sh, which must be executable"

# The referee reads a record as score does (issue 11): its handicap stones are on the board
# and White moves first (the referee once ignored AB and called W's first move out of turn).
printf '(;SZ[9]HA[2]AB[cc][gg];W[ee];B[dd];W[];B[])' > "$TMP/handicap.sgf"
check "referee: a handicap record's White opens" "   1 W move      E5   accepted" \
	"$SHOUTAN" referee "$TMP/handicap.sgf" -r chinese --dead none
check "referee: and counts as score does" "outcome: counting W+7.5" \
	"$SHOUTAN" referee "$TMP/handicap.sgf" -r chinese --dead none
check "score: the same record" "chinese: White wins by 7.5 points (W+7.5)" \
	"$SHOUTAN" score "$TMP/handicap.sgf" -r chinese --dead none
check "referee: a record that edits the board during play is refused" \
	"the record edits the board during play (AB, AW or AE after move 1)" \
	sh -c "printf '(;SZ[9];B[ee];AW[aa];W[dd])' | \"$SHOUTAN\" referee - -r chinese"
# A game lost by a violation says so in the command's line too (issue 11, item 8).
check "score: a forfeit's headline" \
	"japanese: Black wins by forfeit: White, suicide at move 2 (B+F) — 白の反則負け" \
	sh -c "echo '{\"size\":5,\"setup\":{\"black\":[\"A2\",\"B1\"]},\"handicap\":0,\"moves\":[\"B pass\",\"W A1\"]}' | \"$SHOUTAN\" score - -r japanese --dead none"
check "referee: komi from the command" "outcome: counting B+0.5" \
	"$SHOUTAN" referee "$demo" -r chinese --komi 6.5
# A komi for Black over half a small board: describe read before its table of quarters.
mkdir "$TMP/negative-komi"
sed 's/^  size: 19/  size: 9/; s/^  komi: .*/  komi: -41.25/' "$SRC/rulesets/chinese.yaml" \
	>"$TMP/negative-komi/chinese.yaml"
check "describe: a komi larger than half the board for Black" \
	"Black wins with a count above 0.  " \
	"$SHOUTAN" --rulesets-dir "$TMP/negative-komi" describe chinese
# A file name that is not UTF-8 still gets its line in JSON Lines: it was left out silently.
odd="$TMP/$(printf 'odd\377').sgf"
cp "$demo" "$odd"
check "score --json: a file whose name is not UTF-8 keeps its line" '"file":"'"$TMP"'/odd?.sgf","result"' \
	"$SHOUTAN" score "$demo" "$odd" --json

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
