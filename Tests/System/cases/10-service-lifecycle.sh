# widget-scheduler as systemd runs it: start (READY, STATUS, the journal), its user, socket activation from a stopped
# service, `systemctl reload` re-reading manifests, a SIGKILL with state intact and budget not refunded, a watchdog
# restart of a wedged loop, and a clean, fast stop.
start_widget_scheduler

step "systemctl start: active, READY=1 reached, STATUS= set, started logged"
expect_eq "$(systemctl is-active widget-scheduler.service)" active "is-active"
expect_eq "$(unit_property widget-scheduler.service SubState)" running "SubState (Type=notify: after READY=1)"
expect_match "$(unit_property widget-scheduler.service StatusText)" "^[0-9]+ widgets?, [0-9]+ running" "StatusText"
expect_eq "$(journal_field MESSAGE_ID -u widget-scheduler MESSAGE_ID="$(message_id started)")" \
    "$(message_id started)" "the started entry"
main_pid=$(unit_property widget-scheduler.service MainPID)
expect_eq "$(ps -o user= -p "$main_pid")" widget-scheduler "the daemon's user"

step "under the unit's system call filter the event loop gets its 0.1 ms scheduling slice, and resets it on fork"
journalctl --sync
journalctl -u widget-scheduler --no-pager -o cat | grep -q "ask for a 0.1 ms scheduling slice" ||
    fail "the daemon did not ask for its slice: $(journalctl -u widget-scheduler -o cat | grep -i 'slice\|policy')"
expect_match "$(chrt -p "$main_pid")" "SCHED_OTHER[|]SCHED_RESET_ON_FORK" "the event loop's policy"
# The scheduler's debug file shows the slice where the kernel has one (6.12 and later) and debug files at all.
slice=$(sed -n 's/^se\.slice[[:space:]]*:[[:space:]]*//p' "/proc/$main_pid/sched" 2> /dev/null)
if [ -n "$slice" ]; then expect_eq "$slice" 100000 "the event loop's slice (ns)"; fi

step "SIGCHLD is blocked in the event loop, so a provider's exit does not signal it"
blocked=$(sed -n 's/^SigBlk:[[:space:]]*//p' "/proc/$main_pid/status")
# Signal n is bit n - 1; SIGCHLD is 17.
(( (16#$blocked >> 16) & 1 )) || fail "SIGCHLD is not blocked in the event loop: SigBlk $blocked"

step "widgets survive a SIGKILL; the service restarts and the budget is not refunded"
first=$(widgetctl add --kind system) || fail "widgetctl add --kind system"
second=$(widgetctl add --kind trivial) || fail "widgetctl add --kind trivial"
tokens_before=$(widgetctl list --json | json_get "[w['tokens'] for w in d if w['id'] == '$first'][0]")
systemctl kill -s KILL widget-scheduler.service
wait_until 10 "a restart after SIGKILL" unit_property_is widget-scheduler.service NRestarts 1
wait_until 10 "the restarted service to be active" unit_property_is widget-scheduler.service SubState running
[ "$(unit_property widget-scheduler.service MainPID)" != "$main_pid" ] || fail "MainPID did not change"
expected_ids=$(printf '["%s", "%s"]' "$first" "$second")
expect_eq "$(widgetctl list --json | json_get "sorted(w['id'] for w in d)")" "$expected_ids" "widgets after the restart"
tokens_after=$(widgetctl list --json | json_get "[w['tokens'] for w in d if w['id'] == '$first'][0]")
# The bucket refills continuously, so allow what a few seconds can add back, not a refunded run.
awk -v before="$tokens_before" -v after="$tokens_after" 'BEGIN { exit !(after < before + 0.5) }' ||
    fail "tokens went from $tokens_before to $tokens_after across the restart: budget refunded"

step "socket activation: a stopped service starts on the first widgetctl call"
systemctl stop widget-scheduler.service
expect_eq "$(unit_property widget-scheduler.service ActiveState)" inactive "ActiveState after stop"
expect_eq "$(unit_property widget-scheduler.socket ActiveState)" active "the socket stays listening"
widgetctl list > /dev/null || fail "widgetctl list through socket activation"
wait_until 10 "activation" unit_property_is widget-scheduler.service SubState running

step "systemctl reload re-reads the manifests without a restart"
main_pid=$(unit_property widget-scheduler.service MainPID)
widgetctl kinds --json | grep -q '"reloadcheck"' && fail "kind reloadcheck exists before it was installed"
mkdir -p /etc/widget-scheduler/providers
sed -e 's/^kind = "trivial"/kind = "reloadcheck"/' /usr/local/share/widget-scheduler/providers/trivial.toml \
    > /etc/widget-scheduler/providers/reloadcheck.toml
grep -q '^kind = "reloadcheck"' /etc/widget-scheduler/providers/reloadcheck.toml ||
    fail "could not derive a test manifest from trivial.toml"
reload_until_served reloadcheck
expect_eq "$(unit_property widget-scheduler.service MainPID)" "$main_pid" "MainPID across the reload"
expect_eq "$(journal_field MESSAGE_ID -u widget-scheduler MESSAGE_ID="$(message_id reloaded)" | tail -n 1)" \
    "$(message_id reloaded)" "the reloaded entry"
expect_eq "$(widgetctl list --json | json_get "len(d)")" 2 "widgets kept across the reload"

step "a wedged loop misses its watchdog pings and is restarted"
mkdir -p /etc/systemd/system/widget-scheduler.service.d
cat > /etc/systemd/system/widget-scheduler.service.d/test-faults.conf << 'UNIT'
[Service]
Environment=WIDGET_SCHEDULER_TEST_FAULTS=1
WatchdogSec=2s
UNIT
systemctl daemon-reload
systemctl restart widget-scheduler.service
main_pid=$(unit_property widget-scheduler.service MainPID)
restarts=$(unit_property widget-scheduler.service NRestarts)
sleep 3 # longer than WatchdogSec: sd-event's own pings keep it alive
expect_eq "$(unit_property widget-scheduler.service MainPID)" "$main_pid" "MainPID while the loop runs"
systemctl kill -s USR1 --kill-who=main widget-scheduler.service
wait_until 15 "a watchdog restart" unit_property_is widget-scheduler.service NRestarts $((restarts + 1))
wait_until 10 "the service to be back" unit_property_is widget-scheduler.service SubState running
# PID 1 writes to journald asynchronously, so its line may land after the restart is visible in NRestarts.
watchdog_timeout_logged() {
    journalctl --sync
    journalctl -u widget-scheduler --no-pager | grep -q "Watchdog timeout"
}
wait_until 10 "systemd to log the watchdog timeout" watchdog_timeout_logged
expect_eq "$(widgetctl list --json | json_get "len(d)")" 2 "widgets after the watchdog restart"

step "systemctl stop is clean and fast"
started=$(date +%s%N)
systemctl stop widget-scheduler.service
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
report "systemctl stop widget-scheduler took $elapsed_ms ms"
[ "$elapsed_ms" -lt 5000 ] || fail "systemctl stop took $elapsed_ms ms"
expect_eq "$(unit_property widget-scheduler.service Result)" success "Result after stop"
expect_eq "$(unit_property widget-scheduler.service ExecMainStatus)" 0 "exit status after stop"
expect_eq "$(journal_field MESSAGE_ID -u widget-scheduler MESSAGE_ID="$(message_id stopping)" | tail -n 1)" \
    "$(message_id stopping)" "the stopping entry"
