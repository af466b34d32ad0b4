#define _GNU_SOURCE
#include "CSpawnProcessTree.h"
#include "CSpawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

/// The most processes one tree kill looks at: a bound on its work, far above what a run may have.
enum { tree_capacity = 8192 };

/// Reads a whole small /proc file into `buffer` (NUL-terminated); returns its length, or -1 with errno.
static ssize_t read_small_file(const char *path, char *buffer, size_t capacity) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    size_t length = 0;
    while (length + 1 < capacity) {
        ssize_t count = read(fd, buffer + length, capacity - 1 - length);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        length += (size_t)count;
    }
    close(fd);
    buffer[length] = 0;
    return (ssize_t)length;
}

/// The parent of `pid` from /proc/PID/stat (its thread group id), or -1 with errno.
static pid_t parent_of(pid_t pid) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (read_small_file(path, text, sizeof text) < 0) return -1;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so look after its last ')'.
    char *end = strrchr(text, ')');
    if (end == NULL) {
        errno = EINVAL;
        return -1;
    }
    char state;
    int parent;
    if (sscanf(end + 1, " %c %d", &state, &parent) != 2) {
        errno = EINVAL;
        return -1;
    }
    return (pid_t)parent;
}

/// Whether the process behind `pidfd` has exited (its pidfd is readable then).
static int has_exited(int pidfd) {
    struct pollfd descriptor = {.fd = pidfd, .events = POLLIN};
    return poll(&descriptor, 1, 0) > 0;
}

int cspawn_socket_peer_pidfd(int fd, pid_t *pid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    int pidfd;
    length = sizeof pidfd;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &length) == 0) return pidfd;
    if (errno != ENOPROTOOPT) return -1;
    return cspawn_pidfd_open(credentials.pid);
}

int cspawn_descends_from(int pidfd, pid_t pid, pid_t ancestor) {
    int current_fd = pidfd;
    pid_t current = pid;
    int verdict = -1;
    // Deeper than any real tree; a walk that gets no further is not trusted.
    for (int depth = 0; depth < 4096; depth++) {
        if (current == ancestor) {
            verdict = depth > 0;
            break;
        }
        pid_t parent = parent_of(current);
        // The /proc entry read was the held process's only if that process is still there now.
        if (parent < 0 || has_exited(current_fd)) {
            errno = ESRCH;
            break;
        }
        if (parent == ancestor) {
            verdict = 1;
            break;
        }
        if (parent <= 0) {
            verdict = 0;
            break;
        }
        int parent_fd = cspawn_pidfd_open(parent);
        // Still its parent once held: had the parent gone meanwhile, the process would have a new one by now (a
        // process's parent changes only when its parent exits), so `parent_fd` holds the very parent.
        if (parent_fd < 0 || parent_of(current) != parent) {
            if (parent_fd >= 0) close(parent_fd);
            // Reparented meanwhile: read its parent again.
            continue;
        }
        if (current_fd != pidfd) close(current_fd);
        current_fd = parent_fd;
        current = parent;
    }
    if (current_fd != pidfd) close(current_fd);
    if (verdict < 0 && errno == 0) errno = ESRCH;
    return verdict;
}

/// The next pid of a /proc `children` list at `*cursor` (moved past it), or 0 at its end.
static pid_t next_pid(char **cursor) {
    char *end;
    long pid = strtol(*cursor, &end, 10);
    if (end == *cursor || pid <= 0) return 0;
    *cursor = end;
    return (pid_t)pid;
}

/// A process found in a tree, held by a pidfd (owned unless it is the root's, which the caller owns).
struct tree_node {
    pid_t pid;
    int pidfd;
};

/// Appends the children of `parent` (from every one of its threads) to `nodes`, each held and checked to still be
/// its child. Returns the new count.
static size_t append_children(struct tree_node *nodes, size_t count, pid_t parent) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)parent);
    DIR *tasks = opendir(path);
    if (tasks == NULL) return count;
    struct dirent *task;
    char *text = malloc(65536);
    while (text != NULL && (task = readdir(tasks)) != NULL && count < tree_capacity) {
        if (task->d_name[0] < '0' || task->d_name[0] > '9') continue;
        char children_path[96];
        snprintf(children_path, sizeof children_path, "/proc/%d/task/%s/children", (int)parent, task->d_name);
        if (read_small_file(children_path, text, 65536) <= 0) continue;
        char *cursor = text;
        pid_t child;
        while (count < tree_capacity && (child = next_pid(&cursor)) > 0) {
            int fd = cspawn_pidfd_open(child);
            if (fd < 0) continue;
            if (parent_of(child) != parent || has_exited(fd)) {
                close(fd);
                continue;
            }
            nodes[count++] = (struct tree_node){.pid = child, .pidfd = fd};
        }
    }
    free(text);
    closedir(tasks);
    return count;
}

