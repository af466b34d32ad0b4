import Glibc

extension ArraySlice<UInt8> {
    /// The offset from `startIndex` of the first occurrence of `needle` (not empty): glibc's `memchr` finds each
    /// candidate first byte, `memcmp` checks the rest (Swift's Glibc module does not export `memmem`).
    ///
    /// The P1 client searches every `Watch` event with this. The standard library's generic `firstRange(of:)` and
    /// `contains(_:)` cost it ~30 µs of CPU per run, on the same two CPUs as the daemon it measures.
    func offset(of needle: [UInt8]) -> Int? {
        precondition(!needle.isEmpty, "an empty needle")
        return withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { pattern -> Int? in
                guard let base = haystack.baseAddress, let first = pattern.first else { return nil }
                var offset = 0
                while haystack.count - offset >= pattern.count {
                    guard let hit = memchr(base + offset, Int32(first), haystack.count - offset - pattern.count + 1)
                    else { return nil }
                    let at = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + at, pattern.baseAddress!, pattern.count) == 0 { return at }
                    offset = at + 1
                }
                return nil
            }
        }
    }

    /// Whether `needle` occurs in these bytes.
    func holds(_ needle: [UInt8]) -> Bool {
        offset(of: needle) != nil
    }
}
