#!/bin/sh
# Two daemon builds side by side on P1's work, for changes too small for P1's ratio to show: both run at once, one
# run at a time each (2 widgets of the trivial kind in developer mode), each counted by its own `daemon-bench runs`
# client over the same windows, so the machine's drift from minute to minute is the same for both. Per round it
# prints each daemon's runs and CPU per run (every thread, from /proc/PID/task/*/schedstat), then B - A.
#
# usage: BIN_A=/path/to/widget-scheduler BIN_B=/path/to/other/widget-scheduler Benchmarks/probes/p1-pair.sh
# env:   ROUNDS=8 SECONDS_ROUND=3, SCRATCH and SCHED as for suite.sh (BIN_A and BIN_B default to $SCRATCH's build)
set -eu
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-8}
SECONDS_ROUND=${SECONDS_ROUND:-3}
. Benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench
BIN_A=${BIN_A:-$bin/widget-scheduler}
BIN_B=${BIN_B:-$bin/widget-scheduler}
printf 'developer-kinds = ["trivial"]\nmax-concurrent-runs = 1\n' > "$work/pair.toml"

DAEMON_BIN=$BIN_A start a "$work/pair.toml"
add_trivial_widgets 2
pid_a=$daemon_pid
socket_a=$socket
trap 'kill -TERM "$pid_a" 2> /dev/null || true; stop_daemon; rm -rf "$work"' EXIT
DAEMON_BIN=$BIN_B start b "$work/pair.toml"
add_trivial_widgets 2
pid_b=$daemon_pid
socket_b=$socket
sleep 1

# cpu PID: the CPU time of every thread of PID so far, in microseconds.
cpu() { cat /proc/"$1"/task/*/schedstat | awk '{sum += $1} END {printf "%.0f\n", sum / 1000}'; }
differences=
round=1
while [ "$round" -le "$ROUNDS" ]; do
    before_a=$(cpu "$pid_a")
    before_b=$(cpu "$pid_b")
    # The clients take turns starting first: the one started second measured a few µs less in A/A runs.
    if [ $((round % 2)) -eq 1 ]; then first=a second=b; else first=b second=a; fi
    eval "first_socket=\$socket_$first second_socket=\$socket_$second"
    $prio "$bench" runs --socket "$first_socket" --warmup 0 --seconds "$SECONDS_ROUND" > "$work/runs_$first" &
    first_client=$!
    $prio "$bench" runs --socket "$second_socket" --warmup 0 --seconds "$SECONDS_ROUND" > "$work/runs_$second"
    wait "$first_client"
    runs_a=$(sed -n 's/^runs=\([0-9]*\).*/\1/p' "$work/runs_a")
    runs_b=$(sed -n 's/^runs=\([0-9]*\).*/\1/p' "$work/runs_b")
    per_run_a=$(( ($(cpu "$pid_a") - before_a) / runs_a ))
    per_run_b=$(( ($(cpu "$pid_b") - before_b) / runs_b ))
    echo "round $round: A $runs_a runs, $per_run_a µs of CPU a run; B $runs_b runs, $per_run_b µs; B - A $((per_run_b - per_run_a)) µs"
    differences="$differences $((per_run_b - per_run_a))"
    round=$((round + 1))
done
echo "$differences" | awk '{
    lower = 0; for (i = 1; i <= NF; i++) { sum += $i; if ($i < 0) lower++ }
    printf "B - A: mean %.1f µs of daemon CPU a run over %d rounds, B lower in %d\n", sum / NF, NF, lower }'
