/// State shared by the runs of one runner (they all run on its loop's thread): scratch space for reading pipes,
/// and the runner process's last known peak RSS. Each run keeps it alive, so a run outliving its runner still reads
/// into valid memory.
final class RunnerSharedState {
    /// Where children are spawned from when they are sandboxed; nil spawns them from the loop's thread.
    let sandbox: ProviderSandbox?
    /// The bytes; 64 KiB, a pipe's default capacity.
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
    /// The runner process's peak RSS in bytes when last read (it never decreases).
    var spawnerPeakBytes: UInt64 = 0

    init(sandbox: ProviderSandbox?) {
        self.sandbox = sandbox
    }

    deinit {
        bytes.deallocate()
    }
}
