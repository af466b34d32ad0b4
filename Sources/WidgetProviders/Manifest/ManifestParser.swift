import Foundation
import TOMLKit
import WidgetProtocol
import WidgetSchedulerCore

/// Turns one manifest's TOML text into a `ProviderManifest`, collecting every error it finds.
public enum ManifestParser {
    private static let topLevelKeys = [
        "exec", "timeout", "memory-max", "tasks-max", "group", "owner-users", "owner-groups", "group-reader-users",
        "group-reader-groups", "group-writer-users", "group-writer-groups", "assets", "images", "widget",
    ]
    private static let widgetKeys = ["kind", "display-name", "description", "families", "parameters", "views"]
    private static let parameterKeys = ["type", "title", "default", "options"]

    /// Parses `text`, the content of the manifest at `path` (used for errors and to resolve relative paths), reading
    /// the view files and checking the asset folder it names through `files`.
    public static func parse(
        _ text: String, path: String, files: any ManifestFileSystem = LocalManifestFileSystem()
    ) -> Result<ProviderManifest, ManifestErrors> {
        let table: [String: JSONValue]
        switch tomlTable(text, path: path) {
        case .success(let parsed): table = parsed
        case .failure(let error): return .failure(ManifestErrors([error]))
        }
        var errors: [ManifestError] = []
        func fail(_ key: String, _ message: String) {
            errors.append(ManifestError(file: path, key: key, message: message))
        }

        for key in table.keys.sorted() where !topLevelKeys.contains(key) {
            fail(key, "unknown key (expected one of: \(topLevelKeys.joined(separator: ", ")))")
        }
        let exec = parseExec(table["exec"], manifestPath: path, fail: fail)
        var timeout = ProviderManifest.defaultTimeout
        if let value = table["timeout"] {
            if let seconds = number(value), seconds > 0, SupportedRange.contains(duration: seconds) {
                timeout = seconds
            } else {
                fail("timeout", "expected a positive number of seconds, at most \(SupportedRange.longestDuration), "
                     + "found \(value.summary)")
            }
        }
        var memoryMax = ProviderManifest.defaultMemoryMax
        if let value = table["memory-max"] {
            if let bytes = memorySize(value) {
                memoryMax = bytes
            } else {
                let expected = "a size such as \"64M\", \"1G\" or a number of bytes"
                fail("memory-max", "expected \(expected), found \(value.summary)")
            }
        }
        var tasksMax = ProviderManifest.defaultTasksMax
        if let value = table["tasks-max"] {
            if case .integer(let count) = value, count >= 1, count <= ProviderManifest.largestTasksMax {
                tasksMax = Int(count)
            } else {
                fail("tasks-max", "expected a number of tasks from 1 to \(ProviderManifest.largestTasksMax), found "
                     + value.summary)
            }
        }
        var group: String?
        if let value = table["group"] {
            if case .string(let name) = value, isValidName(name) {
                group = name
            } else {
                fail("group", "expected a group name matching [a-z0-9][a-z0-9._-]*, found \(value.summary)")
            }
        }
        let ownerUsers = nameList(table["owner-users"], key: "owner-users", what: "user", fail: fail)
        let ownerGroups = nameList(table["owner-groups"], key: "owner-groups", what: "group", fail: fail)
        let groupReaders = principals(table, side: "reader", group: group, fail: fail)
        let groupWriters = principals(table, side: "writer", group: group, fail: fail)
        var assets: String?
        if let value = table["assets"] {
            if case .string(let name) = value, !name.isEmpty {
                let directory = ManifestPaths.resolve(name, manifestPath: path)
                if files.kind(of: directory) == .directory {
                    assets = directory
                } else {
                    fail("assets", "expected the provider's asset folder, but \(directory) is not a directory")
                }
            } else {
                fail("assets", "expected the path of the provider's asset folder, found \(value.summary)")
            }
        }
        var savesImages = false
        switch table["images"] {
        case nil: break
        case .bool(let value)?: savesImages = value
        case let value?: fail("images", "expected true (the provider saves images for its entries) or false, found "
                              + value.summary)
        }
        let context = WidgetContext(manifestPath: path, assets: assets, files: files)
        var widgets: [WidgetKindManifest] = []
        switch table["widget"] {
        case .array(let values) where !values.isEmpty:
            var firstIndexOfKind: [String: Int] = [:]
            for (index, value) in values.enumerated() {
                guard let widget = parseWidget(value, key: "widget[\(index)]", context: context, fail: fail,
                                               failWith: { errors.append($0) })
                else { continue }
                if let first = firstIndexOfKind[widget.kind] {
                    fail("widget[\(index)].kind", "kind \"\(widget.kind)\" is already declared by widget[\(first)]")
                    continue
                }
                firstIndexOfKind[widget.kind] = index
                widgets.append(widget)
            }
        case nil:
            fail("widget", "expected at least one [[widget]] table, found none")
        case let value?:
            fail("widget", "expected [[widget]] tables, found \(value.typeName) \(value.summary)")
        }
        guard errors.isEmpty, let exec else { return .failure(ManifestErrors(errors)) }
        return .success(ProviderManifest(
            path: path, exec: exec, timeout: timeout, memoryMax: memoryMax, tasksMax: tasksMax, group: group,
            ownerUsers: ownerUsers, ownerGroups: ownerGroups, groupReaders: groupReaders, groupWriters: groupWriters,
            assetsDirectory: assets, savesImages: savesImages, widgets: widgets
        ))
    }

