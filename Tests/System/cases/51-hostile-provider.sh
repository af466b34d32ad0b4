# R7 under the real unit (the rest of R7 is Tests/ReliabilityTests/ContainmentTests.swift): a provider, which runs as
# the service's user, tries to steer the daemon through its control socket, to kill it every way its uid allows, and
# to leave processes behind; the service's cgroup is delegated, so runs have cgroups of their own. Then the same with
# the seccomp fallback for signals, and without delegation (the subreaper's path). Last, the daemon killed three times
# with one widget's run in flight quarantines that widget before systemd gives up on the service.
start_widget_scheduler "minimum-interval = 0"
# On a failure, what the daemon said last.
trap 'status=$?; [ "$status" = 0 ] || journalctl -u widget-scheduler --no-pager -o cat | tail -25 | sed "s/^/    journal: /" >&2' EXIT
main_pid=$(unit_property widget-scheduler.service MainPID)
restarts=$(unit_property widget-scheduler.service NRestarts)
member() { widgetctl list --json | json_get "[w['$2'] for w in d if w['id'] == '$1'][0]"; }
outcome() { widgetctl list --json | json_get "[w['lastOutcome'] for w in d if w['id'] == '$1'][0]"; }
content() { widgetctl list --json | json_get "[w['currentEntry']['content'] for w in d if w['id'] == '$1'][0]"; }
field() { json_get "d['$2']" <<< "$1"; }
succeeded() { [ "$(outcome "$1")" = success ]; }
journal_has() { journalctl --sync; journalctl -u widget-scheduler --no-pager -o cat | grep -q "$1"; }
service_is_well() {
    expect_eq "$(unit_property widget-scheduler.service MainPID)" "$main_pid" "the daemon's pid ($1)"
    expect_eq "$(unit_property widget-scheduler.service NRestarts)" "$restarts" "restarts ($1)"
    started=$(date +%s%N)
    widgetctl status > /dev/null || fail "root's widgetctl status ($1)"
    status_ms=$((($(date +%s%N) - started) / 1000000))
    [ "$status_ms" -lt 5000 ] || fail "root's status took $status_ms ms ($1)"
    rss_kib=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$main_pid/status")
    [ "$rss_kib" -lt 204800 ] || fail "the daemon's RSS is $rss_kib KiB ($1)"
}

step "the service's cgroup is delegated: runs get cgroups of their own"
journal_has "every run gets a cgroup of its own below /sys/fs/cgroup/system.slice/widget-scheduler.service/runs" ||
    fail "no run cgroups: $(journalctl -u widget-scheduler -o cat | grep -i cgroup)"
expect_eq "$(sed -n 's/^0:://p' "/proc/$main_pid/cgroup")" /system.slice/widget-scheduler.service/supervisor \
    "the daemon's cgroup"

step "a victim widget"
install_provider victim <<'SCRIPT'
#!/bin/sh
echo '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{}}],"policy":"never"}'
SCRIPT
victim=$(widgetctl add --kind victim) || fail "widgetctl add --kind victim"
wait_until 15 "the victim's run" succeeded "$victim"
victim_reload=$(widgetctl list --json | json_get "[w['lastReload'] for w in d if w['id'] == '$victim'][0]")

step "a provider calls the control socket as the service's user: every call is refused"
install_provider steer "timeout = 20" <<SCRIPT
#!/bin/sh
try() {
    if out=\$(widgetctl "\$@" 2>&1); then echo ok
    elif printf '%s' "\$out" | grep -q 'provider run have no control rights'; then echo refused
    else echo "failed: \$(printf '%s' "\$out" | head -c 100 | tr -dc 'A-Za-z0-9 .:,()_-')"; fi
}
printf '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{"dataSet":"%s","remove":"%s","reloadAll":"%s","list":"%s","uid":"%s"}}],"policy":"never"}\n' \
    "\$(try data set g k v)" "\$(try remove $victim)" "\$(try reload --all --foreground)" "\$(try list)" "\$(id -u)"
SCRIPT
steer=$(widgetctl add --kind steer) || fail "widgetctl add --kind steer"
wait_until 30 "the steering provider's run" succeeded "$steer"
report=$(content "$steer")
echo "    what the provider's calls got: $report" >&2
for call in dataSet remove reloadAll list; do expect_eq "$(field "$report" $call)" refused "the provider's $call"; done
expect_eq "$(field "$report" uid)" "$(id -u widget-scheduler)" "the provider's uid (the daemon's)"
expect_eq "$(widgetctl list --json | json_get "sorted(w['id'] for w in d)")" \
    "$(printf '["%s", "%s"]' "$victim" "$steer")" "the widgets (nothing removed)"
