import Foundation
import Testing
import WidgetProtocol
@testable import WidgetViews

/// docs/views.schema.json, the published schema, names the same elements, families and values as the parser.
@Suite struct SchemaAgreementTests {
    private static func schema() throws -> JSONValue {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/views.schema.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        return try #require(JSONValue(jsonText: text))
    }

    private static func at(_ value: JSONValue, _ path: String...) -> JSONValue? {
        var current: JSONValue? = value
        for key in path {
            switch current {
            case .object(let members)?: current = members[key]
            case .array(let items)?: current = Int(key).flatMap { $0 < items.count ? items[$0] : nil }
            default: return nil
            }
        }
        return current
    }

    private static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap(\.stringValue)
    }

    @Test func theSchemaVersionIsTheParsers() throws {
        #expect(Self.at(try Self.schema(), "properties", "version", "const") == .integer(Int64(ViewDocument.version)))
    }

    @Test func theSchemaNamesEveryFamily() throws {
        let names = Self.strings(Self.at(try Self.schema(), "properties", "families", "propertyNames", "enum"))
        #expect(names == WidgetFamily.allCases.map(\.rawValue))
    }

    @Test func theSchemaNamesEveryElement() throws {
        let schema = try Self.schema()
        guard case .array(let choices)? = Self.at(schema, "$defs", "element", "oneOf") else {
            Issue.record("no element choices")
            return
        }
        let names = choices.compactMap { $0.objectValue?["$ref"]?.stringValue?.split(separator: "/").last }
            .map(String.init)
        #expect(names == ["vstack", "hstack", "zstack", "spacer", "text", "date", "gauge", "progress", "image", "link",
                          "if"])
        for name in names {
            #expect(Self.at(schema, "$defs", name, "properties", "type", "const") == .string(name))
        }
    }

    @Test func theSchemasValueSetsAreTheParsers() throws {
        let schema = try Self.schema()
        #expect(Self.strings(Self.at(schema, "$defs", "text", "properties", "color", "enum"))
            == NamedColor.allCases.map(\.rawValue))
        #expect(Self.strings(Self.at(schema, "$defs", "image", "properties", "symbol", "enum"))
            == Symbol.allCases.map(\.rawValue))
        #expect(Self.strings(Self.at(schema, "$defs", "text", "properties", "font", "enum"))
            == Font.allCases.map(\.rawValue))
        #expect(Self.strings(Self.at(schema, "$defs", "text", "properties", "format", "enum")) == TextFormat.names)
        #expect(Self.strings(Self.at(schema, "$defs", "date", "properties", "style", "enum"))
            == DateStyle.allCases.map(\.rawValue))
        #expect(Self.strings(Self.at(schema, "$defs", "image", "properties", "size", "enum"))
            == ImageSize.allCases.map(\.rawValue))
        #expect(Self.strings(Self.at(schema, "$defs", "image", "properties", "source", "enum"))
            == ImageNode.Source.boundNames)
        #expect(Set(Self.strings(Self.at(schema, "$defs", "zstack", "properties", "alignment", "enum")))
            == Set(Alignment.zstackNames.keys))
        #expect(Self.at(schema, "$defs", "text", "properties", "lineLimit", "maximum")
            == .integer(Int64(ViewParser.maximumLineLimit)))
        #expect(Self.at(schema, "$defs", "vstack", "properties", "spacing", "maximum")
            == .integer(Int64(ViewParser.maximumSpacing)))
    }

    /// Every example kind's view file is valid, so the examples document the schema truthfully.
    @Test func everyExampleViewFileParses() throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples")
        let files = (FileManager.default.enumerator(atPath: examples.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".views.json") }
        for file in files {
            let text = try String(contentsOf: examples.appendingPathComponent(file), encoding: .utf8)
            let json = try #require(JSONValue(jsonText: text), "\(file) is not JSON")
            if case .failure(let issues) = ViewParser.parse(json) { Issue.record("\(file): \(issues)") }
        }
    }
}
