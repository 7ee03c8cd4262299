#!/bin/bash
# Where a request's CPU goes through the daemon: for each load, the rate, its p99, and the
# microseconds of CPU a request costs the load generator, the daemon's parent and its workers
# (from /proc and time(1)), beside the bare echo server (run on request).
#
#   bench/cpu_split.sh [BUILD_DIR [CORPUS]]
#
# The three columns add up to what the machine spends on a request; with the generator on the
# same machine, the cores divided by that sum is the most any daemon design could answer.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
corpus=${2:-../shared/corpus}
dir=$(mktemp -d)
trap 'kill $daemon $echo_server 2>/dev/null || true; rm -rf "$dir"' EXIT
daemon=
echo_server=

if [ ! -d "$corpus/games/gnugo-regression" ]; then
	echo "cpu_split: no corpus at $corpus; skipped" >&2
	exit 77
fi

ticks() { # utime + stime of a process, in clock ticks
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# measure LABEL SERVER_PID "WORKER_PIDS" LOADGEN_ARGS...: a 2 s warm-up, then 10 s measured.
measure() {
	local label=$1 server=$2 workers=$3 hz out rate p99 gen n s0 s1 w0=0 w1=0 k
	shift 3
	hz=$(getconf CLK_TCK)
	"$build/bench/shoutan-loadgen" -C "$corpus" -c 64 -d 1 -t 2 "$@" >/dev/null 2>&1
	s0=$(ticks "$server")
	for k in $workers; do w0=$((w0 + $(ticks "$k"))); done
	out=$({ /usr/bin/time -f "generator_cpu_s %U %S" "$build/bench/shoutan-loadgen" \
	    -C "$corpus" -c 64 -d 1 -t 10 "$@"; } 2>&1)
	s1=$(ticks "$server")
	for k in $workers; do w1=$((w1 + $(ticks "$k"))); done
	rate=$(echo "$out" | awk '/^requests_per_s:/ { print $2; exit }')
	p99=$(echo "$out" | awk '/^p99_ms:/ { print $2; exit }')
	gen=$(echo "$out" | awk '/^generator_cpu_s/ { print $2 + $3 }')
	if [ -z "$rate" ] || [ "${rate%%.*}" = 0 ]; then
		echo "cpu_split: $label: the load generator answered nothing:" >&2
		echo "$out" | tail -n 5 >&2
		return 1
	fi
	n=$(awk -v r="$rate" 'BEGIN { print r * 10 }')
	awk -v l="$label" -v r="$rate" -v p="$p99" -v g="$gen" -v n="$n" -v hz="$hz" \
	    -v s="$((s1 - s0))" -v w="$((w1 - w0))" 'BEGIN {
		printf "%-22s requests_per_s %8.0f  p99_ms %7.3f  generator_us %5.1f  " \
		    "parent_us %5.1f  workers_us %5.1f  sum_us %5.1f\n", l, r, p, g * 1e6 / n,
		    s * 1e6 / hz / n, w * 1e6 / hz / n, (g + (s + w) / hz) * 1e6 / n }'
}

"$build/daemon/shoutand" -f -c config/shoutand.yaml -s "$dir/d.sock" 2>"$dir/d.log" &
daemon=$!
sleep 2
workers=$(pgrep -P "$daemon" | tr '\n' ' ')
measure "score -u, 64 x 1" "$daemon" "$workers" -s "$dir/d.sock" -u
measure "score -u, 64 x 16" "$daemon" "$workers" -s "$dir/d.sock" -u -d 16
measure "mix -u -m, 64 x 1" "$daemon" "$workers" -s "$dir/d.sock" -u -m
measure "repeated (cache)" "$daemon" "$workers" -s "$dir/d.sock"
"$build/bench/shoutan-echo" "$dir/e.sock" 1000 &
echo_server=$!
sleep 1
measure "shoutan-echo" "$echo_server" "" -s "$dir/e.sock" -D "$dir/d.sock"
echo "cores: $(nproc)"
