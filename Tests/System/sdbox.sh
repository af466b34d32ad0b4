#!/usr/bin/env bash
# sdbox.sh: boot a real systemd (as PID 1) in a throw-away container and run one command inside it.
#
#   Tests/System/sdbox.sh [-b HOSTDIR[:DIR]]... [-u UNITFILE]... -- CMD [ARGS...]
#
# The container's root is the host's own "/" under an overlay whose writable layer is a tmpfs, so everything the
# command does (installing files, creating users, writing the journal) vanishes on exit and the host is untouched.
# It boots into a minimal target (sysinit + sockets: journald, but none of the host's enabled services) in about half
# a second, runs CMD through nsenter, then powers the container off. The exit status is CMD's.
#
#   -b  bind a host directory into the container read-write. The container has its own empty /tmp, so anything the
#       command needs under the host's /tmp must be bound; everything else is already visible through the overlay.
#   -u  copy a unit file into the container's /etc/systemd/system before boot.
#   SDBOX_LOG=FILE keeps the container's console log.
#
# Needs root, systemd-nspawn (Debian package systemd-container) and a host where PID 1 need not be systemd.
set -euo pipefail

die() { echo "sdbox: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "must run as root"
command -v systemd-nspawn > /dev/null || die "systemd-nspawn missing: apt-get install systemd-container"

# Work in a private mount namespace: the overlay and tmpfs below disappear with it, even if this script is killed.
if [ -z "${SDBOX_PRIVATE_MOUNTS:-}" ]; then
    exec env SDBOX_PRIVATE_MOUNTS=1 unshare --mount --propagation private -- "$0" "$@"
fi

binds=() units=()
while getopts "b:u:" option; do
    case $option in
        b) binds+=("--bind=$OPTARG") ;;
        u) units+=("$OPTARG") ;;
        *) die "usage: sdbox.sh [-b HOSTDIR[:DIR]]... [-u UNITFILE]... -- CMD [ARGS...]" ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || die "no command given"

name=sdbox-$$
scratch=/tmp/sdbox.$$
cgroup=sdbox-$$
nspawn_pid=
command_pid=

# Remove what earlier runs left when they were SIGKILLed: scratch dirs and cgroups named after a dead pid.
for leftover in /tmp/sdbox.[0-9]* /sys/fs/cgroup/sdbox-[0-9]* /sys/fs/cgroup/systemd/sdbox-[0-9]* \
    /sys/fs/cgroup/unified/sdbox-[0-9]*; do
    [ -d "$leftover" ] || continue
    kill -0 "${leftover##*[.-]}" 2> /dev/null && continue
    find "$leftover" -depth -type d -exec rmdir {} + 2> /dev/null || true
done

# Stop CMD before halting the container. nsenter stops itself whenever its child is stopped, and systemd-shutdown's
# final kill(-1, SIGSTOP) would freeze it with an unreaped child, so PID 1 would never finish; hence TERM, then
# KILL, the child, and SIGCONT nsenter while waiting.
stop_command() {
    [ -n "$command_pid" ] && kill -0 "$command_pid" 2> /dev/null || return 0
    local children
    children=$(pgrep -P "$command_pid" || true)
    [ -n "$children" ] && kill -TERM $children 2> /dev/null
    for _ in $(seq 30); do
        kill -0 "$command_pid" 2> /dev/null || return 0
        kill -CONT "$command_pid" 2> /dev/null
        sleep 0.1
    done
    children=$(pgrep -P "$command_pid" || true)
    [ -n "$children" ] && kill -KILL $children 2> /dev/null
    kill -CONT "$command_pid" 2> /dev/null
}