expect_eq "$(widgetctl list --json | json_get "[w['lastReload'] for w in d if w['id'] == '$victim'][0]")" \
    "$victim_reload" "the victim's last reload (not run again)"
journal_has "refused Reload from pid .* (a provider run's)" || fail "the refusal is not logged"
service_is_well "after the socket attempts"

killer_script='#!/usr/bin/python3
import ctypes, errno, os, platform, signal
libc = ctypes.CDLL(None, use_errno=True)
tgkill = {"x86_64": 234, "aarch64": 131}[platform.machine()]
daemon = os.getppid()
outcomes = {"sent": 0, "denied": 0, "missing": 0, "unsupported": 0, "other": 0}
def attempt(call):
    try:
        call()
        outcomes["sent"] += 1
    except PermissionError:
        outcomes["denied"] += 1
    except ProcessLookupError:
        outcomes["missing"] += 1
    except OSError as error:
        outcomes["unsupported" if error.errno == errno.ENOSYS else "other"] += 1
def raw_tgkill(tid):
    if libc.syscall(tgkill, daemon, tid, 9) < 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))
# The threads of the daemon, or where /proc hides them (ProtectProc=invisible shows a process only to those who may
# ptrace it, which Landlock refuses outside the run), the pids just after the daemon pid.
try:
    threads = [int(t) for t in os.listdir("/proc/%d/task" % daemon)]
    hidden = False
except OSError:
    threads = [pid for pid in range(daemon, daemon + 64) if pid != os.getpid()]
    hidden = True
attempt(lambda: os.kill(daemon, 9))
attempt(lambda: os.kill(-daemon, 9))
for tid in threads:
    attempt(lambda: os.kill(tid, 9))
    attempt(lambda: raw_tgkill(tid))
attempt(lambda: signal.pidfd_send_signal(os.pidfd_open(daemon), 9))
# Every process the service user may signal, the daemon among them, this provider spared. kill(-1) says 0 even when
# every target refused it, so only the daemon being alive afterwards tells.
try:
    os.kill(-1, 9)
except OSError:
    pass
fields = ",".join("\"%s\":%d" % item for item in outcomes.items())
print("{\"entries\":[{\"date\":\"2026-01-01T00:00:00Z\",\"content\":{%s,\"procHidden\":%s}}],\"policy\":\"never\"}"
      % (fields, "true" if hidden else "false"))'

# check_killer ID WHAT: the killer's run succeeded, every attempt was refused, and the daemon is the same.
check_killer() {
    wait_until 30 "the killer's run ($2)" succeeded "$1"
    local report
    report=$(content "$1")
    echo "    what the killer's signals got ($2): $report" >&2
    json_get "d['sent'] == 0 and d['other'] == 0 and d['denied'] >= 3" <<< "$report" | grep -qx true ||
        fail "a signal got through ($2): $report"
    attempts="$(json_get "d['denied'] + d['unsupported']" <<< "$report") refused ($(json_get "d['missing']" \
        <<< "$report") aimed at pids with no process)"
}

step "a provider signals the daemon every way the service's user may, with SIGKILL: every attempt is refused"
printf '%s\n' "$killer_script" | install_provider killer "timeout = 20"
journal_has "signals and abstract sockets scoped to each run by Landlock" ||
    fail "no Landlock signal scope: $(journalctl -u widget-scheduler -o cat | grep beneath)"
killer=$(widgetctl add --kind killer) || fail "widgetctl add --kind killer"
check_killer "$killer" "Landlock"
landlock_attempts=$attempts
service_is_well "after the killer, Landlock"

escape_script='#!/bin/sh
setsid sleep 300 < /dev/null > /dev/null 2>&1 &
a=$!
b=$( (sleep 301 < /dev/null > /dev/null 2>&1 & echo $!) )
printf "{\"entries\":[{\"date\":\"2026-01-01T00:00:00Z\",\"content\":{\"pids\":\"%s %s\"}}],\"policy\":\"never\"}\n" "$a" "$b"'

# check_escapees ID LIMITS WHAT: the escapees the run reported are gone, and its run line said LIMITS.
check_escapees() {
    wait_until 30 "the escaping provider's run ($3)" succeeded "$1"
    local pids
    pids=$(field "$(content "$1")" pids)
    for pid in $pids; do
        gone() { [ ! -d "/proc/$1" ] || grep -q '^State:[[:space:]]*Z' "/proc/$1/status"; }
        wait_until 10 "escapee $pid to be gone ($3)" gone "$pid"
    done
    expect_eq "$(journal_field LIMITS -u widget-scheduler WIDGET_ID="$1" | tail -1)" "$2" "the run's LIMITS ($3)"
    escaped=$(echo $pids | wc -w)
}

