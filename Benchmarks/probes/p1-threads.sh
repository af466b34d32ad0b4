#!/bin/sh
# Where P1's daemon spends its time, per thread: CPU, context switches, migrations and page faults per provider run
# of each of its threads (the event loop, provider-spawn, wal-checkpoint), counted by `perf stat --no-inherit` over a
# window of P1's work while `daemon-bench runs` counts the runs. With PROFILE=1, the event loop and provider-spawn
# threads are then sampled (`perf record --call-graph dwarf`) and each sample is charged to the innermost of a list
# of parts of a run (system calls by name, the journal line, the answer's decoding, SQLite, the scheduler...): a
# table of where a run's time goes that does not depend on how the functions nest.
#
# usage: Benchmarks/probes/p1-threads.sh
# env:   SCRATCH=.build-bench  SECONDS_RUN=4  ROUNDS=2 (windows, each on the same daemon)  PROFILE=0|1
#        SCHED=fifo|other  DAEMON_TOML= (lines added to the daemon's configuration, such as "provider-sandbox = false")
set -eu
cd "$(dirname "$0")/../.."
SECONDS_RUN=${SECONDS_RUN:-4}
ROUNDS=${ROUNDS:-2}
PROFILE=${PROFILE:-0}
DAEMON_TOML=${DAEMON_TOML:-}
command -v perf > /dev/null || { echo "p1-threads: needs perf (Debian's linux-perf)" >&2; exit 1; }
. Benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench

start_p1 daemon "$DAEMON_TOML" 2> /dev/null
sleep 1
machine_line
echo "scheduling: ${prio:-ordinary}; provider: $provider; 2 runs at a time"
tids=$(ls /proc/"$daemon_pid"/task | tr '\n' ',' | sed 's/,$//')
# thread_name TID: the event loop is the main thread (its tid is the pid); the others name themselves.
thread_name() {
    if [ "$1" = "$daemon_pid" ]; then echo "event-loop"; else cat /proc/"$daemon_pid"/task/"$1"/comm; fi
}

round=1
while [ "$round" -le "$ROUNDS" ]; do
    $prio "$bench" runs --socket "$socket" --warmup 0 --seconds "$SECONDS_RUN" > "$work/runs" &
    client=$!
    perf stat --no-inherit --per-thread -t "$tids" -x, -o "$work/stat" \
        -e task-clock,context-switches,cpu-migrations,page-faults -- sleep "$SECONDS_RUN"
    wait "$client"
    runs=$(field runs < "$work/runs")
    echo "window $round: $runs runs in $SECONDS_RUN s"
    # Lines: "comm-TID,value,unit,event,...".
    for tid in $(echo "$tids" | tr ',' ' '); do
        awk -F, -v tid="$tid" -v runs="$runs" -v name="$(thread_name "$tid")" '
            $1 ~ "-" tid "$" && $2 ~ /^[0-9.]+$/ { value[$4] = $2 }
            END {
                printf "  %-15s CPU %6.1f µs  context switches %5.2f  migrations %5.2f  page faults %6.2f  a run\n",
                    name, value["task-clock"] * 1000 / runs, value["context-switches"] / runs,
                    value["cpu-migrations"] / runs, value["page-faults"] / runs
            }' "$work/stat"
    done
    round=$((round + 1))
done

[ "$PROFILE" = 1 ] || exit 0
command -v python3 > /dev/null || { echo "p1-threads: PROFILE=1 needs python3" >&2; exit 1; }
for tid in $(echo "$tids" | tr ',' ' '); do
    name=$(thread_name "$tid")
    case $name in event-loop | provider-spawn) ;; *) continue ;; esac
    $prio "$bench" runs --socket "$socket" --warmup 0 --seconds "$((SECONDS_RUN + 1))" > "$work/runs" &
    client=$!
    sleep 0.5
    perf record -q --no-inherit -e cpu-clock -F 10000 --call-graph dwarf,16384 -t "$tid" -o "$work/$name.data" \
        -- sleep "$SECONDS_RUN"
    wait "$client"
    perf script -i "$work/$name.data" --no-demangle 2> /dev/null > "$work/$name.txt"
    echo "$name: where its samples are, each charged to the innermost part of a run its stack holds"
    python3 - "$work/$name.txt" <<'PARTS'
