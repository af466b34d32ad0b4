import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// What the daemon saves per widget in the schedule blob: the core's state without its timeline (saved apart, with
/// its outline), the last run's facts for `list`, and the content of the entry hosts show now.
///
/// The blob is the compact binary encoding (`CompactWriter`), first byte its version: 3, which ends with the images
/// of the current entry; 2, without them (read as none), which ends with the count of daemon deaths the widget's runs
/// were in flight at; 1, without it (read as 0). Blobs written before it are
/// JSON (first byte `{`) and are still read. The pending run's due-time tag carries whether that run is already paid
/// for (bit 1, `paidTag`): blobs written before the flag have the tag 0 or 1 and are read as not paid.
struct PersistedWidgetState {
    /// The last run that started: when, why, and how it ended (nil while it runs).
    struct LastRun: Codable, Hashable {
        var startedAt: Date
        var reason: RunReason
        var outcome: String?
    }

    var schedule: WidgetSchedule
    var lastRun: LastRun?
    /// The current entry's content as JSON text. The scheduler keeps only entry dates; this may belong to an older
    /// timeline than the stored one (until the new one's first date).
    var currentContent: String?
    /// The images the current entry's content names, by file name.
    var currentImages: [String: EntryImage] = [:]

    static let compactVersion: UInt8 = 3
    /// Set in the pending run's due-time tag (0 monotonic, 1 wall) when the run is already paid for.
    static let paidTag: UInt8 = 2

    func encoded() -> Data {
        var writer = CompactWriter(capacity: 160 + (currentContent?.utf8.count ?? 0))
        writer.u8(Self.compactVersion)
        writer.string(schedule.id)
        writer.string(schedule.kind)
        writer.double(schedule.budget.tokens)
        writer.double(schedule.budget.stamp)
        writer.optional(schedule.lastRunStart) { $0.double($1) }
        writer.int(schedule.consecutiveFailures)
        writer.optional(schedule.backoffUntil) { $0.double($1) }
        writer.bool(schedule.quarantined)
        writer.optional(schedule.inFlight) { writer, run in
            writer.string(run.reason.rawValue)
            writer.double(run.startedAt)
        }
        writer.optional(schedule.pending) { writer, pending in
            writer.string(pending.reason.rawValue)
            let paid = pending.alreadyPaid ? Self.paidTag : 0
            switch pending.due {
            case .monotonic(let seconds):
                writer.u8(0 | paid)
                writer.double(seconds)
            case .wall(let date):
                writer.u8(1 | paid)
                writer.date(date)
            }
        }
        writer.optional(schedule.currentEntry) { writer, entry in
            writer.date(entry.date)
            writer.optional(entry.relevance) { writer, relevance in
                writer.double(relevance.score)
                writer.double(relevance.duration)
            }
        }
        writer.double(schedule.maxRelevanceScore)
        writer.optional(lastRun) { writer, run in
            writer.date(run.startedAt)
            writer.string(run.reason.rawValue)
            writer.optional(run.outcome) { $0.string($1) }
        }
        writer.optional(currentContent) { $0.string($1) }
        writer.int(schedule.interruptedByDaemonDeaths)
        writer.int(currentImages.count)
        for name in currentImages.keys.sorted() {
            guard let image = currentImages[name] else { continue }
            writer.string(name)
            writer.string(image.sha256)
            writer.string(image.contentType)
            writer.int(image.width)
            writer.int(image.height)
            writer.int(image.byteCount)
        }
        return writer.data
    }

    /// Decodes either encoding; throws a description of what is wrong with a damaged blob, and `StoredValueError`
    /// naming the field for a value out of the supported range.
    init(decoding data: Data) throws {
        if data.first == UInt8(ascii: "{") {
            self = try Self.decodingJSON(data)
        } else {
            self = try Self.decodingCompact(data)
        }
        try checkRanges()
    }

    /// The most consecutive failures a stored schedule may count: far past any quarantine threshold, and far from
    /// overflowing when one more is counted.
    static let maximumStoredFailures = Int(Int32.max)

    /// Throws `StoredValueError` for the first value the service could not have stored: every date supported,
    /// every monotonic reading plausible, counts and tokens not negative.
    private func checkRanges() throws {
        let budget = schedule.budget
        guard budget.tokens.isFinite, budget.tokens >= 0 else {
            throw StoredValueError(field: "budget.tokens", value: "\(budget.tokens)", expected: "a number ≥ 0")
        }
        _ = try StoredValueError.monotonic(budget.stamp, "budget.stamp")
        if let start = schedule.lastRunStart { _ = try StoredValueError.monotonic(start, "lastRunStart") }
        guard (0...Self.maximumStoredFailures).contains(schedule.consecutiveFailures) else {
            throw StoredValueError(field: "consecutiveFailures", value: "\(schedule.consecutiveFailures)",
                                   expected: "a count from 0 to \(Self.maximumStoredFailures)")
        }
        if let until = schedule.backoffUntil { _ = try StoredValueError.monotonic(until, "backoffUntil") }
        if let run = schedule.inFlight { _ = try StoredValueError.monotonic(run.startedAt, "inFlight.startedAt") }
        switch schedule.pending?.due {
        case .monotonic(let seconds)?: _ = try StoredValueError.monotonic(seconds, "pending.due")
        case .wall(let date)?: _ = try StoredValueError.date(date, "pending.due")
        case nil: break
        }
        if let entry = schedule.currentEntry {
            _ = try StoredValueError.date(entry.date, "currentEntry.date")
            if let relevance = entry.relevance {
                _ = try StoredValueError.relevance(relevance, "currentEntry.relevance")
            }
        }
        guard SupportedRange.contains(score: schedule.maxRelevanceScore) else {
            throw StoredValueError(field: "maxRelevanceScore", value: "\(schedule.maxRelevanceScore)",
                                   expected: SupportedRange.scoresDescription)
        }
        if let run = lastRun { _ = try StoredValueError.date(run.startedAt, "lastRun.startedAt") }
        for (name, image) in currentImages where !image.isPlausible {
            throw StoredValueError(field: "currentImages.\(name)", value: "\(image)",
                                   expected: "an image as the daemon stores one")
        }
        let deaths = schedule.interruptedByDaemonDeaths
        guard (0...Self.maximumStoredFailures).contains(deaths) else {
            throw StoredValueError(field: "interruptedByDaemonDeaths", value: "\(deaths)",
                                   expected: "a count from 0 to \(Self.maximumStoredFailures)")
        }
    }

