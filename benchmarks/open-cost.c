// What the provider sandbox costs one system call, apart from any process start-up: this process restricts itself
// as landlock-cost.c's MODE says, then times N open+close pairs of a read-only file three directories deep, and N
// getppid calls, on its own thread's CPU clock. A provider run makes ~380 system calls, ~20 of them successful opens
// (examples/trivial/trivial.sh: `strace -f -c`), so these two figures price the Landlock TRUNCATE right (a walk of
// the opened file's path to the root on every open) against the seccomp truncate guard (the system-call entry's
// slow path on every call, the filter itself cached for all but the opens).
//
// usage: open-cost MODE N [FILE]
//   MODE as benchmarks/sandbox-mode.h says: 0 no restriction; 2 Landlock's write rights; 3 the same with TRUNCATE
//   handled (the daemon's domain on ABI >= 3); 4 the write rights and the seccomp truncate guard (the daemon's on
//   older ABIs). Alternate modes in one shell loop. FILE defaults to /usr/share/locale/locale.alias.
//
// Build: cc -O2 -ISources/CSpawn/include benchmarks/open-cost.c Sources/CSpawn/CSpawn.c -lpthread
#include "sandbox-mode.h"

#include <time.h>

static double thread_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec * 1e9 + (double)now.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: open-cost MODE N [FILE]\n");
        return 2;
    }
    int mode = atoi(argv[1]);
    int count = atoi(argv[2]);
    const char *file = argc > 3 ? argv[3] : "/usr/share/locale/locale.alias";
    if (restrict_to_mode(mode, "/tmp") != 0) return 1;
    double started = thread_ns();
    for (int index = 0; index < count; index++) {
        int fd = open(file, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            perror(file);
            return 1;
        }
        close(fd);
    }
    double opened = thread_ns();
    for (int index = 0; index < count; index++) getppid();
    double ended = thread_ns();
    printf("mode=%d open_close_ns=%.0f getppid_ns=%.0f\n", mode, (opened - started) / count, (ended - opened) / count);
    return 0;
}
