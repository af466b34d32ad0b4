// What the provider sandbox's Landlock domain costs a provider, apart from any spawner: this process restricts
// itself as the daemon's spawning thread does (no_new_privs, then a domain that handles the write-type rights, with
// one writable directory and /dev/null), then runs RUNS times `/bin/sh -c 'x=$(date); echo $x'` (a shell that runs
// `date`, like examples/trivial/trivial.sh) one after another, and prints the children's CPU per run (reaped times).
//
// usage: landlock-cost MODE RUNS [WRITABLE_DIR]
//   MODE 0: no restriction; 1: no_new_privs only; 2: Landlock without LANDLOCK_ACCESS_FS_TRUNCATE; 3: Landlock with
//   it, as the daemon's sandbox (ABI >= 3). Alternate modes in one shell loop: this VM's speed drifts by more than
//   the differences between them within minutes (docs/benchmarks.md, P1, fifth session).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif

extern char **environ;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static void allow(int ruleset, const char *path, uint64_t rights) {
    struct landlock_path_beneath_attr rule;
    memset(&rule, 0, sizeof rule);
    rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
    if (rule.parent_fd < 0) fail(path);
    rule.allowed_access = rights;
    if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0) fail("landlock_add_rule");
    close(rule.parent_fd);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: landlock-cost MODE RUNS [WRITABLE_DIR]\n");
        return 2;
    }
    int mode = atoi(argv[1]);
    int runs = atoi(argv[2]);
    const char *writable = argc > 3 ? argv[3] : "/tmp";
    if (mode >= 1 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("prctl(PR_SET_NO_NEW_PRIVS)");
    if (mode >= 2) {
        uint64_t handled = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                           LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |
                           LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                           LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER;
        if (mode >= 3) handled |= LANDLOCK_ACCESS_FS_TRUNCATE;
        struct landlock_ruleset_attr attributes;
        memset(&attributes, 0, sizeof attributes);
        attributes.handled_access_fs = handled;
        int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
        if (ruleset < 0) fail("landlock_create_ruleset");
        allow(ruleset, writable, handled);
        allow(ruleset, "/dev/null", handled & (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE));
        if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) fail("landlock_restrict_self");
        close(ruleset);
    }
    char *child_argv[] = {"/bin/sh", "-c", "x=$(date); echo $x", NULL};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    for (int run = 0; run < runs; run++) {
        pid_t pid;
        int error = posix_spawn(&pid, "/bin/sh", &actions, NULL, child_argv, environ);
        if (error != 0) {
            errno = error;
            fail("posix_spawn");
        }
        int status;
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) fail("waitpid");
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "landlock-cost: run %d failed (status %d)\n", run, status);
            return 1;
        }
    }
    struct rusage usage;
    getrusage(RUSAGE_CHILDREN, &usage);
    double user = usage.ru_utime.tv_sec * 1e6 + usage.ru_utime.tv_usec;
    double system = usage.ru_stime.tv_sec * 1e6 + usage.ru_stime.tv_usec;
    printf("mode=%d runs=%d children_cpu_us_per_run=%.1f\n", mode, runs, (user + system) / runs);
    return 0;
}
