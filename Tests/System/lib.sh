# lib.sh: helpers for the system-test cases, sourced by run.sh inside the booted container before each case.
# A case is a bash script in cases/ run with `set -euo pipefail` from the repository root, as root, with
# BUILD_DIR naming the build folder (absolute). It passes by exiting 0; any failed check ends it at once.

# Ends the case with a message naming what was expected.
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# Logs one step, so a failure's output shows how far the case got.
step() {
    echo "--- [$(date +%T.%3N)] $*" >&2
}

# report TEXT: a measurement run.sh prints under the case's result line even when it passes.
report() {
    echo "REPORT: $*" >&2
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
    [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}

# expect_match TEXT EXTENDED-REGEX WHAT
expect_match() {
    [[ $1 =~ $2 ]] || fail "$3: expected to match /$2/, got '$1'"
}

# wait_until SECONDS WHAT CMD...: retries CMD every 0.1 s until it succeeds, or fails the case.
wait_until() {
    local seconds=$1 what=$2
    shift 2
    local deadline=$(($(date +%s%N) + seconds * 1000000000))
    until "$@" > /dev/null 2>&1; do
        [ "$(date +%s%N)" -lt "$deadline" ] || fail "timed out after ${seconds}s waiting for: $what"
        sleep 0.1
    done
}

# unit_property UNIT PROPERTY: one property from `systemctl show`.
unit_property() {
    systemctl show --property="$2" --value "$1"
}

# unit_property_is UNIT PROPERTY VALUE: for wait_until.
unit_property_is() {
    [ "$(unit_property "$1" "$2")" = "$3" ]
}

# journal_field FIELD JOURNALCTL-ARGS...: FIELD of every matching entry of `journalctl -o json`, one per line.
# Flushes journald first so entries sent a moment ago are visible.
journal_field() {
    local field=$1
    shift
    journalctl --sync
    journalctl --no-pager -o json "$@" | python3 -c '
import json, sys
field = sys.argv[1]
for line in sys.stdin:
    value = json.loads(line).get(field)
    if isinstance(value, list):  # binary or repeated fields
        value = value[-1]
    if value is not None:
        print(value)
' "$field"
}

# need_program NAME: the build must contain NAME, or the case cannot run.
need_program() {
    [ -x "$BUILD_DIR/$1" ] || fail "$BUILD_DIR/$1 not found: build it first (swift build --product $1)"
}

# install_build: the real install step into /usr/local of the container (its overlay, never the host).
install_build() {
    need_program widget-scheduler
    need_program widgetctl
    PREFIX=/usr/local scripts/install.sh "$BUILD_DIR" 2>&1 | sed 's/^/    /' >&2
}

# start_widget_scheduler [CONFIG-TEXT]: installs the build, writes the daemon's config file when given, starts the
# service (Type=notify: systemctl returns once READY=1 arrived) and points widgetctl at the system socket.
start_widget_scheduler() {
    install_build
    if [ $# -gt 0 ]; then
        mkdir -p /etc/widget-scheduler
        printf '%s\n' "$1" > /etc/widget-scheduler/widget-scheduler.toml
    fi
    systemctl start widget-scheduler.service || {
        journalctl -u widget-scheduler --no-pager -n 30 >&2
        fail "systemctl start widget-scheduler failed"
    }
    export WIDGET_SCHEDULER_SOCKET=/run/widget-scheduler/control.socket
}

# reload_until_served KIND: has the service re-read its manifests (systemctl reload) and waits until it serves KIND.
reload_until_served() {
    systemctl reload widget-scheduler.service
    wait_until 10 "the $1 kind to be served" sh -c "widgetctl kinds --json | grep -q '\"$1\"'"
}

# install_provider KIND [MANIFEST-LINES]: installs the provider script read from stdin as KIND.sh in
# /etc/widget-scheduler/providers, with a manifest serving KIND (MANIFEST-LINES added, such as "timeout = 10"), and
# waits until the service serves it.
install_provider() {
    local directory=/etc/widget-scheduler/providers
    mkdir -p "$directory"
    cat > "$directory/$1.sh"
    chmod 755 "$directory/$1.sh"
    printf 'exec = "./%s.sh"\n%s\n[[widget]]\nkind = "%s"\n' "$1" "${2:-}" "$1" > "$directory/$1.toml"
    reload_until_served "$1"
}

# all_widgets_have_run: succeeds once every widget's first run has ended well (for wait_until). A widget whose
# timeline starts later shows its placeholder meanwhile.
all_widgets_have_run() {
    widgetctl list --json | python3 -c '
import json, sys
sys.exit(not all(widget["lastOutcome"] == "success" for widget in json.load(sys.stdin)))'
}

# widget_has_run ID: succeeds once widget ID's first run has ended well (for wait_until).
widget_has_run() {
    widgetctl list --json | python3 -c '
import json, sys
sys.exit(not any(w["id"] == sys.argv[1] and w["lastOutcome"] == "success" for w in json.load(sys.stdin)))' "$1"
}

# json_get EXPRESSION: evaluates a Python expression over the JSON document on stdin, bound to `d`; prints the result
# (strings bare, everything else as JSON).
json_get() {
    python3 -c '
import json, sys
d = json.load(sys.stdin)
value = eval(sys.argv[1])
print(value if isinstance(value, str) else json.dumps(value))
' "$1"
}

# Message ids, as in Sources/WidgetSchedulerRuntime/Logging/JournalMessageID.swift.
message_id() {
    sed -nE "s/^ *case $1 = \"([0-9a-f]{32})\"\$/\\1/p" Sources/WidgetSchedulerRuntime/Logging/JournalMessageID.swift
}
