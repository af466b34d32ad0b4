#define _GNU_SOURCE
#include "CSpawnSandbox.h"
#include "CSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
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

// The truncate guard as a seccomp filter, for kernels whose Landlock has no TRUNCATE right (ABI < 3, such as Debian
// 12's 6.1). Landlock's write right already refuses every open for writing outside the writable paths; what it lets
// through is truncation without such an open: truncate(2) by path, and an open with O_TRUNC whose access mode is not a
// write (O_RDONLY | O_TRUNC truncates on Linux; so does the access mode 3). These system calls can be told apart by
// their numbers and their flags argument, which a filter sees; openat2 (flags in memory) and io_uring (opens the
// filter never sees) are refused as unsupported, so their callers fall back to openat.
#if defined(__x86_64__)
#define CSPAWN_NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CSPAWN_NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef CSPAWN_NATIVE_ARCH
/// One architecture's numbers of the system calls the guard looks at; -1 where it has none.
struct guarded_calls {
    uint32_t arch;
    /// Numbers from here on are another ABI's (x86_64's x32), refused whole.
    long foreign_from;
    long truncate, truncate64, openat2, io_uring_setup;
    /// The calls that open with flags, and which argument holds them.
    long open, openat, open_by_handle_at;
};

#ifndef SYS_open
#define SYS_open -1
#endif
#ifndef SYS_truncate64
#define SYS_truncate64 -1
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif

static const struct guarded_calls guarded_architectures[] = {
#if defined(__x86_64__)
    {CSPAWN_NATIVE_ARCH, 0x40000000, SYS_truncate, SYS_truncate64, SYS_openat2, SYS_io_uring_setup, SYS_open,
     SYS_openat, SYS_open_by_handle_at},
    // 32-bit programs (int 0x80), numbered by the kernel's arch/x86/entry/syscalls/syscall_32.tbl.
    {AUDIT_ARCH_I386, -1, 92, 193, 437, 425, 5, 295, 342},
#else
    {CSPAWN_NATIVE_ARCH, -1, SYS_truncate, SYS_truncate64, SYS_openat2, SYS_io_uring_setup, SYS_open, SYS_openat,
     SYS_open_by_handle_at},
#endif
};

struct filter_program {
    struct sock_filter code[96];
    unsigned short length;
    // Set when an instruction did not fit: such a program is never installed.
    int overflowed;
};

static void emit(struct filter_program *program, struct sock_filter instruction) {
    if (program->length < sizeof program->code / sizeof program->code[0]) {
        program->code[program->length++] = instruction;
    } else {
        program->overflowed = 1;
    }
}

static void emit_return(struct filter_program *program, uint32_t action) {
    emit(program, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

/// Refuses system call `number` (in the accumulator) with `error`.
static void emit_refusal(struct filter_program *program, long number, int error) {
    if (number < 0) return;
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)number, 0, 1));
    emit_return(program, SECCOMP_RET_ERRNO | (uint32_t)error);
}

/// System call `number` (in the accumulator) with flags in argument `argument` may truncate only when it opens for
/// writing, which Landlock decides on.
static void emit_open_check(struct filter_program *program, long number, int argument) {
    if (number < 0) return;
    uint32_t low_word = (uint32_t)offsetof(struct seccomp_data, args[argument]);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    low_word += 4;
#endif
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)number, 0, 8));
    emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, low_word));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_TRUNC, 1, 0));
    emit_return(program, SECCOMP_RET_ALLOW);
    emit(program, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, O_ACCMODE));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_WRONLY, 2, 0));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_RDWR, 1, 0));
    emit_return(program, SECCOMP_RET_ERRNO | EACCES);
    emit_return(program, SECCOMP_RET_ALLOW);
}

