#define _GNU_SOURCE
#include "CSpawnSandbox.h"
#include "CSpawn.h"
#include "CSpawnFilter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

// Landlock ABI 6 (Linux 6.12): a domain can be scoped, so that what runs in it can neither signal a process outside it
// nor connect to an abstract Unix socket made outside it. Debian 12's headers predate both, and the attribute's
// fields after the filesystem's.
#define CSPAWN_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define CSPAWN_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
struct cspawn_landlock_scoped_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

int cspawn_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? -1 : (int)abi;
}

/// The write-type rights an ABI version knows, but truncating, which the truncate guard covers.
static uint64_t write_rights(int abi) {
    uint64_t rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                      LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                      LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                      LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
    return rights;
}

/// The rights that make sense on a file rather than a directory.
static const uint64_t file_rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE;

/// What a run may do in its own directory beneath the run root: regular files only, made, written, truncated and
/// removed. No directories, symbolic or hard links (REFER), pipes, sockets or devices.
static const uint64_t run_directory_rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
                                             LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REMOVE_FILE;

struct cspawn_sandbox {
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    int abi;
    // CSPAWN_SANDBOX_SECCOMP_* : the seccomp parts used even where Landlock has the right or the scope.
    int options;
    cspawn_truncate_guard truncate_guard;
    cspawn_signal_guard signal_guard;
    // Why the seccomp filter could not be installed, or 0.
    int filter_errno;
    // The ruleset every child restricts itself with (signal and abstract socket scope), or -1.
    int scope_fd;
    // With a run root: the write rights the thread's domain handles, and the writable paths (O_PATH) with the rights
    // granted beneath each, for the domain each child gets of its own (`job_ruleset`).
    int has_run_root;
    uint64_t handled;
    int *writable_fds;
    uint64_t *writable_rights;
    size_t writable_fd_count;
    const char *run_root;
    // With a run root: the domain of every child without a directory of its own (`job_ruleset` without one), made
    // at the first such child and kept, or -1. Each child restricted by it gets a domain of its own all the same.
    int shared_job_fd;

    // Start-up: set by the thread once it is restricted (or failed).
    const char *const *writable;
    size_t writable_count;
    int started;
    int start_errno;
    const char *failed_step;

    int stopping;

    // Queued spawns (cspawn_sandbox_submit): spawned in order, then moved to `finished` and counted on `event_fd`.
    cspawn_job *queued_head, *queued_tail;
    cspawn_job *finished_head, *finished_tail;
    int event_fd;
    // Whether event_fd was written since it was last read.
    int event_counted;
};

static void append_job(cspawn_job **head, cspawn_job **tail, cspawn_job *job) {
    job->next = NULL;
    if (*tail) (*tail)->next = job; else *head = job;
    *tail = job;
}

/// Adds a rule granting `rights` beneath `fd` to `ruleset`; 0, or -1 with errno.
static int add_beneath(int ruleset, int fd, uint64_t rights) {
    struct landlock_path_beneath_attr rule;
    memset(&rule, 0, sizeof rule);
    rule.parent_fd = fd;
    rule.allowed_access = rights;
    return syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) == 0 ? 0 : -1;
}

