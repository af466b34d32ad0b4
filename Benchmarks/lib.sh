# Sourced from the repository's root by suite.sh and the probes (probes/), after they set their own variables: the
# release build, a scratch directory ($work), the trivial provider's fixture, starting and stopping one daemon.
#
# It sets: repo, bin (the release build's products), bench (daemon-bench), work, runtime, prio (the prefix that runs a
# command under SCHED_FIFO when SCHED=fifo and chrt may), provider (examples/trivial/trivial.sh), and in $work:
# spawn-loop (the C loop), providers/trivial.toml, developer.toml (developer mode for the trivial kind, 2 runs at a
# time) and request.json (the request the C loop sends). The exit trap stops the daemon and removes $work and
# $runtime.
repo=$(pwd)
export PATH=/opt/swift/usr/bin:$PATH
# The benchmark package's own scratch path: its release build holds the daemon and widgetctl as well as its tools.
SCRATCH=${SCRATCH:-.build-bench}
case $SCRATCH in /*) ;; *) SCRATCH=$repo/$SCRATCH ;; esac
SCHED=${SCHED:-fifo}
bin=$SCRATCH/release
bench=$bin/daemon-bench
log() { echo "$*" >&2; }
# field NAME: the number after NAME= in the line on stdin (the programs' and daemon-bench's key=value output).
field() { sed -n "s/.*$1=\([-0-9.na]*\).*/\1/p"; }

work=$(mktemp -d /tmp/bench.XXXXXX)
# The daemons' runtime directories (their sockets and the runs' image directories) on a tmpfs, as under the installed
# unit (RuntimeDirectory= is in /run) or $XDG_RUNTIME_DIR; in $work where there is none.
runtime=$(mktemp -d "${XDG_RUNTIME_DIR:-/dev/shm}/bench-run.XXXXXX" 2> /dev/null) || runtime=$work
daemon_pid=
stop_daemon() {
    if [ -n "$daemon_pid" ]; then
        kill -CONT "$daemon_pid" 2> /dev/null || true
        kill -TERM "$daemon_pid" 2> /dev/null || true
        while kill -0 "$daemon_pid" 2> /dev/null; do sleep 0.1; done
        daemon_pid=
    fi
}
trap 'stop_daemon; rm -rf "$work" "$runtime"' EXIT

# build PRODUCT...: release builds into $SCRATCH, through the benchmark package (Benchmarks/Package.swift), which
# builds the product's package's executables too.
build() {
    for product in "$@"; do
        swift build -c release --package-path Benchmarks --scratch-path "$SCRATCH" --product "$product" >&2
    done
}

prio=
if [ "$SCHED" = fifo ] && command -v chrt > /dev/null && chrt -f 1 true 2> /dev/null; then prio="chrt -f 1"; fi

cc -O2 -pthread -o "$work/spawn-loop" Benchmarks/spawn-loop.c
mkdir -p "$work/providers"
provider=$repo/examples/trivial/trivial.sh
sed "s#^exec = .*#exec = \"$provider\"#" examples/trivial/trivial.toml > "$work/providers/trivial.toml"
printf 'developer-kinds = ["trivial"]\nmax-concurrent-runs = 2\n' > "$work/developer.toml"
cat > "$work/request.json" <<'REQUEST'
{"context":{"isPreview":false,"now":"2026-01-05T08:00:00Z","reason":"policy"},"kind":"trivial","protocol":1,"request":"timeline","widget":{"configuration":{},"family":"systemSmall","id":"w1"}}
REQUEST

# start NAME CONFIG: starts the daemon ($DAEMON_BIN, default the release build's) on $work/NAME, sets daemon_pid,
# socket and started (the start line).
start() {
    socket=$runtime/$1/control.socket
    started=$($prio "$bench" start --log "$work/$1.log" -- "${DAEMON_BIN:-$bin/widget-scheduler}" --config "$2" \
        --state-dir "$work/$1/state" --runtime-dir "$runtime/$1" --providers-dir "$work/providers")
    daemon_pid=$(echo "$started" | sed -n 's/.*pid=\([0-9]*\).*/\1/p')
    log "  $1: $started"
}

# start_p1 NAME [LINES]: the daemon of P1's measurements on $work/NAME: developer.toml with LINES added (more
# configuration, such as "provider-sandbox = false"), and 4 widgets of the trivial kind, so both of its 2 run slots
# stay busy.
start_p1() {
    printf '%s\n' "${2:-}" >> "$work/developer.toml"
    start "$1" "$work/developer.toml"
    add_trivial_widgets 4
}

# own PID: the CPU of process PID, every thread (fields 14 and 15 of /proc/PID/stat), in clock ticks (`getconf
# CLK_TCK` a second); 0 without a PID.
own() { if [ -n "${1:-}" ]; then awk '{print $14 + $15}' /proc/"$1"/stat; else echo 0; fi; }
# reaped PID: its reaped children's CPU (fields 16 and 17): the providers and what they waited for.
reaped() { if [ -n "${1:-}" ]; then awk '{print $16 + $17}' /proc/"$1"/stat; else echo 0; fi; }

# daemon_times: the wall clock (s), then the started daemon's `own` and `reaped` CPU, on one line. Taken before and
# after a `daemon-bench runs` call, they give the daemon's CPU a run (`daemon_cpu_per_run`).
daemon_times() {
    echo "$(date +%s.%N) $(own "$daemon_pid") $(reaped "$daemon_pid")"
}

# daemon_cpu_per_run BEFORE AFTER RATE: "OWN PROVIDERS", the daemon's CPU a run in µs between two `daemon_times`
# lines, its rate (runs/s) times the wall time between them standing for its runs (a `runs` call's warm-up runs at
# the window's rate); "nan nan" when it made no runs, so that a broken daemon is reported rather than ends the script.
daemon_cpu_per_run() {
    echo "$1 $2" | awk -v rate="$3" -v tck="$(getconf CLK_TCK)" '{
        runs = rate * ($4 - $1)
        if (runs <= 0) { print "nan nan"; exit }
        printf "%.1f %.1f", ($5 - $2) / tck * 1e6 / runs, ($6 - $3) / tck * 1e6 / runs }'
}

# larger A B: the larger of two numbers (a best round so far and a new one).
larger() { awk -v a="$1" -v b="$2" 'BEGIN {print (a > b) ? a : b}'; }
# ratio A B: A ÷ B to three decimals; "nan" when B is not a positive rate, so that a side that made no runs is
# reported rather than ends the script on awk's division by zero.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b + 0 > 0) printf "%.3f", a / b; else print "nan"}'; }

# The awk function median(first, stride): the median of fields first, first + stride, ... of the current line, "nan"
# ones left out (nan if none is left). For the suite's rows that read a measure's rounds.
awk_median='
    function median(first, stride,   n, i, j, t, v) {
        n = 0; for (i = first; i <= NF; i += stride) if ($i != "nan") v[++n] = $i + 0
        if (n == 0) return "nan"
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'

# pause_daemon: stops the started daemon (SIGSTOP) and lets the runs it had in flight end, before another loop is
# measured alone; resume with `kill -CONT "$daemon_pid"`.
pause_daemon() {
    kill -STOP "$daemon_pid"
    sleep 0.3
}

# add_trivial_widgets N: N widgets of the trivial kind on the started daemon.
add_trivial_widgets() {
    count=0
    while [ "$count" -lt "$1" ]; do
        WIDGET_SCHEDULER_SOCKET=$socket "$bin/widgetctl" add --kind trivial > /dev/null
        count=$((count + 1))
    done
}

machine_line() {
    echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(uname -sr)"
}