step "a provider leaves a setsid sleeper and a double-forked one: its run's cgroup is killed at its end"
printf '%s\n' "$escape_script" | install_provider escape "timeout = 20"
escape=$(widgetctl add --kind escape) || fail "widgetctl add --kind escape"
# The container offers no controllers to delegate: the cgroup kills, the caps stay per process.
check_escapees "$escape" cgroup-kill-only "cgroup"
wait_until 10 "the ended runs' cgroups to be removed" sh -c \
    '[ -z "$(find /sys/fs/cgroup/system.slice/widget-scheduler.service/runs -mindepth 1 -type d)" ]'
service_is_well "after the escapees"

# rerun ID: reloads the widget and waits until that run has ended.
rerun() {
    local before
    before=$(member "$1" lastReload)
    widgetctl reload "$1" > /dev/null || fail "widgetctl reload $1"
    reran() { [ "$(member "$1" lastReload)" != "$2" ] && [ "$(member "$1" state)" != running ]; }
    wait_until 30 "$1's new run" reran "$1" "$before"
}

step "the seccomp fallback (forced): signals still refused"
mkdir -p /etc/systemd/system/widget-scheduler.service.d
printf '[Service]\nEnvironment=WIDGET_SCHEDULER_TEST_FAULTS=1 WIDGET_SCHEDULER_TEST_SECCOMP=signals\n' \
    > /etc/systemd/system/widget-scheduler.service.d/seccomp.conf
systemctl daemon-reload
systemctl restart widget-scheduler.service
main_pid=$(unit_property widget-scheduler.service MainPID)
restarts=$(unit_property widget-scheduler.service NRestarts)
journal_has "signals confined to each provider's process group by a seccomp filter" ||
    fail "the forced seccomp fallback is not in force: $(journalctl -u widget-scheduler -o cat | grep beneath | tail -1)"
rerun "$killer"
check_killer "$killer" "seccomp"
seccomp_attempts=$attempts
service_is_well "after the killer, seccomp"

step "without a delegated cgroup (Delegate=no): the daemon, subreaper of every provider, kills the escapees"
printf '[Service]\nDelegate=no\n' > /etc/systemd/system/widget-scheduler.service.d/no-delegation.conf
systemctl daemon-reload
systemctl restart widget-scheduler.service
main_pid=$(unit_property widget-scheduler.service MainPID)
restarts=$(unit_property widget-scheduler.service NRestarts)
journal_has "runs have no cgroups of their own" || fail "runs still get cgroups without delegation"
rerun "$escape"
check_escapees "$escape" process "subreaper"
service_is_well "after the escapees, no delegation"
rm /etc/systemd/system/widget-scheduler.service.d/no-delegation.conf /etc/systemd/system/widget-scheduler.service.d/seccomp.conf
systemctl daemon-reload

step "three deaths of the daemon with one widget's run in flight quarantine it, before systemd's start limit"
install_provider doomed "timeout = 120" <<'SCRIPT'
#!/bin/sh
exec sleep 100
SCRIPT
doomed=$(widgetctl add --kind doomed) || fail "widgetctl add --kind doomed"
state_is() { [ "$(member "$doomed" state)" = "$1" ]; }
for death in 1 2 3; do
    wait_until 20 "the doomed run in flight (death $death)" state_is running
    systemctl kill -s KILL widget-scheduler.service
    wait_until 20 "restart $death" unit_property_is widget-scheduler.service NRestarts "$((restarts + death))"
    wait_until 20 "the service active again ($death)" unit_property_is widget-scheduler.service SubState running
done
wait_until 10 "the quarantine" state_is quarantined
expect_eq "$(outcome "$doomed")" daemon-died "the doomed widget's last outcome"
expect_eq "$(journal_field FAILURE_REASON -u widget-scheduler MESSAGE_ID="$(message_id quarantined)" WIDGET_ID="$doomed" | tail -1)" \
    daemon-died "the quarantine's FAILURE_REASON"
expect_eq "$(systemctl is-active widget-scheduler.service)" active "the service after three deaths"
expect_eq "$(unit_property widget-scheduler.service Result)" success "the service's result (no start-limit-hit)"
report "R7 under the unit: socket: 4 calls from a provider refused; SIGKILLs at the daemon: $landlock_attempts" \
    "with Landlock's scope, $seccomp_attempts with the seccomp fallback; escapees: $escaped a run, gone with its" \
    "cgroup and with the subreaper; 3 daemon deaths with one run in flight: quarantined (daemon-died), service active"