/// Restricts the calling thread with a Landlock domain that handles `handled`, granted beneath the sandbox's writable
/// paths (and its run root, if it has one); returns 0, or -1 with errno and *step set. With a run root, the writable
/// paths stay open (O_PATH) for the children's own domains.
static int restrict_writes(struct cspawn_sandbox *sandbox, uint64_t handled, const char **step) {
    struct landlock_ruleset_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.handled_access_fs = handled;
    *step = "landlock_create_ruleset";
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) return -1;
    sandbox->handled = handled;
    if (sandbox->has_run_root) {
        sandbox->writable_fds = calloc(sandbox->writable_count + 1, sizeof *sandbox->writable_fds);
        sandbox->writable_rights = calloc(sandbox->writable_count + 1, sizeof *sandbox->writable_rights);
        if (!sandbox->writable_fds || !sandbox->writable_rights) {
            *step = "calloc";
            close(ruleset);
            errno = ENOMEM;
            return -1;
        }
    }
    size_t count = sandbox->writable_count + (sandbox->has_run_root ? 1 : 0);
    for (size_t index = 0; index < count; index++) {
        int is_run_root = index == sandbox->writable_count;
        const char *path = is_run_root ? sandbox->run_root : sandbox->writable[index];
        int fd = open(path, O_PATH | O_CLOEXEC);
        if (fd < 0) {
            if (!is_run_root && (errno == ENOENT || errno == ENOTDIR)) continue;
            *step = is_run_root ? "open (the run root)" : "open (a writable path)";
            int saved = errno;
            close(ruleset);
            errno = saved;
            return -1;
        }
        struct stat status;
        uint64_t rights = handled;
        if (fstat(fd, &status) == 0 && !S_ISDIR(status.st_mode)) rights = handled & file_rights;
        int added = add_beneath(ruleset, fd, rights);
        int saved = errno;
        if (added == 0 && sandbox->has_run_root && !is_run_root) {
            sandbox->writable_fds[sandbox->writable_fd_count] = fd;
            sandbox->writable_rights[sandbox->writable_fd_count] = rights;
            sandbox->writable_fd_count++;
        } else {
            close(fd);
        }
        if (added != 0) {
            *step = "landlock_add_rule";
            close(ruleset);
            errno = saved;
            return -1;
        }
    }
    *step = "landlock_restrict_self";
    long restricted = syscall(SYS_landlock_restrict_self, ruleset, 0);
    int saved = errno;
    close(ruleset);
    errno = saved;
    return restricted == 0 ? 0 : -1;
}