import collections, re, sys

# Innermost match wins: a stack is read from its leaf outwards, and each frame is tried against every part in order.
PARTS = [
    ("waiting: epoll_wait, switching back in", r"sd_event_wait|epoll_wait"),
    ("pipe2", r"do_pipe2|__x64_sys_pipe2"),
    ("close", r"__x64_sys_close"),
    ("write(2): the request into stdin, journal lines", r"ksys_write"),
    ("sendto: Watch events", r"__sys_sendto"),
    ("kill", r"__x64_sys_kill"),
    ("waitid", r"__do_sys_waitid|kernel_waitid"),
    ("read", r"do_preadv|do_readv|ksys_read"),
    ("futex: the hand-over", r"futex"),
    ("clone3 and the wait for execve", r"kernel_clone|__do_sys_clone3|wait_for_vfork_done"),
    ("mmap, munmap", r"__x64_sys_mmap|__x64_sys_munmap|vm_mmap|__vm_munmap"),
    ("epoll_ctl", r"epoll_ctl"),
    ("prlimit64", r"prlimit"),
    ("timerfd_settime", r"timerfd"),
    ("other system calls", r"entry_SYSCALL_64"),
    ("interrupts", r"asm_|irq_exit|handle_softirqs|sysvec"),
    ("the request's JSON", r"ProviderRequestV7encoded"),
    ("the answer's decoding", r"ProviderAnswerDecoder|JSONFastParser"),
    ("the journal line's text", r"ServiceC6logRun|StderrLogHandler|JournalLogHandler|JournalFields"),
    ("Watch events' JSON", r"ServiceC9broadcast|VarlinkCall|WatchEvent"),
    ("SQLite commits", r"libsqlite3|GRDB|StateStore|DaemonC10flushState"),
    ("scheduler (core)", r"WidgetSchedulerCore"),
    ("runner: launching", r"RunningProcessC6launch|prepareChild|ProviderRunnerC5start|cspawn_job_run"),
    ("runner: a run's end", r"RunningProcessC6finish|childExited|deliverExits"),
    ("service (the rest)", r"WidgetSchedulerRuntime"),
    ("Swift runtime, called from elsewhere", r"libswiftCore"),
    ("sd-event", r"libsystemd"),
    ("C library", r"libc\.so"),
]
compiled = [(name, re.compile(pattern)) for name, pattern in PARTS]
samples, stack = [], None
for line in open(sys.argv[1]):
    if line.strip() and not line[0].isspace():
        if stack is not None:
            samples.append(stack)
        stack = []
    elif line.strip() and stack is not None:
        stack.append(line.strip().split(" ", 1)[-1])
if stack:
    samples.append(stack)
counts = collections.Counter()
# The Swift runtime's share (retains, releases, allocations, hashing...) split by the first frame outside it.
runtime_callers = collections.Counter()
for stack in samples:
    part = next((name for frame in stack for name, pattern in compiled if pattern.search(frame)), "(elsewhere)")
    counts[part] += 1
    if part.startswith("Swift runtime"):
        caller = next((f for f in stack if "libswiftCore" not in f and "libc.so" not in f), "(none)")
        runtime_callers[re.sub(r"\+0x[0-9a-f]+", "", caller).replace(" (inlined)", "")[:110]] += 1
total = max(1, len(samples))
print(f"  {len(samples)} samples")
for part, count in counts.most_common():
    print(f"  {100 * count / total:5.1f} %  {part}")
if runtime_callers:
    print("  the Swift runtime's share by its caller (the first 8):")
    for caller, count in runtime_callers.most_common(8):
        print(f"    {100 * count / total:5.1f} %  {caller}")
PARTS
done
