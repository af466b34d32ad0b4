// The daemon's run pipeline without the daemon's Swift: what P1's daemon would reach if a run cost it only the kernel
// work and the threads it has now. One event-loop thread owns every run, as the daemon's does: it makes the run's
// three pipes (`cspawn_pipe`), writes the request into stdin and closes that end, and queues the spawn on the real
// spawning thread (`cspawn_sandbox_start` with the daemon's writable paths, so its providers run in the daemon's
// Landlock domain); it learns of each exit through the same exit poller (the stdout end's hang-up, one-shot), checks
// the child has exited (or watches its pidfd when the output ended first), reads stdout and stderr to their ends
// without waiting, kills the child's group and reaps it, and starts the next run in the freed slot. It decodes,
// decides, stores and publishes nothing: the difference between this and the daemon is the daemon's own code. (Nor
// does it change the child's working directory, as the daemon does to the manifest's: the third session measured
// that as nothing, docs/benchmarks.md.)
//
// usage: skeleton-loop PROVIDER REQUEST_FILE SECONDS [SLOTS]
//   SLOTS runs at a time (default 2, as P1's `max-concurrent-runs`); runs are started until SECONDS have passed and
//   counted when they end. Prints "runs=N seconds=S rate=R parent_cpu_us_per_run=C children_cpu_us_per_run=P", as
//   spawn-loop does (the parent's CPU is both of its threads').
// env: SKELETON_SANDBOX=1 (default: the spawning thread, sandboxed) or 0 (the loop thread spawns itself, as the daemon
//   does with `provider-sandbox = false`).
//
// Build: cc -O2 -pthread -ISources/CSpawn/include benchmarks/skeleton-loop.c Sources/CSpawn/CSpawn.c
//        Sources/CSpawn/CSpawnSandbox.c    (benchmarks/p1-skeleton.sh builds and runs it beside the C loop and P1's
//        daemon)
#define _GNU_SOURCE
#include "CSpawn.h"
#include "CSpawnSandbox.h"
#include "loop-report.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

// The trivial manifest's memory-max, which the daemon sets on each provider as RLIMIT_DATA.
#define DATA_LIMIT (16ULL << 20)
// The exit poller's tag for a run whose exit is watched through its pidfd (the output ended before the exit).
#define PIDFD_TAG (1ULL << 62)

struct slot {
    cspawn_job job;
    posix_spawn_file_actions_t actions;
    int stdout_fd, stderr_fd, pidfd;
    int active;
};

static const char *provider;
static char *request;
static size_t request_size;
static char *child_argv[2];
static char *child_envp[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "WIDGET_SCHEDULER_PROTOCOL=1",
                             NULL};
static posix_spawnattr_t attributes;
static cspawn_sandbox *sandbox;
static int poller;
static char buffer[65536];

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void start_run(struct slot *slot, uint64_t tag) {
    int input[2], output[2], errors[2];
    // The parent's ends stay blocking: they are read with RWF_NOWAIT, as the daemon's are.
    if (cspawn_pipe(input, -1) != 0 || cspawn_pipe(output, -1) != 0 || cspawn_pipe(errors, -1) != 0) fail("pipe");
    if (write(input[1], request, request_size) != (ssize_t)request_size) fail("write (request)");
    close(input[1]);
    if (cspawn_file_actions_init(&slot->actions, input[0], output[1], errors[1], NULL) != 0) fail("file actions");
    memset(&slot->job, 0, sizeof slot->job);
    slot->job.path = provider;
    slot->job.actions = &slot->actions;
    slot->job.attributes = &attributes;
    slot->job.argv = child_argv;
    slot->job.envp = child_envp;
    slot->job.child_fds[0] = input[0];
    slot->job.child_fds[1] = output[1];
    slot->job.child_fds[2] = errors[1];
    slot->job.output_fd = output[0];
    slot->job.data_limit = DATA_LIMIT;
    slot->job.exit_poller = poller;
    slot->job.tag = tag;
    slot->stdout_fd = output[0];
    slot->stderr_fd = errors[0];
    slot->pidfd = -1;
    slot->active = 1;
    if (sandbox) {
        cspawn_sandbox_submit(sandbox, &slot->job);
    } else {
        cspawn_job_run(&slot->job);
        if (cspawn_job_watch_exit(&slot->job) != 0) fail("watching the exit");
    }
}

/// Reads a stream to its end, or until it is empty; returns the bytes read.
static size_t drain(int fd) {
    size_t total = 0;
    for (;;) {
        ssize_t count = cspawn_read_nowait(fd, buffer, sizeof buffer);
        if (count > 0) { total += (size_t)count; continue; }
        if (count < 0 && errno == EINTR) continue;
        return total;
    }
}

