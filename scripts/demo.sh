#!/usr/bin/env bash
# The README's demo: set up, build, then replay two days of a realistic scenario through the scheduler's core.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="/opt/swift/usr/bin:$PATH"
bin="$(swift build --show-bin-path)"
echo "== widget-scheduler simulate examples/scenarios/weather.json (two simulated days)"
"$bin/widget-scheduler" simulate examples/scenarios/weather.json