/// The ruleset that scopes a child's signals and abstract Unix sockets to its own domain, or -1 with errno.
static int make_scope_ruleset(void) {
    struct cspawn_landlock_scoped_ruleset_attr attributes = {
        .scoped = CSPAWN_LANDLOCK_SCOPE_SIGNAL | CSPAWN_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET};
    return (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
}

/// The domain a child of a sandbox with a run root restricts itself into: the thread's write rights handled again
/// (and the scope, where the sandbox scopes its children), granted beneath the writable paths and the job's own
/// directory only. Returns the ruleset, or -1 with errno and *step set.
static int job_ruleset(const struct cspawn_sandbox *sandbox, const cspawn_job *job, const char **step) {
    struct cspawn_landlock_scoped_ruleset_attr attributes = {.handled_access_fs = sandbox->handled};
    size_t size = offsetof(struct cspawn_landlock_scoped_ruleset_attr, handled_access_net);
    if (sandbox->scope_fd >= 0) {
        attributes.scoped = CSPAWN_LANDLOCK_SCOPE_SIGNAL | CSPAWN_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
        size = sizeof attributes;
    }
    *step = "landlock_create_ruleset (the run's domain)";
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    if (ruleset < 0) return -1;
    for (size_t index = 0; index < sandbox->writable_fd_count; index++) {
        if (add_beneath(ruleset, sandbox->writable_fds[index], sandbox->writable_rights[index]) != 0) {
            *step = "landlock_add_rule (the run's domain)";
            int saved = errno;
            close(ruleset);
            errno = saved;
            return -1;
        }
    }
    if (job->writable_directory != NULL) {
        *step = "open (the run's image directory)";
        int fd = open(job->writable_directory, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int added = fd >= 0 ? add_beneath(ruleset, fd, run_directory_rights & sandbox->handled) : -1;
        if (fd >= 0 && added != 0) *step = "landlock_add_rule (the run's image directory)";
        int saved = errno;
        if (fd >= 0) close(fd);
        if (added != 0) {
            close(ruleset);
            errno = saved;
            return -1;
        }
    }
    return ruleset;
}

/// Restricts the calling thread: no_new_privs, the seccomp filter (always the process-tree part; the truncate and
/// signal parts where Landlock has no right or scope for them, or the options ask for them), then the Landlock domain.
/// Where Landlock scopes signals, each child gets a domain of its own from the scope ruleset, made here: one domain
/// for every child would let a provider signal the sandbox's thread, which is in that domain, and any other run.
/// Returns 0, or -1 with errno and *step set.
static int restrict_self(struct cspawn_sandbox *sandbox, const char **step) {
    *step = "prctl(PR_SET_NO_NEW_PRIVS)";
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    uint64_t handled = write_rights(sandbox->abi);
    int has_right = sandbox->abi >= 3 && !(sandbox->options & CSPAWN_SANDBOX_SECCOMP_TRUNCATE);
    int has_scope = sandbox->abi >= 6 && !(sandbox->options & CSPAWN_SANDBOX_SECCOMP_SIGNALS);
    sandbox->scope_fd = -1;
    if (has_scope) {
        *step = "landlock_create_ruleset (scope)";
        sandbox->scope_fd = make_scope_ruleset();
        if (sandbox->scope_fd < 0) return -1;
    }
    // The right is preferred to the filter, which costs a run no less: the right is path-aware, and leaves openat2
    // and io_uring alone.
    int parts = CSPAWN_FILTER_PROCESS_TREE;
    if (!has_right) parts |= CSPAWN_FILTER_TRUNCATE;
    if (!has_scope) parts |= CSPAWN_FILTER_SIGNALS;
    int filtered = cspawn_install_provider_filter(parts) == 0;
    if (!filtered) sandbox->filter_errno = errno;
    sandbox->truncate_guard = has_right ? CSPAWN_TRUNCATE_GUARD_LANDLOCK
        : filtered ? CSPAWN_TRUNCATE_GUARD_SECCOMP : sandbox->abi >= 3 ? CSPAWN_TRUNCATE_GUARD_LANDLOCK
        : CSPAWN_TRUNCATE_GUARD_NONE;
    if (!has_scope && !filtered && sandbox->abi >= 6) {
        // The forced filter could not be installed: the scope is better than nothing.
        *step = "landlock_create_ruleset (scope)";
        sandbox->scope_fd = make_scope_ruleset();
        if (sandbox->scope_fd < 0) return -1;
    }
    sandbox->signal_guard = sandbox->scope_fd >= 0 ? CSPAWN_SIGNAL_GUARD_LANDLOCK
        : filtered ? CSPAWN_SIGNAL_GUARD_SECCOMP : CSPAWN_SIGNAL_GUARD_NONE;
    if (sandbox->truncate_guard == CSPAWN_TRUNCATE_GUARD_LANDLOCK) handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
    return restrict_writes(sandbox, handled, step);
}

/// Closes and frees the writable paths kept for the children's domains.
static void release_writable_fds(struct cspawn_sandbox *sandbox) {
    for (size_t index = 0; index < sandbox->writable_fd_count; index++) close(sandbox->writable_fds[index]);
    free(sandbox->writable_fds);
    free(sandbox->writable_rights);
    sandbox->writable_fds = NULL;
    sandbox->writable_rights = NULL;
    sandbox->writable_fd_count = 0;
}

int cspawn_exit_poller_watch_pidfd(int poller, int pidfd, uint64_t tag) {
    struct epoll_event event = {.events = EPOLLIN | EPOLLONESHOT, .data.u64 = tag};
    return epoll_ctl(poller, EPOLL_CTL_ADD, pidfd, &event);
}

int cspawn_job_watch_exit(cspawn_job *job) {
    job->poller_errno = 0;
    if (job->result != 0 || job->exit_poller < 0) return -1;
    int added;
    if (job->pidfd >= 0) {
        added = cspawn_exit_poller_watch_pidfd(job->exit_poller, job->pidfd, job->tag);
    } else if (job->output_fd >= 0) {
        // No EPOLLIN: the answer being written must not wake the loop, only the last writer going (EPOLLHUP, which
        // epoll always reports).
        struct epoll_event event = {.events = EPOLLONESHOT, .data.u64 = job->tag | CSPAWN_OUTPUT_END};
        added = epoll_ctl(job->exit_poller, EPOLL_CTL_ADD, job->output_fd, &event);
    } else {
        return -1;
    }
    if (added != 0) {
        job->poller_errno = errno;
        return -1;
    }
    return 0;
}

int cspawn_exit_poller_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cspawn_exit_poller_take(int poller, uint64_t *tags, int capacity) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count;
    do {
        count = epoll_wait(poller, events, capacity, 0);
    } while (count < 0 && errno == EINTR);
    for (int index = 0; index < count; index++) tags[index] = events[index].data.u64;
    return count;
}

/// Makes the eventfd readable for the finished list; the caller holds the mutex.
static void count_finished(struct cspawn_sandbox *sandbox) {
    sandbox->event_counted = 1;
    uint64_t one = 1;
    while (write(sandbox->event_fd, &one, sizeof one) < 0 && errno == EINTR) {}
}

static void *sandbox_main(void *argument) {
    struct cspawn_sandbox *sandbox = argument;
    // Best effort, as the event loop's: a kernel that refuses keeps the default slice, and spawns all the same.
    // Before the name, so that a thread found by its name has its slice.
    (void)cspawn_thread_request_slice(CSPAWN_LATENCY_SLICE_NS);
    // Named for `top -H`, perf and /proc/PID/task/*/comm (at most 15 bytes).
    pthread_setname_np(pthread_self(), "provider-spawn");
    const char *step = NULL;
    int failed = restrict_self(sandbox, &step) != 0;
    int saved = errno;
    pthread_mutex_lock(&sandbox->mutex);
    sandbox->started = 1;
    if (failed) {
        sandbox->start_errno = saved;
        sandbox->failed_step = step;
    }
    pthread_cond_broadcast(&sandbox->changed);
    if (failed) {
        pthread_mutex_unlock(&sandbox->mutex);
        return NULL;
    }
    for (;;) {
        while (!sandbox->queued_head && !sandbox->stopping) pthread_cond_wait(&sandbox->changed, &sandbox->mutex);
        if (sandbox->stopping) break;
        cspawn_job *job = sandbox->queued_head;
        sandbox->queued_head = job->next;
        if (!sandbox->queued_head) sandbox->queued_tail = NULL;
        // The caller queues more while this one spawns.
        pthread_mutex_unlock(&sandbox->mutex);
        job->landlock_scope_fd = sandbox->scope_fd;
        int ruleset = -1;
        int owned = 0;
        if (sandbox->has_run_root) {
            // Never the thread's domain alone, which may write every run's directory: a child whose own domain cannot
            // be made does not start.
            const char *step = NULL;
            if (job->writable_directory != NULL) {
                ruleset = job_ruleset(sandbox, job, &step);
                owned = 1;
            } else {
                if (sandbox->shared_job_fd < 0) sandbox->shared_job_fd = job_ruleset(sandbox, job, &step);
                ruleset = sandbox->shared_job_fd;
            }
            if (ruleset < 0) {
                job->result = errno ? errno : EPERM;
                job->failed_step = step;
                job->pid = 0;
                job->pidfd = -1;
                cspawn_job_close_child_fds(job);
            } else {
                job->landlock_scope_fd = ruleset;
            }
        }
        if (!sandbox->has_run_root || ruleset >= 0) cspawn_job_run(job);
        if (owned && ruleset >= 0) close(ruleset);
        pthread_mutex_lock(&sandbox->mutex);
        // Added to the poller under the lock: the caller, woken by the child's exit, takes the finished list under
        // it too, and so always finds this job there. A job the poller will not report needs the eventfd.
        int reported = cspawn_job_watch_exit(job) == 0;
        append_job(&sandbox->finished_head, &sandbox->finished_tail, job);
        job->done = 1;
        if (!reported || job->report_when_done) count_finished(sandbox);
    }
    pthread_mutex_unlock(&sandbox->mutex);
    return NULL;
}

cspawn_sandbox *cspawn_sandbox_start(const char *const *writable, size_t count, const char *run_root, int options,
                                     const char **failed_step) {
    if (failed_step) *failed_step = NULL;
    int abi = cspawn_landlock_abi();
    if (abi < 1) {
        if (failed_step) *failed_step = "landlock_create_ruleset (ABI version)";
        return NULL;
    }
    struct cspawn_sandbox *sandbox = calloc(1, sizeof *sandbox);
    if (!sandbox) return NULL;
    sandbox->abi = abi;
    sandbox->options = options;
    sandbox->scope_fd = -1;
    sandbox->shared_job_fd = -1;
    sandbox->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (sandbox->event_fd < 0) {
        int saved = errno;
        free(sandbox);
        if (failed_step) *failed_step = "eventfd";
        errno = saved;
        return NULL;
    }
    sandbox->writable = writable;
    sandbox->writable_count = count;
    sandbox->has_run_root = run_root != NULL;
    sandbox->run_root = run_root;
    pthread_mutex_init(&sandbox->mutex, NULL);
    pthread_cond_init(&sandbox->changed, NULL);
    // Every signal blocked in the new thread: signals for the process stay with its other threads (the event loop
    // reads them through signalfd).
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    int error = pthread_create(&sandbox->thread, NULL, sandbox_main, sandbox);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (error != 0) {
        if (failed_step) *failed_step = "pthread_create";
        pthread_cond_destroy(&sandbox->changed);
        pthread_mutex_destroy(&sandbox->mutex);
        close(sandbox->event_fd);
        if (sandbox->scope_fd >= 0) close(sandbox->scope_fd);
        free(sandbox);
        errno = error;
        return NULL;
    }
    pthread_mutex_lock(&sandbox->mutex);
    while (!sandbox->started) pthread_cond_wait(&sandbox->changed, &sandbox->mutex);
    int start_errno = sandbox->start_errno;
    const char *step = sandbox->failed_step;
    pthread_mutex_unlock(&sandbox->mutex);
    sandbox->writable = NULL;
    sandbox->writable_count = 0;
    sandbox->run_root = NULL;
    if (step != NULL) {
        pthread_join(sandbox->thread, NULL);
        pthread_cond_destroy(&sandbox->changed);
        pthread_mutex_destroy(&sandbox->mutex);
        close(sandbox->event_fd);
        if (sandbox->scope_fd >= 0) close(sandbox->scope_fd);
        release_writable_fds(sandbox);
        free(sandbox);
        if (failed_step) *failed_step = step;
        errno = start_errno;
        return NULL;
    }
    return sandbox;
}

int cspawn_sandbox_abi(const cspawn_sandbox *sandbox) { return sandbox->abi; }

cspawn_truncate_guard cspawn_sandbox_truncate_guard(const cspawn_sandbox *sandbox) { return sandbox->truncate_guard; }

int cspawn_sandbox_filter_errno(const cspawn_sandbox *sandbox) { return sandbox->filter_errno; }

cspawn_signal_guard cspawn_sandbox_signal_guard(const cspawn_sandbox *sandbox) { return sandbox->signal_guard; }

void cspawn_sandbox_submit(cspawn_sandbox *sandbox, cspawn_job *job) {
    pthread_mutex_lock(&sandbox->mutex);
    append_job(&sandbox->queued_head, &sandbox->queued_tail, job);
    pthread_mutex_unlock(&sandbox->mutex);
    // Signalled after the unlock, so the woken thread does not at once block on the mutex this thread still holds.
    pthread_cond_signal(&sandbox->changed);
}

void cspawn_sandbox_request_report(cspawn_sandbox *sandbox, cspawn_job *job) {
    pthread_mutex_lock(&sandbox->mutex);
    job->report_when_done = 1;
    if (job->done) count_finished(sandbox);
    pthread_mutex_unlock(&sandbox->mutex);
}

int cspawn_sandbox_event_fd(const cspawn_sandbox *sandbox) { return sandbox->event_fd; }

cspawn_job *cspawn_sandbox_take_finished(cspawn_sandbox *sandbox) {
    pthread_mutex_lock(&sandbox->mutex);
    if (sandbox->event_counted) {
        uint64_t count;
        while (read(sandbox->event_fd, &count, sizeof count) < 0 && errno == EINTR) {}
        sandbox->event_counted = 0;
    }
    cspawn_job *finished = sandbox->finished_head;
    sandbox->finished_head = sandbox->finished_tail = NULL;
    pthread_mutex_unlock(&sandbox->mutex);
    return finished;
}

void cspawn_sandbox_stop(cspawn_sandbox *sandbox) {
    if (!sandbox) return;
    pthread_mutex_lock(&sandbox->mutex);
    sandbox->stopping = 1;
    pthread_cond_broadcast(&sandbox->changed);
    pthread_mutex_unlock(&sandbox->mutex);
    pthread_join(sandbox->thread, NULL);
    for (cspawn_job *job = sandbox->queued_head; job; job = job->next) cspawn_job_close_child_fds(job);
    // Nobody will take these any more: children spawned but never handed over are killed with their group and
    // reaped, so none outlives its runner; queued ones never start.
    for (cspawn_job *job = sandbox->finished_head; job; job = job->next) {
        if (job->result == 0 && job->pid > 0) {
            kill(-job->pid, SIGKILL);
            while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR) {}
        }
        if (job->pidfd >= 0) close(job->pidfd);
    }
    pthread_cond_destroy(&sandbox->changed);
    pthread_mutex_destroy(&sandbox->mutex);
    close(sandbox->event_fd);
    if (sandbox->scope_fd >= 0) close(sandbox->scope_fd);
    if (sandbox->shared_job_fd >= 0) close(sandbox->shared_job_fd);
    release_writable_fds(sandbox);
    free(sandbox);
}
