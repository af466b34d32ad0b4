#ifndef WIDGET_SCHEDULER_CSPAWN_PROCESS_TREE_H
#define WIDGET_SCHEDULER_CSPAWN_PROCESS_TREE_H

// The process tree below the daemon, read from /proc: who descends from whom, and killing what is left of finished
// runs. A pid alone names a process only while that process cannot be reaped; every process these functions look at
// beyond the caller's own children is held by a pidfd and checked against its parent before it counts, so a pid
// reused in the meantime is never mistaken for it.

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// A pidfd of the process at the other end of connected Unix socket `fd`, as the kernel recorded it at connect time
/// (SO_PEERPIDFD, Linux 6.5); where the kernel has no such option, a pidfd opened from the peer's pid (SO_PEERCRED),
/// which names the peer only if it has not exited and had its pid reused meanwhile. Returns the pidfd (close-on-exec)
/// and the peer's pid in `*pid`, or -1 with errno.
int cspawn_socket_peer_pidfd(int fd, pid_t *pid);

/// Whether process `pid`, held by `pidfd`, descends from process `ancestor`, walking its parents up through /proc:
/// 1 if it does, 0 if it does not (the walk reached a process without a parent, or `pid` is `ancestor`), -1 with
/// errno when it cannot be told (ESRCH: the process exited before the walk was done).
int cspawn_descends_from(int pidfd, pid_t pid, pid_t ancestor);

/// What `cspawn_kill_orphans` did.
typedef struct {
    /// Orphans found (children of the calling process's main thread that are not in `known`).
    int found;
    /// Processes sent SIGKILL: the orphans and everything below them.
    int killed;
    /// Orphans reaped.
    int reaped;
    /// Orphans killed but not yet exited when the call returned: sweep again later to reap them.
    int remaining;
} cspawn_orphan_sweep;

/// Kills every child of the calling process's main thread (its leader, to which the kernel hands the orphans of a
/// subreaper) whose pid is not among the `known_count` pids of `known`, with everything below it, and reaps those
/// that have exited, waiting at most `wait_ms` milliseconds in all for them to. Repeats while killing uncovers more
/// (a killed parent's children are orphaned in turn), a few times at most. Returns 0 with `*sweep` filled, or -1 with
/// errno when the children cannot be read (/proc/self/task/PID/children needs CONFIG_PROC_CHILDREN).
int cspawn_kill_orphans(const pid_t *known, size_t known_count, int wait_ms, cspawn_orphan_sweep *sweep);

/// Kills process `pid`, held by `pidfd`, and everything below it, as far as it can be found. Returns how many were
/// sent SIGKILL, or -1 with errno.
int cspawn_kill_tree(int pidfd, pid_t pid);

#endif
