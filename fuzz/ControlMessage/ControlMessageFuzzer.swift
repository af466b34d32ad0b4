import WidgetProtocol

/// libFuzzer entry point for the control message decoder: one framed message (NUL removed) through
/// `VarlinkRequest.parse`, and a parsed call's parameters through the decoding of every method's parameters, as the
/// daemon's router does. Any outcome is fine but a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    switch VarlinkRequest.parse(bytes) {
    case .failure(let error):
        _ = String(describing: error)
    case .success(let request):
        _ = request.interface
        _ = request.member
        let parameters = request.parameters ?? [:]
        decode(ReloadMethod.Parameters.self, parameters)
        decode(AddMethod.Parameters.self, parameters)
        decode(RemoveMethod.Parameters.self, parameters)
        decode(ConfigureMethod.Parameters.self, parameters)
        decode(OptionsMethod.Parameters.self, parameters)
        decode(TimelineMethod.Parameters.self, parameters)
        decode(BudgetMethod.Parameters.self, parameters)
        decode(WatchMethod.Parameters.self, parameters)
        decode(StackMethod.Parameters.self, parameters)
        decode(DataSetMethod.Parameters.self, parameters)
        decode(DataGetMethod.Parameters.self, parameters)
        decode(DataListMethod.Parameters.self, parameters)
        decode(DataDeleteMethod.Parameters.self, parameters)
        if let reload = try? VarlinkCoding.decode(ReloadMethod.Parameters.self, from: parameters) {
            _ = try? reload.target()
        }
    }
    return 0
}

private func decode<Parameters: Decodable>(_ type: Parameters.Type, _ parameters: [String: JSONValue]) {
    do {
        _ = try VarlinkCoding.decode(type, from: parameters)
    } catch {
        _ = String(describing: error)
    }
}
