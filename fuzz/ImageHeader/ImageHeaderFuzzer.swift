import WidgetProtocol

/// libFuzzer entry point for the image header reader: the input is a file a provider wrote in its image directory.
/// Any outcome is fine but a trap. An accepted header must have dimensions a browser could lay out (1 or more each
/// way, within PNG's 2³¹−1), and `ImageRules.check` must agree with it; a refusal's message is rendered, as the
/// daemon quotes it in the run's failure.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch ImageHeader.read(bytes) {
    case .success(let header):
        precondition(header.width >= 1 && header.height >= 1, "accepted an image without pixels")
        precondition(header.width <= Int(Int32.max) && header.height <= Int(Int32.max), "accepted a huge size")
        _ = header.format.contentType
        switch ImageRules.check(bytes) {
        case .success(let checked): precondition(checked == header, "check read another header")
        case .failure(let message):
            precondition(header.width > ImageRules.maximumDimension || header.height > ImageRules.maximumDimension,
                         "check refused a header read as fine: \(message)")
        }
    case .failure(let problem):
        _ = problem.description
        if case .success = ImageRules.check(bytes) { preconditionFailure("check accepted what read refused") }
    }
    return 0
}
