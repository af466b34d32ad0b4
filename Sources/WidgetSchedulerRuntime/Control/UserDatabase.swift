#if canImport(Glibc)
import Glibc
#endif

/// Name and id lookups in the user and group databases (NSS), for peer groups and manifest owners.
public enum UserDatabase {
    /// The name of user `uid`, or nil if there is none.
    public static func userName(uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name
        else { return nil }
        return String(cString: name)
    }

    /// The uid of user `name` (or `name` itself when it is a number), or nil if there is none.
    public static func userID(named name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    /// The gid of group `name` (or `name` itself when it is a number), or nil if there is none.
    public static func groupID(named name: String) -> UInt32? {
        if let number = UInt32(name) { return number }
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }
}
