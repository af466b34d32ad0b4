/// State shared by the runs of one runner (they all run on its loop's thread): scratch space for reading pipes,
/// and the runner process's last known peak RSS. Each run keeps it alive, so a run outliving its runner still reads
/// into valid memory.
final class RunnerSharedState {
    /// The bytes; 64 KiB, a pipe's default capacity.
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
    /// The runner process's peak RSS in bytes when last read (it never decreases).
    var spawnerPeakBytes: UInt64 = 0

    deinit {
        bytes.deallocate()
    }
}
