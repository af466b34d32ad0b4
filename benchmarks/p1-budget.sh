#!/bin/sh
# P1's budget: where the machine's time goes per provider run, the bare C loop against the daemon (with P1's Watch
# client counting), from the scheduler's own accounting. Each window runs under `perf sched record`; `perf sched
# timehist` then gives every slice of run time of every task (idle included), which this script sums per run by role:
# the provider before its execve (the vfork child, still named after its spawner), the provider's shell after it,
# the `date` it runs (fork, exec and run), the spawner's threads (the C loop's workers, or the daemon's loop thread
# and its other threads: the sandbox's spawning thread), the Watch client, kernel threads, and idle CPUs. On this
# VM a process's reaped times and perf's cpu-clock samples are too coarse to split the daemon's gap by role; the
# scheduler's per-switch accounting is exact (perf's own recording adds a little to every context switch, on both
# sides). Runs are the provider processes that ran in the window.
#
# usage: benchmarks/p1-budget.sh
# env:   SCRATCH=.build  ROUNDS=3  WINDOW=2 (seconds per side and round)  SCHED=fifo|other  DAEMON_TOML=
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
WINDOW=${WINDOW:-2}
. benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench
command -v perf > /dev/null || { log "p1-budget: needs perf (linux-perf)"; exit 1; }

start_p1 daemon "${DAEMON_TOML:-}" 2> /dev/null
sleep 1
machine_line
echo "scheduling: ${prio:-ordinary}; provider: $provider; 2 workers / max-concurrent-runs 2; ${WINDOW} s windows"

# budget LABEL FILE: the per-run table of one recorded window.
budget() {
    perf sched timehist -i "$2" 2> /dev/null > "$2.txt"
    awk -v label="$1" -v daemon="$daemon_pid" '
        # A line: time [cpu] comm[tid] or comm[tid/pid], wait, scheduling delay, run time (ms).
        function parse(line) {
            if (line !~ /^ *[0-9]+\.[0-9]+ +\[[0-9]+\]/) return 0
            run = $NF + 0
            if ($3 == "<idle>") { comm = "<idle>"; tid = 0; return 1 }
            task = $0
            sub(/^ *[0-9.]+ +\[[0-9]+\] +/, "", task)
            sub(/ +[0-9.]+ +[0-9.]+ +[0-9.]+ *$/, "", task)
            comm = task; sub(/\[[^]]*\]$/, "", comm)
            id = task; sub(/^.*\[/, "", id); sub(/\]$/, "", id); split(id, parts, "/"); tid = parts[1]
            return 1
        }
        NR == FNR {
            if (!parse($0)) next
            if (comm == "trivial.sh") shell[tid] = 1
            if (comm == "date") dated[tid] = 1
            next
        }
        {
            if (!parse($0)) next
            if (!started) { started = 1; first = $1 }
            last = $1
            if (tid in dated) role = "date (fork, exec, run)"
            else if (tid in shell) role = (comm == "trivial.sh") ? "provider after execve" : "provider before execve"
            else if (comm == "<idle>") role = "idle"
            else if (comm == "spawn-loop") role = "C loop workers"
            else if (tid == daemon) role = "daemon loop thread"
            else if (comm == "widget-schedule") role = "daemon other threads"
            else if (comm == "daemon-bench") role = "Watch client"
            else if (comm == "perf") role = "perf"
            else role = "kernel threads and other"
            time[role] += run
        }
        END {
            for (t in shell) if (!(t in dated)) runs++
            seconds = last - first
            printf "%s: %d runs in %.2f s (%.1f runs/s), µs per run:\n", label, runs, seconds, runs / seconds
            n = split("provider before execve|provider after execve|date (fork, exec, run)|C loop workers|" \
                      "daemon loop thread|daemon other threads|Watch client|kernel threads and other|perf|idle", \
                      order, "|")
            for (i = 1; i <= n; i++) {
                if (!(order[i] in time)) continue
                printf "  %-26s %8.1f\n", order[i], time[order[i]] * 1000 / runs
                total += time[order[i]]
            }
            printf "  %-26s %8.1f\n", "all (both CPUs)", total * 1000 / runs
        }' "$2.txt" "$2.txt"
}

round=1
while [ "$round" -le "$ROUNDS" ]; do
    pause_daemon
    perf sched record -o "$work/c$round.data" -- \
        $prio "$work/spawn-loop" "$provider" "$work/request.json" 1 2 "$WINDOW" > /dev/null 2>&1
    budget "round $round, C loop" "$work/c$round.data"
    kill -CONT "$daemon_pid"
    $prio "$bench" runs --socket "$socket" --warmup 0.5 --seconds "$WINDOW" > /dev/null &
    client=$!
    sleep 0.5
    perf sched record -o "$work/d$round.data" -- sleep "$WINDOW" > /dev/null 2>&1
    wait "$client"
    budget "round $round, daemon" "$work/d$round.data"
    round=$((round + 1))
done
