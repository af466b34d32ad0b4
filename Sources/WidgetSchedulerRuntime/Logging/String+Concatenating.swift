extension String {
    /// `parts` one after another, copied into a string of their total length. For a line written with every run: an
    /// interpolation of the same parts appends them one by one, growing (and copying) the string as it goes.
    init(concatenating parts: String...) {
        var total = 0
        for part in parts {
            total += part.utf8.count
        }
        self.init(unsafeUninitializedCapacity: total) { buffer in
            var offset = 0
            for var part in parts {
                part.withUTF8 { utf8 in
                    // The index after the last byte copied, in the rebased buffer: the part's length.
                    offset += UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(fromContentsOf: utf8)
                }
            }
            return offset
        }
    }
}
