# The user-session units: `systemctl --user` runs the same daemon for an ordinary user, socket-activated through a
# socket only that user can reach, with its state in the user's own directories.
install_build
step "a user manager for an unprivileged user, with the installed user units"
useradd --create-home --shell /bin/bash widgetuser
uid=$(id -u widgetuser)
systemctl start "user@$uid.service"
as_user() {
    setpriv --reuid=widgetuser --regid=widgetuser --init-groups -- env HOME=/home/widgetuser \
        XDG_RUNTIME_DIR="/run/user/$uid" WIDGET_SCHEDULER_SOCKET="/run/user/$uid/widget-scheduler/control.socket" \
        "$@"
}
user_property() {
    as_user systemctl --user show -P "$1" widget-scheduler.service
}
user_property_is() {
    [ "$(user_property "$1")" = "$2" ]
}
expect_eq "$(user_property LoadState)" loaded "LoadState of the user service"
exposure=$(as_user systemd-analyze security --user --no-pager widget-scheduler.service |
    sed -nE 's/.*Overall exposure level for [^:]*: ([0-9.]+).*/\1/p')
[ -n "$exposure" ] || fail "no exposure level for the user service"
report "systemd-analyze security --user widget-scheduler.service: exposure $exposure (no capability options)"

step "the user socket is private to the user"
as_user systemctl --user start widget-scheduler.socket
socket=/run/user/$uid/widget-scheduler/control.socket
expect_eq "$(stat -c '%A %U' "$socket")" "srw------- widgetuser" "mode and owner of the user socket"
expect_eq "$(user_property ActiveState)" inactive "the user service before the first connection"

step "widgetctl on the user socket activates the user service, which runs as the user"
as_user widgetctl kinds > /dev/null || fail "widgetctl kinds on the user socket"
wait_until 10 "the user service to be active" user_property_is ActiveState active
expect_eq "$(user_property Type)" notify "Type"
expect_match "$(user_property StatusText)" "widgets" "StatusText"
expect_eq "$(ps -o user= -p "$(user_property MainPID)")" widgetuser "the user daemon's user"
id=$(as_user widgetctl add --kind trivial) || fail "widgetctl add on the user socket"
expect_match "$id" "^[A-Za-z0-9_-]+$" "the new widget's id"
setpriv --reuid=nobody --regid=nogroup --clear-groups env WIDGET_SCHEDULER_SOCKET="$socket" widgetctl list \
    > /dev/null 2>&1 && fail "another user reached the private user socket"

step "state lives in the user's StateDirectory (systemd 252: ~/.config), not the system's"
compgen -G "/home/widgetuser/.config/widget-scheduler/*.sqlite" > /dev/null ||
    fail "no state database in ~/.config/widget-scheduler"
compgen -G "/var/lib/widget-scheduler/*" > /dev/null && fail "the user instance wrote the system state directory"
as_user systemctl --user stop widget-scheduler.service widget-scheduler.socket
