#ifndef WIDGET_SCHEDULER_CSYSTEMD_SHIM_H
#define WIDGET_SCHEDULER_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-id128.h>
#include <signal.h>
#include <stdint.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Swift cannot reach siginfo_t's union members through the si_status macro. */
static inline int csystemd_siginfo_code(const siginfo_t *info) { return info->si_code; }
static inline int csystemd_siginfo_status(const siginfo_t *info) { return info->si_status; }
static inline int csystemd_siginfo_pid(const siginfo_t *info) { return (int)info->si_pid; }

/* glibc 2.36 has pidfd_open(), but only behind <sys/pidfd.h>; the raw syscall works everywhere. */
static inline int csystemd_pidfd_open(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

/* timerfd flags are anonymous enums in glibc; spell them out for Swift. */
static inline int csystemd_tfd_flags_nonblock_cloexec(void) { return TFD_NONBLOCK | TFD_CLOEXEC; }
static inline int csystemd_tfd_timer_abstime_cancel_on_set(void) {
    return TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
}

static inline int csystemd_sigprocmask_block(const sigset_t *set) { return pthread_sigmask(SIG_BLOCK, set, NULL); }
static inline int csystemd_signal_is_blocked(int signo) {
    sigset_t current;
    if (pthread_sigmask(SIG_SETMASK, NULL, &current) != 0) return 0;
    return sigismember(&current, signo) == 1;
}

/* struct ucred and SCM_CREDENTIALS need _GNU_SOURCE, which a module header cannot safely define; the kernel ABI is
   fixed, so spell it out. */
struct csystemd_ucred { pid_t pid; uid_t uid; gid_t gid; };
#define CSYSTEMD_SCM_CREDENTIALS 0x02

/* recv(2) on a socket with SO_PASSCRED set, also returning the sender's pid (-1 when no credentials came along).
   CMSG_* are macros, which Swift cannot use. */
static inline ssize_t csystemd_recv_with_sender_pid(int fd, void *buffer, size_t length, int *sender_pid) {
    struct iovec vector = { .iov_base = buffer, .iov_len = length };
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(struct csystemd_ucred))];
    } control;
    struct msghdr message = { 0 };
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = &control;
    message.msg_controllen = sizeof(control);
    ssize_t received = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    *sender_pid = -1;
    if (received < 0) return received;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == CSYSTEMD_SCM_CREDENTIALS) {
            struct csystemd_ucred credentials;
            memcpy(&credentials, CMSG_DATA(header), sizeof(credentials));
            *sender_pid = (int)credentials.pid;
        }
    }
    return received;
}
#endif
