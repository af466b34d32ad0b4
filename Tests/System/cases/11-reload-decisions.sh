# Reload requests through the real widgetctl against the real service: each decision in the reply and in the
# journal (WIDGET_KIND, RELOAD_REASON, DECISION, MESSAGE_ID), the floor deferring a second request, `journalctl -x`
# explaining it, and an unprivileged peer refused.
start_widget_scheduler
run_finished=$(message_id runFinished)
decided=$(message_id requestDecided)

step "the initial run of a new widget is in the journal"
id=$(widgetctl add --kind system) || fail "widgetctl add --kind system"
initial_run_succeeded() {
    [ "$(widgetctl list --json | json_get "[w['lastOutcome'] for w in d if w['id'] == '$id'][0]")" = success ]
}
wait_until 10 "the initial run to succeed" initial_run_succeeded
expect_eq "$(journal_field RELOAD_REASON -u widget-scheduler MESSAGE_ID="$run_finished" WIDGET_ID="$id")" initial \
    "RELOAD_REASON of the initial run"
expect_eq "$(journal_field WIDGET_KIND -u widget-scheduler MESSAGE_ID="$run_finished" WIDGET_ID="$id")" system \
    "WIDGET_KIND of the initial run"

step "a reload inside the default floor is deferred, in the reply and in the journal"
reply=$(widgetctl reload --kind system --json) || fail "widgetctl reload --kind system --json"
expect_eq "$(json_get "d['decisions'][0]['decision']" <<< "$reply")" deferred "decision in the reply"
expect_eq "$(json_get "d['decisions'][0]['widget']" <<< "$reply")" "$id" "widget in the reply"
expect_eq "$(json_get "d['decisions'][0]['because']" <<< "$reply")" floor "because in the reply"
expect_eq "$(journal_field DECISION -u widget-scheduler MESSAGE_ID="$decided" WIDGET_KIND=system | tail -n 1)" \
    deferred "DECISION in the journal"
expect_eq "$(journal_field BECAUSE -u widget-scheduler MESSAGE_ID="$decided" WIDGET_KIND=system | tail -n 1)" \
    floor "BECAUSE in the journal"

step "the human form says it plainly (a fresh widget, so its first request meets the floor)"
other=$(widgetctl add --kind system) || fail "widgetctl add --kind system"
# After its initial run: a request while that run is in flight joins the run the floor allows next, and is told
# "coalesced into the run at ...", as it should be.
other_ran() {
    [ "$(widgetctl list --json | json_get "[w['lastOutcome'] for w in d if w['id'] == '$other'][0]")" = success ]
}
wait_until 10 "the second widget's initial run to succeed" other_ran
human=$(widgetctl reload "$other") || fail "widgetctl reload $other"
expect_match "$human" "^$other: deferred until [0-9]{2}:[0-9]{2}:[0-9]{2} \\(minimum interval\\)" "the human form"

step "journalctl -x explains the decision from the catalog"
explained=$(journalctl --no-pager -x -u widget-scheduler MESSAGE_ID="$decided")
grep -q "Subject: Widget $id: reload deferred" <<< "$explained" || fail "no catalog subject in: $explained"
grep -q "A reload request for widget $id (system) was decided: deferred." <<< "$explained" ||
    fail "no catalog text in: $explained"

step "with a 3 s floor (config re-read on reload) the deferred run moves up, a request runs, a second is deferred"
# 3 s, not less: the second request must come inside the floor the first one's run starts, after two widgetctl calls
# on a machine that may be busy compiling.
printf 'minimum-interval = 3\n' > /etc/widget-scheduler/widget-scheduler.toml
systemctl reload widget-scheduler.service
# The run deferred above (due 300 s after the initial run) is now due 3 s after it, so it runs within 3 s.
explicit_runs_at_least() {
    journalctl --sync
    [ "$(journalctl -u widget-scheduler MESSAGE_ID="$run_finished" WIDGET_ID="$id" RELOAD_REASON=explicit -o cat |
        wc -l)" -ge "$1" ]
}
wait_until 10 "the deferred run to run under the new floor" explicit_runs_at_least 1
sleep 3.2
reply=$(widgetctl reload "$id" --json) || fail "widgetctl reload after the floor"
expect_eq "$(json_get "d['decisions'][0]['decision']" <<< "$reply")" ran "decision after the floor passed"
reply=$(widgetctl reload "$id" --json) || fail "widgetctl reload inside the floor"
expect_eq "$(json_get "d['decisions'][0]['decision']" <<< "$reply")" deferred "decision inside the 3 s floor"
wait_until 10 "the requested run in the journal" explicit_runs_at_least 2

step "read methods are open to any user; Reload is refused to nobody, and the refusal is logged"
setpriv --reuid=nobody --regid=nogroup --clear-groups widgetctl list > /dev/null || fail "list as nobody"
set +e
setpriv --reuid=nobody --regid=nogroup --clear-groups widgetctl reload --kind system 2> /tmp/refused.txt
status=$?
set -e
expect_eq "$status" 4 "widgetctl's exit status when refused"
[ -s /tmp/refused.txt ] || fail "no reason printed on refusal"
wait_until 5 "the refusal in the journal" sh -c \
    "journalctl --sync; journalctl -u widget-scheduler MESSAGE_ID=$(message_id requestRefused) -o cat | grep -q ."
