import Foundation
import Glibc

/// The scheduler states of runs about to start, appended to `<database>-runstarts` with one write(2) before their
/// providers are spawned, so a spent token survives a `kill -9` without a database commit on the path from a
/// provider's exit to the next spawn.
///
/// A record is `u32 body length, u64 FNV-1a checksum of the body, body`; the body is a sequence number, the widget
/// id and its `WidgetScheduleRecord` in the compact encoding. The database's `apply(_:)` commits, in the same
/// transaction, the newest sequence number it covers (meta `runStartJournal`), because the batch it writes holds
/// those schedules or newer ones. Opening the store folds every newer record into the database and empties the file;
/// a record cut short or damaged (a power loss in the middle of a write) ends the reading there.
final class RunStartJournal {
    /// The meta key under which the database keeps the newest sequence number it covers.
    static let appliedKey = "runStartJournal"
    /// The file is emptied after a commit once it is this large; every record in it is covered by then.
    static let truncateAtBytes = 64 * 1024

    /// The journal's path.
    let path: String
    private let descriptor: Int32
    private let syncEachAppend: Bool
    /// The last sequence number written.
    private(set) var lastSequence: UInt64
    /// The newest sequence number a committed transaction covers.
    private(set) var appliedSequence: UInt64
    private var size: Int

    /// One journal record read back.
    struct Record: Equatable {
        var sequence: UInt64
        var schedule: WidgetScheduleRecord
    }

    /// The number of the first readable record when the file was opened: every number before it was covered by a
    /// commit before the file was last emptied.
    let firstSequence: UInt64?

    /// The byte range cut from the file when it was opened: a record cut short or damaged, and whatever followed it.
    let droppedTail: Range<Int>?

    /// Opens (creating) the journal at `path`; `applied` is the database's meta value. Reads the records newer than
    /// it into `pending`, and drops a damaged tail from the file (`droppedTail`).
    init(path: String, applied: UInt64, syncEachAppend: Bool) throws {
        self.path = path
        self.syncEachAppend = syncEachAppend
        let fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateStoreError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        descriptor = fd
        let contents = FileManager.default.contents(atPath: path) ?? Data()
        let (records, goodLength) = Self.decode([UInt8](contents))
        droppedTail = goodLength < contents.count ? goodLength..<contents.count : nil
        firstSequence = records.first?.sequence
        if droppedTail != nil {
            _ = ftruncate(fd, off_t(goodLength))
        }
        size = goodLength
        appliedSequence = applied
        lastSequence = max(applied, records.last?.sequence ?? 0)
        pending = records.filter { $0.sequence > applied }
    }

    deinit {
        close(descriptor)
    }

    /// The records newer than the database when the journal was opened, oldest first.
    private(set) var pending: [Record]

    /// Appends the schedules with one write(2) (and an fdatasync when every commit is synced): once this returns,
    /// they survive the process.
    func append(_ schedules: [WidgetScheduleRecord]) throws {
        guard !schedules.isEmpty else { return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(schedules.count * 128)
        var sequence = lastSequence
        for schedule in schedules {
            sequence += 1
            Self.encode(Record(sequence: sequence, schedule: schedule), into: &bytes)
        }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let reason = written < 0 ? String(cString: strerror(errno)) : "short write (\(written) of \(bytes.count))"
            // A partial record is a damaged tail: cut it, so later records stay readable.
            _ = ftruncate(descriptor, off_t(size))
            throw StateStoreError.cannotWrite(path: path, reason: reason)
        }
        if syncEachAppend, fdatasync(descriptor) != 0 {
            throw StateStoreError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        size += bytes.count
        lastSequence = sequence
    }

    /// Called once a transaction that wrote `sequence` as the covered number has committed; empties a large file.
    func covered(upTo sequence: UInt64) {
        appliedSequence = max(appliedSequence, sequence)
        pending = []
        if appliedSequence == lastSequence, size >= Self.truncateAtBytes {
            if ftruncate(descriptor, 0) == 0 { size = 0 }
        }
    }

    // MARK: - Encoding

    static func encode(_ record: Record, into bytes: inout [UInt8]) {
        var body = CompactWriter(capacity: 96 + record.schedule.state.count)
        body.u64(record.sequence)
        body.string(record.schedule.widgetID)
        body.blob(record.schedule.state)
        body.optional(record.schedule.nextDue) { $0.date($1) }
        body.bool(record.schedule.quarantined)
        var header = CompactWriter(capacity: 12)
        // A record holds one widget's schedule: far below 4 GiB.
        header.u32(UInt32(truncatingIfNeeded: body.bytes.count))
        header.u64(checksum(body.bytes[...]))
        bytes.append(contentsOf: header.bytes)
        bytes.append(contentsOf: body.bytes)
    }

    /// The records of `bytes` up to the first damaged one, and the length of that good prefix.
    static func decode(_ bytes: [UInt8]) -> (records: [Record], goodLength: Int) {
        var records: [Record] = []
        var offset = 0
        while bytes.count - offset >= 12 {
            var header = CompactReader(Data(bytes[offset..<offset + 12]))
            guard let length = try? header.u32(), let sum = try? header.u64(),
                  bytes.count - offset - 12 >= Int(length)
            else { break }
            let body = bytes[offset + 12..<offset + 12 + Int(length)]
            // A sequence number from 2^63 on was not written here (counting on from it could overflow): damage.
            guard checksum(body) == sum, let record = try? decodeBody(Data(body)),
                  record.sequence <= UInt64(Int64.max) else { break }
            records.append(record)
            offset += 12 + Int(length)
        }
        return (records, offset)
    }

    private static func decodeBody(_ data: Data) throws -> Record {
        var reader = CompactReader(data)
        let sequence = try reader.u64()
        let widgetID = try reader.string()
        let state = try reader.blob()
        let nextDue = try reader.optional { try $0.date() }
        let quarantined = try reader.bool()
        return Record(sequence: sequence, schedule: WidgetScheduleRecord(widgetID: widgetID, state: state,
                                                                         nextDue: nextDue, quarantined: quarantined))
    }

    /// 64-bit FNV-1a.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
