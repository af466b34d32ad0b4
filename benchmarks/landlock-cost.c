// What the provider sandbox's Landlock domain costs a provider, apart from any spawner: this process restricts
// itself as the daemon's spawning thread does (no_new_privs, then a domain that handles the write-type rights, with
// one writable directory and /dev/null), then runs RUNS times `/bin/sh -c 'x=$(date); echo $x'` (a shell that runs
// `date`, like examples/trivial/trivial.sh) one after another, and prints the children's CPU per run (reaped times).
//
// usage: landlock-cost MODE RUNS [WRITABLE_DIR]
//   MODE 0: no restriction; 1: no_new_privs only; 2: Landlock's write rights, no truncate guard; 3: the same with
//   LANDLOCK_ACCESS_FS_TRUNCATE handled (the daemon's truncate guard on ABI >= 3); 4: the write rights and the
//   seccomp truncate guard (the daemon's on older ABIs: restrict_self preferring the filter). Alternate
//   modes in one shell loop: this VM's speed drifts by more than the differences between them within minutes
//   (docs/benchmarks.md, P1, fifth session).
//
// The daemon's own sandbox code is compiled in, so that this measures exactly the domain providers get: its static
// restrict_self(), restrict_writes() (every write-type right given handled, granted beneath the writable paths) and
// write_rights(). Build: cc -O2 -ISources/CSpawn/include benchmarks/landlock-cost.c Sources/CSpawn/CSpawn.c
// -lpthread
#include "../Sources/CSpawn/CSpawnSandbox.c"

#include <stdio.h>
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
    if (mode >= 1 && mode <= 3 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("prctl(PR_SET_NO_NEW_PRIVS)");
    if (mode >= 2) {
        const char *paths[] = {writable, "/dev/null"};
        struct cspawn_sandbox sandbox;
        memset(&sandbox, 0, sizeof sandbox);
        sandbox.abi = cspawn_landlock_abi();
        if (sandbox.abi < (mode == 3 ? 3 : 2)) {
            fprintf(stderr, "landlock-cost: this kernel's Landlock ABI is %d\n", sandbox.abi);
            return 1;
        }
        sandbox.writable = paths;
        sandbox.writable_count = 2;
        const char *step = NULL;
        int failed;
        if (mode == 4) {
            sandbox.prefer_seccomp = 1;
            failed = restrict_self(&sandbox, &step);
            fprintf(stderr, "landlock-cost: truncate guard %d\n", (int)sandbox.truncate_guard);
        } else {
            uint64_t handled = write_rights(sandbox.abi) | (mode == 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
            failed = restrict_writes(&sandbox, handled, &step);
        }
        if (failed != 0) fail(step);
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
