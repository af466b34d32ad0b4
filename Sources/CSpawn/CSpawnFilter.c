#define _GNU_SOURCE
#include "CSpawnFilter.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sockios.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define CSPAWN_NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CSPAWN_NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef CSPAWN_NATIVE_ARCH

#ifndef SYS_open
#define SYS_open -1
#endif
#ifndef SYS_truncate64
#define SYS_truncate64 -1
#endif
#ifndef SYS_fcntl64
#define SYS_fcntl64 -1
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef F_SETOWN_EX
#define F_SETOWN_EX 15
#endif

/// One architecture's numbers of the system calls the filter looks at; -1 where it has none.
struct filtered_calls {
    uint32_t arch;
    /// Numbers from here on are another ABI's (x86_64's x32), refused whole.
    long foreign_from;
    // The process tree.
    long clone, clone3;
    // Signals.
    long kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_send_signal, setpgid, fcntl, fcntl64, ioctl;
    // Truncation.
    long truncate, truncate64, openat2, io_uring_setup;
    /// The calls that open with flags (in argument 1, 2 and 2).
    long open, openat, open_by_handle_at;
};

static const struct filtered_calls filtered_architectures[] = {
#if defined(__x86_64__)
    {CSPAWN_NATIVE_ARCH, 0x40000000, SYS_clone, SYS_clone3, SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo,
     SYS_rt_tgsigqueueinfo, SYS_pidfd_send_signal, SYS_setpgid, SYS_fcntl, SYS_fcntl64, SYS_ioctl, SYS_truncate,
     SYS_truncate64, SYS_openat2, SYS_io_uring_setup, SYS_open, SYS_openat, SYS_open_by_handle_at},
    // 32-bit programs (int 0x80), numbered by the kernel's arch/x86/entry/syscalls/syscall_32.tbl.
    {AUDIT_ARCH_I386, -1, 120, 435, 37, 238, 270, 178, 335, 424, 57, 55, 221, 54, 92, 193, 437, 425, 5, 295, 342},
#else
    {CSPAWN_NATIVE_ARCH, -1, SYS_clone, SYS_clone3, SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo,
     SYS_rt_tgsigqueueinfo, SYS_pidfd_send_signal, SYS_setpgid, SYS_fcntl, SYS_fcntl64, SYS_ioctl, SYS_truncate,
     SYS_truncate64, SYS_openat2, SYS_io_uring_setup, SYS_open, SYS_openat, SYS_open_by_handle_at},
#endif
};

struct filter_program {
    struct sock_filter code[256];
    unsigned short length;
    // Set when an instruction did not fit, or a jump would be too long: such a program is never installed.
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

/// The offset of the low 32 bits of argument `argument` in `struct seccomp_data`: pids, flags and commands are
/// 32-bit values, which the kernel reads from the low half of the register.
static uint32_t low_word(int argument) {
    uint32_t offset = (uint32_t)offsetof(struct seccomp_data, args[argument]);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    offset += 4;
#endif
    return offset;
}

/// Starts a check of system call `number` (in the accumulator): the instructions until `end_check` run only for it,
/// and must end in a return. Returns where the jump past them is to be patched, or -1 if there is no such call.
static int begin_check(struct filter_program *program, long number) {
    if (number < 0) return -1;
    int jump = program->length;
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)number, 0, 0));
    return jump;
}

static void end_check(struct filter_program *program, int jump) {
    if (jump < 0 || program->overflowed) return;
    int distance = program->length - jump - 1;
    if (distance > 255) {
        program->overflowed = 1;
        return;
    }
    program->code[jump].jf = (unsigned char)distance;
}

/// Refuses system call `number` with `error`.
static void emit_refusal(struct filter_program *program, long number, int error) {
    int check = begin_check(program, number);
    if (check < 0) return;
    emit_return(program, SECCOMP_RET_ERRNO | (uint32_t)error);
    end_check(program, check);
}

/// Allows system call `number` only when argument `argument` is 0; refuses it with `error` otherwise.
static void emit_zero_only(struct filter_program *program, long number, int argument, int error) {
    int check = begin_check(program, number);
    if (check < 0) return;
    emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, low_word(argument)));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1));
    emit_return(program, SECCOMP_RET_ALLOW);
    emit_return(program, SECCOMP_RET_ERRNO | (uint32_t)error);
    end_check(program, check);
}

/// Refuses system call `number` with `error` when argument `argument` has any bit of `mask`.
static void emit_flag_refusal(struct filter_program *program, long number, int argument, uint32_t mask, int error) {
    int check = begin_check(program, number);
    if (check < 0) return;
    emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, low_word(argument)));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, mask, 0, 1));
    emit_return(program, SECCOMP_RET_ERRNO | (uint32_t)error);
    emit_return(program, SECCOMP_RET_ALLOW);
    end_check(program, check);
}

