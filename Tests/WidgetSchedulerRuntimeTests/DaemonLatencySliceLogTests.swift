import Foundation
import Logging
import Testing
import WidgetProviders
@testable import WidgetSchedulerRuntime
import WidgetSchedulerTestKit

#if canImport(Glibc)
import Glibc
#endif

/// The start line that says what asking for the event loop's short scheduling slice did: granted, asked of a kernel
/// that has no slices to grant, left alone under another policy, or refused (naming the call that failed).
struct DaemonLatencySliceLogTests {
    @Test(arguments: [
        (ThreadScheduling.SliceRequest.applied(grantedSlice: ThreadScheduling.latencySliceNanoseconds),
         Logger.Level.info,
         "event loop and provider spawning ask for a 0.1 ms scheduling slice; providers start with the default slice"),
        (.applied(grantedSlice: nil), .info,
         "event loop and provider spawning ask for a 0.1 ms scheduling slice, which this kernel does not grant "
            + "(Linux 6.12 or later does); providers start with the default slice"),
        (.otherPolicy("SCHED_FIFO"), .info,
         "running under SCHED_FIFO: the threads' scheduling is left as it is, and providers inherit it"),
        (.failed(call: "sched_setattr", errno: EPERM), .warning,
         "cannot ask for a short scheduling slice (sched_setattr: Operation not permitted): a provider's exit may "
            + "wait for a CPU behind another provider"),
        (.failed(call: "sched_getattr", errno: ENOSYS), .warning,
         "cannot ask for a short scheduling slice (sched_getattr: Function not implemented): a provider's exit may "
            + "wait for a CPU behind another provider"),
    ])
    func eachOutcomeIsSaidInOneLine(request: ThreadScheduling.SliceRequest, level: Logger.Level, message: String) {
        let journal = RecordingLogHandler.Journal()
        Daemon.logLatencySlice(request, to: RecordingLogHandler.logger(journal))
        #expect(journal.entries.map(\.level) == [level])
        #expect(journal.entries.map(\.message) == [message])
    }
}
