import Foundation
import WidgetProtocol
import WidgetSchedulerCore

/// Fills a family's view with an entry's content at one moment. Pure: the same view, content and context give the
/// same result. A missing or ill-typed field becomes a placeholder and a `RenderProblem`, never a crash.
public struct Resolver {
    /// The character a redacted text is drawn with, one per column of the words it hides.
    public static let barCharacter: Character = "\u{2586}"

    private let content: JSONValue
    private let context: RenderContext
    private let now: Int64
    private var nextChange: Int64?
    private var problems: [RenderProblem] = []
    private var reported: Set<String> = []
    private var zones: [String: TimeZone] = [:]

    private init(content: JSONValue, context: RenderContext) {
        self.content = content
        self.context = context
        now = DateText.milliseconds(context.now) ?? 0
    }

    /// `view` drawn for `family` from `content` (nil before a widget's first entry: every field a placeholder).
    public static func resolve(
        _ view: FamilyView, family: WidgetFamily, content: JSONValue?, context: RenderContext
    ) -> ResolvedWidget {
        var context = context
        if content == nil { context.placeholder = true }
        var resolver = Resolver(content: content ?? .object([:]), context: context)
        let body = resolver.node(view.body)
        var url: String?
        if let template = view.url, !context.placeholder {
            url = template.url(content: resolver.content)
            if url == nil { resolver.report(template.text, "a field of the widget's url is missing") }
        }
        return ResolvedWidget(
            family: family, url: url, background: view.background, padding: view.padding, body: body,
            nextChange: resolver.nextChange.map(DateText.date(milliseconds:)), problems: resolver.problems,
            placeholder: context.placeholder)
    }

    private mutating func node(_ node: ViewNode) -> ResolvedNode {
        switch node {
        case .stack(let stack):
            return .stack(ResolvedStack(axis: stack.axis, spacing: stack.effectiveSpacing, alignment: stack.alignment,
                                        children: stack.children.map { self.node($0) }))
        case .spacer(let minLength):
            return .spacer(minLength: minLength)
        case .text(let text):
            return .text(self.text(text))
        case .date(let date):
            return .text(self.date(date))
        case .gauge(let gauge):
            return .gauge(self.gauge(gauge))
        case .image(let image):
            return .image(self.image(image))
        case .link(let url, let content):
            let target = context.placeholder ? nil : url.url(content: self.content)
            if target == nil && !context.placeholder { report(url.text, "a field of the link's url is missing") }
            return .link(url: target, content: self.node(content))
        case .conditional(let path, let then, let otherwise):
            if isPresent(path) { return self.node(then) }
            return otherwise.map { self.node($0) } ?? .empty
        }
    }

    // MARK: - Texts

    private mutating func text(_ node: TextNode) -> ResolvedText {
        let words: String?
        switch node.source {
        case .literal(let literal):
            words = literal
        case .path(let path):
            words = format(path, node.format)
        }
        return ResolvedText(text: words.map { redactedIfPlaceholder(Sanitized.text($0)) } ?? bars(4), font: node.font,
                            lineLimit: node.lineLimit, color: node.color,
                            redacted: words == nil || context.placeholder, date: nil)
    }

    private func redactedIfPlaceholder(_ words: String) -> String {
        context.placeholder ? bars(DisplayWidth.of(words)) : words
    }

    private func bars(_ count: Int) -> String {
        String(repeating: Self.barCharacter, count: min(max(count, 1), 40))
    }

    /// The value at `path` written by `format`, or nil (reported) when it cannot be.
    private mutating func format(_ path: ContentPath, _ format: TextFormat?) -> String? {
        guard let value = lookup(path) else { return nil }
        switch format {
        case nil:
            switch value {
            case .string(let text): return text
            case .integer(let integer): return String(integer)
            case .number(let number): return NumberText.format(.number(number), decimals: nil, grouping: false)
            case .bool(let flag): return flag ? "true" : "false"
            default: return mismatch(path, "a string or a number", value)
            }
        case .number(let decimals, let grouping)?:
            guard let number = number(value) else { return mismatch(path, "a number", value) }
            return NumberText.format(number, decimals: decimals, grouping: grouping)
        case .percent(let decimals)?:
            guard let number = number(value) else { return mismatch(path, "a number", value) }
            return NumberText.fixed(number.double * 100, decimals: decimals ?? 0, trim: false, grouping: false) + "%"
        case .unit(let unit, let decimals)?:
            guard let number = number(value) else { return mismatch(path, "a number", value) }
            let separator = unit.hasPrefix("°") || unit.hasPrefix("%") || unit.hasPrefix("′") || unit.hasPrefix("″")
                ? "" : " "
            return NumberText.format(number, decimals: decimals, grouping: false) + separator + unit
        case .date?:
            guard let date = date(value) else { return mismatch(path, "an RFC 3339 date", value) }
            let offset = context.timeZone.secondsFromGMT(for: DateText.date(milliseconds: date))
            return DateText.dayAndTime(date, now: now, offsetSeconds: offset)
        case .duration?:
            guard let number = number(value) else { return mismatch(path, "a number of seconds", value) }
            return NumberText.duration(number.double)
        }
    }

