#!/usr/bin/env bash
# Issue 32 §5: the web home screen's figures (first render, size, idle wake-ups, P6 on screen), measured by
# Benchmarks/web-host/home_screen_bench.py in headless Chromium against widget-host and widget-scheduler under a real
# systemd booted in a throw-away container (Tests/System/sdbox.sh). A benchmark, not a test: it prints figures.
#
#   sudo Benchmarks/web-host.sh [BUILD_DIR]      (default: the release build if there is one, else the debug build)
#
# BENCH_WIDGETS (100), BENCH_P6_SECONDS (40) and BENCH_IDLE_SECONDS (30) change the run. Needs what scripts/setup.sh
# installs (chromium, chromium-driver, selenium in .build-browser/python).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bin=${1:-}
if [ -z "$bin" ]; then
    bin=$(swift build -c release --show-bin-path)
    [ -x "$bin/widget-host" ] || bin=$(swift build --show-bin-path)
fi
bin=$(cd "$bin" && pwd)
echo "web-host bench: binaries from $bin" >&2
binds=()
case $PWD in /tmp/*) binds+=(-b "$PWD") ;; esac
case $bin in /tmp/*) binds+=(-b "$bin") ;; esac
exec Tests/System/sdbox.sh "${binds[@]}" -- env BUILD_DIR="$bin" BENCH_WIDGETS="${BENCH_WIDGETS:-100}" \
    BENCH_P6_SECONDS="${BENCH_P6_SECONDS:-40}" BENCH_IDLE_SECONDS="${BENCH_IDLE_SECONDS:-30}" bash -c '
    set -euo pipefail
    cd "$1"
    source Tests/System/lib.sh
    start_widget_scheduler "minimum-interval = 300"
    cp Tests/Browser/providers/ticker.py Tests/Browser/providers/ticker.toml Tests/Browser/providers/ticker.views.json \
        /etc/widget-scheduler/providers/
    reload_until_served ticker
    systemctl start widget-host.service
    PYTHONPATH=$PWD/.build-browser/python python3 Benchmarks/web-host/home_screen_bench.py
' bench "$PWD"
