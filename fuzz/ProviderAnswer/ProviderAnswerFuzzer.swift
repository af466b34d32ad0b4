import WidgetProtocol

/// libFuzzer entry point for the provider answer decoder: the first byte picks the request kind the answer is read
/// for, the rest is the provider's stdout. Any outcome is fine but a trap; the error's description is rendered too,
/// because it quotes the offending input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProviderAnswer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let kinds = ProviderRequestKind.allCases
    let kind = kinds[Int(bytes[0]) % kinds.count]
    switch ProviderAnswerDecoder.answer(to: kind, from: Array(bytes.dropFirst()), maxEntries: 64) {
    case .success(let answer):
        _ = String(describing: answer)
    case .failure(let error):
        _ = error.description
        _ = error.reason
    }
    return 0
}
