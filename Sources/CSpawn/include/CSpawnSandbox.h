#ifndef WIDGET_SCHEDULER_CSPAWN_SANDBOX_H
#define WIDGET_SCHEDULER_CSPAWN_SANDBOX_H

// Providers spawned under Landlock. landlock_restrict_self restricts only the calling thread (and what it creates from
// then on), so a sandbox is a thread of its own: it restricts itself once, then runs the spawns queued for it
// (`cspawn_job_run`), and counts each finished one on an eventfd.
// The caller's thread stays unrestricted, so the daemon can still write its state while every provider it starts
// cannot, and it never waits for a child's exec.

#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/// The Landlock ABI version of the running kernel (1 or more), or -1 with errno: ENOSYS when the kernel has no
/// Landlock, EOPNOTSUPP when it is built in but disabled at boot (`lsm=`), EPERM when a seccomp filter refuses it.
int cspawn_landlock_abi(void);

/// A thread whose children can write only beneath a set of paths.
typedef struct cspawn_sandbox cspawn_sandbox;

/// `cspawn_sandbox_start` options: the seccomp filter's part even where Landlock has the right or the scope, as on an
/// older kernel (for tests, and for comparing their costs).
typedef enum {
    /// The truncate guard is the seccomp filter even where Landlock has the TRUNCATE right (ABI 3).
    CSPAWN_SANDBOX_SECCOMP_TRUNCATE = 1,
    /// Signals are confined by the seccomp filter even where Landlock scopes them (ABI 6).
    CSPAWN_SANDBOX_SECCOMP_SIGNALS = 2,
} cspawn_sandbox_option;

/// Starts a sandbox thread: it sets no_new_privs on itself (Landlock and seccomp require it, and the children inherit
/// it), installs its seccomp filter (`CSpawnFilter.h`: the process-tree part always, the truncate and signal parts
/// where Landlock lacks the right or the scope, or `options` ask for them), then handles every write-type filesystem
/// right its Landlock ABI knows (writing, creating, removing, renaming and linking files, directories, devices,
/// sockets, pipes and symbolic links) and grants them only beneath the `count` paths of `writable`. Reading and
/// executing stay as they were. A path that does not exist is skipped; a path naming a file grants writing that file
/// only. Where Landlock scopes signals (ABI 6), every child it spawns then restricts itself into a domain of its own
/// that scopes signals and abstract Unix sockets (`cspawn_job.landlock_scope_fd`).
///
/// With a `run_root` (not NULL), the thread's domain also grants writing beneath it, and every child then restricts
/// itself into a domain of its own (`cspawn_job.landlock_scope_fd`, made per job) that grants the writable paths again
/// and, of everything beneath `run_root`, only its job's `writable_directory`, and there only making, writing,
/// truncating and removing regular files (no directories, links, pipes, sockets or devices): so that one run cannot
/// write another's directory, and a run without one writes none.
///
/// Returns NULL with errno set on failure, and `*failed_step` (if not NULL) names the step that failed, e.g.
/// "landlock_restrict_self"; the thread is then gone.
cspawn_sandbox *cspawn_sandbox_start(const char *const *writable, size_t count, const char *run_root, int options,
                                     const char **failed_step);

/// The ABI version the sandbox was built with.
int cspawn_sandbox_abi(const cspawn_sandbox *sandbox);

/// What keeps a sandbox's providers from truncating files they may not write (truncate(2) by path, or an open with
/// O_TRUNC that is not for writing, neither of which Landlock's write right covers).
typedef enum {
    /// Nothing: a Landlock ABI older than 3 and no seccomp filter (the kernel has none, or a filter refused it).
    CSPAWN_TRUNCATE_GUARD_NONE = 0,
    /// A seccomp filter, where Landlock has no TRUNCATE right: truncate(2) and such opens fail with EACCES (beneath
    /// the writable paths too), openat2 and io_uring_setup with ENOSYS.
    CSPAWN_TRUNCATE_GUARD_SECCOMP = 1,
    /// Landlock's TRUNCATE right (ABI 3 and later).
    CSPAWN_TRUNCATE_GUARD_LANDLOCK = 2,
} cspawn_truncate_guard;

