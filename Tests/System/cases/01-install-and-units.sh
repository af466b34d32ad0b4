# The install step on a live systemd, and the static quality of what it installs: units that verify silently, the
# service's security exposure, the system user, the control socket, and the journal catalog as `journalctl -x`
# shows it. The service itself is not started here.
step "install with PREFIX=/usr/local"
install_build
test -x /usr/local/bin/widget-scheduler || fail "widget-scheduler not installed"
test -f /usr/local/lib/systemd/system/widget-scheduler.service || fail "system unit not installed"
test -f /usr/local/lib/systemd/user/widget-scheduler.socket || fail "user socket unit not installed"
ls /usr/local/share/widget-scheduler/providers/*.toml > /dev/null || fail "no example manifest installed"
for manifest in /usr/local/share/widget-scheduler/providers/*.toml; do
    program=$(sed -nE 's/^[[:space:]]*exec[[:space:]]*=[[:space:]]*\[?[[:space:]]*"([^"]+)".*/\1/p' "$manifest")
    expect_match "$program" "^/usr/local/lib/widget-providers/" "exec of $manifest"
    test -f "$program" || fail "$manifest names $program, which was not installed"
done

step "systemd sees the units; systemd-analyze verify prints nothing"
expect_eq "$(unit_property widget-scheduler.service LoadState)" loaded "LoadState of the service"
expect_eq "$(unit_property widget-scheduler.socket LoadState)" loaded "LoadState of the socket"
output=$(cd /usr/local/lib/systemd/system &&
    systemd-analyze verify widget-scheduler.service widget-scheduler.socket 2>&1)
expect_eq "$output" "" "systemd-analyze verify of the system units"
mkdir -p /run/user/0
output=$(cd /usr/local/lib/systemd/user &&
    XDG_RUNTIME_DIR=/run/user/0 systemd-analyze verify --user widget-scheduler.service widget-scheduler.socket 2>&1)
expect_eq "$output" "" "systemd-analyze verify --user of the user units"

step "security exposure of widget-scheduler.service"
exposure=$(systemd-analyze security --no-pager widget-scheduler.service |
    sed -nE 's/.*Overall exposure level for [^:]*: ([0-9.]+).*/\1/p')
report "systemd-analyze security widget-scheduler.service: exposure $exposure"
[ -n "$exposure" ] || fail "no exposure level in systemd-analyze security output"
awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }' || fail "exposure $exposure is above 2.0"

step "the system user and group exist (sysusers.d)"
getent passwd widget-scheduler > /dev/null || fail "no user widget-scheduler"
getent group widget-scheduler > /dev/null || fail "no group widget-scheduler"

step "the socket unit creates a world-connectable control socket"
systemctl start widget-scheduler.socket
expect_eq "$(stat -c %A /run/widget-scheduler/control.socket)" srw-rw-rw- "mode of the control socket"
expect_eq "$(unit_property widget-scheduler.service ActiveState)" inactive "the service before the first connection"
systemctl stop widget-scheduler.socket

step "every MESSAGE_ID of the daemon has a catalog entry"
listed=$(journalctl --list-catalog)
ids=$(sed -nE 's/^ *case [a-zA-Z]+ = "([0-9a-f]{32})"$/\1/p' \
    Sources/WidgetSchedulerRuntime/Logging/JournalMessageID.swift)
[ "$(wc -w <<< "$ids")" -ge 9 ] || fail "could not read the MESSAGE_IDs from JournalMessageID.swift"
for id in $ids; do
    grep -q "^$id widget-scheduler: " <<< "$listed" || fail "MESSAGE_ID $id has no catalog entry"
done

step "journalctl -x explains an entry with its fields substituted"
failed_id=$(grep -E '^ *case runFailed = ' Sources/WidgetSchedulerRuntime/Logging/JournalMessageID.swift |
    sed -E 's/.*"(.*)"/\1/')
logger --journald << FIELDS
MESSAGE_ID=$failed_id
MESSAGE=provider run failed
SYSLOG_IDENTIFIER=catalog-check
WIDGET_ID=w3
WIDGET_KIND=weather
PROVIDER_PID=4711
FAILURE_REASON=exit status 2
EXIT_STATUS=exited with status 2
DURATION_USEC=1500
FIELDS
journalctl --sync
explained=$(journalctl --no-pager -x SYSLOG_IDENTIFIER=catalog-check)
grep -q "Subject: Widget w3 (weather): provider run failed" <<< "$explained" ||
    fail "journalctl -x lacks the substituted subject: $explained"
grep -q "The provider run for widget w3 (process 4711) failed after" <<< "$explained" ||
    fail "journalctl -x lacks the substituted text: $explained"
grep -q "1500 microseconds: exit status 2." <<< "$explained" ||
    fail "journalctl -x lacks the substituted text: $explained"