int cspawn_kill_tree(int pidfd, pid_t pid) {
    struct tree_node *nodes = malloc(sizeof *nodes * tree_capacity);
    if (nodes == NULL) return -1;
    size_t count = 0;
    nodes[count++] = (struct tree_node){.pid = pid, .pidfd = pidfd};
    // Breadth first, all found before any is killed: a killed parent's children would be handed to a subreaper
    // before their turn came, and be missed here.
    for (size_t index = 0; index < count && count < tree_capacity; index++) {
        count = append_children(nodes, count, nodes[index].pid);
    }
    int killed = 0;
    for (size_t index = 0; index < count; index++) {
        if (cspawn_pidfd_send_signal(nodes[index].pidfd, SIGKILL) == 0) killed++;
        if (index > 0) close(nodes[index].pidfd);
    }
    free(nodes);
    return killed;
}

/// The children of the calling process's main thread, into `pids` (at most `capacity`); their count, or -1.
static int leader_children(pid_t *pids, int capacity) {
    char path[64];
    pid_t self = getpid();
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)self, (int)self);
    char *text = malloc(65536);
    if (text == NULL) return -1;
    ssize_t length = read_small_file(path, text, 65536);
    if (length < 0) {
        int saved = errno;
        free(text);
        errno = saved;
        return -1;
    }
    int count = 0;
    char *cursor = text;
    pid_t child;
    while (count < capacity && (child = next_pid(&cursor)) > 0) pids[count++] = child;
    free(text);
    return count;
}

static int is_known(pid_t pid, const pid_t *known, size_t known_count) {
    for (size_t index = 0; index < known_count; index++) {
        if (known[index] == pid) return 1;
    }
    return 0;
}

static long long milliseconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

int cspawn_kill_orphans(const pid_t *known, size_t known_count, int wait_ms, cspawn_orphan_sweep *sweep) {
    memset(sweep, 0, sizeof *sweep);
    enum { capacity = 1024 };
    pid_t *children = malloc(sizeof *children * capacity);
    struct pollfd *waits = malloc(sizeof *waits * capacity);
    pid_t *waiting = malloc(sizeof *waiting * capacity);
    int *descriptors = malloc(sizeof *descriptors * capacity);
    if (children == NULL || waits == NULL || waiting == NULL || descriptors == NULL) {
        free(children);
        free(waits);
        free(waiting);
        free(descriptors);
        errno = ENOMEM;
        return -1;
    }
    long long deadline = milliseconds_now() + wait_ms;
    int result = 0;
    for (int pass = 0; pass < 8; pass++) {
        int count = leader_children(children, capacity);
        if (count < 0) {
            result = -1;
            break;
        }
        int orphans = 0;
        for (int index = 0; index < count; index++) {
            pid_t child = children[index];
            if (is_known(child, known, known_count)) continue;
            // The caller's own child: its pid stays its own until it is reaped here.
            int fd = cspawn_pidfd_open(child);
            if (fd < 0) continue;
            if (pass == 0) sweep->found++;
            int killed = cspawn_kill_tree(fd, child);
            if (killed > 0) sweep->killed += killed;
            waits[orphans] = (struct pollfd){.fd = fd, .events = POLLIN};
            waiting[orphans++] = child;
        }
        if (orphans == 0) break;
        // Killed processes exit in a moment, each once the kernel has it run: wait for them, within the bound. An
        // exited one's entry is set aside (poll skips negative descriptors); `waiting` keeps every descriptor.
        for (int index = 0; index < orphans; index++) descriptors[index] = waits[index].fd;
        int pending = orphans;
        while (pending > 0) {
            long long left = deadline - milliseconds_now();
            if (left <= 0) break;
            int ready = poll(waits, (nfds_t)orphans, (int)left);
            if (ready < 0 && errno == EINTR) continue;
            if (ready <= 0) break;
            for (int index = 0; index < orphans; index++) {
                if (waits[index].fd >= 0 && waits[index].revents != 0) {
                    waits[index].fd = -1;
                    pending--;
                }
            }
        }
        int reaped_now = 0;
        for (int index = 0; index < orphans; index++) {
            siginfo_t info;
            memset(&info, 0, sizeof info);
            if (waitid(P_PID, (id_t)waiting[index], &info, WEXITED | WNOHANG) == 0 && info.si_pid == waiting[index]) {
                reaped_now++;
            }
            close(descriptors[index]);
        }
        sweep->reaped += reaped_now;
        sweep->remaining = orphans - reaped_now;
        // Nothing exited in time: the rest is for a later sweep.
        if (reaped_now == 0) break;
    }
    free(children);
    free(waits);
    free(waiting);
    free(descriptors);
    return result;
}