/// The sandbox's truncate guard.
cspawn_truncate_guard cspawn_sandbox_truncate_guard(const cspawn_sandbox *sandbox);

/// Why the seccomp filter could not be installed (EPERM when a seccomp filter of the service refuses the seccomp
/// system call, ENOSYS on an architecture the filter does not know), or 0 if it was installed.
int cspawn_sandbox_filter_errno(const cspawn_sandbox *sandbox);

/// What keeps a sandbox's providers from signalling processes outside their run.
typedef enum {
    /// Nothing: no Landlock scope and no seccomp filter (a filter of the service refused it).
    CSPAWN_SIGNAL_GUARD_NONE = 0,
    /// The seccomp filter, where Landlock has no scope (before ABI 6): a provider may signal its own process group
    /// only (kill with pid 0); every other way to send a signal fails.
    CSPAWN_SIGNAL_GUARD_SECCOMP = 1,
    /// Landlock's scope (ABI 6 and later): each run is a domain of its own, whose processes may signal each other and
    /// nothing else, and may connect only to abstract Unix sockets made inside it.
    CSPAWN_SIGNAL_GUARD_LANDLOCK = 2,
} cspawn_signal_guard;

/// The sandbox's signal guard.
cspawn_signal_guard cspawn_sandbox_signal_guard(const cspawn_sandbox *sandbox);

/// One spawn and what follows it at once: the caller fills the inputs, which must stay valid until the job comes back
/// from `cspawn_sandbox_take_finished` (or `cspawn_job_run` returns); the spawning thread fills the rest.
typedef struct cspawn_job {
    const char *path;
    char *const *argv;
    char *const *envp;
    /// The child's working directory, or NULL to keep the caller's.
    const char *working_directory;
    /// The child's ends of its pipes (stdin, stdout, stderr), each above 2: the job owns them from the moment it is run
    /// or queued, and `cspawn_job_run` closes them as soon as the child has its copies, whatever happened.
    int child_fds[3];
    /// The parent's end of the child's stdout, or -1. With an exit poller, the child's exit is watched through it:
    /// `cspawn_job_watch_exit` adds it to the poller for the end of the output (every writer gone, which for a
    /// provider that leaves nothing behind is its exit), and no pidfd is opened. The job does not own it.
    int output_fd;
    /// RLIMIT_DATA for the child, set before it execs; 0 sets none.
    uint64_t data_limit;
    /// RLIMIT_NOFILE for the child, set before it execs; a soft limit (`rlim_cur`) of 0 sets none.
    struct rlimit descriptor_limit;
    /// A cgroup's `cgroup.procs`, opened for writing, that the child moves itself into before it execs; -1 for none.
    /// The job does not own it.
    int cgroup_procs_fd;
    /// Whether the child makes itself a child subreaper (PR_SET_CHILD_SUBREAPER) before it execs, so that what it
    /// starts and orphans stays its descendant while it lives.
    int subreaper;
    /// A Landlock ruleset the child restricts itself with before it execs, or -1: set by a sandbox whose kernel scopes
    /// signals and abstract sockets (`cspawn_sandbox_signal_guard`), so that every child is a Landlock domain of its
    /// own. The job does not own it.
    int landlock_scope_fd;
    /// A directory beneath the sandbox's run root this child alone may write files in (its run's images), or NULL.
    const char *writable_directory;
    pid_t pid;
    /// 0, or the error number of the step that failed (`failed_step`): no child is left running then.
    int result;
    /// The step that failed when `result` is not 0, e.g. "execve", "landlock_restrict_self"; a static string.
    const char *failed_step;
    /// A pidfd of the child (close-on-exec), or -1 with `pidfd_errno` set (0 when none was opened because the exit
    /// is watched through `output_fd`); the taker owns it.
    int pidfd;
    int pidfd_errno;
    /// An epoll set (`cspawn_exit_poller_create`) the child's exit is watched in by `cspawn_job_watch_exit`,
    /// one-shot: its pidfd with `tag` as data, or `output_fd` with `tag | CSPAWN_OUTPUT_END`; -1 for none.
    int exit_poller;
    uint64_t tag;
    /// 0, or the errno of adding the exit watch to `exit_poller`.
    int poller_errno;
    /// Set by `cspawn_sandbox_request_report`: the finished job is also counted on the sandbox's eventfd.
    int report_when_done;
    /// Set by the sandbox's thread when the job is on its finished list.
    int done;
    /// The submitter's own, untouched by the sandbox: what the taker of the finished job hands it to.
    void *owner;
    struct cspawn_job *next;
} cspawn_job;

