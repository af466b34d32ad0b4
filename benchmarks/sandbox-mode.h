// The sandbox modes that landlock-cost.c and open-cost.c measure. The daemon's own sandbox code is compiled in, so
// that each mode is exactly a domain providers get: its static restrict_self(), restrict_writes() (every write-type
// right given handled, granted beneath the writable paths) and write_rights().
#include "../Sources/CSpawn/CSpawnSandbox.c"

#include <stdio.h>

/// Restricts the calling thread as `mode` says, writable beneath `writable` and /dev/null: 0 not at all; 1
/// no_new_privs only; 2 Landlock's write rights, no truncate guard; 3 the same with LANDLOCK_ACCESS_FS_TRUNCATE handled
/// (the daemon's domain on ABI >= 3); 4 the write rights and the seccomp truncate guard (the daemon's on older ABIs:
/// restrict_self preferring the filter). Returns 0, or -1 after saying why on stderr.
static int restrict_to_mode(int mode, const char *writable) {
    if (mode == 0) return 0;
    if (mode <= 3 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        perror("prctl(PR_SET_NO_NEW_PRIVS)");
        return -1;
    }
    if (mode == 1) return 0;
    const char *paths[] = {writable, "/dev/null"};
    struct cspawn_sandbox sandbox;
    memset(&sandbox, 0, sizeof sandbox);
    sandbox.abi = cspawn_landlock_abi();
    if (sandbox.abi < (mode == 3 ? 3 : 2)) {
        fprintf(stderr, "this kernel's Landlock ABI is %d\n", sandbox.abi);
        return -1;
    }
    sandbox.writable = paths;
    sandbox.writable_count = 2;
    const char *step = NULL;
    if (mode == 4) {
        sandbox.prefer_seccomp = 1;
        if (restrict_self(&sandbox, &step) != 0) {
            perror(step);
            return -1;
        }
        if (sandbox.truncate_guard != CSPAWN_TRUNCATE_GUARD_SECCOMP) {
            fprintf(stderr, "no seccomp truncate guard on this kernel\n");
            return -1;
        }
        return 0;
    }
    uint64_t handled = write_rights(sandbox.abi) | (mode == 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
    if (restrict_writes(&sandbox, handled, &step) != 0) {
        perror(step);
        return -1;
    }
    return 0;
}
