// The rendering benchmark of issue 31 §4: the current entry of WIDGETS widgets (the example kinds' views, each widget
// in one of its kind's families) resolved and drawn to HTML, and to text (a terminal box; one line for
// accessoryInline), against JSON-encoding the same entries' content as the daemon does (JSONValue.jsonText()).
//
// usage: views-bench EXAMPLES_DIR [WIDGETS] [ROUNDS]
// Build and run: swift build -c release --package-path Benchmarks --product views-bench, then
// Benchmarks/.build/release/views-bench examples (from the repository root).
// Prints one line: widgets=N rounds=R html_ms=best/median text_ms=best/median json_ms=best/median
// html_ratio=H text_ratio=T (best over best), each the round's wall time, then the same as the thread's CPU time
// (html_cpu_ms=...), which other processes on a busy machine do not inflate. Build with -c release; the goal is html
// and text each <= 20 ms.
import Foundation
import WidgetProtocol
import WidgetViews

let arguments = CommandLine.arguments
guard arguments.count >= 2, arguments.count <= 4 else {
    FileHandle.standardError.write(Data("usage: views-bench EXAMPLES_DIR [WIDGETS] [ROUNDS]\n".utf8))
    exit(64)
}
let widgetCount = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 30 : 30

/// Each example kind's view file and an entry's content as its provider writes it.
let kinds: [(file: String, content: String)] = [
    ("weather/weather.views.json", #"""
        {"location": "Cupertino", "source": "fallback", "temperature": 21.4, "condition": "partly cloudy",
         "symbol": "cloud.sun", "hours": [
           {"date": "2026-11-26T11:00:00Z", "temperature": 22.0, "symbol": "cloud.sun"},
           {"date": "2026-11-26T12:00:00Z", "temperature": 23.1, "symbol": "sun"},
           {"date": "2026-11-26T13:00:00Z", "temperature": 23.9, "symbol": "sun"}]}
        """#),
    ("clock-swift/clock.views.json", #"{"date": "2026-11-26T10:00:00Z", "time": "10:00", "timeZone": "Europe/Paris"}"#),
    ("clock-swift/countdown.views.json", #"""
        {"date": "2026-11-26T10:00:00Z", "title": "Tea", "target": "2026-11-26T10:04:30Z", "remaining": "0d 0h 05m",
         "near": true}
        """#),
    ("shell/system.views.json", #"""
        {"uptime": 273900.5, "load1": 0.62, "load5": 0.48, "load15": 0.41, "cpus": 4, "memoryUsed": 0.483}
        """#),
    ("python/quote.views.json", #"""
        {"topic": "science", "quote": "Somewhere, something incredible is waiting to be known.", "author": "Carl Sagan"}
        """#),
]

struct Widget {
    var view: FamilyView
    var family: WidgetFamily
    var content: JSONValue
}

var catalog: [Widget] = []
for kind in kinds {
    let path = arguments[1] + "/" + kind.file
    guard let data = FileManager.default.contents(atPath: path),
          let json = JSONValue(jsonText: String(decoding: data, as: UTF8.self)),
          let document = try? ViewDocument(json: json),
          let content = JSONValue(jsonText: kind.content)
    else {
        FileHandle.standardError.write(Data("views-bench: cannot read the views of \(path)\n".utf8))
        exit(1)
    }
    for family in document.sortedFamilies {
        if let view = document.view(for: family) {
            catalog.append(Widget(view: view, family: family, content: content))
        }
    }
}
let widgets = (0..<widgetCount).map { catalog[$0 % catalog.count] }
let now = Date(timeIntervalSince1970: 1_795_687_200)
let context = RenderContext(now: now, timeZone: TimeZone(secondsFromGMT: 3600) ?? .current, entryDate: now)

/// The calling thread's CPU time, in seconds.
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Seconds `body` takes, on the monotonic clock and in the thread's CPU time.
func measure(_ body: () -> Int) -> (seconds: Double, cpu: Double, bytes: Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    let cpuStart = threadCPUTime()
    let bytes = body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, threadCPUTime() - cpuStart, bytes)
}

var sink = 0
var html: [(seconds: Double, cpu: Double, bytes: Int)] = []
var text: [(seconds: Double, cpu: Double, bytes: Int)] = []
var json: [(seconds: Double, cpu: Double, bytes: Int)] = []
for _ in 0..<rounds {
    html.append(measure {
        widgets.reduce(0) { total, widget in
            let resolved = Resolver.resolve(widget.view, family: widget.family, content: widget.content,
                                            context: context)
            return total + HTMLRenderer.render(resolved).utf8.count
        }
    })
    text.append(measure {
        widgets.reduce(0) { total, widget in
            let resolved = Resolver.resolve(widget.view, family: widget.family, content: widget.content,
                                            context: context)
            return total + TextRenderer.text(resolved).utf8.count
        }
    })
    json.append(measure {
        widgets.reduce(0) { $0 + $1.content.jsonText().utf8.count }
    })
}

func summary(_ values: [Double]) -> (best: Double, median: Double) {
    let sorted = values.sorted()
    return (sorted[0] * 1000, sorted[sorted.count / 2] * 1000)
}

for (name, index) in [("", 0), ("_cpu", 1)] {
    let h = summary(html.map { index == 0 ? $0.seconds : $0.cpu })
    let t = summary(text.map { index == 0 ? $0.seconds : $0.cpu })
    let j = summary(json.map { index == 0 ? $0.seconds : $0.cpu })
    print(String(format: "widgets=%d rounds=%d html%@_ms=%.2f/%.2f text%@_ms=%.2f/%.2f json%@_ms=%.2f/%.2f "
                 + "html%@_ratio=%.1f text%@_ratio=%.1f", widgetCount, rounds, name, h.best, h.median, name, t.best,
                 t.median, name, j.best, j.median, name, h.best / j.best, name, t.best / j.best))
}
// The bytes made are used, so no rendering can be optimized away.
sink = (html + text + json).reduce(0) { $0 &+ $1.bytes }
if sink == 0 { print("nothing rendered") }
