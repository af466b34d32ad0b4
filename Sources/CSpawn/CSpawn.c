#define _GNU_SOURCE
#include "CSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

int cspawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int cspawn_pipe(int fds[2], int nonblocking_end) {
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    // The child's ends must land on descriptors above 2, or dup2 onto itself would keep close-on-exec.
    for (int end = 0; end < 2; end++) {
        if (fds[end] > 2) continue;
        int moved = fcntl(fds[end], F_DUPFD_CLOEXEC, 3);
        if (moved < 0) { int saved = errno; close(fds[0]); close(fds[1]); errno = saved; return -1; }
        close(fds[end]);
        fds[end] = moved;
    }
    // A new pipe's ends have no status flags but their access mode, which F_SETFL leaves alone: no F_GETFL needed.
    if (nonblocking_end == 0 || nonblocking_end == 1) {
        if (fcntl(fds[nonblocking_end], F_SETFL, O_NONBLOCK) != 0) {
            int saved = errno; close(fds[0]); close(fds[1]); errno = saved; return -1;
        }
    }
    return 0;
}

ssize_t cspawn_read_nowait(int fd, void *buffer, size_t count) {
    struct iovec vector = { .iov_base = buffer, .iov_len = count };
    return preadv2(fd, &vector, 1, -1, RWF_NOWAIT);
}

int cspawn_pipes_read_nowait(void) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return 0;
    char byte;
    ssize_t result = cspawn_read_nowait(fds[0], &byte, 1);
    int works = result < 0 && errno == EAGAIN;
    close(fds[0]);
    close(fds[1]);
    return works;
}

int cspawn_pipe_reserve(int fd, int bytes) { return fcntl(fd, F_SETPIPE_SZ, bytes); }

int cspawn_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

int cspawn_pidfd_send_signal(int pidfd, int signo) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signo, NULL, 0);
}

int cspawn_reap_pid(pid_t pid, cspawn_exit_status *status) {
    siginfo_t info;
    struct rusage usage;
    memset(&info, 0, sizeof info);
    memset(&usage, 0, sizeof usage);
    long result;
    do {
        // The raw syscall, because only it reports the rusage (for the peak resident set size).
        result = syscall(SYS_waitid, P_PID, pid, &info, WEXITED, &usage);
    } while (result < 0 && errno == EINTR);
    if (result < 0) return -1;
    status->exited = info.si_code == CLD_EXITED;
    status->status = info.si_status;
    status->max_rss_bytes = (uint64_t)usage.ru_maxrss * 1024;
    return 0;
}

int cspawn_has_exited(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int result;
    do {
        result = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT);
    } while (result < 0 && errno == EINTR);
    if (result < 0) return -1;
    return info.si_pid == pid;
}

ssize_t cspawn_get_xattr(const char *path, const char *name, void *value, size_t size) {
    return getxattr(path, name, value, size);
}

int cspawn_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

int cspawn_name_current_thread(const char *name) { return pthread_setname_np(pthread_self(), name); }

int cspawn_reap_group_members(pid_t pgid) {
    int reaped = 0;
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_PGID, (id_t)pgid, &info, WEXITED | WNOHANG) != 0) return reaped > 0 ? reaped : -1;
        if (info.si_pid == 0) return reaped;
        reaped++;
    }
}

// glibc 2.36 declares neither sched_getattr nor its structure: the kernel's layout (SCHED_ATTR_SIZE_VER1).
struct cspawn_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
    uint32_t sched_util_min;
    uint32_t sched_util_max;
};

#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK 0x01
#endif

static int get_sched_attr(struct cspawn_sched_attr *attributes) {
    memset(attributes, 0, sizeof *attributes);
    return (int)syscall(SYS_sched_getattr, 0, attributes, sizeof *attributes, 0);
}

int cspawn_thread_scheduling_get(cspawn_thread_scheduling *scheduling) {
    struct cspawn_sched_attr attributes;
    if (get_sched_attr(&attributes) != 0) return -1;
    scheduling->policy = (int)attributes.sched_policy;
    scheduling->reset_on_fork = (attributes.sched_flags & SCHED_FLAG_RESET_ON_FORK) != 0;
    scheduling->nice = attributes.sched_nice;
    int fair = attributes.sched_policy == SCHED_OTHER || attributes.sched_policy == SCHED_BATCH;
    scheduling->slice_ns = fair ? attributes.sched_runtime : 0;
    return 0;
}

int cspawn_thread_request_slice(uint64_t slice_ns) {
    struct cspawn_sched_attr attributes;
    if (get_sched_attr(&attributes) != 0) return -2;
    if (attributes.sched_policy != SCHED_OTHER && attributes.sched_policy != SCHED_BATCH) return 0;
    attributes.size = sizeof attributes;
    attributes.sched_runtime = slice_ns;
    // Only the flag: the utilization clamps read back are left alone without SCHED_FLAG_UTIL_CLAMP.
    attributes.sched_flags = SCHED_FLAG_RESET_ON_FORK;
    return syscall(SYS_sched_setattr, 0, &attributes, 0) == 0 ? 1 : -1;
}
