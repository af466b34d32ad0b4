#!/bin/sh
# P1's accounting: CPU time per provider run of the whole machine, for the bare C loop, runner-bench (the runner
# alone, in the Landlock sandbox) and the real daemon, in alternating rounds. Runs are counted system-wide by
# `perf stat -e sched:sched_process_exec` filtered on the provider's path (one exec a run) and CPU time from
# /proc/stat, so no client is needed and nothing is estimated; the daemon's own share comes from /proc/PID/stat.
# On a CPU-bound machine, P1's ratio is the C loop's figure over the daemon's (docs/benchmarks.md).
#
# usage: benchmarks/p1-cpu.sh
# env:   SCRATCH=.build  ROUNDS=3  RUNS=4000 (C loop and runner-bench)  SECONDS_DAEMON=4  SCHED=fifo|other
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-4000}
SECONDS_DAEMON=${SECONDS_DAEMON:-4}
command -v perf > /dev/null || { echo "p1-cpu: needs perf (Debian's linux-perf)" >&2; exit 1; }
. benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench runner-bench
tck=$(getconf CLK_TCK)

busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }
own() { if [ -n "${1:-}" ]; then awk '{print $14 + $15}' /proc/"$1"/stat; else echo 0; fi; }
# measure LABEL PID CMD...: one line of machine and own CPU per run while CMD runs.
measure() {
    label=$1
    pid=$2
    shift 2
    machine_before=$(busy)
    own_before=$(own "$pid")
    runs=$(perf stat -a -x, -e sched:sched_process_exec --filter "filename ~ \"$provider\"" -- "$@" 2>&1 > /dev/null \
        | grep sched_process_exec | cut -d, -f1)
    machine_after=$(busy)
    own_after=$(own "$pid")
    awk -v l="$label" -v runs="$runs" -v m="$((machine_after - machine_before))" -v o="$((own_after - own_before))" \
        -v h="$tck" 'BEGIN {
            printf "%-12s runs %6d  machine %5.0f µs/run", l, runs, m / h * 1e6 / runs
            if (o > 0) printf "  of which the daemon %4.0f µs/run", o / h * 1e6 / runs
            printf "\n" }'
}

start daemon "$work/developer.toml" 2> /dev/null
add_trivial_widgets 4

machine_line
echo "scheduling: ${prio:-ordinary}; provider: $provider; 2 workers / max-concurrent-runs 2"
round=1
while [ "$round" -le "$ROUNDS" ]; do
    kill -STOP "$daemon_pid"
    sleep 0.3
    measure "C loop" "" $prio "$work/spawn-loop" "$provider" "$work/request.json" "$RUNS" 2
    RUNNER_SANDBOX=1 measure "runner-bench" "" $prio "$bin/runner-bench" "$provider" "$work/request.json" "$RUNS" 2
    kill -CONT "$daemon_pid"
    sleep 0.5
    measure "daemon" "$daemon_pid" sleep "$SECONDS_DAEMON"
    round=$((round + 1))
done
