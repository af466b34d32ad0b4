import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// libFuzzer entry point for the provider answer decoder: the first byte picks the request kind the answer is read
/// for, the rest is the provider's stdout. Any outcome is fine but a trap; the error's description is rendered too,
/// because it quotes the offending input.
///
/// An accepted answer goes on as the daemon takes it: every number must lie in `SupportedRange` (a trap here is a
/// finding), then its outline, its relevance at every entry's date and around it, the smart stack's order and
/// explanation, and the `Timeline` and `Stack` replies, encoded both ways the daemon encodes and decoded as
/// `widgetctl` decodes them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProviderAnswer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let kinds = ProviderRequestKind.allCases
    let kind = kinds[Int(bytes[0]) % kinds.count]
    switch ProviderAnswerDecoder.answer(to: kind, from: Array(bytes.dropFirst()), maxEntries: 64) {
    case .success(let answer):
        _ = String(describing: answer)
        switch answer {
        case .timeline(let timeline): follow(timeline)
        case .entry(let entry): follow(Timeline(entries: [entry], policy: .never))
        case .configuration, .options: break
        }
    case .failure(let error):
        _ = error.description
        _ = error.reason
    }
    return 0
}

private func follow(_ timeline: Timeline) {
    for entry in timeline.entries {
        precondition(SupportedRange.contains(date: entry.date), "accepted an entry date out of range")
        if let relevance = entry.relevance {
            precondition(SupportedRange.contains(score: relevance.score), "accepted a score out of range")
            precondition(SupportedRange.contains(duration: relevance.duration), "accepted a duration out of range")
        }
    }
    if case .after(let date) = timeline.policy {
        precondition(SupportedRange.contains(date: date), "accepted an after date out of range")
    }
    let outline = TimelineOutline(timeline)
    var schedule = WidgetSchedule(id: "w1", kind: "k", budget: RefreshBudget(tokens: 1, stamp: 0))
    schedule.timeline = outline
    schedule.maxRelevanceScore = timeline.entries.compactMap { $0.relevance?.score }.max() ?? 0
    var instants = [SupportedRange.earliestDate, SupportedRange.latestDate]
    for entry in timeline.entries {
        instants += [entry.date, entry.date.addingTimeInterval(-1), entry.date.addingTimeInterval(1)]
        if let duration = entry.relevance?.duration { instants.append(entry.date.addingTimeInterval(duration)) }
    }
    var stack: [StackMethod.Item] = []
    for instant in instants {
        _ = outline.currentEntryIndex(at: instant)
        _ = outline.nextEntryDate(after: instant)
        for item in RelevanceStack.order([schedule], at: instant) {
            stack.append(StackMethod.Item(widget: item.widget, kind: "k", score: item.relevance?.score,
                                          normalized: item.relevance?.normalized,
                                          relevant: item.relevance?.isRelevant ?? false, until: item.relevance?.until,
                                          explanation: item.explanation))
        }
    }
    let policy: TimelineMethod.Policy
    if case .after(let date) = timeline.policy {
        policy = TimelineMethod.Policy(policy: "after", date: date)
    } else {
        policy = TimelineMethod.Policy(policy: timeline.policy.name)
    }
    let reply = TimelineMethod.Reply(
        widget: "w1", kind: "k", policy: policy,
        entries: timeline.entries.map {
            TimelineMethod.Entry(date: $0.date, relevance: $0.relevance.map {
                TimelineMethod.Relevance(score: $0.score, duration: $0.duration)
            }, content: JSONValue(jsonText: $0.content) ?? .null, current: false)
        },
        nextReload: timeline.entries.last?.date, nextReason: "policy")
    roundTrip(reply)
    roundTrip(StackMethod.Reply(stack: stack))
}

/// Encodes `reply` as the daemon does (its own writer where it has one, and `VarlinkCoding`) and decodes each as the
/// client does; a reply the client cannot read is a finding.
private func roundTrip<Reply: Codable>(_ reply: Reply) {
    var encodings: [[UInt8]] = []
    if let fast = reply as? any JSONObjectEncodable { encodings.append(fast.encodedJSONObject()) }
    if let bytes = try? VarlinkCoding.encode(reply) { encodings.append(bytes) }
    for bytes in encodings {
        do {
            _ = try VarlinkCoding.makeDecoder().decode(Reply.self, from: Data(bytes))
        } catch {
            preconditionFailure("the client cannot read a reply: \(error)")
        }
    }
}
