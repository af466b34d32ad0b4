#!/usr/bin/env bash
# Runs the README's test command (./scripts/test.sh) up to N times in a row on a fresh clone, with a `swift build` of
# a second clone running beside it all along, from clean each time (as on a shared 2-core machine where others
# compile). Stops at the first run that fails. Prints a line for each run (pass or FAIL, its time, the tests that
# failed) and a total.
#
#   scripts/test-loop.sh [N]        (default 10)
#
# It tests the commit checked out here (HEAD; uncommitted changes are not in the clone). The clones sit in a fresh
# temporary directory, with each run's whole output; it is removed when every run passed, and kept (its path
# printed) when one failed or with TEST_LOOP_KEEP=1. Exit status: 0 when every run passed, 1 when one failed.
#
# Environment: TEST_LOOP_BESIDE=0 (no build beside), TEST_LOOP_KEEP=1, TMPDIR (where the directory goes).
set -euo pipefail

runs=${1:-10}
case $runs in '' | 0 | *[!0-9]*) echo "usage: test-loop.sh [N]   (N ≥ 1, default 10)" >&2; exit 2 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$root" rev-parse HEAD)
export PATH="/opt/swift/usr/bin:$PATH"

work=$(mktemp -d "${TMPDIR:-/tmp}/widget-test-loop-XXXXXX")
echo "test-loop: up to $runs runs of ./scripts/test.sh at ${commit:0:12} in $work" >&2
clone() {
    git clone --quiet --no-checkout "$root" "$1"
    git -C "$1" checkout --quiet --detach "$commit"
}
clone "$work/widget-scheduler"

beside_pid=
stop_beside() {
    [ -n "$beside_pid" ] || return 0
    # SIGINT to its process group, as Ctrl-C would: swift build then stops the compilers it started (they run in
    # process groups of their own, which a SIGKILL to this one would leave running), and the loop below ends.
    kill -INT -- "-$beside_pid" 2> /dev/null || true
    for _ in $(seq 100); do
        kill -0 "$beside_pid" 2> /dev/null || break
        sleep 0.2
    done
    kill -KILL -- "-$beside_pid" 2> /dev/null || true
    wait "$beside_pid" 2> /dev/null || true
    beside_pid=
}
trap stop_beside EXIT

if [ "${TEST_LOOP_BESIDE:-1}" != 0 ]; then
    clone "$work/beside"
    # A process group of its own (set -m), so that stopping it stops the compiler processes too.
    set -m
    (
        builds=0
        while true; do
            rm -rf "$work/beside/.build"
            swift build --package-path "$work/beside" > "$work/beside.log" 2>&1 || true
            builds=$((builds + 1))
            echo "$builds" > "$work/beside.count"
        done
    ) &
    beside_pid=$!
    set +m
    echo "test-loop: a swift build of a second clone runs beside, from clean each time" >&2
fi

# The names of the tests a run's output says failed: Swift Testing's, XCTest's, pytest's and the system cases'. Every
# command in it ends with status 0, as `set -e` and `pipefail` would otherwise end the loop at the first failed run
# without its summary.
failed_tests() {
    {
        grep -v '^✘ Test run with' "$1" | sed -n 's/^✘ Test \(.*\) \(recorded an issue\|failed after\).*/\1/p'
        sed -n "s/^Test Case '\\(.*\\)' failed.*/\\1/p" "$1"
        sed -n 's/^FAIL  *\([^ ]*\).*/system case \1/p' "$1"
        sed -n 's/^FAILED \([^ ]*\).*/pytest \1/p' "$1"
        if grep -q 'exited with unexpected signal' "$1"; then echo "the test process crashed"; fi
    } | sed 's/ with [0-9]* arguments\{0,1\} .*//; s/ with [0-9]* test cases//' | sort -u
}

passed=0
summary=()
for run in $(seq 1 "$runs"); do
    log="$work/run-$run.log"
    started=$(date +%s)
    status=pass
    (cd "$work/widget-scheduler" && ./scripts/test.sh) > "$log" 2>&1 || status=FAIL
    line="run $run of $runs: $status in $(($(date +%s) - started)) s"
    if [ $status = FAIL ]; then
        names=$(failed_tests "$log" | paste -sd ';' - | sed 's/;/; /g')
        line="$line: ${names:-no test named; see the log}; log $log"
    else
        passed=$((passed + 1))
    fi
    summary+=("$line")
    echo "test-loop: $line" >&2
    [ $status = pass ] || break
done
stop_beside
builds=$(cat "$work/beside.count" 2> /dev/null || echo 0)

printf '%s\n' "${summary[@]}"
total="$passed of $runs runs passed at ${commit:0:12}"
[ "$passed" = "$runs" ] || total="$total; stopped at run $((passed + 1)), which failed"
echo "total: $total; $builds clean builds of a second clone finished beside"
if [ "$passed" = "$runs" ] && [ "${TEST_LOOP_KEEP:-0}" != 1 ]; then
    rm -rf "$work"
else
    echo "test-loop: logs in $work" >&2
fi
[ "$passed" = "$runs" ]
