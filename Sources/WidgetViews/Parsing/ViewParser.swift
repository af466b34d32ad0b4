import WidgetProtocol

/// Reads a view document (JSON) into a `ViewDocument`, collecting every problem with its path in the document.
///
/// The rules are those of docs/views.schema.json, plus what a schema cannot say: a `link` only in families that answer
/// links, assets that exist, families the kind declares, and bounds on the tree's size.
public struct ViewParser {
    /// The deepest tree accepted.
    public static let maximumDepth = 24
    /// The most elements in one family's tree.
    public static let maximumElements = 500
    /// The longest literal text, in characters.
    public static let maximumTextLength = 1000
    /// The largest `spacing`, `padding` and spacer `minLength`, in points.
    public static let maximumSpacing = 32
    /// The largest `lineLimit`.
    public static let maximumLineLimit = 10
    /// The most decimals a number format writes.
    public static let maximumDecimals = 6

    private static let documentKeys = ["$schema", "version", "families"]
    private static let familyKeys = ["url", "background", "padding", "body"]
    private static let formatKeys = ["format", "decimals", "grouping", "unit"]

    private let options: ViewParserOptions
    private var issues: [ViewIssue] = []
    private var elementCount = 0
    private var family = WidgetFamily.systemSmall

    private init(options: ViewParserOptions) {
        self.options = options
    }

    /// Parses `json` as a whole document.
    public static func parse(
        _ json: JSONValue, options: ViewParserOptions = ViewParserOptions()
    ) -> Result<ViewDocument, ViewIssues> {
        var parser = ViewParser(options: options)
        let document = parser.document(json)
        guard parser.issues.isEmpty, let document else { return .failure(ViewIssues(parser.issues)) }
        return .success(document)
    }

    // MARK: - Document and families

    private mutating func document(_ json: JSONValue) -> ViewDocument? {
        guard case .object(let members) = json else {
            fail("", "expected a JSON object {\"version\": \(ViewDocument.version), \"families\": {...}}, "
                + "found \(json.summary)")
            return nil
        }
        unknownKeys(members, allowed: Self.documentKeys, path: "")
        switch members["version"] {
        case .integer(Int64(ViewDocument.version))?:
            break
        case nil:
            fail("version", "expected \(ViewDocument.version), the schema version, found nothing")
        case let value?:
            fail("version", "expected \(ViewDocument.version) (the only schema version this build reads), "
                + "found \(value.summary)")
        }
        if let schema = members["$schema"], schema.stringValue == nil {
            fail("$schema", "expected a string, found \(schema.summary)")
        }
        guard case .object(let familyMembers)? = members["families"], !familyMembers.isEmpty else {
            fail("families", "expected an object with a view for each family, such as {\"systemSmall\": {...}}, "
                + "found \(members["families"]?.summary ?? "nothing")")
            return nil
        }
        var families: [WidgetFamily: FamilyView] = [:]
        for name in familyMembers.keys.sorted() {
            guard let value = familyMembers[name] else { continue }
            let path = "families.\(name)"
            guard let family = WidgetFamily(rawValue: name) else {
                let names = WidgetFamily.allCases.map(\.rawValue).joined(separator: ", ")
                fail(path, "expected a family name (\(names)), found \"\(name)\"")
                continue
            }
            if let declared = options.declaredFamilies, !declared.contains(name) {
                fail(path, "the kind does not declare the family \(name) (its families: "
                    + "\(declared.joined(separator: ", "))); add it to \"families\" or remove this view")
                continue
            }
            self.family = family
            elementCount = 0
            if let view = familyView(value, path: path) { families[family] = view }
        }
        return families.isEmpty ? nil : ViewDocument(families: families)
    }

