#!/usr/bin/env bash
# run.sh: the system tests. Each case in Tests/System/cases/*.sh runs inside its own freshly booted systemd
# (Tests/System/sdbox.sh: a throw-away container over the host's root, booted in about half a second), so cases
# cannot disturb each other or the host.
#
#   Tests/System/run.sh [-B BUILD_DIR] [CASE-NAME-OR-FILE...]
#
# BUILD_DIR holds the built executables (default: the folder `swift build --show-bin-path` names). Prints one line
# per case, with the measurements it reports, then `N passed, N failed`; a failing case's output follows its line.
# SYSTEM_TEST_VERBOSE=1 shows every case's output. Exits 1 if any case failed or none ran.
# Needs root and systemd-nspawn (scripts/setup.sh installs it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"

build_dir=
while getopts "B:" option; do
    case $option in
        B) build_dir=$OPTARG ;;
        *) echo "usage: run.sh [-B BUILD_DIR] [CASE...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ -z "$build_dir" ]; then
    build_dir=$(PATH=/opt/swift/usr/bin:$PATH swift build --show-bin-path)
fi
build_dir=$(cd "$build_dir" && pwd)

cases=()
if [ $# -eq 0 ]; then
    cases=("$here"/cases/*.sh)
else
    for wanted in "$@"; do
        if [ -f "$wanted" ]; then cases+=("$(cd "$(dirname "$wanted")" && pwd)/$(basename "$wanted")")
        elif [ -f "$here/cases/$wanted" ]; then cases+=("$here/cases/$wanted")
        elif [ -f "$here/cases/$wanted.sh" ]; then cases+=("$here/cases/$wanted.sh")
        else echo "run.sh: no case '$wanted' in $here/cases" >&2; exit 2
        fi
    done
fi
[ -f "${cases[0]}" ] || { echo "run.sh: no cases found" >&2; exit 1; }

# The container sees the host's files through its overlay, except /tmp, which is its own: bind what lives there.
# Whatever a case writes elsewhere vanishes with the container, save .build-artifacts (screenshots), bound too.
mkdir -p "$repo/.build-artifacts"
binds=(-b "$repo/.build-artifacts")
case $repo in /tmp/*) binds+=(-b "$repo") ;; esac
case $build_dir in /tmp/* | /tmp) binds+=(-b "$build_dir") ;; esac

passed=0 failed=0 failures=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for case_file in "${cases[@]}"; do
    name=$(basename "$case_file" .sh)
    started=$(date +%s%N)
    # A case may need longer than 180 s (a browser session): it says so in a line "# case-timeout: SECONDS".
    limit=$(sed -n 's/^# case-timeout: \([0-9][0-9]*\)$/\1/p' "$case_file" | head -1)
    set +e
    timeout --kill-after=10 "${SYSTEM_TEST_TIMEOUT:-${limit:-180}}" "$here/sdbox.sh" "${binds[@]}" -- \
        env BUILD_DIR="$build_dir" bash -c 'cd "$1" && set -euo pipefail && source Tests/System/lib.sh && source "$2"' \
        case "$repo" "$case_file" > "$log" 2>&1 < /dev/null
    status=$?; echo "[$(date +%T.%3N)] case ended" >> "$log"
    set -e
    elapsed=$((($(date +%s%N) - started) / 1000000))
    if [ "$status" = 0 ]; then
        passed=$((passed + 1))
        printf 'ok    %-40s %6d ms\n' "$name" "$elapsed"
        sed -n 's/^REPORT: /      /p' "$log"
        [ -n "${SYSTEM_TEST_VERBOSE:-}" ] && sed 's/^/      /' "$log"
    else
        failed=$((failed + 1))
        failures+=("$name")
        printf 'FAIL  %-40s %6d ms  (exit %d)\n' "$name" "$elapsed" "$status"
        sed 's/^/      /' "$log"
    fi
done
echo "$passed passed, $failed failed${failures:+ (${failures[*]})}"
[ "$failed" = 0 ]
