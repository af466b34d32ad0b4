/// A hook added with `EventLoop.addIterationHook(_:)`: it runs after every loop iteration until `cancel()` is called
/// or the last reference to it goes.
public final class IterationHook {
    private weak var loop: EventLoop?
    private let id: Int

    init(loop: EventLoop, id: Int) {
        self.loop = loop
        self.id = id
    }

    deinit {
        cancel()
    }

    /// Stops the hook. Safe to call more than once, and from inside any hook.
    public func cancel() {
        loop?.removeIterationHook(id)
        loop = nil
    }
}
