// What the provider sandbox's Landlock domain costs a provider, apart from any spawner: this process restricts
// itself as the daemon's spawning thread does (no_new_privs, then a domain that handles the write-type rights, with
// one writable directory and /dev/null), then runs RUNS times `/bin/sh -c 'x=$(date); echo $x'` (a shell that runs
// `date`, like examples/trivial/trivial.sh) one after another, and prints the children's CPU per run (reaped times).
//
// usage: landlock-cost MODE RUNS [WRITABLE_DIR]
//   MODE as benchmarks/sandbox-mode.h says (0 no restriction ... 3 the daemon's domain on ABI >= 3, 4 the seccomp
//   truncate guard). Alternate modes in one shell loop: this VM's speed drifts by more than the differences between
//   them within minutes (docs/benchmarks.md, P1, fifth session).
//
// Build: cc -O2 -ISources/CSpawn/include benchmarks/landlock-cost.c Sources/CSpawn/CSpawn.c -lpthread
#include "sandbox-mode.h"

#include <sys/resource.h>

extern char **environ;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: landlock-cost MODE RUNS [WRITABLE_DIR]\n");
        return 2;
    }
    int mode = atoi(argv[1]);
    int runs = atoi(argv[2]);
    const char *writable = argc > 3 ? argv[3] : "/tmp";
    if (restrict_to_mode(mode, writable) != 0) return 1;
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
