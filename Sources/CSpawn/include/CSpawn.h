#ifndef WIDGET_SCHEDULER_CSPAWN_H
#define WIDGET_SCHEDULER_CSPAWN_H

// The GNU and Linux pieces of process spawning that Glibc's Swift module does not expose.
// Every function returns 0 (or a file descriptor) on success and -1 with errno set on failure,
// except where posix_spawn's convention (an error number as the result) is kept.

#include <spawn.h>
#include <stdint.h>
#include <sys/types.h>

/// Adds glibc's `posix_spawn_file_actions_addclosefrom_np` (every descriptor from `lowest` up closed in the child),
/// which Swift's Glibc module does not export. Returns 0 or an error number.
int cspawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// Creates a close-on-exec pipe. When `nonblocking_end` is 0 or 1 that end (only) is made non-blocking,
/// so the parent's end never blocks while the child's end behaves as a child expects.
int cspawn_pipe(int fds[2], int nonblocking_end);

/// Reads from a pipe without ever blocking, whatever the descriptor's O_NONBLOCK flag: preadv2(2) with RWF_NOWAIT
/// (Linux 5.x and later for pipes). Returns the byte count, 0 at end-of-file, or -1 with errno: EAGAIN when nothing
/// is there yet, EOPNOTSUPP when this kernel cannot read a pipe so (make the descriptor non-blocking and `read`).
ssize_t cspawn_read_nowait(int fd, void *buffer, size_t count);

/// Whether `cspawn_read_nowait` works on pipes here: asked once of an empty pipe (EAGAIN, not EOPNOTSUPP).
/// Returns 1 or 0.
int cspawn_pipes_read_nowait(void);

/// Grows the buffer of the pipe behind `fd` to at least `bytes` (F_SETPIPE_SZ); returns the new size or -1.
int cspawn_pipe_reserve(int fd, int bytes);

/// pidfd_open(2) with no flags: a close-on-exec descriptor that becomes readable when the process exits.
int cspawn_pidfd_open(pid_t pid);

/// pidfd_send_signal(2): signals exactly the process behind `pidfd`, immune to pid reuse.
int cspawn_pidfd_send_signal(int pidfd, int signo);

/// How a reaped child ended.
typedef struct {
    /// 1 when the child called exit, 0 when a signal ended it.
    int exited;
    /// The exit status, or the signal number.
    int status;
    /// Peak resident set size in bytes (wait rusage), covering the child and the descendants it reaped.
    uint64_t max_rss_bytes;
} cspawn_exit_status;

/// Reaps child `pid` with waitid(P_PID) and its rusage; blocks if it has not exited. The caller must be its only
/// reaper: until then the zombie keeps the pid from being reused.
int cspawn_reap_pid(pid_t pid, cspawn_exit_status *status);

/// Whether child `pid` has exited, without waiting or reaping it (waitid with WNOHANG | WNOWAIT): 1, 0 while it
/// runs, or -1 with errno.
int cspawn_has_exited(pid_t pid);

/// getxattr(2), which Swift's Glibc module does not declare: the value's length, or -1 with errno.
ssize_t cspawn_get_xattr(const char *path, const char *name, void *value, size_t size);

/// Makes the calling process a child subreaper (PR_SET_CHILD_SUBREAPER), so orphaned descendants are
/// reparented to it rather than to init.
int cspawn_become_subreaper(void);

/// Names the calling thread for `top -H`, perf and /proc/PID/task/*/comm (at most 15 bytes are kept): what Swift's
/// Glibc module does not declare (pthread_setname_np) and cannot call (prctl). Returns 0, or an error number.
int cspawn_name_current_thread(const char *name);

/// Reaps, without blocking, any exited member of process group `pgid` that is a child of the caller.
/// Returns how many were reaped, or -1 with errno (ECHILD when the caller has no such child).
int cspawn_reap_group_members(pid_t pgid);

/// How the calling thread is scheduled, as sched_getattr(2) reports it.
typedef struct {
    /// SCHED_OTHER, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE.
    int policy;
    /// 1 when the thread's children (processes and threads) start without its policy, negative nice and slice.
    int reset_on_fork;
    /// The nice value.
    int nice;
    /// The EEVDF slice of a SCHED_OTHER or SCHED_BATCH thread in nanoseconds (Linux 6.12 and later); 0 where the
    /// kernel reports none.
    uint64_t slice_ns;
} cspawn_thread_scheduling;

/// The slice the daemon's latency-critical threads ask for (the event loop and the spawning thread): the kernel's
/// smallest, 0.1 ms, no longer than one run's work on either. With the default (0.7 ms times 1 + log2 of the CPUs),
/// a thread woken by a provider's exit waited on a CPU behind another provider for up to that long while the exit's
/// CPU idled.
static const uint64_t CSPAWN_LATENCY_SLICE_NS = 100000;

/// Reads the calling thread's scheduling. Returns 0, or -1 with errno.
int cspawn_thread_scheduling_get(cspawn_thread_scheduling *scheduling);

/// Asks for a short EEVDF slice for the calling thread, when it runs under SCHED_OTHER or SCHED_BATCH, and sets
/// SCHED_RESET_ON_FORK, so that what it starts (providers, threads) keeps the kernel's default slice and a nice of
/// at least 0. Linux 6.12 and later let a thread with a shorter slice preempt, when it wakes, one running a longer
/// slice; older kernels keep the default slice. Its policy and nice are left as they are. Returns 1 when set, 0
/// when the thread's policy is another (real-time, deadline or idle: nothing is changed), -2 with errno when
/// sched_getattr failed, or -1 with errno when sched_setattr did.
int cspawn_thread_request_slice(uint64_t slice_ns);

#include "CSpawnSandbox.h"
#include "CSpawnFilter.h"
#include "CSpawnProcessTree.h"

#endif