/// The bit an exit poller's tag carries when the end of a child's output was reported, not its exit.
static const uint64_t CSPAWN_OUTPUT_END = 1ULL << 63;

/// Runs `job` on the calling thread: a child is cloned (sharing this thread's memory until it execs, as posix_spawn
/// does, so the call returns once the child has exec'd or failed), which puts itself in a process group of its own,
/// sets every signal to its default disposition, joins `cgroup_procs_fd`'s cgroup, becomes a subreaper if asked,
/// sets its data and descriptor limits, restricts itself with `landlock_scope_fd`, takes `child_fds` as 0, 1 and 2,
/// changes to `working_directory`, closes every other descriptor, unblocks every signal and execs. Everything a
/// provider runs is thus set before its first instruction. Then the child's pipe ends are closed here and (unless the
/// exit is to be watched through `output_fd` in an exit poller) its pidfd is opened.
void cspawn_job_run(cspawn_job *job);

/// Closes the job's child pipe ends (a job that never runs).
void cspawn_job_close_child_fds(cspawn_job *job);

/// Adds a spawned job's exit watch to its exit poller, one-shot: its pidfd (EPOLLIN, `tag` as data), or else its
/// `output_fd` (hang-up only: data written does not wake the poller; `tag | CSPAWN_OUTPUT_END` as data). Returns 0,
/// or -1 when the job has no child, nothing to watch or no poller, or the add failed (`poller_errno`).
int cspawn_job_watch_exit(cspawn_job *job);

/// Adds `pidfd` to `poller` (EPOLLIN, one-shot, `tag` as data): a child whose exit could not be watched through its
/// output. Returns 0 or -1 with errno.
int cspawn_exit_poller_watch_pidfd(int poller, int pidfd, uint64_t tag);

/// A close-on-exec epoll set for children's exit watches (their stdout ends or pidfds), or -1 with errno.
int cspawn_exit_poller_create(void);

/// The tags of up to `capacity` children whose exit (or end of output) the poller reports, without waiting: their
/// count, or -1.
int cspawn_exit_poller_take(int poller, uint64_t *tags, int capacity);

/// Queues `job` for the sandbox's thread and returns at once: the caller's thread never waits for a child's exec.
/// Jobs are spawned in the order they were queued. A finished job whose child's exit its poller will report is
/// added to that poller and to the finished list in one critical section, so whoever sees the exit finds the job;
/// any other finished job (a failed spawn, no poller) is also counted on `cspawn_sandbox_event_fd`.
void cspawn_sandbox_submit(cspawn_sandbox *sandbox, cspawn_job *job);

/// Asks for `job`, queued on `sandbox` and not yet taken, to be counted on the eventfd once it is done (at once if it
/// is): for a run that needs its spawn taken over as soon as it exists, rather than at its child's exit.
void cspawn_sandbox_request_report(cspawn_sandbox *sandbox, cspawn_job *job);

/// A non-blocking eventfd that is readable while finished jobs that no exit poller reports wait to be taken.
int cspawn_sandbox_event_fd(const cspawn_sandbox *sandbox);

/// The finished jobs, oldest first, linked through `next` (NULL if none); resets the eventfd if it was counted.
cspawn_job *cspawn_sandbox_take_finished(cspawn_sandbox *sandbox);

/// Ends the sandbox's thread and frees it. Children already started and taken are not affected; queued jobs never
/// start (their child pipe ends are closed), and children of finished jobs nobody took are killed (with their process
/// group) and reaped.
void cspawn_sandbox_stop(cspawn_sandbox *sandbox);

#endif