    private mutating func familyView(_ json: JSONValue, path: String) -> FamilyView? {
        guard case .object(let members) = json else {
            fail(path, "expected an object {\"body\": {...}}, found \(json.summary)")
            return nil
        }
        unknownKeys(members, allowed: Self.familyKeys, path: path)
        var url: URLTemplate?
        if let value = members["url"] { url = urlTemplate(value, path: path + ".url") }
        var background: Background?
        if let value = members["background"] { background = self.background(value, path: path + ".background") }
        let padding = integer(members["padding"], path: path + ".padding", in: 0...Self.maximumSpacing)
        guard let bodyValue = members["body"] else {
            fail(path + ".body", "expected the view's root element, found nothing")
            return nil
        }
        guard let body = element(bodyValue, path: path + ".body", depth: 1) else { return nil }
        return FamilyView(url: url, background: background, padding: padding ?? FamilyView.defaultPadding, body: body)
    }

    private mutating func background(_ json: JSONValue, path: String) -> Background? {
        switch json {
        case .string:
            return color(json, path: path).map(Background.color)
        case .object(let members):
            unknownKeys(members, allowed: ["color", "gradient", "direction"], path: path)
            if let value = members["color"] {
                if members["gradient"] != nil { fail(path, "expected \"color\" or \"gradient\", not both") }
                return color(value, path: path + ".color").map(Background.color)
            }
            guard case .array(let stops)? = members["gradient"], stops.count == 2 else {
                fail(path + ".gradient", "expected two color names [from, to], "
                    + "found \(members["gradient"]?.summary ?? "nothing")")
                return nil
            }
            let from = color(stops[0], path: path + ".gradient[0]")
            let to = color(stops[1], path: path + ".gradient[1]")
            var direction = GradientDirection.down
            if let value = members["direction"] {
                if let name = value.stringValue, let parsed = GradientDirection(rawValue: name) {
                    direction = parsed
                } else {
                    let names = GradientDirection.allCases.map(\.rawValue).joined(separator: " | ")
                    fail(path + ".direction", "expected \(names), found \(value.summary)")
                }
            }
            guard let from, let to else { return nil }
            return .gradient(from: from, to: to, direction: direction)
        default:
            fail(path, "expected a color name or {\"gradient\": [from, to]}, found \(json.summary)")
            return nil
        }
    }

    // MARK: - Elements

    private mutating func element(_ json: JSONValue, path: String, depth: Int) -> ViewNode? {
        guard depth <= Self.maximumDepth else {
            fail(path, "expected a tree at most \(Self.maximumDepth) elements deep")
            return nil
        }
        elementCount += 1
        guard elementCount <= Self.maximumElements else {
            if elementCount == Self.maximumElements + 1 {
                fail(path, "expected at most \(Self.maximumElements) elements in one family's view")
            }
            return nil
        }
        guard case .object(let members) = json else {
            fail(path, "expected an element {\"type\": ...}, found \(json.summary)")
            return nil
        }
        guard let type = members["type"]?.stringValue else {
            fail(path + ".type", "expected one of \(Self.typeNames), found \(members["type"]?.summary ?? "nothing")")
            return nil
        }
        switch type {
        case "vstack": return stack(members, axis: .vertical, path: path, depth: depth)
        case "hstack": return stack(members, axis: .horizontal, path: path, depth: depth)
        case "zstack": return stack(members, axis: .depth, path: path, depth: depth)
        case "spacer":
            unknownKeys(members, allowed: ["type", "minLength"], path: path)
            let minimum = integer(members["minLength"], path: path + ".minLength", in: 0...Self.maximumSpacing)
            return .spacer(minLength: minimum ?? 0)
        case "text": return text(members, path: path)
        case "date": return date(members, path: path)
        case "gauge": return gauge(members, style: .circular, path: path)
        case "progress": return gauge(members, style: .linear, path: path)
        case "image": return image(members, path: path)
        case "link": return link(members, path: path, depth: depth)
        case "if": return conditional(members, path: path, depth: depth)
        default:
            fail(path + ".type", "expected one of \(Self.typeNames), found \"\(type)\"")
            return nil
        }
    }

    private static let typeNames = "vstack, hstack, zstack, spacer, text, date, gauge, progress, image, link, if"

