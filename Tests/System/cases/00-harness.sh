# Proves the harness and the libsystemd layer under a real systemd, with systemdkit-probe (Tests/System/Probe), a
# Type=notify service built on SystemdKit: socket activation with a named descriptor, READY=1 and STATUS=, journal
# fields read back with `journalctl -o json`, sd-event's own watchdog pings, SIGHUP reload, watchdog kill of a wedged
# loop, a clean SIGTERM stop, and an idle loop that never wakes.
need_program systemdkit-probe
install -m 0755 "$BUILD_DIR/systemdkit-probe" /usr/local/bin/systemdkit-probe
probe_message_id=a8b46379193343349ec6002bb1660b6e

cat > /etc/systemd/system/probe.socket << 'UNIT'
[Socket]
ListenStream=/run/probe.socket
FileDescriptorName=harness
UNIT
cat > /etc/systemd/system/probe.service << 'UNIT'
[Service]
Type=notify
ExecStart=/usr/local/bin/systemdkit-probe --wedge-on-usr1
ExecReload=/bin/kill -HUP $MAINPID
WatchdogSec=1s
# As in widget-scheduler.service: without this, Swift's backtracer swallows the watchdog's SIGABRT.
Environment=SWIFT_BACKTRACE=enable=no
TimeoutAbortSec=5s
Restart=no
UNIT
systemctl daemon-reload

step "socket activation starts the service and passes the named socket"
systemctl start probe.socket
expect_eq "$(unit_property probe.service ActiveState)" inactive "probe.service before the first connection"
reply=$(python3 -c '
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect("/run/probe.socket")
print(s.makefile().readline().strip())
')
expect_eq "$reply" "probe harness" "reply over the activated socket"
wait_until 5 "probe.service active" unit_property_is probe.service ActiveState active

step "READY=1 and STATUS= reach the manager"
expect_eq "$(unit_property probe.service SubState)" running "SubState"
expect_eq "$(unit_property probe.service StatusText)" "probe ready, 1 listening sockets, watchdog on" "StatusText"

step "journal fields from sd_journal_sendv"
expect_eq "$(journal_field PROBE_KIND -u probe.service MESSAGE_ID=$probe_message_id)" harness "PROBE_KIND"
expect_eq "$(journal_field LISTEN_FDS -u probe.service MESSAGE_ID=$probe_message_id)" 1 "LISTEN_FDS"
expect_eq "$(journal_field WATCHDOG_USEC -u probe.service MESSAGE_ID=$probe_message_id)" 1000000 "WATCHDOG_USEC"
expect_eq "$(journal_field PRIORITY -u probe.service MESSAGE_ID=$probe_message_id)" 5 "PRIORITY of a notice"
expect_eq "$(journal_field SYSLOG_IDENTIFIER -u probe.service MESSAGE_ID=$probe_message_id)" systemdkit-probe \
    "SYSLOG_IDENTIFIER"
expect_match "$(journal_field CODE_FILE -u probe.service MESSAGE_ID=$probe_message_id)" "main\.swift$" "CODE_FILE"
expect_eq "$(journal_field MESSAGE -u probe.service MESSAGE_ID=$probe_message_id)" "probe started" "MESSAGE"
expect_eq "$(journal_field PROBE_KIND -u probe.service PROBE_KIND=harness | wc -l)" 1 "entries matched by field"

step "sd-event pings the watchdog by itself: alive after 3 watchdog periods"
sleep 3
expect_eq "$(unit_property probe.service ActiveState)" active "ActiveState after 3 s with WatchdogSec=1s"
expect_eq "$(unit_property probe.service Result)" success "Result"

step "systemctl reload delivers SIGHUP; RELOADING=1 then READY=1 with a new STATUS="
systemctl reload probe.service
wait_until 5 "the reloaded status" unit_property_is probe.service StatusText "reloaded 1 times"
expect_eq "$(journal_field RELOAD_COUNT -u probe.service)" 1 "RELOAD_COUNT"

step "a wedged loop stops pinging, and the watchdog kills it"
systemctl kill -s USR1 probe.service
wait_until 10 "Result=watchdog" unit_property_is probe.service Result watchdog
wait_until 3 "the wedged probe to die of SIGABRT" unit_property_is probe.service ActiveState failed
expect_eq "$(unit_property probe.service ExecMainStatus)" 6 "the signal that ended the wedged probe"

step "SIGTERM: STOPPING=1 and a clean exit 0"
systemctl reset-failed probe.service
systemctl start probe.service
expect_eq "$(unit_property probe.service StatusText)" "probe ready, 1 listening sockets, watchdog on" \
    "StatusText after restart (the socket is passed again)"
systemctl stop probe.service
expect_eq "$(unit_property probe.service Result)" success "Result after stop"
expect_eq "$(unit_property probe.service ExecMainStatus)" 0 "exit status after stop"
expect_eq "$(journal_field SIGNAL -u probe.service MESSAGE=stopping | tail -n 1)" SIGTERM "SIGNAL of the stop entry"

step "with nothing due the loop does not wake at all (no watchdog, no timers: context switches stay put)"
systemd-run --unit=probe-idle --service-type=notify --property=Environment=SWIFT_BACKTRACE=enable=no \
    /usr/local/bin/systemdkit-probe
pid=$(unit_property probe-idle.service MainPID)
[ "$pid" -gt 0 ] || fail "probe-idle has no main pid"
switches() { cat /proc/"$pid"/task/*/status | awk '/ctxt_switches/ { total += $2 } END { print total }'; }
sleep 0.5
before=$(switches)
sleep 2
after=$(switches)
expect_eq "$after" "$before" "context switches of the idle probe over 2 s"
systemctl stop probe-idle.service