/// The guard's filter: per architecture, truncate(2) refused (EACCES, as Landlock would), opens that truncate
/// without writing refused, openat2 and io_uring_setup unsupported (ENOSYS), the rest allowed; an architecture it
/// does not know gets ENOSYS for every call.
static void build_truncate_filter(struct filter_program *program) {
    program->length = 0;
    program->overflowed = 0;
    size_t count = sizeof guarded_architectures / sizeof guarded_architectures[0];
    for (size_t index = 0; index < count; index++) {
        const struct guarded_calls *calls = &guarded_architectures[index];
        emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
        unsigned short skip = program->length;
        emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, calls->arch, 0, 0));
        emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
        if (calls->foreign_from >= 0) {
            emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)calls->foreign_from, 0, 1));
            emit_return(program, SECCOMP_RET_ERRNO | ENOSYS);
        }
        emit_refusal(program, calls->truncate, EACCES);
        emit_refusal(program, calls->truncate64, EACCES);
        emit_refusal(program, calls->openat2, ENOSYS);
        emit_refusal(program, calls->io_uring_setup, ENOSYS);
        emit_open_check(program, calls->open, 1);
        emit_open_check(program, calls->openat, 2);
        emit_open_check(program, calls->open_by_handle_at, 2);
        emit_return(program, SECCOMP_RET_ALLOW);
        // Another architecture's numbers mean other calls: its block starts past this one.
        program->code[skip].jf = (unsigned char)(program->length - skip - 1);
    }
    emit_return(program, SECCOMP_RET_ERRNO | ENOSYS);
}
#endif

/// Installs the truncate guard's filter on the calling thread (no_new_privs set); returns 0, or -1 with errno.
static int install_truncate_filter(void) {
#ifdef CSPAWN_NATIVE_ARCH
    struct filter_program program;
    build_truncate_filter(&program);
    if (program.overflowed) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog filter = {.len = program.length, .filter = program.code};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter);
#else
    errno = ENOSYS;
    return -1;
#endif
}

