#ifndef WIDGET_SCHEDULER_CSPAWN_FILTER_H
#define WIDGET_SCHEDULER_CSPAWN_FILTER_H

// The seccomp filter a provider sandbox's thread installs on itself, inherited by every provider it starts. It takes
// rights away only (a filter cannot grant any), in three parts, each chosen by the sandbox:
//
// - the process tree: clone with CLONE_PARENT is refused (EPERM), so nothing a provider starts becomes a child of
//   the daemon while the provider lives, and clone3 is unsupported (ENOSYS: its flags are in memory, where a filter
//   cannot look, and CLONE_INTO_CGROUP would let a child leave its run's cgroup); C libraries fall back to clone;
// - signals, where Landlock cannot scope them (before ABI 6, Linux 6.12): a filter cannot tell which process a pid
//   names, so a provider may signal only its own process group (kill with pid 0), and may not join another group
//   (setpgid to a group other than its own new one). Every other way to send a signal is refused: kill with another
//   pid, tkill, tgkill and the sigqueueinfo calls (EPERM), pidfd_send_signal (ENOSYS, which runtimes take for an
//   older kernel), and making a file deliver SIGIO or SIGURG to a process (fcntl F_SETOWN, F_SETOWN_EX and F_SETSIG,
//   ioctl FIOSETOWN and SIOCSPGRP: EPERM);
// - truncation, where Landlock has no TRUNCATE right (before ABI 3): truncate(2) and opens with O_TRUNC that are not
//   for writing are refused (EACCES), openat2 and io_uring_setup unsupported (ENOSYS).
//
// On an architecture the filter does not know, every system call fails with ENOSYS.

/// The parts of the provider filter.
typedef enum {
    CSPAWN_FILTER_PROCESS_TREE = 1,
    CSPAWN_FILTER_SIGNALS = 2,
    CSPAWN_FILTER_TRUNCATE = 4,
} cspawn_filter_part;

/// Installs the filter with `parts` (a mask of `cspawn_filter_part`) on the calling thread, which must have
/// no_new_privs set. Returns 0, or -1 with errno (E2BIG if the program would not fit, ENOSYS on an architecture the
/// filter does not know, EPERM when a seccomp filter of the service refuses the seccomp system call).
int cspawn_install_provider_filter(int parts);

#endif
