import CSpawn

#if canImport(Glibc)
import Glibc
#endif

/// The posix_spawn attributes of every provider (its own process group, an empty signal mask, every signal at its
/// default), built once per runner and read-only after.
final class SpawnAttributes {
    let attributes = UnsafeMutablePointer<posix_spawnattr_t>.allocate(capacity: 1)
    private var ready = false

    /// Throws the error number if glibc refuses an attribute.
    init() throws(SpawnSetupError) {
        let error = cspawn_attr_init_isolated(attributes)
        ready = true
        guard error == 0 else { throw SpawnSetupError(errno: error) }
    }

    deinit {
        if ready { posix_spawnattr_destroy(attributes) }
        attributes.deallocate()
    }
}
