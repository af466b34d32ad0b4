// What the C loops of the benchmarks (spawn-loop.c, skeleton-loop.c) share: failing on a step, reading the request
// they send, and the line they report, which benchmarks/lib.sh's `field` reads (runner-bench prints it too).
#ifndef WIDGET_SCHEDULER_LOOP_REPORT_H
#define WIDGET_SCHEDULER_LOOP_REPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

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
    char *request = malloc(capacity);
    if (!request) fail("malloc (request)");
    *size = fread(request, 1, capacity, file);
    if (ferror(file)) fail(path);
    fclose(file);
    return request;
}

static double seconds_of(struct timeval user, struct timeval system) {
    return (double)(user.tv_sec + system.tv_sec) + (double)(user.tv_usec + system.tv_usec) / 1e6;
}

/// Prints "runs=N seconds=S rate=R parent_cpu_us_per_run=C children_cpu_us_per_run=P": runs per second of wall time,
/// the CPU of this process (every thread) and of its reaped children, per run.
static void report_runs(int runs, double seconds) {
    struct rusage self, children;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    printf("runs=%d seconds=%.3f rate=%.1f parent_cpu_us_per_run=%.1f children_cpu_us_per_run=%.1f\n", runs, seconds,
           runs / seconds, seconds_of(self.ru_utime, self.ru_stime) * 1e6 / runs,
           seconds_of(children.ru_utime, children.ru_stime) * 1e6 / runs);
}

#endif
