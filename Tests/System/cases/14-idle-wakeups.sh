# Issue 7's P3 under the real unit: with widgets configured and nothing due, no thread of the daemon runs, save for
# sd-event's watchdog pings (WatchdogSec=30s: the next ping 15-22.5 s after the last, so at most one in the window).
# The benchmark suite measures the same at 10 000 widgets without a watchdog; this pins it where the daemon really
# runs: the hardened unit, the journal, socket activation and the watchdog.
start_widget_scheduler
widgets=40
window=8

step "install a provider with an entry an hour ahead and policy never, and add $widgets widgets of it"
install_provider quiet <<'SCRIPT'
#!/bin/sh
while IFS= read -r line || [ -n "$line" ]; do :; done
later=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)
echo '{"entries":[{"date":"2000-01-01T00:00:00Z","content":{"n":0}},'
echo '{"date":"'"$later"'","content":{"n":1}}],"policy":"never"}'
SCRIPT
for _ in $(seq "$widgets"); do widgetctl add --kind quiet > /dev/null || fail "widgetctl add --kind quiet"; done
all_initial_runs_succeeded() {
    local succeeded="sum(1 for w in d if w['kind'] == 'quiet' and w['lastOutcome'] == 'success')"
    [ "$(widgetctl list --json | json_get "$succeeded")" = "$widgets" ]
}
wait_until 30 "the $widgets initial runs to succeed" all_initial_runs_succeeded

step "nothing is due: no widget has a planned reload"
expect_eq "$(widgetctl list --json | json_get "sum(1 for w in d if w['nextReload'] is not None)")" 0 \
    "widgets with a planned reload"

step "over ${window} s the daemon's threads do not run, save for a watchdog ping"
main_pid=$(unit_property widget-scheduler.service MainPID)
# Voluntary and involuntary switches of every thread: each time one of them ran and stopped again.
switches() { cat /proc/"$main_pid"/task/*/status | awk '/ctxt_switches/ { total += $2 } END { print total }'; }
# The last turn's state write and the replies to the calls above are done once the count holds still for a second.
settled() {
    local before
    before=$(switches)
    sleep 1
    [ "$(switches)" = "$before" ]
}
wait_until 15 "the daemon to settle" settled
pinged_before=$(unit_property widget-scheduler.service WatchdogTimestampMonotonic)
before=$(switches)
sleep "$window"
after=$(switches)
pinged_after=$(unit_property widget-scheduler.service WatchdogTimestampMonotonic)
pings=0
[ "$pinged_after" = "$pinged_before" ] || pings=1
report "$((after - before)) context switches in ${window} s idle with $widgets widgets, $pings watchdog ping(s)"
[ $((after - before)) -le "$pings" ] ||
    fail "the idle daemon woke $((after - before)) times in ${window} s with $pings watchdog ping(s)"
