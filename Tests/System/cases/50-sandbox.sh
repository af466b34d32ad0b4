# R6 (the sandbox half; the peer half is Tests/ReliabilityTests/UnauthorizedPeerTests.swift): a hostile provider run
# by the real hardened unit tries to write outside what it is given, and to gain privileges. Each attempt's outcome
# comes back as the provider's timeline content, so the checks read what happened inside the sandbox; within the
# service's directories it may make regular files in its run's image directory alone (in the runtime directory).
start_widget_scheduler

step "install a provider that tries to write everywhere"
install_provider intruder $'timeout = 10\nimages = true' <<'SCRIPT'
#!/bin/sh
# Prints one JSON object: for each target, "written" or "denied".
try() {
    if (: > "$2") 2>/dev/null; then echo "\"$1\":\"written\","; rm -f "$2"; else echo "\"$1\":\"denied\","; fi
}
state=/var/lib/widget-scheduler
runs=/run/widget-scheduler/image-runs
# The run's image directory (docs/provider-protocol.md, "Images"), from the request on stdin.
images=$(sed -n 's/.*"imageDirectory":"\([^"]*\)".*/\1/p')
made() {  # made NAME COMMAND...: whether COMMAND could make something
    if "$@" 2>/dev/null; then echo "\"$1\":\"written\","; else echo "\"$1\":\"denied\","; fi
}
fields=$(
    echo "\"imageDirectory\":\"$images\","
    try ownImage "$images/cat.png"
    # Only regular files in its own directory: no directory, link or FIFO there, nothing in the store or another run.
    made ownSubdirectory mkdir "$images/sub"
    made ownSymlink ln -s /etc/passwd "$images/link.png"
    made ownFifo mkfifo "$images/fifo.png"
    try imageStore "$state/images/intruder.png"
    made otherRun mkdir "$runs/run-intruder"
    try runRoot "$runs/intruder.png"
    try stateDirectory "$state/intruder-was-here"
    # Opened for appending, nothing written: enough to prove the database could be corrupted.
    if (exec 3>>"$state/state.sqlite") 2>/dev/null; then echo '"stateDatabase":"written",'
    else echo '"stateDatabase":"denied",'; fi
    # truncate(2) by path needs no open for writing; to the file's own size, so that a success shows and loses nothing.
    if perl -e 'exit(truncate($ARGV[0], -s $ARGV[0]) ? 0 : 1)' "$state/state.sqlite" 2>/dev/null; then
        echo '"stateTruncate":"written",'
    else echo '"stateTruncate":"denied",'; fi
    try etc /etc/intruder-was-here
    try configurationDirectory /etc/widget-scheduler/intruder-was-here
    try manifestDirectory /etc/widget-scheduler/providers/intruder-was-here
    try usr /usr/local/bin/intruder-was-here
    try root /root/intruder-was-here
    try home /home/intruder-was-here
    try varTmp /var/tmp/intruder-was-here
    try runtimeDirectory /run/widget-scheduler/intruder-was-here
)
nnp=$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /proc/self/status)
uid=$(id -u)
printf '{"entries":[{"date":"2026-01-01T00:00:00Z","content":{%s"noNewPrivs":"%s","uid":"%s"}}],"policy":"never"}\n' \
    "$fields" "$nnp" "$uid"
SCRIPT

step "run it under the unit"
id=$(widgetctl add --kind intruder) || fail "widgetctl add --kind intruder"
ran() { [ "$(widgetctl list --json | json_get "[w['lastOutcome'] for w in d if w['id'] == '$id'][0]")" = success ]; }
wait_until 15 "the intruder's run to succeed" ran
content=$(widgetctl list --json | json_get "[w['currentEntry']['content'] for w in d if w['id'] == '$id'][0]")
echo "    what the provider could do: $content" >&2
field() { json_get "d['$1']" <<< "$content"; }

