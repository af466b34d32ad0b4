#!/bin/sh
# Runner vs bare posix_spawn: the same provider run RUNS times through ProviderRunner (runner-bench) and through a
# bare C posix_spawn + read + waitpid loop (spawn-loop.c), in the same run, at 1 and 2 workers; ROUNDS alternating
# rounds each, best rate kept. Prints the ratio runner rate / C rate (issue 3's goal >= 0.95). Results go in
# docs/benchmarks.md.
#
# usage: Benchmarks/runner.sh [PROVIDER]    (env: RUNS=2000 ROUNDS=5 WORKERS="1 2" SCHED=fifo SCRATCH=.build-bench
#                                            RUNNER_SANDBOX=1: the runner spawns through the Landlock sandbox)
set -eu
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
RUNS=${RUNS:-2000}
ROUNDS=${ROUNDS:-5}
WORKERS=${WORKERS:-"1 2"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

provider=${1:-}
if [ -z "$provider" ]; then
    if [ -x examples/trivial/trivial.sh ]; then
        provider=$(pwd)/examples/trivial/trivial.sh
    else
        provider=$work/trivial
        cat > "$provider" <<'PROVIDER'
#!/bin/sh
cat > /dev/null
printf '{"entries":[{"date":"2026-01-05T08:00:00Z","content":{"text":"hello"}}],"policy":"atEnd"}\n'
PROVIDER
        chmod 755 "$provider"
    fi
fi
cat > "$work/request.json" <<'REQUEST'
{"context":{"isPreview":false,"now":"2026-01-05T08:00:00Z","reason":"policy"},"kind":"trivial","protocol":1,"request":"timeline","widget":{"configuration":{},"family":"systemSmall","id":"w1"}}
REQUEST

SCRATCH=${SCRATCH:-.build-bench}
swift build -c release --package-path Benchmarks --scratch-path "$SCRATCH" --product runner-bench >&2
bench=$SCRATCH/release/runner-bench
cc -O2 -pthread -o "$work/spawn-loop" Benchmarks/spawn-loop.c

# Both sides run under the same scheduling policy. SCHED=fifo (the default when chrt works, i.e. as root) runs them
# under SCHED_FIFO priority 1, which shields the comparison from whatever else the machine is doing; SCHED=other
# runs them as ordinary processes.
SCHED=${SCHED:-fifo}
if [ "$SCHED" = fifo ] && chrt -f 1 true 2>/dev/null; then
    policy="chrt -f 1"
else
    SCHED=other
    policy=""
fi

rate() { sed -n 's/.*rate=\([0-9.]*\).*/\1/p'; }
echo "provider: $provider"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(uname -sr)"
echo "runs per measurement: $RUNS, rounds: $ROUNDS (best kept), scheduling: $SCHED, load: $(cut -d' ' -f1-3 /proc/loadavg)"
for workers in $WORKERS; do
    best_c=0
    best_runner=0
    round=1
    while [ "$round" -le "$ROUNDS" ]; do
        c=$($policy "$work/spawn-loop" "$provider" "$work/request.json" "$RUNS" "$workers" | rate)
        r=$($policy "$bench" "$provider" "$work/request.json" "$RUNS" "$workers" | rate)
        echo "  workers=$workers round=$round: C $c runs/s, runner $r runs/s"
        best_c=$(echo "$c $best_c" | awk '{print ($1 > $2) ? $1 : $2}')
        best_runner=$(echo "$r $best_runner" | awk '{print ($1 > $2) ? $1 : $2}')
        round=$((round + 1))
    done
    echo "workers=$workers: C $best_c runs/s, runner $best_runner runs/s, ratio $(echo "$best_runner $best_c" | awk '{printf "%.3f", $1 / $2}')"
done
