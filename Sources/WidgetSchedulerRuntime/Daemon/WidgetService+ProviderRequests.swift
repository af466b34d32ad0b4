import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// Provider runs that callers ask for (`Options` of a dynamic parameter, an `Add`'s defaults). The scheduler decides
/// (`ProviderRequests`): each takes a slot like a widget run, identical ones share a run, and a uid has a rate. Here
/// the callers wait for their run, and the runs are launched and ended.
extension WidgetService {
    /// A caller, from its request until the scheduler decides on it.
    struct ProviderRequestCaller {
        var invocation: ProviderInvocation
        var refused: (_ retryAfter: Double) -> Void
        var answered: (ProviderRunResult) -> Void
    }

    /// A run callers wait on: what to launch, its handle once launched, and everyone its answer goes to.
    struct ProviderRequestRun {
        var invocation: ProviderInvocation
        var handle: ProviderRunHandle?
        var waiters: [(ProviderRunResult) -> Void]
    }

    /// A request for a caller (defaults, options, a preview's snapshot) to the provider of `manifest`, at the clock's
    /// now, with the kind's group directory and the service's grace.
    func callerInvocation(_ request: ProviderRequestKind, manifest: ProviderManifest, kind: String,
                          widget: ProviderRequest.Widget?, parameter: String? = nil, search: String? = nil,
                          isPreview: Bool = false) -> ProviderInvocation {
        let context = ProviderRequest.Context(now: clock.now().wall, isPreview: isPreview,
                                              dataDirectory: manifest.group.map(groupData.directory(of:)))
        return ProviderInvocation(manifest: manifest, request: ProviderRequest(
            request: request, kind: kind, widget: widget, parameter: parameter, search: search, context: context),
            grace: options.providerGrace)
    }

    /// Asks the provider `key` through the scheduler: `answered` gets the run's result (shared with identical
    /// requests), or `refused` how long `uid` must wait, past its rate. `uid` nil: the rate does not bind the caller.
    func askProvider(
        _ key: ProviderRequestKey, invocation: ProviderInvocation, uid: UInt32?,
        refused: @escaping (_ retryAfter: Double) -> Void, answered: @escaping (ProviderRunResult) -> Void
    ) {
        nextRequestID += 1
        let caller = nextRequestID
        providerRequestCallers[caller] = ProviderRequestCaller(invocation: invocation, refused: refused,
                                                               answered: answered)
        handle(.providerRequested(key, uid: uid, caller: caller))
    }

    /// The scheduler's decision on a caller's request.
    func decided(caller: Int, key: ProviderRequestKey, admission: ProviderRequests.Admission) {
        guard let asking = providerRequestCallers.removeValue(forKey: caller) else { return }
        if case .refused(let retryAfter) = admission {
            logger.debug("\(key): refused, the caller's rate is spent; it may ask again in \(retryAfter) s",
                         metadata: [JournalField.widgetKind: "\(key.kind)"])
            asking.refused(retryAfter)
            return
        }
        providerRequestRuns[key, default: ProviderRequestRun(invocation: asking.invocation, waiters: [])].waiters
            .append(asking.answered)
        logger.debug("\(key): \(admission == .joined ? "joins the run asked already" : "\(admission)")",
                     metadata: [JournalField.widgetKind: "\(key.kind)"])
    }

    /// Launches the run the scheduler started for `key`; a snapshot of a provider that saves images gets an image
    /// directory, made now rather than per caller, as callers asking the same share the run.
    func launchProviderRequest(_ key: ProviderRequestKey) {
        guard var run = providerRequestRuns[key] else {
            // No one waits for it (cannot happen: a start follows its decision); its slot is freed at once.
            followUps.append(.providerRequestFinished(key))
            return
        }
        if run.invocation.request.request == .snapshot, run.invocation.manifest.savesImages {
            run.invocation.request.context.imageDirectory = makeImageDirectory(for: "a preview of \(key.kind)")
        }
        let imageDirectory = run.invocation.request.context.imageDirectory
        let handle = launcher.launch(run.invocation) { [weak self] result, _ in
            guard let self else { return }
            providerRequestEnded(key, result: imageDirectory.map { takeImages(of: result, from: $0) } ?? result)
        }
        providerRequestRuns[key]?.handle = handle
    }

    /// A caller's run ended: every caller waiting on it gets its result, and its slot is freed.
    private func providerRequestEnded(_ key: ProviderRequestKey, result: ProviderRunResult) {
        let waiters = providerRequestRuns.removeValue(forKey: key)?.waiters ?? []
        for answered in waiters { answered(result) }
        if isHandling {
            followUps.append(.providerRequestFinished(key))
        } else {
            handle(.providerRequestFinished(key))
        }
    }

    /// Stops the callers' runs in flight, as `terminateRuns` does the widgets'.
    func terminateProviderRequests() {
        for run in providerRequestRuns.values { run.handle?.terminate() }
    }
}
