# The user-session units: `systemctl --user` runs the same daemon for one user, socket-activated through a socket
# only that user can reach, with its state in the user's own directories.
install_build
step "a user manager for root, with the installed user units"
systemctl start user@0.service
export XDG_RUNTIME_DIR=/run/user/0
systemctl --user daemon-reload
expect_eq "$(systemctl --user show -P LoadState widget-scheduler.service)" loaded "LoadState of the user service"
exposure=$(systemd-analyze security --user --no-pager widget-scheduler.service |
    sed -nE 's/.*Overall exposure level for [^:]*: ([0-9.]+).*/\1/p')
[ -n "$exposure" ] || fail "no exposure level for the user service"
report "systemd-analyze security --user widget-scheduler.service: exposure $exposure (no mount namespacing)"

step "the user socket is private to the user"
systemctl --user start widget-scheduler.socket
expect_eq "$(stat -c %A "$XDG_RUNTIME_DIR/widget-scheduler/control.socket")" srw------- "mode of the user socket"
expect_eq "$(systemctl --user show -P ActiveState widget-scheduler.service)" inactive "before the first connection"

step "widgetctl on the user socket activates the user service"
export WIDGET_SCHEDULER_SOCKET=$XDG_RUNTIME_DIR/widget-scheduler/control.socket
widgetctl kinds > /dev/null || fail "widgetctl kinds on the user socket"
wait_until 10 "the user service to be active" \
    sh -c '[ "$(systemctl --user show -P ActiveState widget-scheduler.service)" = active ]'
expect_eq "$(systemctl --user show -P Type widget-scheduler.service)" notify "Type"
expect_match "$(systemctl --user show -P StatusText widget-scheduler.service)" "widgets" "StatusText"
id=$(widgetctl add --kind trivial) || fail "widgetctl add on the user socket"
expect_match "$id" "^[A-Za-z0-9_-]+$" "the new widget's id"

step "state lives in the user's StateDirectory (systemd 252: ~/.config), not the system's"
compgen -G "/root/.config/widget-scheduler/*.sqlite" > /dev/null ||
    fail "no state database in ~/.config/widget-scheduler"
compgen -G "/var/lib/widget-scheduler/*" > /dev/null && fail "the user instance wrote the system state directory"
systemctl --user stop widget-scheduler.service widget-scheduler.socket
