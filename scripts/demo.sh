#!/usr/bin/env bash
# The README's demo: set up, build, boot a throw-away systemd (nothing on the host changes), install the build,
# `systemctl start widget-scheduler`, add the example widgets, and show what a user sees: widgetctl list, each widget
# drawn with its view (widgetctl show), status bar lines, a reload with its decision, an app's side (the Swift
# weather-app example, the Python SDK, and the photo app filling its widget's album), a few seconds of widgetctl
# watch, journalctl excerpts explained by the catalog, and the web home screen (widget-host) photographed by headless
# Chromium, the photo of the day among the widgets: the script prints where the picture is.
#
# Needs root and systemd-nspawn (scripts/setup.sh installs it). Without root, it replays a two-day scenario through
# the scheduler's core instead (widget-scheduler simulate).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="/opt/swift/usr/bin:$PATH"
bin="$(swift build --show-bin-path)"

if [ "$(id -u)" != 0 ] || ! command -v systemd-nspawn > /dev/null; then
    echo "== not root: replaying two simulated days instead (widget-scheduler simulate examples/scenarios/weather.json)"
    exec "$bin/widget-scheduler" simulate examples/scenarios/weather.json
fi

# The home screen's screenshot is written under .build-artifacts, bound into the container (whose own writes vanish).
mkdir -p .build-artifacts/demo
binds=(-b "$PWD/.build-artifacts")
case $PWD in /tmp/*) binds+=(-b "$PWD") ;; esac
exec Tests/System/sdbox.sh "${binds[@]}" -- env BUILD_DIR="$bin" bash -c '
    set -euo pipefail
    cd "$1"
    source Tests/System/lib.sh
    show() { printf "\n\033[1m\$ %s\033[0m\n" "$*"; "$@"; }
    printf "\n== installing into a throw-away systemd and starting the service\n"
    start_widget_scheduler "minimum-interval = 300"
    show systemctl --no-pager status widget-scheduler.service | head -12
    show widgetctl kinds
    # The photo app puts a folder of pictures in the photos group (examples/photo-app): the photo widget added below
    # starts with the picture of the day, which its provider saves for its entries and the daemon stores by its hash.
    if widgetctl kinds --json | grep -q "\"kind\" : \"photo\""; then
        printf "\n== an app fills the photo widget'"'"'s album through its group'"'"'s data\n"
        PYTHONDONTWRITEBYTECODE=1 show examples/photo-app/photo-app examples/photo-app/pictures
    fi
    ids=()
    for kind in weather quote system clock countdown trivial; do
        widgetctl kinds --json | grep -q "\"kind\" : \"$kind\"" || continue
        printf "\n\033[1m\$ widgetctl add --kind %s\033[0m\n" "$kind"
        id=$(widgetctl add --kind "$kind")
        echo "$id"
        ids+=("$id")
    done
    # A countdown ten minutes away: its timer text ticks each second with no entry a second.
    if widgetctl kinds --json | grep -q "\"kind\" : \"countdown\""; then
        until=$(date -u -d "+10 min" +%Y-%m-%dT%H:%M:%SZ)
        printf "\n\033[1m\$ widgetctl add --kind countdown --param until=%s --param title=Tea\033[0m\n" "$until"
        tea=$(widgetctl add --kind countdown --param "until=$until" --param title=Tea)
        echo "$tea"
    fi
    if widgetctl kinds --json | grep -q "\"kind\" : \"photo\""; then
        printf "\n\033[1m\$ widgetctl add --kind photo --family systemMedium\033[0m\n"
        photo=$(widgetctl add --kind photo --family systemMedium)
        echo "$photo"
    fi
    sleep 1
    show widgetctl list
    # What each widget looks like: the view of its kind, drawn from its current entry (docs/views.md).
    for id in "${ids[@]}"; do show widgetctl show "$id" --color always; done
    show widgetctl show "${ids[0]}" --family systemMedium --color always
    show widgetctl show "${ids[0]}" --family accessoryInline --color always
    show widgetctl show "${ids[1]}" --placeholder --color always
    [ -n "${tea:-}" ] && show widgetctl show "$tea" --family systemMedium --color always
    # A terminal cannot draw the picture: it says its name and size, where the page shows it.
    if [ -n "${photo:-}" ]; then
        wait_until 60 "the photo widget'"'"'s first run" widget_has_run "$photo"
        show widgetctl show "$photo" --color always
        show widgetctl timeline "$photo"
    fi
    # Status bar lines (docs/hosts.md): the clock prints a line a minute, the timer of the countdown one a second.
    printf "\n\033[1m\$ widgetctl watch %s --format waybar   (3 seconds)\033[0m\n" "${ids[3]:-${ids[0]}}"
    timeout 3 widgetctl watch "${ids[3]:-${ids[0]}}" --format waybar || true
    if [ -n "${tea:-}" ]; then
        printf "\n\033[1m\$ widgetctl watch %s --format i3blocks   (3 seconds)\033[0m\n" "$tea"
        timeout 3 widgetctl watch "$tea" --format i3blocks || true
    fi
    show widgetctl reload --kind weather
    show widgetctl reload --kind weather --json
    show widgetctl budget --kind weather
    printf "\n== an app saves a location to the weather group and reloads the weather kind (WidgetCenter)\n"
    PATH="$BUILD_DIR:$PATH" show weather-app Lyon
    show python3 -c "from widgetkit import WidgetCenter; print(*WidgetCenter().current_configurations(), sep=\"\\n\")"
    show widgetctl timeline w1
    printf "\n\033[1m\$ widgetctl watch --json   (5 seconds; a foreground reload of all widgets meanwhile)\033[0m\n"
    timeout 5 widgetctl watch --json & watcher=$!
    sleep 0.5; widgetctl reload --all --foreground > /dev/null
    wait $watcher || true
    show journalctl -u widget-scheduler --no-pager -o short-monotonic -n 12
    show journalctl -u widget-scheduler --no-pager -x -n 4 MESSAGE_ID=$(message_id requestDecided)
    show journalctl -u widget-scheduler --no-pager -o json-pretty -n 1 WIDGET_KIND=weather \
        --output-fields=MESSAGE,WIDGET_ID,WIDGET_KIND,RELOAD_REASON,DECISION,BECAUSE,NEXT_RELOAD,MESSAGE_ID
    printf "\n== the web home screen: widget-host beside the daemon, photographed by headless Chromium\n"
    show systemctl start widget-host
    wait_until 60 "a first run of every widget" all_widgets_have_run
    picture=$PWD/.build-artifacts/demo/home-screen.png
    rm -f "$picture"
    if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && [ -d .build-browser/python/selenium ]; then
        PYTHONPATH=$PWD/.build-browser/python python3 Tests/Browser/screenshot.py http://127.0.0.1:8470/ "$picture"
        [ -s "$picture" ] || fail "chromium wrote no screenshot"
        printf "\nThe home screen with the example widgets: %s\n" "$picture"
    else
        # scripts/setup.sh installs them; without them (no PyPI, no apt) the host still serves, only the photo is lost.
        printf "\nNo screenshot: chromium, chromedriver or selenium is missing (scripts/setup.sh installs them).\n"
        printf "The home screen answers at http://127.0.0.1:8470/ (HTTP %s).\n" \
            "$(python3 -c "import urllib.request as u; print(u.urlopen(\"http://127.0.0.1:8470/\").status)")"
    fi
    show systemctl stop widget-host widget-scheduler
' demo "$PWD"
