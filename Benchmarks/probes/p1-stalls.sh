#!/bin/sh
# Stalls of the P1 daemon: its runs counted in consecutive 1 s windows (P1's 4 widgets, 2 slots, SCHED_FIFO), for
# WINDOWS windows. A window below MIN_RATE runs/s stops it and prints what the daemon is doing at that moment: its
# threads' wait channels, its children, its descriptors (with their flags) and its epoll sets' watches, then the tail
# of its log. Exits 1 on a stall, 0 otherwise. 42f90e5 fixed a stall that hit about one window in 30.
#
# usage: Benchmarks/probes/p1-stalls.sh
# env:   WINDOWS=120 MIN_RATE=500, SCRATCH and SCHED as for suite.sh
set -eu
cd "$(dirname "$0")/../.."
WINDOWS=${WINDOWS:-120}
MIN_RATE=${MIN_RATE:-500}
. Benchmarks/lib.sh
build widget-scheduler widgetctl daemon-bench
machine_line
start_p1 p1
sleep 0.5

# snapshot: the daemon's threads, children, descriptors and epoll watches now.
snapshot() {
    echo "threads (tid, state, wait channel):"
    for task in /proc/"$daemon_pid"/task/*; do
        echo "  ${task##*/} $(awk '{print $3}' "$task/stat") $(cat "$task/wchan")"
    done
    echo "children:"
    ps -o pid=,stat=,etimes=,args= --ppid "$daemon_pid" | sed 's/^/  /'
    echo "descriptors:"
    # A descriptor may close while it is listed: its lines are then left out.
    for fd in /proc/"$daemon_pid"/fd/*; do
        info=/proc/$daemon_pid/fdinfo/${fd##*/}
        echo "  ${fd##*/} $(readlink "$fd") flags=$(awk '/^flags/ {print $2}' "$info" 2> /dev/null)"
    done
    for fd in /proc/"$daemon_pid"/fd/*; do
        case "$(readlink "$fd")" in
            *eventpoll*)
                echo "epoll set ${fd##*/} watches:"
                grep '^tfd' /proc/"$daemon_pid"/fdinfo/"${fd##*/}" 2> /dev/null | sed 's/^/  /' || true ;;
        esac
    done
}

lowest=
window=1
while [ "$window" -le "$WINDOWS" ]; do
    $prio "$bench" runs --socket "$socket" --warmup 0 --seconds 1 > "$work/window" &
    client=$!
    sleep 0.6
    snapshot > "$work/snapshot"
    wait "$client"
    rate=$(field rate < "$work/window")
    lowest=$(awk -v a="$rate" -v b="${lowest:-$rate}" 'BEGIN {print (a < b) ? a : b}')
    if awk -v r="$rate" -v m="$MIN_RATE" 'BEGIN {exit !(r < m)}'; then
        echo "window $window: $rate runs/s, below $MIN_RATE: a stall. At 0.6 s into the window:"
        cat "$work/snapshot"
        echo "log tail:"
        tail -5 "$work/p1.log" | sed 's/^/  /'
        exit 1
    fi
    window=$((window + 1))
done
echo "windows=$WINDOWS lowest_rate=$lowest min_rate=$MIN_RATE stalls=0"
