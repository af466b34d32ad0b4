#!/usr/bin/env bash
# run.sh: the web home screen's browser tests (home_screen_tests.py): headless Chromium through Selenium against a
# running widget-host and widget-scheduler. Tests/System/cases/60-web-host.sh starts both under systemd and runs
# this; scripts/setup.sh installs Chromium, chromedriver (apt-get) and Selenium (pip, into .build-browser/python).
#
#   Tests/Browser/run.sh [TEST...]    e.g. run.sh HomeScreenTests.test_5_a_tap_opens_the_widgets_url
#
# Environment: HOST_URL (default http://127.0.0.1:8470), BROWSER_ARTIFACTS (where screenshots go; default
# .build-artifacts/browser), BROWSER_TIMEOUT (seconds a wait may last, default 120).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
export PYTHONPATH="$repo/.build-browser/python${PYTHONPATH:+:$PYTHONPATH}"
export BROWSER_ARTIFACTS=${BROWSER_ARTIFACTS:-$repo/.build-artifacts/browser}
mkdir -p "$BROWSER_ARTIFACTS"
python=/usr/bin/python3
[ -x "$python" ] || python=python3
for needed in /usr/bin/chromium /usr/bin/chromedriver "$repo/.build-browser/python/selenium"; do
    [ -e "$needed" ] || { echo "run.sh: $needed is missing: run scripts/setup.sh" >&2; exit 1; }
done
cd "$here"
tests=()
for name in "$@"; do tests+=("home_screen_tests.$name"); done
[ ${#tests[@]} -gt 0 ] || tests=(home_screen_tests)
exec "$python" -m unittest -v "${tests[@]}"
