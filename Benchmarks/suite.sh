#!/bin/sh
# The daemon benchmark suite of issue 7, in one run: builds release, compiles the C loop, runs P1-P5 against the real
# daemon, and prints one table of figure / goal / value / pass-fail. It reports; it exits 0 whatever the figures
# (non-zero only when a step cannot run). Results and the machine go in docs/benchmarks.md.
#
# usage: Benchmarks/suite.sh
# env:   SCRATCH=.build-bench    scratch path of the release build (of Benchmarks/Package.swift, daemon included)
#        ROUNDS=6                P1: alternating rounds (best of each side kept; docs/benchmarks.md says why 6)
#        P1_SECONDS=5            P1: seconds of runs counted per round, for the C loop and the daemon alike
#        SCHED=fifo|other        the daemons, the C loop and the clients under `chrt -f 1` (default: it shields the
#                                figures from other load on the machine; populating runs ordinary) or not
#        P2_WIDGETS=100000 P3_WIDGETS=10000 P4_WIDGETS=1000
#        P3_SECONDS=20           P3: idle window (issue 7 says 60 s; shorter by default, the count is per window)
#        P5_CALLS=50             P5: timed Reload calls (after 10 untimed)
#        PARTS="P1 P1other P2 P3 P4"  which parts to run (P3 includes P5; P1other: P1's rounds again under
#                                SCHED_OTHER, for an information row, when SCHED=fifo)
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-6}
P1_SECONDS=${P1_SECONDS:-5}
P2_WIDGETS=${P2_WIDGETS:-100000}
P3_WIDGETS=${P3_WIDGETS:-10000}
P4_WIDGETS=${P4_WIDGETS:-1000}
P3_SECONDS=${P3_SECONDS:-20}
P5_CALLS=${P5_CALLS:-50}
PARTS=${PARTS:-"P1 P1other P2 P3 P4"}
. Benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench
printf 'max-concurrent-runs = 2\n' > "$work/plain.toml"