    private mutating func stack(
        _ members: [String: JSONValue], axis: Axis, path: String, depth: Int
    ) -> ViewNode? {
        unknownKeys(members, allowed: ["type", "spacing", "alignment", "children"], path: path)
        let spacing = integer(members["spacing"], path: path + ".spacing", in: 0...Self.maximumSpacing)
        var alignment = Alignment.center
        if let value = members["alignment"] {
            if let parsed = stackAlignment(value, axis: axis) {
                alignment = parsed
            } else {
                fail(path + ".alignment", "expected \(alignmentNames(axis)), found \(value.summary)")
            }
        }
        guard case .array(let items)? = members["children"] else {
            let found = members["children"]?.summary ?? "nothing"
            fail(path + ".children", "expected an array of elements, found \(found)")
            return nil
        }
        var children: [ViewNode] = []
        for (index, item) in items.enumerated() {
            if let child = element(item, path: "\(path).children[\(index)]", depth: depth + 1) {
                children.append(child)
            }
        }
        return .stack(StackNode(axis: axis, spacing: spacing, alignment: alignment, children: children))
    }

    private func stackAlignment(_ value: JSONValue, axis: Axis) -> Alignment? {
        guard let name = value.stringValue else { return nil }
        switch axis {
        case .vertical: return Alignment.Horizontal(rawValue: name).map { Alignment(horizontal: $0) }
        case .horizontal: return Alignment.Vertical(rawValue: name).map { Alignment(vertical: $0) }
        case .depth: return Alignment.zstackNames[name]
        }
    }

    private func alignmentNames(_ axis: Axis) -> String {
        switch axis {
        case .vertical: return Alignment.Horizontal.allCases.map(\.rawValue).joined(separator: " | ")
        case .horizontal: return Alignment.Vertical.allCases.map(\.rawValue).joined(separator: " | ")
        case .depth: return Alignment.zstackNames.keys.sorted().joined(separator: " | ")
        }
    }

    private mutating func text(_ members: [String: JSONValue], path: String) -> ViewNode? {
        unknownKeys(members, allowed: ["type", "text", "value", "font", "lineLimit", "color"] + Self.formatKeys,
                    path: path)
        var source: TextNode.Source?
        switch (members["text"], members["value"]) {
        case (let literal?, nil):
            if case .string(let words) = literal, words.count <= Self.maximumTextLength {
                source = .literal(words)
            } else {
                fail(path + ".text", "expected a string of at most \(Self.maximumTextLength) characters, "
                    + "found \(literal.summary)")
            }
            for key in Self.formatKeys where members[key] != nil {
                fail(path + "." + key, "a format applies to a bound \"value\", not to a literal \"text\"")
            }
        case (nil, let value?):
            source = contentPath(value, path: path + ".value").map(TextNode.Source.path)
        case (.some, .some):
            fail(path, "expected \"text\" (literal words) or \"value\" (a content path), not both")
        case (nil, nil):
            fail(path, "expected \"text\" (literal words) or \"value\" (a content path), found neither")
        }
        let format = textFormat(members, path: path)
        let font = self.font(members["font"], path: path + ".font")
        let lineLimit = integer(members["lineLimit"], path: path + ".lineLimit", in: 1...Self.maximumLineLimit)
        let color = members["color"].flatMap { self.color($0, path: path + ".color") }
        guard let source else { return nil }
        return .text(TextNode(source: source, format: format, font: font, lineLimit: lineLimit, color: color))
    }

