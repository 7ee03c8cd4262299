#!/bin/bash
# Where a request's CPU goes through the daemon: for each load, the rate, its p99, and the
# microseconds of CPU a request costs the load generator, the daemon's parent and its workers
# (as shoutan-loadgen -p counts them, over the load alone), beside the bare echo server (run on
# request).
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

# measure LABEL SERVER_PID LOADGEN_ARGS...: a 2 s warm-up, then 10 s measured.  The load
# generator counts the CPU of each side over its load alone (-p: the server and its children).
measure() {
	local label=$1 server=$2 out
	shift 2
	"$build/bench/shoutan-loadgen" -C "$corpus" -c 64 -d 1 -t 2 "$@" >/dev/null 2>&1 || true
	out=$("$build/bench/shoutan-loadgen" -C "$corpus" -c 64 -d 1 -t 10 -p "$server" "$@" \
	    2>&1) || true
	if ! echo "$out" | grep -q '^cpu_parent_us:'; then
		echo "cpu_split: $label: the load generator answered nothing:" >&2
		echo "$out" | tail -n 5 >&2
		return 1
	fi
	echo "$out" | awk -v l="$label" -F': ' '{ v[$1] = $2 } END {
		printf "%-22s requests_per_s %8.0f  p99_ms %7.3f  generator_us %5.1f  " \
		    "parent_us %5.1f  workers_us %5.1f  sum_us %5.1f\n", l, v["requests_per_s"],
		    v["p99_ms"], v["cpu_generator_us"], v["cpu_parent_us"], v["cpu_workers_us"],
		    v["cpu_generator_us"] + v["cpu_parent_us"] + v["cpu_workers_us"] }'
}

"$build/daemon/shoutand" -f -c config/shoutand.yaml -s "$dir/d.sock" 2>"$dir/d.log" &
daemon=$!
sleep 2
measure "score -u, 64 x 1" "$daemon" -s "$dir/d.sock" -u
measure "score -u, 64 x 16" "$daemon" -s "$dir/d.sock" -u -d 16
measure "mix -u -m, 64 x 1" "$daemon" -s "$dir/d.sock" -u -m
measure "repeated (cache)" "$daemon" -s "$dir/d.sock"
"$build/bench/shoutan-echo" "$dir/e.sock" 1000 &
echo_server=$!
sleep 1
measure "shoutan-echo" "$echo_server" -s "$dir/e.sock" -D "$dir/d.sock"
echo "cores: $(nproc)"