ctxt() {
    cat /proc/"$1"/task/*/status 2> /dev/null | awk '/^voluntary_ctxt_switches/ {v += $2} /^nonvoluntary_ctxt_switches/ {n += $2} END {print v + n}'
}
ms() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", (b - a) / 1e6}'; }
rows=
row() { rows="$rows$1|$2|$3|$4
"; }
verdict() { awk -v v="$1" -v g="$2" -v op="$3" 'BEGIN {
    if (v == "" || v == "nan") print "n/a"; else if (op == ">=") print (v + 0 >= g + 0) ? "pass" : "FAIL";
    else print (v + 0 <= g + 0) ? "pass" : "FAIL" }'; }
part() { case " $PARTS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

machine_line
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); scheduling: ${prio:-ordinary}"

# P1: runs through the real daemon (4 widgets of the trivial kind in developer mode, policy atEnd with an entry
# dated now, so each run is due again at once) vs the bare C loop at 2 workers, alternating; the daemon is stopped
# (SIGSTOP) while the C loop runs.
# p1_measure NAME: ROUNDS rounds on a daemon started on $work/NAME, everything under $prio; sets best_c and best_d
# (the best round of each side), rounds_seen (each round's two rates) and cpu_seen (each round's CPU a run).
p1_measure() {
    mkdir -p "$work/$1"
    start_p1 "$1"
    best_c=0
    best_d=0
    rounds_seen=
    cpu_seen=
    round=1
    while [ "$round" -le "$ROUNDS" ]; do
        pause_daemon
        c_out=$($prio "$work/spawn-loop" "$provider" "$work/request.json" 1 2 "$P1_SECONDS")
        c=$(echo "$c_out" | field rate)
        kill -CONT "$daemon_pid"
        before=$(daemon_times)
        d=$($prio "$bench" runs --socket "$socket" --warmup 1 --seconds "$P1_SECONDS" | field rate)
        d_cpu=$(daemon_cpu_per_run "$before" "$(daemon_times)" "$d")
        ratio=$(ratio "$d" "$c")
        log "  round $round: C loop $c runs/s, daemon $d runs/s, ratio $ratio"
        rounds_seen="$rounds_seen $c $d"
        cpu_seen="$cpu_seen $(echo "$c_out" | field parent_cpu_us_per_run)"
        cpu_seen="$cpu_seen $(echo "$c_out" | field children_cpu_us_per_run) $d_cpu"
        best_c=$(larger "$c" "$best_c")
        best_d=$(larger "$d" "$best_d")
        round=$((round + 1))
    done
    stop_daemon
}
# The rounds read two other ways, beside the best of each side: the median and range of the rounds' own ratios,
# and the daemon's runs in all its windows over the C loop's in all of its (the windows are equally long).
p1_rounds_row() {
    echo "$rounds_seen" | awk "$awk_median"' {
        line = ""; low = ""; high = ""
        for (i = 1; i < NF; i += 2) {
            r = $(i + 1) / $i; line = line " " r; c += $i; d += $(i + 1)
            if (low == "" || r < low) low = r; if (high == "" || r > high) high = r
        }
        $0 = line
        printf "median %.3f (%.3f – %.3f); all runs %.3f", median(1, 1), low, high, d / c }'
}
if part P1; then
log "P1: daemon vs C loop, $ROUNDS rounds"
p1_measure p1
ratio=$(ratio "$best_d" "$best_c")
row "P1 daemon runs/s ÷ C loop runs/s (2 workers)" "≥ 0.90" "$ratio ($best_d / $best_c)" "$(verdict "$ratio" 0.90 ">=")"
row "P1 the rounds' ratios (information)" "-" "$(p1_rounds_row)" "info"
# CPU a run, the steadier measure on a VM whose speed moves between windows: the parents' (every thread) and the
# providers', the median over the rounds of each.
cpu_row=$(echo "$cpu_seen" | awk "$awk_median"' {
    printf "parent: C loop %.1f, daemon %.1f; providers: C loop %.1f, daemon %.1f", median(1, 4), median(3, 4),
        median(2, 4), median(4, 4) }')
row "P1 CPU a run, medians over the rounds (µs, information)" "-" "$cpu_row" "info"
fi
# P1's rounds under the default policy, as a service runs unless its unit sets CPUSchedulingPolicy=: there a run's
# hand-overs can leave a CPU idle, which SCHED_FIFO's strict order hides (docs/benchmarks.md).
if part P1other && [ -n "$prio" ]; then
    log "P1 under SCHED_OTHER: $ROUNDS rounds"
    shielded=$prio
    prio=
    p1_measure p1-other
    prio=$shielded
    ratio=$(ratio "$best_d" "$best_c")
    row "P1 under SCHED_OTHER, the default policy (information)" "-" \
        "$ratio ($best_d / $best_c); rounds $(p1_rounds_row)" "info"
fi

# P2: 100 000 widgets with 10-entry timelines, nothing due for a day.
if part P2; then
log "P2: populating $P2_WIDGETS widgets"
"$bench" populate --dir "$work/p2/state" --providers "$work/providers" --widgets "$P2_WIDGETS" --after 86400 >&2
start p2 "$work/plain.toml"
ready=$(echo "$started" | field ready_seconds)
rss=$(echo "$started" | field vmrss_mb)
begin=$(date +%s%N)
WIDGET_SCHEDULER_SOCKET=$socket $prio "$bin/widgetctl" list --json > "$work/list.json" 2> "$work/list.err" || true
end=$(date +%s%N)
listed=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$work/list.json" 2> /dev/null || echo 0)
list_ms=$(ms "$begin" "$end")
[ "$listed" -ge "$P2_WIDGETS" ] || { log "  list failed: $(cat "$work/list.err")"; list_ms=nan; }
raw=$($prio "$bench" list --socket "$socket" --calls 3 --warmup 0 2>&1 || true)
log "  raw List: $raw"
hwm=$(awk '/^VmHWM/ {printf "%.1f", $2 / 1024}' /proc/"$daemon_pid"/status)
stop_daemon
row "P2 start: exec to READY=1, $P2_WIDGETS widgets (s)" "≤ 2" "$ready" "$(verdict "$ready" 2 "<=")"
row "P2 RSS after READY (MB)" "≤ 150" "$rss" "$(verdict "$rss" 150 "<=")"
row "P2 peak RSS (VmHWM) after list (MB)" "≤ 150" "$hwm" "$(verdict "$hwm" 150 "<=")"
row "P2 widgetctl list --json round trip (ms)" "≤ 1000" "$list_ms" "$(verdict "$list_ms" 1000 "<=")"
"$bench" decision --sizes 1000,10000,100000 --samples 20000 > "$work/decision.txt"
while read -r line; do
    n=$(echo "$line" | field widgets)
    row "P2 one decision (reload of 1 widget) at n=$n, p50 / p99 (µs)" "O(log n)" \
        "$(echo "$line" | field p50_us) / $(echo "$line" | field p99_us)" "see n"
done < "$work/decision.txt"
small=$(head -1 "$work/decision.txt" | field p50_us)
large=$(tail -1 "$work/decision.txt" | field p50_us)
growth=$(awk -v a="$small" -v b="$large" 'BEGIN {printf "%.2f", b / a}')
# log2(100000) / log2(1000) = 1.67: a decision that grows less than 3x over 100x the widgets is logarithmic, not linear.
row "P2 decision p50 growth, n=1000 → 100000 (100x n)" "≤ 3x (log)" "${growth}x" "$(verdict "$growth" 3 "<=")"
fi

# P3 and P5 share one daemon with 10 000 widgets whose entries and reloads are an hour or more away.
if part P3; then
log "P3/P5: populating $P3_WIDGETS widgets"
"$bench" populate --dir "$work/p3/state" --providers "$work/providers" --widgets "$P3_WIDGETS" --after 86400 >&2
start p3 "$work/plain.toml"
sleep 3
before=$(ctxt "$daemon_pid")
sleep "$P3_SECONDS"
after=$(ctxt "$daemon_pid")
wakeups=$((after - before))
row "P3 wake-ups in ${P3_SECONDS} s idle, $P3_WIDGETS widgets (context switches)" "0" "$wakeups" \
    "$(verdict "$wakeups" 0 "<=")"
reload=$($prio "$bench" reload --socket "$socket" --kind trivial --calls "$P5_CALLS" --warmup 10 || echo "failed")
log "  reload: $reload"
p50=$(echo "$reload" | field p50_ms)
p99=$(echo "$reload" | field p99_ms)
stop_daemon
row "P5 Reload --kind ack, $P3_WIDGETS widgets of the kind, p50 (ms)" "-" "$p50" "-"
row "P5 Reload --kind ack, $P3_WIDGETS widgets of the kind, p99 (ms)" "≤ 5" "$p99" "$(verdict "$p99" 5 "<=")"
fi

# P4: entries of 1000 widgets dated 15 s ahead, 5 per widget one second apart; widget i's entries are i ms later
# than widget 1's (a change every millisecond), then the same with all 1000 changing at the same instants.
part P4 && for variant in spread burst; do
    stagger=0.001
    [ "$variant" = burst ] && stagger=0
    log "P4 ($variant): populating $P4_WIDGETS widgets"
    "$bench" populate --dir "$work/p4$variant/state" --providers "$work/providers" --widgets "$P4_WIDGETS" \
        --entries 5 --first 15 --spacing 1 --stagger "$stagger" --after 86400 >&2
    start "p4$variant" "$work/plain.toml"
    entries=$($prio "$bench" entries --socket "$socket" --expect $((P4_WIDGETS * 5)) --timeout 40 || echo failed)
    log "  entries ($variant): $entries"
    stop_daemon
    p50=$(echo "$entries" | field p50_ms)
    p99=$(echo "$entries" | field p99_ms)
    n=$(echo "$entries" | sed -n 's/.* n=\([0-9]*\).*/\1/p')
    goal="≤ 5"
    [ "$variant" = burst ] && goal="(info)"
    row "P4 entry lateness, $variant, p50 (ms)" "-" "$p50" "-"
    row "P4 entry lateness, $variant, p99 (ms), $n of $((P4_WIDGETS * 5)) changes" "$goal" "$p99" \
        "$( [ "$variant" = burst ] && echo info || verdict "$p99" 5 "<=")"
done

echo
printf '| %s | %s | %s | %s |\n' figure goal value result
printf '|---|---|---|---|\n'
printf '%s' "$rows" | while IFS='|' read -r figure goal value result; do
    printf '| %s | %s | %s | %s |\n' "$figure" "$goal" "$value" "$result"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
