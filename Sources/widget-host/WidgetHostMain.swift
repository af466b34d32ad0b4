import Dispatch
import NIOCore
import NIOPosix

/// `widget-host`'s entry point. Swift concurrency's jobs run on NIO's event loops, the threads that serve HTTP,
/// instead of libdispatch's worker threads: the first libdispatch worker arms libdispatch's workqueue monitor, a
/// timer that wakes the process every second for the rest of its life, so an idle host would never sleep. The hook
/// must be in place before any task runs, which is why this entry point is synchronous and starts the command's task
/// itself; waits go through `LoopSleep`, not `Task.sleep`, for the same reason.
@main
enum WidgetHostMain {
    static func main() {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        let finished = DispatchSemaphore(value: 0)
        // Detached: a task started here would otherwise belong to the main actor, whose thread waits below.
        Task.detached {
            await WidgetHostCommand.main()
            finished.signal()
        }
        finished.wait()
    }
}
