/// One line the daemon writes on stderr when journald is absent: `LEVEL message KEY=value KEY2="two words"`.
public struct DaemonLogLine: Sendable, CustomStringConvertible {
    public var level: String
    public var message: String
    public var fields: [String: String]
    public var description: String

    /// The message id names of `JournalMessageID`, for matching lines without the runtime's internals.
    public enum MessageID: String {
        case runStarted = "6e60a12f3b8c48b581854b2f29eecc0d"
        case runFinished = "7633e9afe0f54a36aebcf59076c059dd"
        case runFailed = "bd4e8c89b92f41518396f51928470b1b"
        case requestRefused = "1461c55dfe9f44e3bfc4e8f05cb5bebe"
        case quarantined = "f76e6ad5252542e29605d7d9d1cd0827"
        case started = "0545ab5ea7104499b91911c0bb1a3cfb"
        case clockChanged = "02fef42b6e1341f5a03bd2559d149440"
        case interruptedRunResumed = "adffc638d7d5491194f97a5aa24a61be"
    }

    public var messageID: MessageID? { fields["MESSAGE_ID"].flatMap(MessageID.init(rawValue:)) }
    public var widget: String? { fields["WIDGET_ID"] }

    /// Parses a line; nil for a line that is not one of the daemon's (a provider's stray output, a blank line).
    /// The fields are the longest tail of `NAME=value` tokens that parses whole, so a message quoting `A=b` is safe.
    public init?(_ line: Substring) {
        guard let space = line.firstIndex(of: " ") else { return nil }
        let level = String(line[..<space])
        guard ["TRACE", "DEBUG", "INFO", "NOTICE", "WARNING", "ERROR", "CRITICAL"].contains(level) else { return nil }
        let rest = line[line.index(after: space)...]
        self.level = level
        self.description = String(line)
        var start = rest.startIndex
        while let candidate = rest[start...].firstIndex(of: " ") {
            if let fields = Self.fields(rest[rest.index(after: candidate)...]) {
                message = String(rest[..<candidate])
                self.fields = fields
                return
            }
            start = rest.index(after: candidate)
        }
        message = String(rest)
        fields = [:]
    }

    /// `NAME=value NAME="quoted \"value\""` up to the end, or nil when the text is not only that.
    private static func fields(_ text: Substring) -> [String: String]? {
        var fields: [String: String] = [:]
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            var name = ""
            while index < characters.count, characters[index] != "=" {
                let character = characters[index]
                guard character.isASCII, character.isUppercase || character.isNumber || character == "_" else {
                    return nil
                }
                name.append(character)
                index += 1
            }
            guard !name.isEmpty, index < characters.count else { return nil }
            index += 1
            var value = ""
            if index < characters.count, characters[index] == "\"" {
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count {
                        index += 1
                        switch characters[index] {
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "r": value.append("\r")
                        default: value.append(characters[index])
                        }
                    } else {
                        value.append(characters[index])
                    }
                    index += 1
                }
                guard index < characters.count else { return nil }
                index += 1
            } else {
                while index < characters.count, characters[index] != " " {
                    value.append(characters[index])
                    index += 1
                }
            }
            fields[name] = value
            if index < characters.count {
                guard characters[index] == " " else { return nil }
                index += 1
            }
        }
        return fields
    }

    /// Every daemon line of `text`.
    public static func parse(_ text: String) -> [DaemonLogLine] {
        text.split(separator: "\n").compactMap(DaemonLogLine.init)
    }
}
