import Foundation
import WidgetProtocol
import WidgetSchedulerCore

extension Timeline {
    /// The timeline as stored in the `timeline` table: the JSON of its `Codable` form (dates as seconds since 2001,
    /// the policy as Swift's enum coding), which `JSONDecoder` reads back. Written by hand, as the daemon stores one
    /// per run and `JSONEncoder` was a twentieth of its time; a test pins the round trip.
    func storedJSON() -> String {
        var output = JSONBytesWriter(reservingCapacity: 64 + entries.count * 96)
        output.raw("{\"entries\":[")
        for (index, entry) in entries.enumerated() {
            output.raw(index == 0 ? "{\"content\":" : ",{\"content\":")
            output.string(entry.content)
            output.raw(",\"date\":")
            output.number(entry.date.timeIntervalSinceReferenceDate)
            if let relevance = entry.relevance {
                output.raw(",\"relevance\":{\"duration\":")
                output.number(relevance.duration)
                output.raw(",\"score\":")
                output.number(relevance.score)
                output.raw("}")
            }
            output.raw("}")
        }
        switch policy {
        case .atEnd: output.raw("],\"policy\":{\"atEnd\":{}}}")
        case .never: output.raw("],\"policy\":{\"never\":{}}}")
        case .after(let date):
            output.raw("],\"policy\":{\"after\":{\"_0\":")
            output.number(date.timeIntervalSinceReferenceDate)
            output.raw("}}}")
        }
        return String(decoding: output.bytes, as: UTF8.self)
    }
}