cleanup() {
    set +e
    stop_command
    if [ -n "$nspawn_pid" ] && kill -0 "$nspawn_pid" 2> /dev/null; then
        kill -TERM "$nspawn_pid" # nspawn turns it into SIGRTMIN+3 for PID 1: a clean poweroff
        for _ in $(seq 150); do
            kill -0 "$nspawn_pid" 2> /dev/null || break
            [ -n "$command_pid" ] && kill -CONT "$command_pid" 2> /dev/null
            sleep 0.1
        done
        kill -0 "$nspawn_pid" 2> /dev/null && kill -KILL "$nspawn_pid"
        wait "$nspawn_pid" 2> /dev/null
    fi
    [ -n "$command_pid" ] && { kill -CONT "$command_pid" 2> /dev/null; wait "$command_pid" 2> /dev/null; }
    [ -n "${SDBOX_LOG:-}" ] && cp "$scratch/console.log" "$SDBOX_LOG" 2> /dev/null
    # Leave the scratch cgroups, then remove them depth first.
    for hierarchy in /sys/fs/cgroup /sys/fs/cgroup/systemd /sys/fs/cgroup/unified; do
        [ -d "$hierarchy/$cgroup" ] || continue
        echo $$ > "$hierarchy/cgroup.procs" 2> /dev/null
        find "$hierarchy/$cgroup" -depth -type d -exec rmdir {} + 2> /dev/null
    done
    umount -l "$scratch/root" 2> /dev/null
    umount -l "$scratch" 2> /dev/null
    rmdir "$scratch" 2> /dev/null
    rm -rf "/run/systemd/nspawn/propagate/$name" 2> /dev/null
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP

# 1. The disposable root: overlay(lower = /, upper = tmpfs).
mkdir -m 0700 "$scratch"
mount -t tmpfs -o mode=0755 sdbox-rw "$scratch"
mkdir "$scratch/upper" "$scratch/work" "$scratch/root"
mount -t overlay sdbox-root -o "lowerdir=/,upperdir=$scratch/upper,workdir=$scratch/work" "$scratch/root"
root=$scratch/root

# A boot target with only sysinit and sockets: no getty, no timers, none of the host's enabled services.
cat > "$root/etc/systemd/system/sdbox.target" << 'UNIT'
[Unit]
Description=sdbox minimal boot target
Requires=sysinit.target sockets.target
After=sysinit.target sockets.target
AllowIsolate=yes
UNIT
for unit in "${units[@]}"; do
    cp "$unit" "$root/etc/systemd/system/"
done
systemd-id128 new > "$root/etc/machine-id" # a machine id of its own, so its journal is its own too

# 2. Scratch cgroups, so nspawn's cgroups sit below one we can remove afterwards.
if [ -d /sys/fs/cgroup/systemd ]; then # hybrid or legacy host
    for hierarchy in systemd unified; do
        [ -d "/sys/fs/cgroup/$hierarchy" ] || continue
        mkdir "/sys/fs/cgroup/$hierarchy/$cgroup"
        echo $$ > "/sys/fs/cgroup/$hierarchy/$cgroup/cgroup.procs"
    done
else # pure cgroup2 host
    mkdir "/sys/fs/cgroup/$cgroup"
    echo $$ > "/sys/fs/cgroup/$cgroup/cgroup.procs"
fi

# 3. Boot. A pure cgroup2 hierarchy inside the container whatever the host has. If this script dies, setpriv's
# parent-death signal makes nspawn shut the container down instead of leaving it behind.
export SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1
started=$(date +%s%N)
# nspawn's own seccomp filter leaves out Landlock (systemd 252), which widget-scheduler uses to sandbox its providers:
# allow it, as a machine booted by systemd allows it. (seccomp itself nspawn allows.) A network namespace of its own,
# with only a loopback device: containers booted side by side (other worktrees' tests) each have their own
# 127.0.0.1, so a web host's port in one is not taken by, or answered from, another.
setpriv --pdeathsig TERM -- systemd-nspawn --quiet --directory="$root" --machine="$name" --register=no \
    --keep-unit --console=read-only --private-network "${binds[@]}" \
    --system-call-filter="landlock_create_ruleset landlock_add_rule landlock_restrict_self" --boot -- --unit=sdbox.target \
    > "$scratch/console.log" 2>&1 < /dev/null &
nspawn_pid=$!

# The container's PID 1 is the child of nspawn whose innermost pid is 1.
leader=
for _ in $(seq 200); do
    for pid in $(pgrep -P "$nspawn_pid" 2> /dev/null); do
        awk '/^NSpid:/ { exit !($NF == 1) }' "/proc/$pid/status" 2> /dev/null && leader=$pid
    done
    [ -n "$leader" ] && break
    kill -0 "$nspawn_pid" 2> /dev/null || break
    sleep 0.05
done
if [ -z "$leader" ]; then
    cat "$scratch/console.log" >&2
    die "the container did not start"
fi

inside=(setpriv --pdeathsig KILL -- nsenter --target "$leader" --mount --uts --ipc --net --pid --cgroup --root --wd --
    setpriv --pdeathsig KILL -- env -i HOME=/root TERM=dumb LANG=C.UTF-8 SYSTEMD_PAGER= SYSTEMD_COLORS=0
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/swift/usr/bin)

# Wait for the manager's private socket, then for the boot to finish.
for _ in $(seq 300); do
    "${inside[@]}" test -S /run/systemd/private 2> /dev/null && break
    sleep 0.05
done
state=$(timeout 60 "${inside[@]}" systemctl is-system-running --wait 2> /dev/null || true)
booted=$(date +%s%N)
echo "sdbox: booted in $(((booted - started) / 1000000)) ms, state $state" >&2
case $state in
    running | degraded) ;;
    *)
        cat "$scratch/console.log" >&2
        die "the container did not boot (state '$state')"
        ;;
esac

# 4. Run the command. In the background, so a TERM or INT to this script is handled at once; stdin is passed on
# explicitly because bash gives background jobs /dev/null.
set +e
"${inside[@]}" "$@" <&0 &
command_pid=$!
wait "$command_pid"
status=$?
set -e
exit "$status"
