// The baseline of the runner benchmark and of P1: a bare posix_spawn + write request + read stdout + waitpid loop.
//
// usage: spawn-loop PROVIDER REQUEST_FILE RUNS WORKERS [SECONDS]
// Each of WORKERS threads runs RUNS / WORKERS children one after another, blocking; with SECONDS, each thread
// instead starts runs until SECONDS have passed (RUNS is then ignored), so a rate can be measured over the same
// window as another program's. The program prints "runs=N seconds=S rate=R parent_cpu_us_per_run=C
// children_cpu_us_per_run=P" (runs per second over the wall time of all workers; the CPU time of this process
// itself, children excluded, per run; and that of the providers and what they waited for, per run), the line
// Benchmarks/lib.sh's `field` reads and runner-bench prints too.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

/// Names the step that failed, with errno's text, and exits 1.
static void fail(const char *what) {
    perror(what);
    exit(1);
}

/// The request file's bytes (at most `capacity` of them), and their count in `*size`; exits naming the file if it
/// cannot be read.
static char *read_request(const char *path, size_t capacity, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) fail(path);
    char *bytes = malloc(capacity);
    if (!bytes) fail("malloc (request)");
    *size = fread(bytes, 1, capacity, file);
    if (ferror(file)) fail(path);
    fclose(file);
    return bytes;
}

static double seconds_of(struct timeval user, struct timeval system) {
    return (double)(user.tv_sec + system.tv_sec) + (double)(user.tv_usec + system.tv_usec) / 1e6;
}

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
        int input[2], output[2];
        if (pipe2(input, O_CLOEXEC) != 0 || pipe2(output, O_CLOEXEC) != 0) fail("pipe2");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, input[0], 0);
        posix_spawn_file_actions_adddup2(&actions, output[1], 1);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        pid_t pid;
        int error = posix_spawn(&pid, provider, &actions, &attributes, argv, envp);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (error != 0) { errno = error; fail("posix_spawn"); }
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
    double seconds = since_start();
    struct rusage self, children;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    printf("runs=%d seconds=%.3f rate=%.1f parent_cpu_us_per_run=%.1f children_cpu_us_per_run=%.1f\n", total, seconds,
           total / seconds, seconds_of(self.ru_utime, self.ru_stime) * 1e6 / total,
           seconds_of(children.ru_utime, children.ru_stime) * 1e6 / total);
    return 0;
}
