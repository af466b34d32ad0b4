# An app's side under the real unit: the Swift example app (WidgetCenter) and a Python app on the SDK that
# install.sh put in the system Python talk to the system socket. A widget added after the app saved its location
# starts from it (seed 000), a write with a reload is decided, and a stranger's write and read are refused in the
# daemon's words. The photo example's app fills its album through the group, and a photo widget shows the picture:
# stored by its hash, the daemon's alone, its run's directory gone.
start_widget_scheduler
need_program weather-app
python=$(PATH=/usr/local/bin:/usr/bin:/bin command -v python3) || fail "no python3 for the providers"
app='
import sys
from widgetkit import GroupDefaults, WidgetCenter, WidgetCenterError
try:
    decisions = GroupDefaults("weather").set("location", sys.argv[1], reload_kinds=["weather"])
except WidgetCenterError as error:
    sys.exit("python-app: %s (%s)" % (error, type(error).__name__))
print(" ".join("%s:%s" % (d.widget, d.decision) for d in decisions))
print(" ".join("%s:%s" % (w.id, w.kind) for w in WidgetCenter().current_configurations()))
'

step "the Swift app saves a location before any weather widget exists"
out=$("$BUILD_DIR/weather-app" Oslo 2>&1) || fail "weather-app Oslo: $out"
expect_eq "$out" "" "weather-app's decisions with no weather widget"
expect_eq "$(widgetctl data get weather location --json | json_get "d['value']")" Oslo "the stored location"

step "a widget added afterwards starts from the app's location"
id=$(widgetctl add --kind weather --json | json_get "d['id']")
first_run_ended() {
    [ "$(widgetctl list --json | json_get "[w['lastOutcome'] for w in d if w['id'] == '$id'][0]")" != null ]
}
wait_until 30 "the weather widget's first run" first_run_ended
widgetctl list --json > /tmp/list.json
expect_eq "$(json_get "d[0]['lastOutcome']" < /tmp/list.json)" success "the first run's outcome"
expect_eq "$(json_get "d[0]['configuration']['location']" < /tmp/list.json)" Oslo "the widget's default location"
expect_eq "$(json_get "d[0]['currentEntry']['content']['location']" < /tmp/list.json)" Oslo "the location shown"

step "a Python app on the installed SDK writes the group and reloads the kind"
out=$("$python" -c "$app" Lyon 2>&1) || fail "the Python app failed: $out"
expect_match "$out" "^$id:(ran|coalesced|deferred)"$'\n'"$id:weather\$" "the Python app's decisions and widgets"
expect_eq "$(widgetctl data get weather location --json | json_get "d['value']")" Lyon "the stored location"

step "a stranger is refused, in the daemon's words"
if out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$python" -c "$app" Rome 2>&1); then
    fail "nobody wrote the weather group: $out"
fi
refusal="^python-app: permission denied: uid 65534 is not among group weather's writers .*\(PermissionDenied\)\$"
expect_match "$out" "$refusal" "the Python app's refusal"
if out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$BUILD_DIR/weather-app" Rome 2>&1); then
    fail "nobody wrote the weather group: $out"
fi
expect_match "$out" "^weather-app: permission denied: uid 65534 is not among group weather's writers" \
    "the Swift app's refusal"
if out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups widgetctl data get weather location 2>&1); then
    fail "nobody read the weather group: $out"
fi
expect_match "$out" "is not among group weather's readers" "a stranger's read"
expect_eq "$(widgetctl data get weather location --json | json_get "d['value']")" Lyon "the stored location"

step "the photo app fills its album through the group; a photo widget shows the day's picture under the unit"
out=$(PYTHONDONTWRITEBYTECODE=1 examples/photo-app/photo-app examples/photo-app/pictures 2>&1) \
    || fail "photo-app: $out"
expect_eq "$out" "photo-app: 3 pictures in the album" "photo-app's report with no photo widget yet"
photo=$(widgetctl add --kind photo --json | json_get "d['id']")
wait_until 30 "the photo widget's first run" widget_has_run "$photo"
widgetctl list --json > /tmp/list.json
entry="[w['currentEntry'] for w in d if w['id'] == '$photo'][0]"
name=$(json_get "$entry['content']['photo']" < /tmp/list.json)
[ -f "examples/photo-app/pictures/$name" ] || fail "the widget shows \"$name\", not one of the app's pictures"
sha=$(json_get "$entry['images']['$name']['sha256']" < /tmp/list.json)
expect_eq "$sha" "$(sha256sum < "examples/photo-app/pictures/$name" | cut -d' ' -f1)" "the stored picture's hash"
stored=/var/lib/widget-scheduler/images/$sha
expect_eq "$(stat -c '%U %a %s' "$stored")" "widget-scheduler 600 $(stat -c %s "examples/photo-app/pictures/$name")" \
    "the stored picture's owner, mode and size"
expect_eq "$(ls -A /run/widget-scheduler/image-runs)" "" "run directories left after the run"
# A terminal draws no picture: it says its name and size, given the room (docs/views.md).
widgetctl show "$photo" --family systemLarge > /tmp/show.txt 2> /tmp/show.err \
    || fail "widgetctl show $photo: $(cat /tmp/show.err)"
[ ! -s /tmp/show.err ] || fail "widgetctl show $photo said: $(cat /tmp/show.err)"
grep -qF "[image $name 320×240]" /tmp/show.txt || fail "widgetctl show names no picture: $(cat /tmp/show.txt)"
report "photo widget $photo shows $name ($sha)"
