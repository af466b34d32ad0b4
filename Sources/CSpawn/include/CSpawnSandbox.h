#ifndef WIDGET_SCHEDULER_CSPAWN_SANDBOX_H
#define WIDGET_SCHEDULER_CSPAWN_SANDBOX_H

// Providers spawned under Landlock. posix_spawn has no hook between fork and exec, and landlock_restrict_self
// restricts only the calling thread (and what it creates from then on), so a sandbox is a thread of its own: it
// restricts itself once, then runs the posix_spawn calls handed to it. The caller's thread stays unrestricted, so the
// daemon can still write its state while every provider it starts cannot.

#include <spawn.h>
#include <stddef.h>
#include <sys/types.h>

/// The Landlock ABI version of the running kernel (1 or more), or -1 with errno: ENOSYS when the kernel has no
/// Landlock, EOPNOTSUPP when it is built in but disabled at boot (`lsm=`), EPERM when a seccomp filter refuses it.
int cspawn_landlock_abi(void);

/// A thread whose children can write only beneath a set of paths.
typedef struct cspawn_sandbox cspawn_sandbox;

/// Starts a sandbox thread: it sets no_new_privs on itself (Landlock requires it, and the children inherit it), then
/// handles every write-type filesystem right its ABI knows (writing, truncating, creating, removing, renaming and
/// linking files, directories, devices, sockets, pipes and symbolic links) and grants them only beneath the
/// `count` paths of `writable`. Reading and executing stay as they were. A path that does not exist is skipped; a
/// path naming a file grants writing that file only.
///
/// Returns NULL with errno set on failure, and `*failed_step` (if not NULL) names the step that failed, e.g.
/// "landlock_restrict_self"; the thread is then gone.
cspawn_sandbox *cspawn_sandbox_start(const char *const *writable, size_t count, const char **failed_step);

/// The ABI version the sandbox was built with.
int cspawn_sandbox_abi(const cspawn_sandbox *sandbox);

/// posix_spawn(3), called on the sandbox's thread; blocks until it returns there. The arguments are only read while
/// the call lasts. Returns posix_spawn's result: 0, or an error number.
int cspawn_sandbox_spawn(cspawn_sandbox *sandbox, pid_t *pid, const char *path,
                         const posix_spawn_file_actions_t *actions, const posix_spawnattr_t *attributes,
                         char *const argv[], char *const envp[]);

/// Ends the sandbox's thread and frees it. Children already started are not affected.
void cspawn_sandbox_stop(cspawn_sandbox *sandbox);

#endif
