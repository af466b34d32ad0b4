#!/bin/sh
# Instructions the daemon executes per provider run on P1's work, counted by callgrind: a figure that does not move
# with the VM's phase, for changes of a few µs that p1-pair.sh's ±5–20 µs cannot resolve. It does not replace P1's
# ratio (a cold run's time is mostly cache misses, which an instruction count does not see), it ranks changes.
#
# Each daemon (BIN_A, then BIN_B if given) runs P1's work (4 widgets of the trivial kind in developer mode, 2 runs
# at a time) for SECONDS_RUN under `valgrind --tool=callgrind`, which counts only inside the event loop
# (`EventLoop.run`), so start-up and loading are left out, and not inside the paced state commit
# (`Daemon.flushState`), whose cost a run depends on how many runs share a commit: under valgrind's slowdown (~70 runs
# a second) that is not P1's; nor inside the stop (`Daemon.stop`), whose last commit weighed ~800 instructions a run
# on a window of 700 runs, and more on fewer. The widgets are added beforehand by a start of the daemon outside
# valgrind. The count over the runs the daemon logged is the figure; repeats agree within ±1-2 %. The sandbox is off
# (valgrind does not know Landlock's system calls). Run with nothing else busy.
#
# usage: [BIN_A=/path/to/widget-scheduler] [BIN_B=/path/to/other] Benchmarks/probes/p1-instructions.sh
#        (BIN_A defaults to $SCRATCH's release build)
# env:   SECONDS_RUN=12, WARMUP=3 (seconds before counting starts), SCRATCH as for suite.sh, TOP=0 (with N > 0,
#        also the N functions whose own instructions a run differ most between A and B), KEEP= (a directory to
#        keep the callgrind profiles in, A.out and B.out, for `callgrind_annotate --inclusive=yes` and the like, and
#        the daemons' logs, A.log and B.log)
set -eu
cd "$(dirname "$0")/../.."
SECONDS_RUN=${SECONDS_RUN:-12}
WARMUP=${WARMUP:-3}
TOP=${TOP:-0}
command -v valgrind > /dev/null || { echo "p1-instructions: needs valgrind" >&2; exit 1; }
. Benchmarks/lib.sh
build widget-scheduler widgetctl
BIN_A=${BIN_A:-$bin/widget-scheduler}
printf 'provider-sandbox = false\n' >> "$work/developer.toml"

# wait_for_socket LOG: waits until the daemon started last (daemon_pid) listens on $socket.
wait_for_socket() {
    tries=0
    while [ ! -S "$socket" ]; do
        tries=$((tries + 1))
        if [ "$tries" -ge 300 ]; then
            kill -TERM "$daemon_pid" 2> /dev/null || true
            echo "p1-instructions: the daemon did not start:" >&2
            tail -5 "$1" >&2
            exit 1
        fi
        sleep 0.1
    done
}

# profile BINARY SECONDS NAME: runs BINARY under callgrind for SECONDS of P1's work; prints "RUNS FILE".
profile() {
    binary=$1
    seconds=$2
    name=$3
    mkdir -p "$work/$name/state" "$runtime/$name"
    set -- --config "$work/developer.toml" --state-dir "$work/$name/state" --runtime-dir "$runtime/$name" \
        --providers-dir "$work/providers"
    socket=$runtime/$name/control.socket
    # The widgets are added by a first start of the daemon, outside valgrind, so that their `Add` calls are not in
    # the window: a fixed cost there, spread over however many runs the window holds, moved the figure by ~5 %.
    "$binary" "$@" > "$work/$name.setup.log" 2>&1 &
    daemon_pid=$!
    wait_for_socket "$work/$name.setup.log"
    add_trivial_widgets 4
    kill -TERM "$daemon_pid"
    wait "$daemon_pid" || true
    # The window is bounded by these two functions: a build that inlined either would count something else.
    for symbol in '$s10SystemdKit9EventLoopC3runs5Int32VyKF' '$s22WidgetSchedulerRuntime6DaemonC10flushState' \
        '$s22WidgetSchedulerRuntime6DaemonC4stop'; do
        if ! nm "$binary" | grep -q "$symbol"; then
            echo "p1-instructions: $binary has no $symbol (inlined?); its count would not be comparable" >&2
            exit 1
        fi
    done
    # valgrind 3.19 cannot read the DWARF 5 the Swift toolchain writes: a copy without debug information.
    strip --strip-debug -o "$work/$name.bin" "$binary"
    valgrind --tool=callgrind --callgrind-out-file="$work/$name.out" \
        --collect-atstart=no --toggle-collect='$s10SystemdKit9EventLoopC3runs5Int32VyKF' \
        --toggle-collect='$s22WidgetSchedulerRuntime6DaemonC10flushState*' \
        --toggle-collect='$s22WidgetSchedulerRuntime6DaemonC4stop*' \
        "$work/$name.bin" "$@" > "$work/$name.log" 2>&1 &
    daemon_pid=$!
    wait_for_socket "$work/$name.log"
    # A warm-up, then the counters zeroed: the first runs pay valgrind's translation of each path and the lazy
    # initializations, fixed costs that would weigh on the figure by how many runs the window holds.
    sleep "$WARMUP"
    callgrind_control --zero "$daemon_pid" > /dev/null 2>&1
    answered_before=$(count_lines 'provider answered' "$work/$name.log")
    failed_before=$(count_lines 'provider failed' "$work/$name.log")
    sleep "$seconds"
    kill -TERM "$daemon_pid"
    wait "$daemon_pid" || true
    daemon_pid=
    answered=$(($(count_lines 'provider answered' "$work/$name.log") - answered_before))
    echo "$answered $work/$name.out $(($(count_lines 'provider failed' "$work/$name.log") - failed_before))"
}