    private mutating func date(_ node: DateNode) -> ResolvedText {
        let placeholderLength: Int
        switch node.style {
        case .relative: placeholderLength = 8
        case .timer: placeholderLength = 4
        case .time: placeholderLength = node.showsSeconds ? 8 : 5
        case .date: placeholderLength = 10
        }
        func placeholder() -> ResolvedText {
            ResolvedText(text: bars(placeholderLength), font: node.font, lineLimit: 1, color: node.color,
                         redacted: true, date: nil)
        }
        guard !context.placeholder else { return placeholder() }
        let moment: Int64
        switch node.source {
        case .now:
            moment = now
        case .path(let path):
            guard let value = lookup(path) else { return placeholder() }
            guard let date = date(value) else {
                _ = mismatch(path, "an RFC 3339 date", value) as String?
                return placeholder()
            }
            moment = date
        }
        var zone = context.timeZone
        var zoneName: String?
        if let path = node.timeZone {
            if case .string(let name)? = lookup(path, reportMissing: false), let named = timeZone(name) {
                zone = named
                zoneName = name
            } else {
                report(path.text, "expected an IANA time zone name such as \"Europe/Paris\"")
            }
        }
        let text: String
        switch node.style {
        case .relative:
            let relative = DateText.relative(to: moment, now: now)
            text = relative.text
            due(relative.next)
        case .timer:
            let timer = DateText.timer(to: moment, now: now)
            text = timer.text
            due(timer.next)
        case .time:
            let offset = zone.secondsFromGMT(for: DateText.date(milliseconds: moment))
            text = DateText.time(moment, offsetSeconds: offset, seconds: node.showsSeconds)
            if case .now = node.source { due(DateText.nextTick(after: now, seconds: node.showsSeconds)) }
        case .date:
            let offset = zone.secondsFromGMT(for: DateText.date(milliseconds: moment))
            text = DateText.day(moment, now: now, offsetSeconds: offset)
            if case .now = node.source { due(DateText.nextMidnight(after: now, offsetSeconds: offset)) }
        }
        let isNow: Bool
        if case .now = node.source { isNow = true } else { isNow = false }
        let resolvedDate = ResolvedDate(
            datetime: RFC3339.string(from: DateText.date(milliseconds: moment)), style: node.style, isNow: isNow,
            timeZone: zoneName, showsSeconds: node.showsSeconds)
        return ResolvedText(text: text, font: node.font, lineLimit: 1, color: node.color, redacted: false,
                            date: resolvedDate)
    }

    private mutating func timeZone(_ name: String) -> TimeZone? {
        if let zone = zones[name] { return zone }
        let zone = context.timeZoneNamed(name)
        if let zone { zones[name] = zone }
        return zone
    }

    private mutating func due(_ moment: Int64) {
        if moment > now, nextChange.map({ moment < $0 }) ?? true { nextChange = moment }
    }

    // MARK: - Gauges and images

    private mutating func gauge(_ node: GaugeNode) -> ResolvedGauge {
        var gauge = ResolvedGauge(style: node.style, fraction: nil, valueText: nil, label: node.label,
                                  color: node.color, value: nil, minimum: nil, maximum: nil)
        guard !context.placeholder else { return gauge }
        guard let value = number(node.value), let minimum = number(node.minimum), let maximum = number(node.maximum)
        else { return gauge }
        guard minimum.double < maximum.double else {
            report(Self.describe(node.maximum), "expected a maximum above the minimum "
                + "(\(NumberText.plain(minimum.double))), found \(NumberText.plain(maximum.double))")
            return gauge
        }
        let fraction = (value.double - minimum.double) / (maximum.double - minimum.double)
        gauge.fraction = fraction.isFinite ? min(max(fraction, 0), 1) : nil
        gauge.value = value.double
        gauge.minimum = minimum.double
        gauge.maximum = maximum.double
        switch node.format {
        case nil:
            if node.style == .circular { gauge.valueText = NumberText.format(value, decimals: nil, grouping: false) }
        case .number(let decimals, let grouping)?:
            gauge.valueText = NumberText.format(value, decimals: decimals, grouping: grouping)
        case .percent(let decimals)?:
            // A gauge's percentage is of its range, as SwiftUI's gauges show.
            gauge.valueText = NumberText.fixed((gauge.fraction ?? 0) * 100, decimals: decimals ?? 0, trim: false,
                                               grouping: false) + "%"
        case .unit(let unit, let decimals)?:
            let separator = unit.hasPrefix("°") || unit.hasPrefix("%") ? "" : " "
            gauge.valueText = NumberText.format(value, decimals: decimals, grouping: false) + separator + unit
        case .duration?:
            gauge.valueText = NumberText.duration(value.double)
        case .date?:
            break
        }
        return gauge
    }

