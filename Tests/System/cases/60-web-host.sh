# The web home screen (issue 32) under a real systemd: widget-host's units verify and are hardened, the host serves
# the daemon's widgets with its security headers and refuses strangers, and headless Chromium drives it through
# Tests/Browser (see, gallery, configure, stacks, taps, arrange, daemon down and back, both color schemes, a picture a
# provider saved).
# case-timeout: 900
step "install; the host's units verify silently"
start_widget_scheduler "minimum-interval = 300"
need_program widget-host
output=$(cd /usr/local/lib/systemd/system && systemd-analyze verify widget-host.service 2>&1)
expect_eq "$output" "" "systemd-analyze verify of widget-host.service"
mkdir -p /run/user/0
output=$(cd /usr/local/lib/systemd/user &&
    XDG_RUNTIME_DIR=/run/user/0 systemd-analyze verify --user widget-host.service 2>&1)
expect_eq "$output" "" "systemd-analyze verify --user of the user unit"
exposure=$(systemd-analyze security --no-pager widget-host.service |
    sed -nE 's/.*Overall exposure level for [^:]*: ([0-9.]+).*/\1/p')
report "systemd-analyze security widget-host.service: exposure $exposure"
awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }' || fail "exposure $exposure is above 2.0"

step "the test provider and the example widgets"
cp Tests/Browser/providers/ticker.py Tests/Browser/providers/ticker.toml Tests/Browser/providers/ticker.views.json \
    /etc/widget-scheduler/providers/
reload_until_served ticker
# A kind that answers timelines only: its gallery previews are its placeholder and the refusal.
cp examples/trivial/trivial.sh examples/trivial/trivial.toml /etc/widget-scheduler/providers/
reload_until_served trivial
for kind in weather quote system; do widgetctl add --kind "$kind" > /dev/null; done
# The photo example's album, filled before any page asks for its kind's previews (the host keeps them a few minutes).
PYTHONDONTWRITEBYTECODE=1 examples/photo-app/photo-app examples/photo-app/pictures

step "systemctl start widget-host: a dynamic user in the group widget-scheduler"
systemctl start widget-host.service || { journalctl -u widget-host --no-pager -n 30 >&2; fail "widget-host failed"; }
http() {  # http METHOD PATH [HEADER...]: prints "STATUS" then the headers and body; a POST sends $BODY or {}
    BODY=${BODY:-} python3 - "$@" << 'PY'
import os, sys, urllib.request, urllib.error
method, path, *headers = sys.argv[1:]
body = (os.environ["BODY"] or "{}").encode() if method == "POST" else None
request = urllib.request.Request("http://127.0.0.1:8470" + path, method=method, data=body)
for header in headers:
    name, value = header.split(": ", 1)
    request.add_header(name, value)
try:
    response = urllib.request.urlopen(request, timeout=30)
except urllib.error.HTTPError as error:
    response = error
print(response.status)
print(str(response.headers))
print(response.read().decode())
PY
}
page=$(http GET / "Host: 127.0.0.1:8470")
expect_eq "$(head -1 <<< "$page")" 200 "GET / from the loopback address"
grep -q "^Content-Security-Policy: default-src 'none'; script-src 'self'" <<< "$page" || fail "no CSP: $page"
grep -q '<script src="/assets/home.js" defer></script>' <<< "$page" || fail "the page's script tag"
expect_eq "$(grep -c '<script' <<< "$page")" 1 "script elements in the page (one, the host's own)"
expect_eq "$(http GET / "Host: rebound.example:8470" | head -1)" 421 "a page under another host name"
expect_eq "$(http POST /api/widgets "Host: 127.0.0.1:8470" "Origin: http://evil.example" \
    "Content-Type: application/json" | head -1)" 403 "a change from another site"
user=$(ps -o user= -p "$(unit_property widget-host.service MainPID)")
[ "$user" != root ] || fail "widget-host runs as root"
report "widget-host runs as $user, groups: $(ps -o supgrp= -p "$(unit_property widget-host.service MainPID)")"

step "a second host as a user the daemon grants nothing but reading, for the refusals the page shows"
systemd-run --quiet --unit=widget-host-stranger -p DynamicUser=yes -p StateDirectory=widget-host-stranger \
    "$(command -v widget-host)" --listen 127.0.0.1:8471 --state-directory /var/lib/widget-host-stranger
stranger_answers() {
    python3 -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:8471/", timeout=5)' 2> /dev/null
}
wait_until 30 "the stranger's host to answer" stranger_answers
stranger=$(unit_property widget-host-stranger.service MainPID)
ps -o supgrp= -p "$stranger" | grep -qw widget-scheduler && fail "the stranger's host is in group widget-scheduler"
report "the stranger's host runs as $(ps -o user= -p "$stranger"), groups: $(ps -o supgrp= -p "$stranger")"

step "the browser tests (headless Chromium)"
STRANGER_HOST_URL=http://127.0.0.1:8471 BROWSER_ARTIFACTS=$PWD/.build-artifacts/browser Tests/Browser/run.sh
systemctl stop widget-host-stranger.service
report "screenshots: .build-artifacts/browser/home-light.png, home-dark.png, provided-image.png"

step "a tap sent to a command (tap-command), only for an address the widget shows"
printf 'tap-command = ["/usr/bin/logger", "-t", "widget-tap"]\n' > /etc/widget-scheduler/widget-host.toml
systemctl restart widget-host.service
tapped=$(widgetctl add --kind ticker --param label=command --json | json_get 'd["id"]')
open_tap() {  # open_tap URL: the page's POST of a tap, from the host's own origin; prints the status
    BODY="{\"url\": \"$1\"}" http POST "/api/widgets/$tapped/open" "Host: 127.0.0.1:8470" \
        "Origin: http://127.0.0.1:8470" "Content-Type: application/json" | head -1
}
opened() { [ "$(open_tap "http://127.0.0.1:8470/?tapped=command")" = 200 ]; }
wait_until 60 "the host to know $tapped's URL and open it" opened
logged() { journalctl -t widget-tap --no-pager -o cat | grep -qxF "http://127.0.0.1:8470/?tapped=command"; }
wait_until 30 "logger to record the tapped URL" logged
expect_eq "$(open_tap "https://elsewhere.example/")" 403 "a tap on an address the widget does not show"
report "tap-command ran: $(journalctl -t widget-tap --no-pager -o cat | tail -1)"
