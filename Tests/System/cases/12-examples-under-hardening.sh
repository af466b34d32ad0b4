# The hardened unit does not break the example providers: every installed kind gets a widget whose initial run
# succeeds, and the system example still reads /proc.
start_widget_scheduler
kinds=$(widgetctl kinds --json | json_get "' '.join(sorted(k['kind'] for k in d))")
[ -n "$kinds" ] || fail "no kinds installed"
echo "    kinds: $kinds" >&2
for kind in $kinds; do
    widgetctl add --kind "$kind" > /dev/null || fail "widgetctl add --kind $kind"
done
count=$(wc -w <<< "$kinds")
wait_until 30 "every initial run to end" sh -c "widgetctl list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if len(d) == $count and all(w[\"lastOutcome\"] for w in d) else 1)'"
widgetctl list --json > /tmp/list.json
failed=$(json_get "' '.join(w['kind'] + ':' + str(w['lastOutcome']) for w in d if w['lastOutcome'] != 'success')" \
    < /tmp/list.json)
if [ -n "$failed" ]; then
    journalctl -u widget-scheduler --no-pager -n 40 >&2
    fail "runs failed under the hardened unit: $failed"
fi
load=$(json_get "[w['currentEntry']['content'].get('load1') for w in d if w['kind'] == 'system'][0]" < /tmp/list.json)
[ "$load" != null ] || fail "the system example could not read /proc/loadavg"
