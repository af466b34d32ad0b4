import Testing
@testable import WidgetSchedulerRuntime

/// A run's end message, built in one piece, is the parts one after another, whatever their characters.
struct StringConcatenatingTests {
    @Test(arguments: [
        ["w1", ": ", "weather", " provider answered ", "3", " entries, policy ", "atEnd", ""],
        ["", "", ""],
        ["météo", " — ", "天気", "🌦️", "; stderr: ", "line one\nline two"],
        [String(repeating: "long part ", count: 100), "w", ""],
    ])
    func thePartsComeOutOneAfterAnotherAsJoinedWould(parts: [String]) {
        let built: String
        switch parts.count {
        case 3: built = String(concatenating: parts[0], parts[1], parts[2])
        case 6: built = String(concatenating: parts[0], parts[1], parts[2], parts[3], parts[4], parts[5])
        default: built = String(concatenating: parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6],
                                parts[7])
        }
        #expect(built == parts.joined())
        #expect(built.utf8.count == parts.reduce(0) { $0 + $1.utf8.count })
    }
}
