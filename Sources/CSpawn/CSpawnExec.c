#define _GNU_SOURCE
#include "CSpawnSandbox.h"
#include "CSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// A spawn with a hook between the clone and the exec, which posix_spawn lacks: the child moves itself into its run's
// cgroup and restricts itself with Landlock before the provider's first instruction, so nothing the provider starts
// is ever outside either, and the limits are in place from its first instruction on. Like glibc's posix_spawn, the
// child shares the caller's memory and the caller is suspended until the child has exec'd (CLONE_VM | CLONE_VFORK):
// no page tables are copied, whatever the daemon's size. The child therefore runs on a stack of its own, calls only
// system calls, never returns into the caller's frames, and reports a failure through the job before it exits.

#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/// The kernel's `struct sigaction` on x86_64 and aarch64 (both have the restorer field): what rt_sigaction reads,
/// which reaches the C library's internal signals (32 and 33) that its sigaction refuses.
struct kernel_sigaction {
    void *handler;
    unsigned long flags;
    void *restorer;
    uint64_t mask;
};

/// The stack a child runs on until it execs: one per spawning thread, made on its first spawn and kept.
static __thread void *child_stack;
static const size_t child_stack_size = 64 * 1024;

static void fail(cspawn_job *job, const char *step) {
    job->result = errno;
    job->failed_step = step;
    syscall(SYS_exit, 127);
}

static int child_main(void *argument) {
    cspawn_job *job = argument;
    // Every signal blocked (the caller blocked them for the clone): no handler of the daemon's can run here, on
    // memory the daemon shares. Each goes back to its default disposition, the C library's internal ones included.
    struct kernel_sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    for (int signo = 1; signo <= 64; signo++) {
        if (signo == SIGKILL || signo == SIGSTOP) continue;
        syscall(SYS_rt_sigaction, signo, &default_action, NULL, sizeof default_action.mask);
    }
    // A process group, not a new session: setsid also creates a scheduler autogroup (kernel.sched_autogroup_enabled,
    // on by default), which puts each provider in a scheduling group of its own and made every run slower.
    if (syscall(SYS_setpgid, 0, 0) != 0) fail(job, "its own process group");
    if (job->cgroup_procs_fd >= 0 && syscall(SYS_write, job->cgroup_procs_fd, "0", 1) != 1) {
        fail(job, "joining its run's cgroup");
    }
    if (job->subreaper && syscall(SYS_prctl, PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        fail(job, "becoming a subreaper");
    }
    if (job->data_limit > 0) {
        struct rlimit limit = {.rlim_cur = job->data_limit, .rlim_max = job->data_limit};
        if (syscall(SYS_prlimit64, 0, RLIMIT_DATA, &limit, NULL) != 0) fail(job, "setting its data limit");
    }
    if (job->descriptor_limit.rlim_cur > 0 &&
        syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &job->descriptor_limit, NULL) != 0) {
        fail(job, "setting its descriptor limit");
    }
    if (job->landlock_scope_fd >= 0 && syscall(SYS_landlock_restrict_self, job->landlock_scope_fd, 0) != 0) {
        fail(job, "its Landlock domain");
    }
    for (int target = 0; target < 3; target++) {
        if (syscall(SYS_dup3, job->child_fds[target], target, 0) != target) fail(job, "its standard descriptors");
    }
    if (job->working_directory != NULL && syscall(SYS_chdir, job->working_directory) != 0) fail(job, "its working directory");
    if (syscall(SYS_close_range, 3, ~0U, 0) != 0) {
        // Before Linux 5.9: every descriptor up to the limit.
        struct rlimit limit;
        if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &limit) != 0) fail(job, "closing its other descriptors");
        for (unsigned long fd = 3; fd < limit.rlim_cur; fd++) syscall(SYS_close, fd);
    }
    uint64_t no_signals = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &no_signals, NULL, sizeof no_signals);
    syscall(SYS_execve, job->path, job->argv, job->envp);
    fail(job, "execve");
    return 127;
}

void cspawn_job_close_child_fds(cspawn_job *job) {
    for (int index = 0; index < 3; index++) {
        if (job->child_fds[index] >= 0) close(job->child_fds[index]);
        job->child_fds[index] = -1;
    }
}

/// Clones the child and waits (as vfork does) until it has exec'd or failed; returns its pid, or -1 with errno when
/// there is none. The caller's signals are all blocked meanwhile.
static pid_t clone_child(cspawn_job *job) {
    if (child_stack == NULL) {
        void *stack = mmap(NULL, child_stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
                           -1, 0);
        if (stack == MAP_FAILED) return -1;
        child_stack = stack;
    }
    uint64_t all_signals = ~0ULL, previous = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all_signals, &previous, sizeof all_signals);
    int saved_errno = errno;
    // Our own clone rather than posix_spawn, which the project otherwise prefers: the child must make a Landlock
    // domain of its own (one made on the spawning thread holds that thread too, and a provider could SIGKILL the
    // daemon through it), join its cgroup and set its subreaper and limits before the exec, and posix_spawn has no
    // step there (glibc 2.36 has no cgroup attribute either). posix_spawn of a small executor that does this and then
    // execs the provider, as systemd-executor does, was weighed: it keeps posix_spawn but costs every run a second
    // execve, which P1 cannot pay. docs/provider-protocol.md, "How a provider is started", has the whole reasoning.
    pid_t pid = clone(child_main, (char *)child_stack + child_stack_size, CLONE_VM | CLONE_VFORK | SIGCHLD, job);
    // The child shares this thread's errno until it execs.
    int clone_errno = errno;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &previous, NULL, sizeof previous);
    errno = pid < 0 ? clone_errno : saved_errno;
    return pid;
}

void cspawn_job_run(cspawn_job *job) {
    job->pid = 0;
    job->pidfd = -1;
    job->pidfd_errno = 0;
    job->result = 0;
    job->failed_step = NULL;
    pid_t pid = clone_child(job);
    if (pid < 0) {
        job->result = errno;
        job->failed_step = "clone";
    } else if (job->result != 0) {
        // The child failed before its exec and has exited: reap it, nothing of it runs.
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    } else {
        job->pid = pid;
    }
    // The child has its copies now (or there is no child): the parent's must go, or the output would never end.
    cspawn_job_close_child_fds(job);
    if (job->result != 0) return;
    // A pidfd costs a quick run more than its whole exit watch through the output (pidfs file and inode, and the
    // close): only without that watch.
    if (job->output_fd >= 0 && job->exit_poller >= 0) return;
    job->pidfd = cspawn_pidfd_open(job->pid);
    if (job->pidfd < 0) job->pidfd_errno = errno;
}
