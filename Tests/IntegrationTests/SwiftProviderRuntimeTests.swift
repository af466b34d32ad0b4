import Foundation
import Testing
import WidgetSchedulerTestKit

/// A provider built on WidgetProviderKit leaves the service's journal quiet: its async code runs on the main thread,
/// so libdispatch starts no pool thread and never asks for a nice value a provider may not take.
@Suite("Swift provider runtime")
struct SwiftProviderRuntimeTests {
    static let requests = [
        #"{"protocol":1,"kind":"clock","request":"timeline","family":"systemSmall","#
            + #""configuration":{"timezone":"Europe/Paris"},"context":{"now":"2026-11-26T10:00:00Z"}}"#,
        #"{"protocol":1,"kind":"clock","request":"options","parameter":"timezone","search":"Par"}"#,
        #"{"protocol":1,"kind":"countdown","request":"snapshot","family":"systemSmall"}"#,
    ]

    /// Run as a user who may not lower its nice value, as in the sandbox, with libdispatch's log on stderr (where
    /// the service's journal would otherwise get it through syslog).
    @Test("the clock provider answers without a libdispatch line, as a user who may not raise its priority",
          arguments: requests)
    func answersWithoutALibdispatchLine(request: String) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("swift-provider-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let requestURL = scratch.appendingPathComponent("request.json")
        try Data(request.utf8).write(to: requestURL)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: requestURL.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
        // A copy in the scratch directory: `nobody` may not reach the build directory of a checkout under a private
        // directory (a clone in /root, or a mktemp -d). Its libraries are found by absolute run path.
        let provider = scratch.appendingPathComponent("clock-provider").path
        try FileManager.default.copyItem(atPath: try BuiltProducts.executable("clock-provider"), toPath: provider)
        let command = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "/bin/sh", "-c",
                       "exec \"$0\" < \"$1\"", provider, requestURL.path]
        let result = try RunningCommand(command, environment: ["PATH": "/usr/bin:/bin", "LIBDISPATCH_LOG": "stderr"],
                                        scratch: scratch).wait(timeout: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("{"), "\(result)")
        #expect(result.standardError.isEmpty, "\(result)")
    }
}
