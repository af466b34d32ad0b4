// The baseline of the runner benchmark: a bare posix_spawn + write request + read stdout + waitpid loop.
//
// usage: spawn-loop PROVIDER REQUEST_FILE RUNS WORKERS [SECONDS]
// Each of WORKERS threads runs RUNS / WORKERS children one after another, blocking; with SECONDS, each thread
// instead starts runs until SECONDS have passed (RUNS is then ignored), so a rate can be measured over the same
// window as another program's. The program prints "runs=N seconds=S rate=R parent_cpu_us_per_run=C
// children_cpu_us_per_run=P" (runs per second over the wall time of all workers; the CPU time of this process
// itself, children excluded, per run; and that of the providers and what they waited for, per run).
//
// SPAWN_EXTRAS=BITS adds, for measuring what each costs the parent, work the daemon's runner does per run and this
// loop does not (default 0, the baseline P1 measures against): 1 a stderr pipe, read to its end; 2 a pidfd of the
// child added to an epoll set (one-shot) and closed; 4 the child in its own process group, which is SIGKILLed after
// the run; 8 two fcntl(F_SETFL) calls, as making the parent's two read ends non-blocking costs; 16 a pidfd opened
// and closed; 32 the parent's stdout end added to an epoll set for hang-up only. Compare parent_cpu_us_per_run of
// alternating runs (docs/benchmarks.md).

#define _GNU_SOURCE
#include "loop-report.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *provider;
static char *request;
static size_t request_size;
static int runs_per_worker;
static double window_seconds;
static struct timespec start;
static int extras;
static int extras_poller = -1;

static double since_start(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
}

static void *worker(void *finished_runs) {
    char *argv[] = {(char *)provider, NULL};
    char *envp[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "WIDGET_SCHEDULER_PROTOCOL=1", NULL};
    char buffer[65536];
    int run = 0;
    for (; window_seconds > 0 ? since_start() < window_seconds : run < runs_per_worker; run++) {
        int input[2], output[2], errors[2] = {-1, -1};
        if (pipe2(input, O_CLOEXEC) != 0 || pipe2(output, O_CLOEXEC) != 0) fail("pipe2");
        if ((extras & 1) && pipe2(errors, O_CLOEXEC) != 0) fail("pipe2");
        if (extras & 8) {
            // The system calls' cost only: this loop's reads must stay blocking.
            if (fcntl(output[0], F_SETFL, 0) != 0 || fcntl(output[0], F_SETFL, 0) != 0) fail("fcntl");
        }
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, input[0], 0);
        posix_spawn_file_actions_adddup2(&actions, output[1], 1);
        if (errors[1] >= 0) posix_spawn_file_actions_adddup2(&actions, errors[1], 2);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        if (extras & 4) {
            posix_spawnattr_setpgroup(&attributes, 0);
            posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        }
        pid_t pid;
        int error = posix_spawn(&pid, provider, &actions, &attributes, argv, envp);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (error != 0) { errno = error; fail("posix_spawn"); }
        int pidfd = -1;
        if (extras & (2 | 16)) {
            pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
            if (pidfd < 0) fail("pidfd_open");
        }
        if (extras & 2) {
            struct epoll_event event = {.events = EPOLLIN | EPOLLONESHOT};
            if (epoll_ctl(extras_poller, EPOLL_CTL_ADD, pidfd, &event) != 0) fail("epoll_ctl");
        }
        if (extras & 32) {
            struct epoll_event event = {.events = EPOLLONESHOT};
            if (epoll_ctl(extras_poller, EPOLL_CTL_ADD, output[0], &event) != 0) fail("epoll_ctl");
        }
        if (errors[1] >= 0) close(errors[1]);
        close(input[0]);
        close(output[1]);
        if (request_size > 0 && write(input[1], request, request_size) < 0 && errno != EPIPE) fail("write");
        close(input[1]);
        size_t total = 0;
        for (;;) {
            ssize_t count = read(output[0], buffer, sizeof buffer);
            if (count > 0) { total += (size_t)count; continue; }
            if (count < 0 && errno == EINTR) continue;
            break;
        }
        close(output[0]);
        if (errors[0] >= 0) {
            // Its writer has exited with the child's stdout, so this ends at once, non-blocking or not.
            while (read(errors[0], buffer, sizeof buffer) > 0) {}
            close(errors[0]);
        }
        if (extras & 4) kill(-pid, SIGKILL);
        if (pidfd >= 0) close(pidfd);
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        if (total == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "spawn-loop: run failed (%zu bytes, status %d)\n", total, status);
            exit(1);
        }
    }
    *(int *)finished_runs = run;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: spawn-loop PROVIDER REQUEST_FILE RUNS WORKERS [SECONDS]\n");
        return 64;
    }
    provider = argv[1];
    request = read_request(argv[2], 1 << 20, &request_size);
    int runs = atoi(argv[3]), workers = atoi(argv[4]);
    if (runs <= 0 || workers <= 0) { fprintf(stderr, "spawn-loop: RUNS and WORKERS must be positive\n"); return 64; }
    window_seconds = argc == 6 ? atof(argv[5]) : 0;
    if (argc == 6 && !(window_seconds > 0)) { fprintf(stderr, "spawn-loop: SECONDS must be positive\n"); return 64; }
    signal(SIGPIPE, SIG_IGN);
    extras = getenv("SPAWN_EXTRAS") ? atoi(getenv("SPAWN_EXTRAS")) : 0;
    if (extras & (2 | 32) && (extras_poller = epoll_create1(EPOLL_CLOEXEC)) < 0) fail("epoll_create1");
    runs_per_worker = runs / workers;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pthread_t threads[workers];
    int finished[workers];
    for (int index = 0; index < workers; index++) pthread_create(&threads[index], NULL, worker, &finished[index]);
    int total = 0;
    for (int index = 0; index < workers; index++) {
        pthread_join(threads[index], NULL);
        total += finished[index];
    }
    report_runs(total, since_start());
    return 0;
}