    private mutating func textFormat(_ members: [String: JSONValue], path: String) -> TextFormat? {
        let decimals = integer(members["decimals"], path: path + ".decimals", in: 0...Self.maximumDecimals)
        var grouping = false
        if let value = members["grouping"] {
            if case .bool(let flag) = value { grouping = flag } else {
                fail(path + ".grouping", "expected true or false, found \(value.summary)")
            }
        }
        var unit: String?
        if let value = members["unit"] {
            if case .string(let text) = value, !text.isEmpty, text.count <= 16 {
                unit = text
            } else {
                fail(path + ".unit", "expected a unit of 1 to 16 characters such as \"°C\" or \"km/h\", "
                    + "found \(value.summary)")
            }
        }
        guard let formatValue = members["format"] else {
            for key in ["decimals", "grouping", "unit"] where members[key] != nil {
                fail(path + "." + key, "applies only with a \"format\"")
            }
            return nil
        }
        guard let name = formatValue.stringValue, TextFormat.names.contains(name) else {
            let names = TextFormat.names.joined(separator: " | ")
            fail(path + ".format", "expected \(names), found \(formatValue.summary)")
            return nil
        }
        func refuse(_ key: String) {
            if members[key] != nil { fail(path + "." + key, "does not apply to the \"\(name)\" format") }
        }
        switch name {
        case "number":
            refuse("unit")
            return .number(decimals: decimals, grouping: grouping)
        case "percent":
            refuse("unit")
            refuse("grouping")
            return .percent(decimals: decimals)
        case "unit":
            refuse("grouping")
            guard let unit else {
                if members["unit"] == nil { fail(path + ".unit", "expected the unit, such as \"°C\", found nothing") }
                return nil
            }
            return .unit(unit, decimals: decimals)
        case "date":
            ["decimals", "grouping", "unit"].forEach(refuse)
            return .date
        default:
            ["decimals", "grouping", "unit"].forEach(refuse)
            return .duration
        }
    }

    private mutating func date(_ members: [String: JSONValue], path: String) -> ViewNode? {
        unknownKeys(members, allowed: ["type", "value", "now", "style", "font", "color", "timeZone", "seconds"],
                    path: path)
        var source: DateNode.Source?
        switch (members["value"], members["now"]) {
        case (let value?, nil):
            source = contentPath(value, path: path + ".value").map(DateNode.Source.path)
        case (nil, .bool(true)?):
            source = .now
        case (nil, let value?):
            fail(path + ".now", "expected true (the current time), found \(value.summary)")
        case (.some, .some):
            fail(path, "expected \"value\" (a content path) or \"now\": true, not both")
        case (nil, nil):
            fail(path, "expected \"value\" (a content path of an RFC 3339 date) or \"now\": true, found neither")
        }
        let styles = DateStyle.allCases.map(\.rawValue).joined(separator: " | ")
        var style: DateStyle?
        if let value = members["style"] {
            style = value.stringValue.flatMap(DateStyle.init(rawValue:))
            if style == nil { fail(path + ".style", "expected \(styles), found \(value.summary)") }
        } else {
            fail(path + ".style", "expected \(styles), found nothing")
        }
        let font = self.font(members["font"], path: path + ".font")
        let color = members["color"].flatMap { self.color($0, path: path + ".color") }
        let timeZone = members["timeZone"].flatMap { contentPath($0, path: path + ".timeZone") }
        var showsSeconds = false
        if let value = members["seconds"] {
            if case .bool(let flag) = value { showsSeconds = flag } else {
                fail(path + ".seconds", "expected true or false, found \(value.summary)")
            }
            if style != nil && style != .time { fail(path + ".seconds", "applies only to the \"time\" style") }
        }
        if case .now? = source, let style, style == .relative || style == .timer {
            fail(path + ".style",
                 "a \"\(style.rawValue)\" text of \"now\" would never change; use \"time\" or \"date\"")
        }
        guard let source, let style else { return nil }
        return .date(DateNode(source: source, style: style, font: font, color: color, timeZone: timeZone,
                              showsSeconds: showsSeconds))
    }

    private mutating func gauge(
        _ members: [String: JSONValue], style: GaugeNode.Style, path: String
    ) -> ViewNode? {
        unknownKeys(members, allowed: ["type", "value", "min", "max", "label", "color"] + Self.formatKeys, path: path)
        let value = number(members["value"], path: path + ".value", required: true)
        let minimum = number(members["min"], path: path + ".min", required: false) ?? .literal(0)
        let maximum = number(members["max"], path: path + ".max", required: false) ?? .literal(1)
        if case .literal(let low) = minimum, case .literal(let high) = maximum, !(low < high) {
            fail(path + ".max", "expected a maximum above the minimum (\(NumberText.plain(low))), "
                + "found \(NumberText.plain(high))")
        }
        var label: String?
        if let labelValue = members["label"] {
            if case .string(let text) = labelValue, text.count <= 100 { label = text } else {
                fail(path + ".label", "expected a string of at most 100 characters, found \(labelValue.summary)")
            }
        }
        let format = textFormat(members, path: path)
        if format == .date { fail(path + ".format", "a gauge's value is a number, not a date") }
        let color = members["color"].flatMap { self.color($0, path: path + ".color") }
        guard let value else { return nil }
        return .gauge(GaugeNode(style: style, value: value, minimum: minimum, maximum: maximum, label: label,
                                format: format, color: color))
    }