struct cspawn_sandbox {
    pthread_t thread;
    pthread_mutex_t mutex;
    pthread_cond_t changed;
    int abi;
    // Whether restrict_self installs the seccomp truncate guard even where the ABI has Landlock's right.
    int prefer_seccomp;
    cspawn_truncate_guard truncate_guard;
    // Why the seccomp truncate guard could not be installed, or 0.
    int truncate_filter_errno;

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

/// Restricts the calling thread with a Landlock domain that handles `handled`, granted beneath the sandbox's writable
/// paths; returns 0, or -1 with errno and *step set.
static int restrict_writes(const struct cspawn_sandbox *sandbox, uint64_t handled, const char **step) {
    struct landlock_ruleset_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.handled_access_fs = handled;
    *step = "landlock_create_ruleset";
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) return -1;
    for (size_t index = 0; index < sandbox->writable_count; index++) {
        int fd = open(sandbox->writable[index], O_PATH | O_CLOEXEC);
        if (fd < 0) {
            if (errno == ENOENT || errno == ENOTDIR) continue;
            *step = "open (a writable path)";
            int saved = errno;
            close(ruleset);
            errno = saved;
            return -1;
        }
        struct stat status;
        struct landlock_path_beneath_attr rule;
        memset(&rule, 0, sizeof rule);
        rule.parent_fd = fd;
        rule.allowed_access = handled;
        if (fstat(fd, &status) == 0 && !S_ISDIR(status.st_mode)) rule.allowed_access = handled & file_rights;
        long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        int saved = errno;
        close(fd);
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

/// Restricts the calling thread: no_new_privs, the truncate guard (Landlock's TRUNCATE right where the ABI has it,
/// else the seccomp filter), then the Landlock domain. Returns 0, or -1 with errno and *step set.
static int restrict_self(struct cspawn_sandbox *sandbox, const char **step) {
    *step = "prctl(PR_SET_NO_NEW_PRIVS)";
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    uint64_t handled = write_rights(sandbox->abi);
    int has_right = sandbox->abi >= 3;
    // The right is preferred to the filter, which costs a run no less: the right is path-aware, and leaves openat2
    // and io_uring alone.
    if (has_right && !sandbox->prefer_seccomp) {
        sandbox->truncate_guard = CSPAWN_TRUNCATE_GUARD_LANDLOCK;
    } else if (install_truncate_filter() == 0) {
        sandbox->truncate_guard = CSPAWN_TRUNCATE_GUARD_SECCOMP;
    } else {
        sandbox->truncate_filter_errno = errno;
        sandbox->truncate_guard = has_right ? CSPAWN_TRUNCATE_GUARD_LANDLOCK : CSPAWN_TRUNCATE_GUARD_NONE;
    }
    if (sandbox->truncate_guard == CSPAWN_TRUNCATE_GUARD_LANDLOCK) handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
    return restrict_writes(sandbox, handled, step);
}

static void close_child_fds(cspawn_job *job) {
    for (int index = 0; index < 3; index++) {
        if (job->child_fds[index] >= 0) close(job->child_fds[index]);
        job->child_fds[index] = -1;
    }
}

void cspawn_job_run(cspawn_job *job) {
    job->pid = 0;
    job->pidfd = -1;
    job->pidfd_errno = 0;
    job->limit_errno = 0;
    job->descriptor_limit_errno = 0;
    job->result = posix_spawn(&job->pid, job->path, job->actions, job->attributes, job->argv, job->envp);
    // The child has its copies now (or there is no child): the parent's must go, or the output would never end.
    close_child_fds(job);
    if (job->result != 0) return;
    if (job->data_limit > 0 && cspawn_limit_data(job->pid, job->data_limit) != 0) job->limit_errno = errno;
    if (job->descriptor_limit.rlim_cur > 0 && prlimit(job->pid, RLIMIT_NOFILE, &job->descriptor_limit, NULL) != 0) {
        job->descriptor_limit_errno = errno;
    }
    // A pidfd costs a quick run more than its whole exit watch through the output (pidfs file and inode, and the
    // close): only without that watch.
    if (job->output_fd >= 0 && job->exit_poller >= 0) return;
    job->pidfd = cspawn_pidfd_open(job->pid);
    if (job->pidfd < 0) job->pidfd_errno = errno;
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
        cspawn_job_run(job);
        pthread_mutex_lock(&sandbox->mutex);
        // Added to the poller under the lock: the caller, woken by the child's exit, takes the finished list under
        // it too, and so always finds this job there. A job the poller will not report needs the eventfd.
        int reported = cspawn_job_watch_exit(job) == 0 && job->limit_errno == 0 && job->descriptor_limit_errno == 0;
        append_job(&sandbox->finished_head, &sandbox->finished_tail, job);
        job->done = 1;
        if (!reported || job->report_when_done) count_finished(sandbox);
    }
    pthread_mutex_unlock(&sandbox->mutex);
    return NULL;
}

cspawn_sandbox *cspawn_sandbox_start(const char *const *writable, size_t count, int prefer_seccomp,
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
    sandbox->prefer_seccomp = prefer_seccomp;
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
    if (step != NULL) {
        pthread_join(sandbox->thread, NULL);
        pthread_cond_destroy(&sandbox->changed);
        pthread_mutex_destroy(&sandbox->mutex);
        close(sandbox->event_fd);
        free(sandbox);
        if (failed_step) *failed_step = step;
        errno = start_errno;
        return NULL;
    }
    return sandbox;
}

int cspawn_sandbox_abi(const cspawn_sandbox *sandbox) { return sandbox->abi; }

cspawn_truncate_guard cspawn_sandbox_truncate_guard(const cspawn_sandbox *sandbox) { return sandbox->truncate_guard; }

int cspawn_sandbox_truncate_filter_errno(const cspawn_sandbox *sandbox) { return sandbox->truncate_filter_errno; }

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
    for (cspawn_job *job = sandbox->queued_head; job; job = job->next) close_child_fds(job);
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
    free(sandbox);
}
