import Foundation
import WidgetSchedulerCore

extension TimelineOutline {
    static let compactVersion: UInt8 = 1

    /// The outline as stored in the `timeline` table's `outline` column, beside the full timeline's JSON: the
    /// daemon reads only outlines at start.
    public func compactEncoded() -> Data {
        var writer = CompactWriter(capacity: 16 + count * (relevances.isEmpty ? 8 : 25))
        writer.u8(Self.compactVersion)
        switch policy {
        case .atEnd: writer.u8(0)
        case .never: writer.u8(1)
        case .after(let date):
            writer.u8(2)
            writer.date(date)
        }
        // An outline holds at most a provider answer's entries, far below 2^32.
        writer.u32(UInt32(truncatingIfNeeded: count))
        for date in dates { writer.date(date) }
        writer.bool(!relevances.isEmpty)
        for relevance in relevances {
            writer.optional(relevance) { writer, relevance in
                writer.double(relevance.score)
                writer.double(relevance.duration)
            }
        }
        return writer.data
    }

    /// Decodes `compactEncoded()`'s output; throws a description of the fault for a damaged blob, and
    /// `StoredValueError` for a date or relevance out of the supported range.
    public init(compact data: Data) throws {
        var reader = CompactReader(data)
        let version = try reader.u8()
        guard version == Self.compactVersion else {
            throw CompactReader.Malformed(offset: 0, reason: "unknown outline version \(version)")
        }
        let policy: ReloadPolicy
        switch try reader.u8() {
        case 0: policy = .atEnd
        case 1: policy = .never
        case 2: policy = .after(try reader.date())
        case let tag: throw CompactReader.Malformed(offset: reader.offset - 1, reason: "unknown policy tag \(tag)")
        }
        let count = Int(try reader.u32())
        // A count beyond what the blob can hold is damage; checking first avoids reserving for it.
        guard count <= data.count / 8 else {
            throw CompactReader.Malformed(offset: reader.offset - 4, reason: "entry count \(count) exceeds the blob")
        }
        var dates: [Date] = []
        dates.reserveCapacity(count)
        for _ in 0..<count { dates.append(try reader.date()) }
        var relevances: [TimelineEntryRelevance?] = []
        if try reader.bool() {
            relevances.reserveCapacity(count)
            for _ in 0..<count {
                relevances.append(try reader.optional { TimelineEntryRelevance(score: try $0.double(),
                                                                                duration: try $0.double()) })
            }
        }
        guard reader.isAtEnd else {
            throw CompactReader.Malformed(offset: reader.offset, reason: "trailing bytes after the outline")
        }
        try StoredValueError.timeline(dates: dates, relevances: relevances, policy: policy)
        guard let outline = TimelineOutline(dates: dates, relevances: relevances, policy: policy) else {
            throw CompactReader.Malformed(offset: 0, reason: "entry dates do not ascend")
        }
        self = outline
    }
}