    private mutating func image(_ members: [String: JSONValue], path: String) -> ViewNode? {
        unknownKeys(members, allowed: ["type", "asset", "symbol", "value", "source", "size", "label", "color"],
                    path: path)
        let given = ["asset", "symbol", "value"].filter { members[$0] != nil }
        guard given.count == 1 else {
            fail(path, "expected one of \"asset\" (a file in the asset folder), \"symbol\" (a symbol name) or "
                + "\"value\" (a content path), found \(given.isEmpty ? "none" : given.joined(separator: " and "))")
            return nil
        }
        if members["source"] != nil && given[0] != "value" {
            fail(path + ".source", "applies only with \"value\"")
        }
        var source: ImageNode.Source?
        switch given[0] {
        case "asset":
            source = asset(members["asset"] ?? .null, path: path + ".asset").map(ImageNode.Source.asset)
        case "symbol":
            let value = members["symbol"] ?? .null
            if let symbol = value.stringValue.flatMap(Symbol.init(rawValue:)) {
                source = .symbol(symbol)
            } else {
                fail(path + ".symbol", "expected a symbol of the fixed set (docs/views.md lists them), "
                    + "found \(value.summary)")
            }
        default:
            let bound = contentPath(members["value"] ?? .null, path: path + ".value")
            switch members["source"] {
            case nil, .string("symbol")?:
                source = bound.map(ImageNode.Source.boundSymbol)
            case .string("asset")?:
                if !options.hasAssetFolder {
                    fail(path + ".source", "the manifest names no asset folder (\"assets\")")
                }
                source = bound.map(ImageNode.Source.boundAsset)
            case .string("provided")?:
                source = bound.map(ImageNode.Source.provided)
            case let value?:
                fail(path + ".source", "expected \"symbol\", \"asset\" or \"provided\" (an image the provider "
                    + "wrote for the entry), found \(value.summary)")
            }
        }
        var size = ImageSize.medium
        if let value = members["size"] {
            if let parsed = value.stringValue.flatMap(ImageSize.init(rawValue:)) { size = parsed } else {
                let names = ImageSize.allCases.map(\.rawValue).joined(separator: " | ")
                fail(path + ".size", "expected \(names), found \(value.summary)")
            }
        }
        if size == .fill, let source, !ImageNode(source: source).isPicture {
            fail(path + ".size", "\"fill\" is for pictures (an asset or a provided image); a symbol has a size "
                + "of small | medium | large | xlarge")
        }
        var label: String?
        if let value = members["label"] {
            if case .string(let text) = value, text.count <= 100 { label = text } else {
                fail(path + ".label", "expected a string of at most 100 characters, found \(value.summary)")
            }
        }
        let color = members["color"].flatMap { self.color($0, path: path + ".color") }
        guard let source else { return nil }
        return .image(ImageNode(source: source, size: size, label: label, color: color))
    }

    private mutating func asset(_ value: JSONValue, path: String) -> String? {
        guard case .string(let name) = value else {
            fail(path, "expected a file name in the asset folder, found \(value.summary)")
            return nil
        }
        if let problem = AssetName.problem(name) {
            fail(path, problem)
            return nil
        }
        guard options.hasAssetFolder else {
            fail(path, "the manifest names no asset folder (\"assets\") to find \"\(name)\" in")
            return nil
        }
        if let problem = options.checkAsset?(name) {
            fail(path, problem)
            return nil
        }
        return name
    }