    private static func decodingCompact(_ data: Data) throws -> PersistedWidgetState {
        var reader = CompactReader(data)
        let version = try reader.u8()
        guard (1...Self.compactVersion).contains(version) else {
            throw CompactReader.Malformed(offset: 0, reason: "unknown schedule version \(version)")
        }
        var schedule = WidgetSchedule(id: try reader.string(), kind: try reader.string(),
                                      budget: RefreshBudget(tokens: try reader.double(), stamp: try reader.double()))
        schedule.lastRunStart = try reader.optional { try $0.double() }
        schedule.consecutiveFailures = try reader.int()
        schedule.backoffUntil = try reader.optional { try $0.double() }
        schedule.quarantined = try reader.bool()
        schedule.inFlight = try reader.optional {
            WidgetSchedule.RunInFlight(reason: try $0.named(RunReason.self), startedAt: try $0.double())
        }
        schedule.pending = try reader.optional { reader in
            let reason = try reader.named(RunReason.self)
            let tag = try reader.u8()
            let paid = tag & Self.paidTag != 0
            switch tag & ~Self.paidTag {
            case 0: return PendingRun(reason: reason, due: .monotonic(try reader.double()), alreadyPaid: paid)
            case 1: return PendingRun(reason: reason, due: .wall(try reader.date()), alreadyPaid: paid)
            default:
                throw CompactReader.Malformed(offset: reader.offset - 1, reason: "unknown due-time tag \(tag)")
            }
        }
        schedule.currentEntry = try reader.optional { reader in
            TimelineOutline.Entry(date: try reader.date(), relevance: try reader.optional {
                TimelineEntryRelevance(score: try $0.double(), duration: try $0.double())
            })
        }
        schedule.maxRelevanceScore = try reader.double()
        let lastRun = try reader.optional { reader in
            LastRun(startedAt: try reader.date(), reason: try reader.named(RunReason.self),
                    outcome: try reader.optional { try $0.string() })
        }
        let currentContent = try reader.optional { try $0.string() }
        if version >= 2 { schedule.interruptedByDaemonDeaths = try reader.int() }
        var currentImages: [String: EntryImage] = [:]
        if version >= 3 {
            let count = try reader.int()
            // Each image takes at least six bytes: a count past what is left is damage, not a reason to loop.
            guard count >= 0, count <= reader.remaining else {
                throw CompactReader.Malformed(offset: reader.offset, reason: "\(count) current images")
            }
            for _ in 0..<count {
                let name = try reader.string()
                currentImages[name] = EntryImage(sha256: try reader.string(), contentType: try reader.string(),
                                                 width: try reader.int(), height: try reader.int(),
                                                 byteCount: try reader.int())
            }
        }
        guard reader.isAtEnd else {
            throw CompactReader.Malformed(offset: reader.offset, reason: "trailing bytes after the schedule")
        }
        return PersistedWidgetState(schedule: schedule, lastRun: lastRun, currentContent: currentContent,
                                    currentImages: currentImages)
    }

    init(schedule: WidgetSchedule, lastRun: LastRun?, currentContent: String?,
         currentImages: [String: EntryImage] = [:]) {
        self.schedule = schedule
        self.lastRun = lastRun
        self.currentContent = currentContent
        self.currentImages = currentImages
    }

    /// The JSON of earlier versions, whose current entry carried its content inside the schedule.
    private struct LegacyJSON: Decodable {
        struct Schedule: Decodable {
            struct Entry: Decodable { var content: String? }
            var currentEntry: Entry?
        }
        var schedule: WidgetSchedule
        var lastRun: LastRun?
        var contents: Schedule

        enum CodingKeys: String, CodingKey { case schedule, lastRun }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            schedule = try container.decode(WidgetSchedule.self, forKey: .schedule)
            lastRun = try container.decodeIfPresent(LastRun.self, forKey: .lastRun)
            contents = try container.decode(Schedule.self, forKey: .schedule)
        }
    }

    private static func decodingJSON(_ data: Data) throws -> PersistedWidgetState {
        let legacy = try JSONDecoder().decode(LegacyJSON.self, from: data)
        return PersistedWidgetState(schedule: legacy.schedule, lastRun: legacy.lastRun,
                                    currentContent: legacy.contents.currentEntry?.content)
    }
}
