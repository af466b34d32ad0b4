import Testing
@testable import WidgetSchedulerRuntime

/// Which plain successful-run lines are written at once and which are folded into a later one.
struct RunLineFolderTests {
    /// A kept line as the tests compare it: the widget, the run's number, the earlier runs it stands for.
    struct Kept: Equatable, CustomStringConvertible {
        var id: String
        var run: Int
        var earlierRuns: Int
        var description: String { "\(id) run \(run) (+\(earlierRuns))" }
    }

    enum Step: CustomStringConvertible {
        /// Run `run` of widget `id` ends with no stderr output; its line is written now (after a kept one) or not.
        case run(String, Int, writesNow: Bool, after: Kept? = nil)
        /// The same, the run saying `likeness` (its stderr output).
        case saying(String, String, Int, writesNow: Bool, after: Kept? = nil)
        /// Another line of widget `id` is about to be written: what is taken first.
        case take(String, Kept?)
        /// The state is written: what is taken.
        case write([Kept])

        var description: String {
            switch self {
            case .run(let id, let run, let writesNow, let after):
                "\(id) run \(run) \(writesNow ? "written" : "folded")\(after.map { " after \($0)" } ?? "")"
            case .saying(let id, let likeness, let run, let writesNow, let after):
                "\(id) run \(run) saying \(likeness) \(writesNow ? "written" : "folded")"
                    + (after.map { " after \($0)" } ?? "")
            case .take(let id, let kept): "take \(id) -> \(kept.map(\.description) ?? "nothing")"
            case .write(let kept): "write -> \(kept)"
            }
        }
    }

    static let cases: [(String, [Step])] = [
        ("a widget's first run after a write is written, the next are folded into the last", [
            .run("w1", 1, writesNow: true), .run("w1", 2, writesNow: false), .run("w1", 3, writesNow: false),
            .write([Kept(id: "w1", run: 3, earlierRuns: 1)]),
        ]),
        ("after a write, a widget's next run is written at once again", [
            .run("w1", 1, writesNow: true), .run("w1", 2, writesNow: false),
            .write([Kept(id: "w1", run: 2, earlierRuns: 0)]),
            .run("w1", 3, writesNow: true), .write([]), .run("w1", 4, writesNow: true),
        ]),
        ("widgets fold apart, and a write hands their lines over by id", [
            .run("w2", 1, writesNow: true), .run("w1", 1, writesNow: true), .run("w2", 2, writesNow: false),
            .run("w1", 2, writesNow: false), .run("w2", 3, writesNow: false),
            .write([Kept(id: "w1", run: 2, earlierRuns: 0), Kept(id: "w2", run: 3, earlierRuns: 1)]),
        ]),
        ("another line of the widget takes its kept line first, and its later runs still fold until the write", [
            .run("w1", 1, writesNow: true), .run("w1", 2, writesNow: false), .run("w1", 3, writesNow: false),
            .take("w1", Kept(id: "w1", run: 3, earlierRuns: 1)), .take("w1", nil),
            .run("w1", 4, writesNow: false), .write([Kept(id: "w1", run: 4, earlierRuns: 0)]),
        ]),
        ("taking with nothing kept takes nothing and leaves the next run written at once", [
            .take("w1", nil), .run("w1", 1, writesNow: true), .take("w1", nil), .take("w2", nil), .write([]),
        ]),
        ("a take leaves the other widgets' kept lines to the write", [
            .run("w1", 1, writesNow: true), .run("w2", 1, writesNow: true), .run("w1", 2, writesNow: false),
            .run("w2", 2, writesNow: false), .take("w1", Kept(id: "w1", run: 2, earlierRuns: 0)),
            .write([Kept(id: "w2", run: 2, earlierRuns: 0)]),
        ]),
        ("runs saying the same fold like silent ones", [
            .saying("w1", "warning", 1, writesNow: true), .saying("w1", "warning", 2, writesNow: false),
            .saying("w1", "warning", 3, writesNow: false), .write([Kept(id: "w1", run: 3, earlierRuns: 1)]),
        ]),
        ("a run saying something new is written at once, after the kept line, and the next like it fold into it", [
            .run("w1", 1, writesNow: true), .run("w1", 2, writesNow: false), .run("w1", 3, writesNow: false),
            .saying("w1", "warning", 4, writesNow: true, after: Kept(id: "w1", run: 3, earlierRuns: 1)),
            .saying("w1", "warning", 5, writesNow: false), .saying("w1", "other", 6, writesNow: true,
                                                                   after: Kept(id: "w1", run: 5, earlierRuns: 0)),
            .run("w1", 7, writesNow: true), .write([]),
        ]),
        ("after a take, the widget's runs still fold while they are like its last line", [
            .saying("w1", "warning", 1, writesNow: true), .saying("w1", "warning", 2, writesNow: false),
            .take("w1", Kept(id: "w1", run: 2, earlierRuns: 0)), .saying("w1", "warning", 3, writesNow: false),
            .run("w1", 4, writesNow: true, after: Kept(id: "w1", run: 3, earlierRuns: 0)),
        ]),
    ]

    @Test(arguments: cases)
    func foldsAsTheTableSays(_ name: String, _ steps: [Step]) {
        var folder = RunLineFolder<Int>()
        for (index, step) in steps.enumerated() {
            switch step {
            case .run(let id, let run, let writesNow, let after):
                check(folder.fold(id, run, likeness: ""), id: id, writesNow: writesNow, after: after,
                      "\(name): step \(index), \(step)")
            case .saying(let id, let likeness, let run, let writesNow, let after):
                check(folder.fold(id, run, likeness: likeness), id: id, writesNow: writesNow, after: after,
                      "\(name): step \(index), \(step)")
            case .take(let id, let expected):
                let taken = folder.take(id).map { Kept(id: id, run: $0.line, earlierRuns: $0.earlierRuns) }
                #expect(taken == expected, "\(name): step \(index), \(step)")
            case .write(let expected):
                let taken = folder.takeAll().map {
                    Kept(id: $0.id, run: $0.folded.line, earlierRuns: $0.folded.earlierRuns)
                }
                #expect(taken == expected, "\(name): step \(index), \(step)")
            }
        }
    }

    private func check(_ verdict: RunLineFolder<Int>.Verdict, id: String, writesNow: Bool, after: Kept?,
                       _ comment: Comment) {
        switch verdict {
        case .folded:
            #expect(!writesNow, comment)
        case .writeNow(let kept):
            #expect(writesNow, comment)
            #expect(kept.map { Kept(id: id, run: $0.line, earlierRuns: $0.earlierRuns) } == after, comment)
        }
    }

    @Test func aThousandRunsBetweenTwoWritesMakeTwoLines() {
        var folder = RunLineFolder<Int>()
        let written = (1...1000).filter {
            if case .writeNow = folder.fold("w1", $0, likeness: "") { return true }
            return false
        }
        let kept = folder.takeAll()
        #expect(written == [1])
        #expect(kept.count == 1)
        #expect(kept.first?.folded.line == 1000)
        #expect(kept.first?.folded.earlierRuns == 998)
    }
}
