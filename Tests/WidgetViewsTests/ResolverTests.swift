import Foundation
import Testing
import WidgetProtocol
@testable import WidgetViews

private func resolve(_ element: String, content: String = "{}", placeholder: Bool = false) throws -> ResolvedWidget {
    Resolver.resolve(try Fixtures.single(element), family: .systemMedium, content: Fixtures.json(content),
                     context: Fixtures.context(placeholder: placeholder))
}

private func firstText(_ widget: ResolvedWidget) -> ResolvedText? {
    func find(_ node: ResolvedNode) -> ResolvedText? {
        switch node {
        case .text(let text): return text
        case .stack(let stack): return stack.children.lazy.compactMap(find).first
        case .link(_, let content): return find(content)
        default: return nil
        }
    }
    return find(widget.body)
}

@Suite struct ResolverTests {
    @Test func aMissingFieldIsAPlaceholderAndOneProblemNotACrash() throws {
        let widget = try resolve(#"""
            {"type": "vstack", "children": [{"type": "text", "value": "weather.temperature"},
             {"type": "text", "value": "weather.temperature", "format": "number"}]}
            """#, content: #"{"weather": {}}"#)
        let text = try #require(firstText(widget))
        #expect(text.redacted)
        #expect(text.text == String(repeating: Resolver.barCharacter, count: 4))
        #expect(widget.problems == [RenderProblem(path: "weather.temperature", message: "missing")])
    }

    /// Each value of the wrong type draws a placeholder and says what was expected.
    @Test(arguments: [
        (#"{"type": "text", "value": "v", "format": "number"}"#, #"{"v": "high"}"#,
         #"v: expected a number, found "high""#),
        (#"{"type": "text", "value": "v"}"#, #"{"v": {"a": 1}}"#, #"v: expected a string or a number, found {"a":1}"#),
        (#"{"type": "date", "value": "v", "style": "timer"}"#, #"{"v": "tomorrow"}"#,
         #"v: expected an RFC 3339 date, found "tomorrow""#),
        (#"{"type": "date", "value": "v", "style": "timer"}"#, #"{"v": "99999-01-01T00:00:00Z"}"#,
         #"v: expected an RFC 3339 date, found "99999-01-01T00:00:00Z""#),
        (#"{"type": "image", "value": "v"}"#, #"{"v": "not-a-symbol"}"#,
         #"v: expected a symbol name, found "not-a-symbol""#),
        (#"{"type": "image", "value": "v", "source": "asset"}"#, #"{"v": "../../etc/passwd.png"}"#,
         #"v: expected an asset file name, found "../../etc/passwd.png""#),
        (#"{"type": "gauge", "value": "v", "max": "m"}"#, #"{"v": 1, "m": -1}"#,
         "m: expected a maximum above the minimum (0), found -1"),
        (#"{"type": "date", "value": "d", "style": "time", "timeZone": "z"}"#,
         #"{"d": "2026-11-26T10:00:00Z", "z": "../../etc/localtime"}"#,
         #"z: expected an IANA time zone name such as "Europe/Paris""#),
    ] as [(String, String, String)])
    func aValueOfTheWrongTypeIsReported(element: String, content: String, problem: String) throws {
        let widget = try resolve(element, content: content)
        #expect(widget.problems.map(\.description) == [problem])
    }

    @Test func numbersFromProvidersAreRangeCheckedNotTrapped() throws {
        let widget = try resolve(#"""
            {"type": "vstack", "children": [
              {"type": "text", "value": "huge", "format": "number", "decimals": 6},
              {"type": "text", "value": "big", "format": "percent"},
              {"type": "text", "value": "small", "format": "duration"},
              {"type": "text", "value": "min", "format": "number", "grouping": true},
              {"type": "gauge", "value": "huge", "max": "big"}
            ]}
            """#, content: #"{"huge": 1e300, "big": 9.3e18, "small": -1e308, "min": -9223372036854775808}"#)
        guard case .stack(let stack) = widget.body else { Issue.record("not a stack"); return }
        let texts = stack.children.compactMap { node -> String? in
            if case .text(let text) = node { return text.text }
            return nil
        }
        #expect(texts == ["1e+300", "9.3e+20%", "-1e+308 s", "-9,223,372,036,854,775,808"])
        #expect(widget.problems.isEmpty)
    }

    @Test func anIfShowsItsBranchByTheFieldsPresence() throws {
        let element = #"{"type": "if", "present": "a.b", "then": {"type": "text", "text": "yes"}, "else": {"type": "text", "text": "no"}}"#
        #expect(firstText(try resolve(element, content: #"{"a": {"b": 0}}"#))?.text == "yes")
        #expect(firstText(try resolve(element, content: #"{"a": {"b": null}}"#))?.text == "no")
        #expect(firstText(try resolve(element, content: #"{"a": 1}"#))?.text == "no")
        let withoutElse = try resolve(#"{"type": "if", "present": "x", "then": {"type": "text", "text": "yes"}}"#)
        #expect(withoutElse.body == .empty)
        #expect(withoutElse.problems.isEmpty)
    }

    @Test func pathsIndexArrays() throws {
        let widget = try resolve(#"{"type": "text", "value": "hours.1.t"}"#, content: #"{"hours": [{"t": 1}, {"t": 2}]}"#)
        #expect(firstText(widget)?.text == "2")
    }

    @Test func aWidgetWithoutDateTextsNeverAsksToBeRedrawn() throws {
        let widget = try resolve(#"{"type": "text", "value": "a"}"#, content: #"{"a": "x"}"#)
        #expect(widget.nextChange == nil)
    }

    @Test func theNextChangeIsTheEarliestOfTheVisibleDateTexts() throws {
        let widget = try resolve(#"""
            {"type": "vstack", "children": [
              {"type": "date", "value": "far", "style": "relative"},
              {"type": "date", "value": "near", "style": "timer"},
              {"type": "if", "present": "absent", "then": {"type": "date", "now": true, "style": "time", "seconds": true}}
            ]}
            """#, content: #"{"far": "2026-11-26T12:00:00Z", "near": "2026-11-26T10:04:30.250Z"}"#)
        // The timer shows 4:31 until 4:30 are left, at 10:00:00.250.
        #expect(widget.nextChange == Fixtures.now.addingTimeInterval(0.25))
    }

    @Test func aClockOfNowTicksEachMinuteOrSecond() throws {
        let minutes = try resolve(#"{"type": "date", "now": true, "style": "time"}"#)
        #expect(minutes.nextChange == Fixtures.now.addingTimeInterval(60))
        #expect(firstText(minutes)?.text == "10:00")
        let seconds = try resolve(#"{"type": "date", "now": true, "style": "time", "seconds": true}"#)
        #expect(seconds.nextChange == Fixtures.now.addingTimeInterval(1))
    }

    @Test func theEntryDateIsThePathAtDate() throws {
        let widget = try resolve(#"{"type": "date", "value": "@date", "style": "relative"}"#)
        #expect(firstText(widget)?.text == "12 min ago")
    }

    @Test func thePlaceholderRedactsEveryTextToBarsOfItsWidth() throws {
        let widget = try resolve(#"""
            {"type": "vstack", "children": [{"type": "text", "text": "北京 ok"}, {"type": "text", "value": "a"}]}
            """#, content: #"{"a": "hello"}"#, placeholder: true)
        guard case .stack(let stack) = widget.body else { Issue.record("not a stack"); return }
        let texts = stack.children.compactMap { node -> ResolvedText? in
            if case .text(let text) = node { return text }
            return nil
        }
        #expect(texts.map(\.text) == [String(repeating: Resolver.barCharacter, count: 7),
                                      String(repeating: Resolver.barCharacter, count: 5)])
        let allRedacted = texts.allSatisfy { $0.redacted }
        #expect(allRedacted)
        #expect(widget.problems.isEmpty)
    }

    @Test func urlsFillTheirHolesPercentEncoded() throws {
        let widget = try resolve(#"{"type": "link", "url": "app://x/{a}?q={b}", "content": {"type": "spacer"}}"#,
                                 content: #"{"a": "../a b", "b": "x&y=\"z\""}"#)
        #expect(widget.body == .link(url: "app://x/..%2Fa%20b?q=x%26y%3D%22z%22", content: .spacer(minLength: 0)))
    }
}