    private mutating func link(_ members: [String: JSONValue], path: String, depth: Int) -> ViewNode? {
        unknownKeys(members, allowed: ["type", "url", "content"], path: path)
        if !family.answersLinks {
            fail(path, "\(family.rawValue) answers taps only through the view's \"url\" (WidgetKit's widgetURL): "
                + "a link here would never open")
        }
        let url = members["url"].flatMap { urlTemplate($0, path: path + ".url") }
        if members["url"] == nil { fail(path + ".url", "expected the URL the link opens, found nothing") }
        guard let contentValue = members["content"] else {
            fail(path + ".content", "expected the element the link covers, found nothing")
            return nil
        }
        let content = element(contentValue, path: path + ".content", depth: depth + 1)
        guard let url, let content, family.answersLinks else { return nil }
        return .link(url: url, content: content)
    }

    private mutating func conditional(_ members: [String: JSONValue], path: String, depth: Int) -> ViewNode? {
        unknownKeys(members, allowed: ["type", "present", "then", "else"], path: path)
        guard let presentValue = members["present"] else {
            fail(path + ".present", "expected the content path whose presence decides, found nothing")
            return nil
        }
        let condition = contentPath(presentValue, path: path + ".present")
        guard let thenValue = members["then"] else {
            fail(path + ".then", "expected the element shown when the field is present, found nothing")
            return nil
        }
        let then = element(thenValue, path: path + ".then", depth: depth + 1)
        let otherwise = members["else"].flatMap { element($0, path: path + ".else", depth: depth + 1) }
        guard let condition, let then else { return nil }
        return .conditional(path: condition, then: then, else: otherwise)
    }

    // MARK: - Values

    private mutating func contentPath(_ value: JSONValue, path: String) -> ContentPath? {
        guard case .string(let text) = value, let parsed = ContentPath(text) else {
            fail(path, "expected a content path such as \"weather.temperature\" (names of [A-Za-z0-9_-] joined by "
                + "dots) or \"@date\", found \(value.summary)")
            return nil
        }
        return parsed
    }

    private mutating func number(_ value: JSONValue?, path: String, required: Bool) -> NumberSource? {
        switch value {
        case .integer(let number)?: return .literal(Double(number))
        case .number(let number)? where number.isFinite && abs(number) <= 1e15: return .literal(number)
        case .string(let text)?:
            if let parsed = ContentPath(text) { return .path(parsed) }
        case nil:
            if !required { return nil }
        default:
            break
        }
        fail(path, "expected a number or a content path, found \(value?.summary ?? "nothing")")
        return nil
    }

    private mutating func integer(_ value: JSONValue?, path: String, in range: ClosedRange<Int>) -> Int? {
        guard let value else { return nil }
        if case .integer(let number) = value, number >= Int64(range.lowerBound), number <= Int64(range.upperBound) {
            return Int(number)
        }
        fail(path, "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(value.summary)")
        return nil
    }

    private mutating func font(_ value: JSONValue?, path: String) -> Font {
        guard let value else { return .body }
        if let font = value.stringValue.flatMap(Font.init(rawValue:)) { return font }
        fail(path, "expected \(Font.allCases.map(\.rawValue).joined(separator: " | ")), found \(value.summary)")
        return .body
    }

    private mutating func color(_ value: JSONValue, path: String) -> NamedColor? {
        if let color = value.stringValue.flatMap(NamedColor.init(rawValue:)) { return color }
        fail(path, "expected a color name (\(NamedColor.allCases.map(\.rawValue).joined(separator: ", "))), "
            + "found \(value.summary)")
        return nil
    }

    private mutating func urlTemplate(_ value: JSONValue, path: String) -> URLTemplate? {
        guard case .string(let text) = value else {
            fail(path, "expected a URL such as \"weather://today\", found \(value.summary)")
            return nil
        }
        switch URLTemplate.parse(text) {
        case .success(let template): return template
        case .failure(let problem):
            fail(path, problem.message)
            return nil
        }
    }

    private mutating func unknownKeys(_ members: [String: JSONValue], allowed: [String], path: String) {
        for key in members.keys.sorted() where !allowed.contains(key) {
            let expected = allowed.joined(separator: ", ")
            fail(path.isEmpty ? key : path + "." + key, "unknown key (expected one of: \(expected))")
        }
    }

    private mutating func fail(_ path: String, _ message: String) {
        issues.append(ViewIssue(path: path, message: message))
    }
}
