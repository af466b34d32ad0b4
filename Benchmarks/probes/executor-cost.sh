#!/bin/sh
# What an executor would cost each run: the trivial provider spawned directly (as the runner's clone does) against
# through a static executor that does what the runner's pre-exec hook does (a subreaper, a data limit, no_new_privs,
# a Landlock scope domain) and then execs it, as systemd 255+ starts services through systemd-executor. Alternating
# blocks of RUNS runs, ROUNDS each; each run gets P1's request on stdin and has its stdout read to the end. Prints the
# wall time and the children's CPU (user + system) a run, best of the rounds, and the executor's extra: the second
# execve that P1 would pay (docs/provider-protocol.md, "How a provider is started").
#
# usage: Benchmarks/probes/executor-cost.sh
# env:   RUNS=500 ROUNDS=3
set -eu
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-500}
ROUNDS=${ROUNDS:-3}
. Benchmarks/lib.sh

cat > "$work/executor.c" <<'C'
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
/* struct landlock_ruleset_attr of ABI 6, which older kernel headers lack. */
struct ruleset_attr { uint64_t handled_access_fs, handled_access_net, scoped; };
int main(int argc, char **argv, char **envp) {
    if (argc < 2) return 127;
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    struct rlimit data = {256 << 20, 256 << 20};
    setrlimit(RLIMIT_DATA, &data);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    struct ruleset_attr attr = {0, 0, 1 | 2}; /* LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL */
    int fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (fd >= 0) { syscall(SYS_landlock_restrict_self, fd, 0); close(fd); }
    execve(argv[1], argv + 1, envp);
    return 127;
}
C
cat > "$work/drive.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern char **environ;
static char request[4096];
static ssize_t request_size;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static double children_cpu(void) {
    struct rusage u; getrusage(RUSAGE_CHILDREN, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}
static void run(char **argv) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) { perror("pipe"); exit(1); }
    if (write(in[1], request, request_size) != request_size) { perror("write"); exit(1); }
    close(in[1]);
    posix_spawn_file_actions_t actions; posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0); posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    pid_t pid;
    if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) != 0) { perror("posix_spawn"); exit(1); }
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]); close(out[1]);
    char buffer[4096]; ssize_t got, total = 0;
    while ((got = read(out[0], buffer, sizeof buffer)) > 0) total += got;
    close(out[0]);
    int status; waitpid(pid, &status, 0);
    if (total == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) { fprintf(stderr, "a run failed\n"); exit(1); }
}
int main(int argc, char **argv) {
    if (argc != 6) return 2;
    int runs = atoi(argv[1]), rounds = atoi(argv[2]);
    int fd = open(argv[5], O_RDONLY); request_size = read(fd, request, sizeof request); close(fd);
    char *direct[] = {argv[4], NULL}, *through[] = {argv[3], argv[4], NULL};
    double best[2][2] = {{1e9, 1e9}, {1e9, 1e9}};
    for (int round = 0; round < rounds; round++) {
        for (int side = 0; side < 2; side++) {
            double wall = now(), cpu = children_cpu();
            for (int index = 0; index < runs; index++) run(side ? through : direct);
            wall = (now() - wall) / runs * 1e6; cpu = (children_cpu() - cpu) / runs * 1e6;
            if (wall < best[side][0]) best[side][0] = wall;
            if (cpu < best[side][1]) best[side][1] = cpu;
        }
    }
    printf("direct: wall %.0f µs, CPU %.0f µs a run; through the executor: wall %.0f µs, CPU %.0f µs a run; "
           "the executor's extra: wall %.0f µs, CPU %.0f µs a run (best of %d rounds of %d)\n",
           best[0][0], best[0][1], best[1][0], best[1][1], best[1][0] - best[0][0], best[1][1] - best[0][1],
           rounds, runs);
}
C
cc -O2 -static -o "$work/executor" "$work/executor.c"
cc -O2 -o "$work/drive" "$work/drive.c"
machine_line
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); scheduling: ${prio:-ordinary}; provider: $provider"
$prio "$work/drive" "$RUNS" "$ROUNDS" "$work/executor" "$provider" "$work/request.json"
