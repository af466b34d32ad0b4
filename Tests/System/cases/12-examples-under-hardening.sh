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
# Every example kind ships a view for each of its families (docs/views.md), installed beside its provider: each widget
# is drawn by `widgetctl show` in every family from the installed view files, with no field missing (a missing field
# or a kind without views is said on standard error).
widgetctl kinds --json > /tmp/kinds.json
for widget in $(json_get "' '.join(w['id'] + ':' + w['kind'] for w in d)" < /tmp/list.json); do
    id=${widget%%:*} kind=${widget#*:}
    families=$(json_get "' '.join([k['families'] for k in d if k['kind'] == '$kind'][0])" < /tmp/kinds.json)
    for family in $families; do
        widgetctl show "$id" --family "$family" > /tmp/show.txt 2> /tmp/show.err \
            || fail "widgetctl show $id --family $family ($kind): $(cat /tmp/show.err)"
        [ ! -s /tmp/show.err ] || fail "widgetctl show $id --family $family ($kind) said: $(cat /tmp/show.err)"
        [ -s /tmp/show.txt ] || fail "widgetctl show $id --family $family ($kind) drew nothing"
    done
done
