import Foundation

/// Server-Sent Events framing (`text/event-stream`): `event: NAME`, one `data:` line of JSON, a blank line.
enum ServerSentEvent {
    static func encode<Payload: Encodable>(event: String, _ payload: Payload) -> String {
        // JSONEncoder escapes line breaks inside strings and writes none between members, so the JSON is one line.
        let data = (try? JSONEncoder().encode(payload)) ?? Data("{}".utf8)
        return "event: \(event)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"
    }
}