    /// Whether `name` is a valid kind or group name: `[a-z0-9][a-z0-9._-]*`.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLowerAlphanumeric(first) else { return false }
        return name.utf8.allSatisfy { isLowerAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
            || $0 == UInt8(ascii: "-") }
    }

    /// Parses a size: an integer number of bytes, or a number with a K, M, G or T suffix (powers of 1024).
    public static func memorySize(_ value: JSONValue) -> Int? {
        switch value {
        case .integer(let bytes):
            return bytes > 0 && bytes <= Int64(Int.max) ? Int(bytes) : nil
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let last = trimmed.last else { return nil }
            let multipliers: [Character: Double] = [
                "K": 1024, "M": 1_048_576, "G": 1_073_741_824, "T": 1_099_511_627_776,
            ]
            let multiplier = multipliers[Character(last.uppercased())]
            let digits = multiplier == nil ? trimmed : String(trimmed.dropLast())
            guard let amount = Double(digits), amount.isFinite, amount > 0,
                  digits.allSatisfy({ $0.isNumber || $0 == "." })
            else { return nil }
            let bytes = (amount * (multiplier ?? 1)).rounded()
            return bytes >= 1 && bytes < 9e18 ? Int(bytes) : nil
        default:
            return nil
        }
    }

    // MARK: - Parts

    private static func tomlTable(_ text: String, path: String) -> Result<[String: JSONValue], ManifestError> {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let message = "not valid TOML: \(error.description) (line \(error.source.begin.line), "
                + "column \(error.source.begin.column))"
            return .failure(ManifestError(file: path, key: nil, message: message))
        } catch {
            return .failure(ManifestError(file: path, key: nil, message: "not valid TOML: \(error)"))
        }
        // TOML's JSON form keeps every value; dates become their TOML text.
        let json = table.convert(to: .json, options: [.quoteDateAndTimes, .quoteInfinitesAndNaNs])
        guard let value = JSONValue(jsonText: json), case .object(let object) = value else {
            let message = "could not read the TOML document's values"
            return .failure(ManifestError(file: path, key: nil, message: message))
        }
        return .success(object)
    }

    private static func parseExec(
        _ value: JSONValue?,
        manifestPath: String,
        fail: (String, String) -> Void
    ) -> [String]? {
        var argv: [String]
        switch value {
        case .string(let program)?:
            argv = [program]
        case .array(let items)? where !items.isEmpty && items.allSatisfy({ $0.stringValue != nil }):
            argv = items.compactMap(\.stringValue)
        case nil:
            fail("exec", "expected the program to run, as a path or an array [path, arguments...], found nothing")
            return nil
        case let value?:
            fail("exec", "expected a path or a non-empty array of strings, found \(value.summary)")
            return nil
        }
        guard !argv[0].isEmpty else {
            fail("exec", "expected a program path, found an empty string")
            return nil
        }
        if !argv[0].hasPrefix("/") { argv[0] = ManifestPaths.resolve(argv[0], manifestPath: manifestPath) }
        return argv
    }

    /// The group's readers or writers (`side`: "reader" or "writer") from `group-<side>-users` and
    /// `group-<side>-groups`; nil when neither key is there. The keys need a `group`.
    private static func principals(
        _ table: [String: JSONValue], side: String, group: String?, fail: (String, String) -> Void
    ) -> ProviderManifest.Principals? {
        let usersKey = "group-\(side)-users"
        let groupsKey = "group-\(side)-groups"
        guard table[usersKey] != nil || table[groupsKey] != nil else { return nil }
        if group == nil, table["group"] == nil {
            fail(table[usersKey] != nil ? usersKey : groupsKey, "names the \(side)s of a group, but the manifest "
                 + "has no group = \"...\"")
        }
        return ProviderManifest.Principals(users: nameList(table[usersKey], key: usersKey, what: "user", fail: fail),
                                           groups: nameList(table[groupsKey], key: groupsKey, what: "group",
                                                            fail: fail))
    }

    private static func nameList(
        _ value: JSONValue?,
        key: String,
        what: String,
        fail: (String, String) -> Void
    ) -> [String] {
        switch value {
        case nil:
            return []
        case .string(let name)? where !name.isEmpty:
            return [name]
        case .array(let items)? where items.allSatisfy({ ($0.stringValue ?? "").isEmpty == false }):
            return items.compactMap(\.stringValue)
        case let value?:
            fail(key, "expected an array of \(what) names, found \(value.summary)")
            return []
        }
    }

    /// What a widget table's `views` needs from the rest of the manifest.
    private struct WidgetContext {
        var manifestPath: String
        var assets: String?
        var files: any ManifestFileSystem
    }

    private static func parseWidget(
        _ value: JSONValue,
        key: String,
        context: WidgetContext,
        fail: (String, String) -> Void,
        failWith: (ManifestError) -> Void
    ) -> WidgetKindManifest? {
        guard case .object(let table) = value else {
            fail(key, "expected a table, found \(value.summary)")
            return nil
        }
        var valid = true
        func failWidget(_ subkey: String, _ message: String) {
            valid = false
            fail("\(key).\(subkey)", message)
        }
        for unknown in table.keys.sorted() where !widgetKeys.contains(unknown) {
            failWidget(unknown, "unknown key (expected one of: \(widgetKeys.joined(separator: ", ")))")
        }
        var kind = ""
        switch table["kind"] {
        case .string(let name)? where isValidName(name):
            kind = name
        case nil:
            failWidget("kind", "expected a kind name matching [a-z0-9][a-z0-9._-]*, found nothing")
        case let value?:
            failWidget("kind", "expected a kind name matching [a-z0-9][a-z0-9._-]*, found \(value.summary)")
        }
        let displayName = optionalString(table["display-name"], key: "display-name", fail: failWidget)
        let description = optionalString(table["description"], key: "description", fail: failWidget) ?? ""
        var families = WidgetKindManifest.defaultFamilies
        if let value = table["families"] {
            if case .array(let items) = value, !items.isEmpty,
               items.allSatisfy({ ($0.stringValue ?? "").isEmpty == false }) {
                families = items.compactMap(\.stringValue)
            } else {
                failWidget("families", "expected a non-empty array of family names such as \"systemSmall\", "
                    + "found \(value.summary)")
            }
        }
        var parameters: [ParameterSpec] = []
        switch table["parameters"] {
        case nil:
            break
        case .object(let specs)?:
            for name in specs.keys.sorted() {
                guard let spec = specs[name] else { continue }
                let parameterKey = "parameters.\(name)"
                guard isValidParameterName(name) else {
                    failWidget(parameterKey, "expected a parameter name matching [A-Za-z_][A-Za-z0-9_-]*")
                    continue
                }
                if let parameter = parseParameter(name: name, spec, key: parameterKey, fail: failWidget) {
                    parameters.append(parameter)
                }
            }
        case let value?:
            failWidget("parameters", "expected a table of [widget.parameters.NAME] tables, found \(value.summary)")
        }
        var views: (document: JSONValue, file: String?)?
        if let value = table["views"] {
            views = ManifestViewLoader.load(
                value, key: "\(key).views", manifestPath: context.manifestPath, families: families,
                assets: context.assets, files: context.files
            ) { error in
                valid = false
                failWith(error)
            }
        }
        guard valid else { return nil }
        return WidgetKindManifest(
            kind: kind, displayName: displayName, description: description, families: families, parameters: parameters,
            views: views?.document, viewsFile: views?.file
        )
    }

    private static func parseParameter(
        name: String,
        _ value: JSONValue,
        key: String,
        fail: (String, String) -> Void
    ) -> ParameterSpec? {
        guard case .object(let table) = value else {
            fail(key, "expected a table with a \"type\", found \(value.summary)")
            return nil
        }
        var problems: [(subkey: String, message: String)] = []
        // Reported when the function returns, whichever way.
        defer {
            for problem in problems { fail("\(key).\(problem.subkey)", problem.message) }
        }
        for unknown in table.keys.sorted() where !parameterKeys.contains(unknown) {
            problems.append((unknown, "unknown key (expected one of: \(parameterKeys.joined(separator: ", ")))"))
        }
        let typeNames = ParameterType.allCases.map(\.rawValue).joined(separator: " | ")
        guard let typeValue = table["type"] else {
            problems.append(("type", "expected \(typeNames), found nothing"))
            return nil
        }
        guard case .string(let typeName) = typeValue, let type = ParameterType(rawValue: typeName) else {
            problems.append(("type", "expected \(typeNames), found \(typeValue.summary)"))
            return nil
        }
        let title = optionalString(table["title"], key: "title", fail: { problems.append(($0, $1)) })
        var options = ParameterOptions.none
        switch table["options"] {
        case nil:
            break
        case .string("dynamic")?:
            options = .dynamic
        case .array(let items)? where !items.isEmpty:
            var fixed: [ParameterOption] = []
            for (index, item) in items.enumerated() {
                if let option = fixedOption(item) {
                    fixed.append(option)
                } else {
                    problems.append(("options[\(index)]", "expected a value or a table {value, title, subtitle}, "
                        + "found \(item.summary)"))
                }
            }
            options = .fixed(fixed)
        case let value?:
            problems.append(("options", "expected \"dynamic\" or a non-empty array of options, found \(value.summary)"))
        }
        if type == .enum, case .dynamic = options {
            problems.append(("options", "expected a fixed list for an enum, found \"dynamic\""))
        } else if type == .enum, case .none = options {
            problems.append(("options", "expected a fixed list of the enum's values, found nothing"))
        }
        guard problems.isEmpty else { return nil }
        var spec = ParameterSpec(name: name, type: type, title: title, options: options)
        if type != .enum {
            for (index, option) in spec.fixedOptions.enumerated() {
                if case .failure(let error) = spec.validate(option.value) {
                    problems.append(("options[\(index)]", "expected \(error.expected), found \(error.found)"))
                }
            }
        }
        if let defaultValue = table["default"] {
            switch spec.validate(defaultValue) {
            case .success(let value): spec.defaultValue = value
            case .failure(let error): problems.append(("default", "expected \(error.expected), found \(error.found)"))
            }
        }
        return problems.isEmpty ? spec : nil
    }

    private static func fixedOption(_ value: JSONValue) -> ParameterOption? {
        switch value {
        case .string, .integer, .number, .bool:
            return ParameterOption(value: value, title: ParameterSpec.commandLineText(value))
        case .object(let table):
            guard let optionValue = table["value"], optionValue != .null,
                  Set(table.keys).isSubset(of: ["value", "title", "subtitle"])
            else { return nil }
            let title = table["title"].map { $0.stringValue } ?? ParameterSpec.commandLineText(optionValue)
            guard let title else { return nil }
            let subtitle = table["subtitle"]?.stringValue
            if table["subtitle"] != nil && subtitle == nil { return nil }
            return ParameterOption(value: optionValue, title: title, subtitle: subtitle)
        default:
            return nil
        }
    }

    private static func optionalString(
        _ value: JSONValue?,
        key: String,
        fail: (String, String) -> Void
    ) -> String? {
        switch value {
        case nil: return nil
        case .string(let text)?: return text
        case let value?:
            fail(key, "expected a string, found \(value.summary)")
            return nil
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number
        default: return nil
        }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isValidParameterName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
              first.properties.isAlphabetic || first == "_"
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
        }
    }
}
