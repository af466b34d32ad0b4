#!/bin/sh
# The providers' own CPU per run under the bare C loop, runner-bench (in the Landlock sandbox, as the daemon spawns)
# and the real daemon, each running 2 at a time, in alternating rounds. The provider is benchmarks/cpu-probe.c, which
# reads its own CPU clock on entering main and at its end and also runs /bin/date as a shell's $(date) does, so each
# line splits a provider's CPU into: the spawn (the vfork child before its execve, the exec and the dynamic loader),
# its own work, and its child's fork, exec and run. Reaped times and perf's cpu-clock samples are too coarse on a VM
# for differences of a few per cent between spawners; the probe's clocks are exact (docs/benchmarks.md, P1).
#
# usage: benchmarks/provider-cpu.sh
# env:   SCRATCH=.build  ROUNDS=3  RUNS=3000 (C loop and runner-bench)  SECONDS_DAEMON=3  SCHED=fifo|other
#        DAEMON_TOML= (lines added to the daemon's configuration, such as "provider-sandbox = false")
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-3000}
SECONDS_DAEMON=${SECONDS_DAEMON:-3}
DAEMON_TOML=${DAEMON_TOML:-}
. benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench runner-bench
mkdir -p "$work/probe"
cc -O2 -o "$work/probe/cpu-probe" benchmarks/cpu-probe.c
use_provider "$work/probe/cpu-probe"

# report LABEL PID: the means of the probe's lines written by the children of PID since the last `rm`.
report() {
    file=$work/probe/cpu.$2
    [ -s "$file" ] || { log "provider-cpu: no run of the probe recorded for $1"; exit 1; }
    awk -v label="$1" '{ main += $1; own += $2 - $1; date += $3; runs++ } END {
        printf "%-12s runs %6d  spawn to main %6.1f µs  main to end %5.1f µs  date %6.1f µs\n", label, runs,
            main / runs / 1000, own / runs / 1000, date / runs / 1000 }' "$file"
}

# probe LABEL PID CMD...: p1_rounds' measurement, the probe's lines of the providers started while CMD runs. A
# program is run in the background only to learn its pid (chrt execs it, so it keeps the pid), then waited for; the
# daemon is paused after its window, so that the report reads a file no longer growing.
probe() {
    label=$1
    pid=$2
    shift 2
    rm -f "$work"/probe/cpu.*
    if [ -n "$pid" ]; then
        "$@"
        kill -STOP "$pid"
        report "$label" "$pid"
        kill -CONT "$pid"
    else
        "$@" > /dev/null &
        pid=$!
        wait "$pid"
        report "$label" "$pid"
    fi
}

start_p1 daemon "$DAEMON_TOML" 2> /dev/null
machine_line
echo "scheduling: ${prio:-ordinary}; 2 at a time; provider: benchmarks/cpu-probe.c"
p1_rounds probe
