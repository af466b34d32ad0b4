/// How the daemon's heap is set once its state is loaded: what `Daemon.run` does before serving, and what a benchmark
/// of the daemon's request paths must do too to measure the same thing.
public enum HeapTuning {
    /// Loading decodes every stored row, and glibc keeps the freed memory: it is handed back. Then replies and
    /// decision lists of a few hundred KiB to a few MiB (a `Reload` of 10 000 widgets) come and go with every
    /// request; glibc would map each such block and unmap it when freed, and trim the heap's top, so every request
    /// paid its page faults again (a tenth of such a request's time, half of it in process): blocks below 8 MiB are
    /// kept in the heap and its top untrimmed below 8 MiB. `List` of 100 000 widgets (27 MB) is still mapped and
    /// given back.
    public static func settleAfterLoading() {
        _ = malloc_trim(0)
        _ = mallopt(mallocMmapThreshold, 8 << 20)
        _ = mallopt(mallocTrimThreshold, 8 << 20)
    }
}

// glibc's malloc_trim(3), which the Glibc module does not import (malloc.h).
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32

// glibc's mallopt(3) and two of its parameters (malloc.h).
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
private let mallocTrimThreshold: Int32 = -1
private let mallocMmapThreshold: Int32 = -3
