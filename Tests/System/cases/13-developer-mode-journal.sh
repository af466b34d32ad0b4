# A provider looping in developer mode under the real unit: its runs reach the journal folded (a "run finished"
# entry at once, then one per state write with RUNS_FOLDED), the entries account for every run exactly once, and
# `journalctl -x` explains the field; `widgetctl budget` folds its lines alike and counts every run.
start_widget_scheduler 'developer-kinds = ["looper"]'
run_finished=$(message_id runFinished)
runs=80

step "install a provider that is due again the moment it answers, $runs times"
install_provider looper <<SCRIPT
#!/bin/sh
# Counts its runs in the unit's private /var/tmp, the one place a provider may write; an entry long past with
# atEnd makes it due again at once.
while IFS= read -r line || [ -n "\$line" ]; do :; done
count=\$(cat /var/tmp/looper-runs 2> /dev/null || echo 0)
count=\$((count + 1))
echo "\$count" > /var/tmp/looper-runs
policy=atEnd
[ "\$count" -lt $runs ] || policy=never
echo '{"entries":[{"date":"2000-01-01T00:00:00Z","content":{}}],"policy":"'\$policy'"}'
SCRIPT

step "the entries count every run once, fewer entries than runs"
id=$(widgetctl add --kind looper) || fail "widgetctl add --kind looper"
# Entries and the runs each stands for (1 + RUNS_FOLDED), summed.
journal_runs() {
    journalctl --sync
    journalctl --no-pager -o json -u widget-scheduler MESSAGE_ID="$run_finished" WIDGET_ID="$id" | python3 -c '
import json, sys
entries = [json.loads(line) for line in sys.stdin]
print(len(entries), sum(1 + int(entry.get("RUNS_FOLDED", 0)) for entry in entries))
'
}
# The provider's counter is out of the test's sight (PrivateTmp): the last run answers `never`, so the widget stops
# at exactly $runs runs, and the entries must add up to that, never more.
all_runs_told() { [ "$(journal_runs | cut -d' ' -f2)" -ge "$runs" ]; }
wait_until 30 "$runs runs, each told by an entry" all_runs_told
sleep 0.5
read -r entries told <<< "$(journal_runs)"
report "$runs runs, $entries \"run finished\" entries"
expect_eq "$told" "$runs" "the runs the entries stand for"
[ "$entries" -lt "$runs" ] || fail "$entries entries for $runs runs: nothing was folded"
expect_eq "$(journal_field POLICY -u widget-scheduler MESSAGE_ID="$run_finished" WIDGET_ID="$id" | tail -n 1)" never \
    "the last entry is the last run's"

step "widgetctl budget lists as many lines as the journal and counts every run"
ledger=$(widgetctl budget "$id" --json) || fail "widgetctl budget $id --json"
read -r lines counted total <<< "$(python3 -c '
import json, sys
ledger = json.load(sys.stdin)[0]
runs = ledger["runs"]
print(len(runs), sum(run.get("count", 1) for run in runs), ledger["budgetedRuns24h"] + ledger["exemptRuns24h"])
' <<< "$ledger")"
report "budget: $lines lines for $counted runs"
expect_eq "$lines" "$entries" "the ledger's lines"
expect_eq "$counted" "$runs" "the runs the ledger's lines stand for"
expect_eq "$total" "$runs" "the ledger's last-24h runs"

step "journalctl -x explains RUNS_FOLDED"
explained=$(journalctl --no-pager -x -u widget-scheduler MESSAGE_ID="$run_finished" WIDGET_ID="$id")
grep -q "RUNS_FOLDED field, when present, counts the" <<< "$explained" || fail "no catalog text in: $explained"