/// The run in `slot` ended its output or exited: finishes it, and returns 1 if it succeeded, 0 if it has not
/// exited yet (its pidfd is now watched), or exits the program on a failed run.
static int finish_run(struct slot *slot, uint64_t tag) {
    pid_t pid = slot->job.pid;
    if (slot->pidfd < 0 && cspawn_has_exited(pid) == 0) {
        slot->pidfd = cspawn_pidfd_open(pid);
        if (slot->pidfd < 0 || cspawn_exit_poller_watch_pidfd(poller, slot->pidfd, tag | PIDFD_TAG) != 0) {
            fail("pidfd");
        }
        return 0;
    }
    size_t answer = drain(slot->stdout_fd);
    drain(slot->stderr_fd);
    kill(-pid, SIGKILL);
    cspawn_exit_status status;
    if (cspawn_reap_pid(pid, &status) != 0) fail("waitid");
    close(slot->stdout_fd);
    close(slot->stderr_fd);
    if (slot->pidfd >= 0) close(slot->pidfd);
    posix_spawn_file_actions_destroy(&slot->actions);
    slot->active = 0;
    if (answer == 0 || !status.exited || status.status != 0) {
        fprintf(stderr, "skeleton-loop: run failed (%zu bytes, exited %d, status %d)\n", answer, status.exited,
                status.status);
        exit(1);
    }
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: skeleton-loop PROVIDER REQUEST_FILE SECONDS [SLOTS]\n");
        return 64;
    }
    provider = argv[1];
    request = read_request(argv[2], 1 << 16, &request_size);
    double seconds = atof(argv[3]);
    int slots = argc == 5 ? atoi(argv[4]) : 2;
    if (!(seconds > 0) || slots < 1 || slots > 64) {
        fprintf(stderr, "skeleton-loop: SECONDS must be positive and SLOTS 1 to 64\n");
        return 64;
    }
    child_argv[0] = (char *)provider;
    signal(SIGPIPE, SIG_IGN);
    if (cspawn_attr_init_isolated(&attributes) != 0) fail("spawn attributes");
    if ((poller = cspawn_exit_poller_create()) < 0) fail("exit poller");
    const char *sandboxed = getenv("SKELETON_SANDBOX");
    if (!sandboxed || strcmp(sandboxed, "0") != 0) {
        static const char *const writable[] = {"/tmp", "/var/tmp", "/dev"};
        const char *step = NULL;
        sandbox = cspawn_sandbox_start(writable, 3, 0, &step);
        if (!sandbox) fail(step ? step : "sandbox");
    }
    // The loop waits on the exit poller and, for jobs it does not report (failed spawns), the sandbox's eventfd.
    int loop = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event event = {.events = EPOLLIN, .data.u64 = 0};
    if (loop < 0 || epoll_ctl(loop, EPOLL_CTL_ADD, poller, &event) != 0) fail("epoll");
    if (sandbox) {
        event.data.u64 = 1;
        if (epoll_ctl(loop, EPOLL_CTL_ADD, cspawn_sandbox_event_fd(sandbox), &event) != 0) fail("epoll");
    }
    struct slot *table = calloc((size_t)slots, sizeof *table);
    double started = now();
    for (int index = 0; index < slots; index++) start_run(&table[index], (uint64_t)index);
    int runs = 0, active = slots;
    while (active > 0) {
        struct epoll_event ready[4];
        int count = epoll_wait(loop, ready, 4, -1);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) fail("epoll_wait");
        for (int index = 0; index < count; index++) {
            if (ready[index].data.u64 == 1) {
                fprintf(stderr, "skeleton-loop: a spawn failed or was not watched\n");
                return 1;
            }
        }
        // The finished spawns are taken as the daemon takes them: its loop owns a job again only once taken.
        if (sandbox) cspawn_sandbox_take_finished(sandbox);
        uint64_t tags[64];
        int exits = cspawn_exit_poller_take(poller, tags, 64);
        for (int index = 0; index < exits; index++) {
            uint64_t tag = tags[index] & ~(CSPAWN_OUTPUT_END | PIDFD_TAG);
            struct slot *slot = &table[tag];
            if (!slot->active || !finish_run(slot, tag)) continue;
            runs++;
            if (now() - started < seconds) {
                start_run(slot, tag);
            } else {
                active--;
            }
        }
    }
    double elapsed = now() - started;
    if (sandbox) cspawn_sandbox_stop(sandbox);
    report_runs(runs, elapsed);
    return 0;
}