# count_lines TEXT FILE: how many lines of FILE hold TEXT.
count_lines() {
    grep -c "$1" "$2" || true
}

# own_costs FILE RUNS: "function<TAB>instructions a run" lines, each function's own (exclusive) count, sorted.
own_costs() {
    callgrind_annotate --threshold=100 "$1" 2> /dev/null | grep -v 'PROGRAM TOTALS' |
        sed -n 's/^ *\([0-9,][0-9,]*\) ([ 0-9.]*%) *\(.*\)$/\2\t\1/p' | sed 's/ \[[^]]*\]\t/\t/' |
        awk -F'\t' -v runs="$2" '{ gsub(",", "", $2); printf "%s\t%.1f\n", $1, $2 / runs }' | sort -t "$tab" -k1,1
}
tab=$(printf '\t')
total() { callgrind_annotate "$1" 2> /dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ','; }

# measure LABEL BINARY: the instructions a run of BINARY; keeps the per-function costs a run in $work/LABEL.costs.
measure() {
    set -- "$1" "$2" $(profile "$2" "$SECONDS_RUN" "$1")
    # No profile: profile() said why. Nothing counted: the toggles no longer name the daemon's functions.
    [ -n "${4:-}" ] || exit 1
    counted=$(total "$4")
    if [ "$3" -eq 0 ] && [ "$(count_lines 'provider failed' "$work/$1.log")" -gt 0 ]; then
        echo "p1-instructions: no run of $2 answered: all its widgets were backing off from failed runs" \
            "(valgrind lacks pidfd_open); run it again" >&2
        exit 1
    fi
    if [ "$3" -eq 0 ] || [ -z "$counted" ] || [ "$counted" -eq 0 ]; then
        echo "p1-instructions: nothing counted for $2 ($3 runs); are the window's functions renamed?" >&2
        exit 1
    fi
    # What fixed costs the window still holds (the first run's lazy initializations) weigh on few runs.
    [ "$3" -ge 300 ] || echo "p1-instructions: only $3 runs for $2; the machine was busy? run it again" >&2
    # valgrind 3.19 does not know pidfd_open, which a run still going after 25 ms needs (ProcessSpec's
    # streamWatchDelay): under its slowdown a few do (~0.5 % in a steady phase of the VM, many more in a slow one),
    # fail, and their widgets back off for 30 s and more. Many failures mean a window of fewer runs and of failure
    # paths: not P1's work.
    [ "$(($5 * 50))" -le "$3" ] ||
        echo "p1-instructions: $5 runs of $2 failed (valgrind lacks pidfd_open); run it again" >&2
    awk -v t="$counted" -v runs="$3" -v l="$1" -v bin="$2" -v failed="$5" \
        'BEGIN { printf "%s: %.0f instructions a run (%d runs, %d failed) %s\n", l, t / runs, runs, failed, bin }'
    own_costs "$4" "$3" > "$work/$1.costs"
    if [ -n "${KEEP:-}" ]; then
        mkdir -p "$KEEP"
        cp "$4" "$KEEP/$1.out"
        cp "$work/$1.log" "$KEEP/$1.log"
    fi
}

machine_line
measure A "$BIN_A"
[ -n "${BIN_B:-}" ] || exit 0
measure B "$BIN_B"
if [ "$TOP" -gt 0 ]; then
    echo "functions whose own instructions a run differ most, B - A (A, B):"
    join -t "$tab" -a 1 -a 2 -e 0 -o 0,1.2,2.2 "$work/A.costs" "$work/B.costs" |
        awk -F'\t' '{ printf "%+.0f\t%.0f\t%.0f\t%s\n", $3 - $2, $2, $3, substr($1, 1, 110) }' |
        sort -t "$tab" -k1,1 -g |
        awk -v n="$TOP" '{ line[NR] = $0 } END {
            for (i = 1; i <= n && i <= NR; i++) print line[i]
            for (i = NR - n + 1; i <= NR; i++) if (i > n) print line[i] }'
fi
