#!/bin/sh
# P1's accounting: CPU time per provider run of the whole machine, for the bare C loop, runner-bench (the runner
# alone, in the Landlock sandbox) and the real daemon, in alternating rounds. Runs are counted system-wide by
# `perf stat -e sched:sched_process_exec` filtered on the provider's path (one exec a run) and CPU time from
# /proc/stat, so no client is needed and nothing is estimated; the daemon's own share comes from /proc/PID/stat.
# Each line splits the machine's figure into the parent (the C loop, runner-bench or the daemon, every thread) and
# its providers (the reaped children's times: the shell and its `date`). On a CPU-bound machine, P1's ratio is the C
# loop's figure over the daemon's (docs/benchmarks.md).
#
# Then SAME_WINDOW rounds run the daemon (one run at a time) and runner-bench (one worker) side by side, so the
# providers of both are measured under the same load of the machine at the same moment: this VM's cost of the same
# provider moves by ±10 % from one minute to the next, more than the differences looked for.
#
# usage: benchmarks/p1-cpu.sh
# env:   SCRATCH=.build  ROUNDS=3  RUNS=4000 (C loop and runner-bench)  SECONDS_DAEMON=4  SCHED=fifo|other
#        SAME_WINDOW=3 (rounds; 0 skips them)  DAEMON_TOML= (lines added to the daemon's configuration, such as
#        "provider-sandbox = false")
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
SAME_WINDOW=${SAME_WINDOW:-3}
DAEMON_TOML=${DAEMON_TOML:-}
RUNS=${RUNS:-4000}
SECONDS_DAEMON=${SECONDS_DAEMON:-4}
command -v perf > /dev/null || { echo "p1-cpu: needs perf (Debian's linux-perf)" >&2; exit 1; }
. benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench runner-bench
tck=$(getconf CLK_TCK)

# Busy time of the whole machine (user, nice, system, irq, softirq), and apart from it the time the hypervisor took.
busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
steal() { awk '/^cpu / {print $9}' /proc/stat; }
# measure LABEL PID CMD...: one line of CPU per run while CMD runs: the machine's, the parent's and the providers'.
# The parent and its reaped providers come from /proc/PID/stat for the daemon (PID), otherwise from the
# parent_cpu_us_per_run and children_cpu_us_per_run that spawn-loop and runner-bench print.
measure() {
    label=$1
    pid=$2
    shift 2
    machine_before=$(busy)
    steal_before=$(steal)
    own_before=$(own "$pid")
    reaped_before=$(reaped "$pid")
    printed=$(perf stat -a -x, -o "$work/perf-stat" -e sched:sched_process_exec --filter "filename ~ \"$provider\"" \
        -- "$@")
    runs=$(grep sched_process_exec "$work/perf-stat" | cut -d, -f1)
    machine_after=$(busy)
    steal_after=$(steal)
    own_after=$(own "$pid")
    reaped_after=$(reaped "$pid")
    awk -v l="$label" -v runs="$runs" -v m="$((machine_after - machine_before))" -v h="$tck" \
        -v s="$((steal_after - steal_before))" \
        -v o="$((own_after - own_before))" -v r="$((reaped_after - reaped_before))" \
        -v parent="$(echo "$printed" | field parent_cpu_us_per_run)" \
        -v children="$(echo "$printed" | field children_cpu_us_per_run)" 'BEGIN {
            if (parent == "") { parent = o / h * 1e6 / runs; children = r / h * 1e6 / runs }
            printf "%-12s runs %6d  machine %5.0f µs/run  parent %4.0f  providers %5.0f  stolen %4.0f\n", l, runs,
                m / h * 1e6 / runs, parent, children, s / h * 1e6 / runs }'
}

start_p1 daemon "$DAEMON_TOML" 2> /dev/null

machine_line
echo "scheduling: ${prio:-ordinary}; provider: $provider; 2 workers / max-concurrent-runs 2"
p1_rounds measure
stop_daemon

[ "$SAME_WINDOW" -gt 0 ] || exit 0
echo "same window: the daemon (max-concurrent-runs 1, 2 widgets) and runner-bench (1 worker) at once"
printf 'developer-kinds = ["trivial"]\nmax-concurrent-runs = 1\n%s\n' "$DAEMON_TOML" > "$work/one.toml"
start one "$work/one.toml" 2> /dev/null
add_trivial_widgets 2
sleep 0.5
round=1
while [ "$round" -le "$SAME_WINDOW" ]; do
    own_before=$(own "$daemon_pid")
    reaped_before=$(reaped "$daemon_pid")
    printed=$(RUNNER_SANDBOX=1 perf stat -a -x, -o "$work/perf-stat" -e sched:sched_process_exec \
        --filter "filename ~ \"$provider\"" -- $prio "$bin/runner-bench" "$provider" "$work/request.json" "$RUNS" 1)
    all=$(grep sched_process_exec "$work/perf-stat" | cut -d, -f1)
    own_after=$(own "$daemon_pid")
    reaped_after=$(reaped "$daemon_pid")
    awk -v runs="$RUNS" -v all="$all" -v h="$tck" -v o="$((own_after - own_before))" \
        -v r="$((reaped_after - reaped_before))" -v parent="$(echo "$printed" | field parent_cpu_us_per_run)" \
        -v children="$(echo "$printed" | field children_cpu_us_per_run)" 'BEGIN {
            daemon_runs = all - runs
            printf "runner-bench runs %6d  parent %4.0f  providers %5.0f", runs, parent, children
            printf "  |  daemon runs %6d  parent %4.0f  providers %5.0f\n", daemon_runs, o / h * 1e6 / daemon_runs,
                r / h * 1e6 / daemon_runs }'
    round=$((round + 1))
done