step "ProtectSystem=strict, ProtectHome, NoNewPrivileges hold for the provider"
expect_eq "$(field etc)" denied "a provider writing /etc"
expect_eq "$(field usr)" denied "a provider writing /usr"
expect_eq "$(field root)" denied "a provider writing /root"
expect_eq "$(field home)" denied "a provider writing /home"
expect_eq "$(field manifestDirectory)" denied "a provider writing /etc/widget-scheduler/providers (new manifests)"
expect_eq "$(field noNewPrivs)" 1 "NoNewPrivs of the provider"
expect_eq "$(field uid)" "$(id -u widget-scheduler)" "the provider's uid (the service user, never root)"
[ ! -e /etc/intruder-was-here ] || fail "a file written into /etc survived"

step "the service's own directories: Landlock keeps the provider out of the state, and /etc/widget-scheduler is root's"
echo "    /etc/widget-scheduler: $(stat -c '%U:%G %a' /etc/widget-scheduler);" \
    "providers/: $(stat -c '%U:%G %a' /etc/widget-scheduler/providers);" \
    "/var/lib/widget-scheduler: $(stat -c '%U:%G %a' /var/lib/widget-scheduler/)" >&2
# The provider runs as the service's user in the service's mount namespace, so only the runner's Landlock sandbox
# tells it apart from the daemon, which must write the same directory.

expect_eq "$(field stateDirectory)" denied "a provider writing the state directory"
expect_eq "$(field stateDatabase)" denied "a provider opening state.sqlite for writing"
expect_eq "$(field stateTruncate)" denied "a provider truncating state.sqlite by its path"
expect_eq "$(field configurationDirectory)" denied "a provider writing /etc/widget-scheduler"
expect_eq "$(stat -c '%U:%G' /etc/widget-scheduler)" root:root "the owner of /etc/widget-scheduler"
expect_eq "$(field runtimeDirectory)" denied "a provider writing the runtime directory"
expect_eq "$(field varTmp)" written "a provider writing its private /var/tmp"
[ ! -e /var/lib/widget-scheduler/intruder-was-here ] || fail "a file written into the state directory survived"
journalctl --sync
journalctl -u widget-scheduler --no-pager -o cat | grep -q "providers may write only beneath /tmp, /var/tmp, /dev" ||
    fail "the daemon did not log its provider sandbox"
# Landlock's TRUNCATE right, or on a kernel without it the seccomp filter, which the unit's SystemCallFilter= allows.
journalctl -u widget-scheduler --no-pager -o cat | grep -Eq "truncation refused by (Landlock|a seccomp filter)" ||
    fail "the daemon has no truncate guard: $(journalctl -u widget-scheduler -o cat | grep beneath)"

step "the run's image directory: regular files there alone, and nothing elsewhere beneath the service's directories"
case $(field imageDirectory) in
    /run/widget-scheduler/image-runs/run-*) ;;
    *) fail "the run's image directory: $(field imageDirectory)" ;;
esac
expect_eq "$(field ownImage)" written "a provider writing a picture in its image directory"
expect_eq "$(field ownSubdirectory)" denied "a provider making a directory in its image directory"
expect_eq "$(field ownSymlink)" denied "a provider making a symbolic link in its image directory"
expect_eq "$(field ownFifo)" denied "a provider making a FIFO in its image directory"
expect_eq "$(field imageStore)" denied "a provider writing the image store"
expect_eq "$(field otherRun)" denied "a provider making another run's directory"
expect_eq "$(field runRoot)" denied "a provider writing beside the runs' directories"
expect_eq "$(ls -A /run/widget-scheduler/image-runs)" "" "run directories left after the run"
expect_eq "$(ls -A /var/lib/widget-scheduler/images)" "" "images stored for an entry that names none"

report "provider write to the state directory: denied; to state.sqlite: denied; truncating it: denied; to /etc/widget-scheduler: denied;" \
    "to the runtime directory: denied; /etc, /usr, /root, /home: denied; its /var/tmp: written; its image directory:" \
    "regular files only; NoNewPrivs=1"
