// A provider that measures its own CPU, for benchmarks/provider-cpu.sh.
//
// It reads the request, runs /bin/date the way a shell's $(date) does (fork, exec with stdout on a pipe, read,
// wait), answers a one-entry timeline, and appends one line to cpu.<parent pid> in its own directory:
// "AT_MAIN END DATE" in nanoseconds: its CPU time (CLOCK_PROCESS_CPUTIME_ID) on entering main (the vfork child
// before its execve, the exec and the dynamic loader), at its end, and its reaped child's (date's) CPU time. Its
// parent's pid names the file, so the C loop's, runner-bench's and the daemon's runs are told apart.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long nanoseconds(struct timespec time) { return (long long)time.tv_sec * 1000000000LL + time.tv_nsec; }

int main(void) {
    struct timespec at_main, at_end;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &at_main);
    char buffer[4096];
    while (read(0, buffer, sizeof buffer) > 0) {}
    int output[2];
    if (pipe(output) != 0) return 1;
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        dup2(output[1], 1);
        close(output[0]);
        close(output[1]);
        char *argv[] = {"date", "-u", "+%Y-%m-%dT%H:%M:%SZ", NULL};
        execve("/bin/date", argv, environ);
        _exit(127);
    }
    close(output[1]);
    char date[64] = {0};
    ssize_t count = read(output[0], date, sizeof date - 1);
    close(output[0]);
    if (count > 0 && date[count - 1] == '\n') date[count - 1] = 0;
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return 1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || count <= 0) return 1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &at_end);
    struct rusage children;
    getrusage(RUSAGE_CHILDREN, &children);
    long long date_cpu = (children.ru_utime.tv_sec + children.ru_stime.tv_sec) * 1000000000LL +
                         (children.ru_utime.tv_usec + children.ru_stime.tv_usec) * 1000LL;

    char self[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) return 1;
    self[length] = 0;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/cpu.%d", dirname(self), (int)getppid());
    int file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (file < 0) return 1;
    char line[96];
    int size = snprintf(line, sizeof line, "%lld %lld %lld\n", nanoseconds(at_main), nanoseconds(at_end), date_cpu);
    if (write(file, line, (size_t)size) != size) return 1;
    close(file);
    printf("{\"entries\":[{\"date\":\"%s\",\"content\":{\"text\":\"hello\"}}],\"policy\":\"atEnd\"}\n", date);
    return 0;
}
