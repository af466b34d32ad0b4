/// Scratch space for reading pipes, shared by the runs of one runner (they all run on its loop's thread) and kept
/// alive by each of them, so a run outliving its runner still reads into valid memory.
final class ReadBuffer {
    /// The bytes; 64 KiB, a pipe's default capacity.
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)

    deinit {
        bytes.deallocate()
    }
}
