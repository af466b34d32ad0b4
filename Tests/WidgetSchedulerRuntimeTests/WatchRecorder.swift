import WidgetProtocol
import WidgetSchedulerRuntime

/// Every event a `Watch` of the service sends, in order; the watch ends when the recorder is gone.
final class WatchRecorder {
    private(set) var events: [WatchEvent] = []

    init(_ service: WidgetService, _ parameters: WatchMethod.Parameters = WatchMethod.Parameters()) {
        _ = service.watch(parameters) { [weak self] event in
            self?.events.append(event)
            return self != nil
        }
    }
}