/// Refuses system call `number` with `error` when argument `argument` is one of `values`.
static void emit_value_refusal(struct filter_program *program, long number, int argument, const uint32_t *values,
                               int count, int error) {
    int check = begin_check(program, number);
    if (check < 0) return;
    emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, low_word(argument)));
    for (int index = 0; index < count; index++) {
        // Each match jumps to the refusal after the remaining comparisons and the allowing return.
        unsigned char to_refusal = (unsigned char)(count - index);
        emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, values[index], to_refusal, 0));
    }
    emit_return(program, SECCOMP_RET_ALLOW);
    emit_return(program, SECCOMP_RET_ERRNO | (uint32_t)error);
    end_check(program, check);
}

/// System call `number` with flags in argument `argument` may truncate only when it opens for writing, which Landlock
/// decides on.
static void emit_open_check(struct filter_program *program, long number, int argument) {
    int check = begin_check(program, number);
    if (check < 0) return;
    emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, low_word(argument)));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_TRUNC, 1, 0));
    emit_return(program, SECCOMP_RET_ALLOW);
    emit(program, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, O_ACCMODE));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_WRONLY, 2, 0));
    emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_RDWR, 1, 0));
    emit_return(program, SECCOMP_RET_ERRNO | EACCES);
    emit_return(program, SECCOMP_RET_ALLOW);
    end_check(program, check);
}

static void emit_process_tree(struct filter_program *program, const struct filtered_calls *calls) {
    emit_flag_refusal(program, calls->clone, 0, CLONE_PARENT, EPERM);
    emit_refusal(program, calls->clone3, ENOSYS);
}

static void emit_signals(struct filter_program *program, const struct filtered_calls *calls) {
    emit_zero_only(program, calls->kill, 0, EPERM);
    emit_refusal(program, calls->tkill, EPERM);
    emit_refusal(program, calls->tgkill, EPERM);
    emit_refusal(program, calls->rt_sigqueueinfo, EPERM);
    emit_refusal(program, calls->rt_tgsigqueueinfo, EPERM);
    emit_refusal(program, calls->pidfd_send_signal, ENOSYS);
    emit_zero_only(program, calls->setpgid, 1, EPERM);
    static const uint32_t owner_commands[] = {F_SETOWN, F_SETOWN_EX, F_SETSIG};
    emit_value_refusal(program, calls->fcntl, 1, owner_commands, 3, EPERM);
    emit_value_refusal(program, calls->fcntl64, 1, owner_commands, 3, EPERM);
    static const uint32_t owner_requests[] = {FIOSETOWN, SIOCSPGRP};
    emit_value_refusal(program, calls->ioctl, 1, owner_requests, 2, EPERM);
}

static void emit_truncation(struct filter_program *program, const struct filtered_calls *calls) {
    emit_refusal(program, calls->truncate, EACCES);
    emit_refusal(program, calls->truncate64, EACCES);
    emit_refusal(program, calls->openat2, ENOSYS);
    emit_refusal(program, calls->io_uring_setup, ENOSYS);
    emit_open_check(program, calls->open, 1);
    emit_open_check(program, calls->openat, 2);
    emit_open_check(program, calls->open_by_handle_at, 2);
}

/// The filter: per architecture, the parts asked for, the rest allowed; an architecture it does not know gets ENOSYS
/// for every call.
static void build_filter(struct filter_program *program, int parts) {
    program->length = 0;
    program->overflowed = 0;
    size_t count = sizeof filtered_architectures / sizeof filtered_architectures[0];
    for (size_t index = 0; index < count; index++) {
        const struct filtered_calls *calls = &filtered_architectures[index];
        emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
        int skip = program->length;
        emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, calls->arch, 0, 0));
        emit(program, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
        if (calls->foreign_from >= 0) {
            emit(program, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)calls->foreign_from, 0, 1));
            emit_return(program, SECCOMP_RET_ERRNO | ENOSYS);
        }
        if (parts & CSPAWN_FILTER_PROCESS_TREE) emit_process_tree(program, calls);
        if (parts & CSPAWN_FILTER_SIGNALS) emit_signals(program, calls);
        if (parts & CSPAWN_FILTER_TRUNCATE) emit_truncation(program, calls);
        emit_return(program, SECCOMP_RET_ALLOW);
        // Another architecture's numbers mean other calls: its block starts past this one.
        end_check(program, skip);
    }
    emit_return(program, SECCOMP_RET_ERRNO | ENOSYS);
}

int cspawn_install_provider_filter(int parts) {
    struct filter_program program;
    build_filter(&program, parts);
    if (program.overflowed) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog filter = {.len = program.length, .filter = program.code};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &filter);
}

#else

int cspawn_install_provider_filter(int parts) {
    (void)parts;
    errno = ENOSYS;
    return -1;
}

#endif