    private mutating func number(_ source: NumberSource) -> JSONNumber? {
        switch source {
        case .literal(let value):
            return .number(value)
        case .path(let path):
            guard let value = lookup(path) else { return nil }
            guard let number = number(value) else { return mismatch(path, "a number", value) }
            return number
        }
    }

    private static func describe(_ source: NumberSource) -> String {
        switch source {
        case .literal(let value): return NumberText.plain(value)
        case .path(let path): return path.text
        }
    }

    private mutating func image(_ node: ImageNode) -> ResolvedImage {
        var image = ResolvedImage(picture: .missing, size: node.size, label: node.label, color: node.color)
        guard !context.placeholder else { return image }
        switch node.source {
        case .symbol(let symbol):
            image.picture = .symbol(symbol)
        case .asset(let name):
            image.picture = .asset(name)
        case .boundSymbol(let path):
            guard let value = lookup(path) else { break }
            if let symbol = value.stringValue.flatMap(Symbol.init(rawValue:)) {
                image.picture = .symbol(symbol)
            } else {
                _ = mismatch(path, "a symbol name", value) as String?
            }
        case .boundAsset(let path):
            guard let value = lookup(path) else { break }
            if case .string(let name) = value, AssetName.problem(name) == nil {
                image.picture = .asset(name)
            } else {
                _ = mismatch(path, "an asset file name", value) as String?
            }
        case .provided(let path):
            guard let value = lookup(path) else { break }
            guard case .string(let name) = value else {
                _ = mismatch(path, "the file name of an image the provider wrote", value) as String?
                break
            }
            guard let stored = context.images[name] else {
                report(path.text, "the entry has no image \(value.summary)")
                break
            }
            guard Self.isServable(stored) else {
                report(path.text, "the image \(value.summary) has unreadable metadata")
                break
            }
            image.picture = .provided(name: Sanitized.text(name), image: stored)
        }
        return image
    }

    /// Whether a stored image's metadata can go in a page: a hash of 64 lowercase hex digits (it becomes part of a
    /// URL) and dimensions a picture can have. The daemon checked the image; this keeps a host safe from a daemon
    /// of another version all the same.
    static func isServable(_ image: EntryImage) -> Bool {
        ImageMethod.isSHA256(image.sha256) && (1...maximumImageSide).contains(image.width)
            && (1...maximumImageSide).contains(image.height)
    }

    /// The largest side an image's metadata may claim (the daemon accepts at most 2048).
    static let maximumImageSide = 16384

    // MARK: - Content

    private func isPresent(_ path: ContentPath) -> Bool {
        path.isEntryDate ? context.entryDate != nil : path.value(in: content) != nil
    }

    /// The value at `path`, reporting it missing.
    private mutating func lookup(_ path: ContentPath, reportMissing: Bool = true) -> JSONValue? {
        if path.isEntryDate {
            guard let date = context.entryDate else {
                if reportMissing { report(path.text, "missing (the entry's date is unknown)") }
                return nil
            }
            return .string(RFC3339.string(from: date))
        }
        guard let value = path.value(in: content) else {
            if reportMissing && !context.placeholder { report(path.text, "missing") }
            return nil
        }
        return value
    }

    private func number(_ value: JSONValue) -> JSONNumber? {
        switch value {
        case .integer(let integer): return .integer(integer)
        case .number(let number) where number.isFinite: return .number(number)
        default: return nil
        }
    }

    private func date(_ value: JSONValue) -> Int64? {
        guard case .string(let text) = value, let date = RFC3339.date(from: text) else { return nil }
        return DateText.milliseconds(date)
    }

    private mutating func mismatch<Value>(_ path: ContentPath, _ expected: String, _ value: JSONValue) -> Value? {
        report(path.text, "expected \(expected), found \(value.summary)")
        return nil
    }

    private mutating func report(_ path: String, _ message: String) {
        guard reported.insert(path).inserted else { return }
        problems.append(RenderProblem(path: path, message: message))
    }
}
