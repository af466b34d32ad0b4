@testable import WidgetSchedulerCore

/// A queue that keeps state by a widget's position in the scheduler's table, as `DeadlineQueue` and `SlotQueue` do.
protocol PositionedQueue {
    init()
    mutating func append()
    mutating func removeWidget(at position: Int, movedWidget: String?)
}

extension DeadlineQueue: PositionedQueue {}
extension SlotQueue: PositionedQueue {}
