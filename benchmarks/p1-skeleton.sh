#!/bin/sh
# How much of P1's gap is the daemon's structure and how much its own code: alternating rounds of the bare C loop,
# skeleton-loop (the daemon's run pipeline in C: its event-loop thread, its real spawning thread and Landlock
# domain, its pipes, exit poller, reads, group kill and reap, and none of its Swift) and P1's daemon, each over the
# same window at 2 runs at a time. Prints each round with each side's CPU a run (its own, every thread, and its
# providers'), then the best of each side and their ratios: skeleton ÷ C loop is what the structure and the sandbox
# leave of the physical limit, daemon ÷ skeleton what the daemon's own work per run (decoding, deciding, storing,
# publishing, logging) leaves of that. The CPU a run, compared within a round, is the steadier of the two measures
# on a VM whose speed moves between windows (docs/benchmarks.md, fourteenth session).
#
# usage: benchmarks/p1-skeleton.sh
# env:   SCRATCH=.build  ROUNDS=6  P1_SECONDS=5  SCHED=fifo|other
#        SKELETON_SANDBOX=1|0 (0: the skeleton's loop thread spawns itself; compare with
#        DAEMON_TOML="provider-sandbox = false")  DAEMON_TOML= (lines added to the daemon's configuration)
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-6}
P1_SECONDS=${P1_SECONDS:-5}
DAEMON_TOML=${DAEMON_TOML:-}
. benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench
cc -O2 -pthread -ISources/CSpawn/include -o "$work/skeleton-loop" benchmarks/skeleton-loop.c \
    Sources/CSpawn/CSpawn.c Sources/CSpawn/CSpawnSandbox.c

machine_line
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); scheduling: ${prio:-ordinary};" \
    "skeleton sandbox: ${SKELETON_SANDBOX:-1}; daemon: ${DAEMON_TOML:-default}"
start_p1 p1 "$DAEMON_TOML"
best_c=0
best_s=0
best_d=0
round=1
while [ "$round" -le "$ROUNDS" ]; do
    pause_daemon
    c=$($prio "$work/spawn-loop" "$provider" "$work/request.json" 1 2 "$P1_SECONDS")
    s=$($prio "$work/skeleton-loop" "$provider" "$work/request.json" "$P1_SECONDS" 2)
    kill -CONT "$daemon_pid"
    before=$(daemon_times)
    d=$($prio "$bench" runs --socket "$socket" --warmup 1 --seconds "$P1_SECONDS" | field rate)
    after=$(daemon_times)
    c_rate=$(echo "$c" | field rate)
    s_rate=$(echo "$s" | field rate)
    echo "round $round: C loop $c_rate runs/s (parent $(echo "$c" | field parent_cpu_us_per_run) µs a run," \
        "providers $(echo "$c" | field children_cpu_us_per_run)), skeleton $s_rate (parent" \
        "$(echo "$s" | field parent_cpu_us_per_run), providers $(echo "$s" | field children_cpu_us_per_run))," \
        "daemon $d ($(daemon_cpu_per_run "$before" "$after" "$d" | awk '{printf "parent %s, providers %s", $1, $2}'))"
    best_c=$(larger "$c_rate" "$best_c")
    best_s=$(larger "$s_rate" "$best_s")
    best_d=$(larger "$d" "$best_d")
    round=$((round + 1))
done
stop_daemon
echo "best: C loop $best_c, skeleton $best_s, daemon $best_d runs/s"
echo "skeleton / C loop $(ratio "$best_s" "$best_c"); daemon / skeleton $(ratio "$best_d" "$best_s");" \
    "daemon / C loop $(ratio "$best_d" "$best_c")"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
