import Foundation
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The control API's queries that a provider answers: a dynamic parameter's `Options` and a gallery's `Snapshot`.
/// Each asks the provider through the scheduler (`WidgetService+ProviderRequests`) and changes no widget.
extension WidgetService {
    // MARK: - Options

    /// The values `parameter` of `kind` can take: asked of the provider when the manifest says `dynamic`, else the
    /// manifest's fixed list. The provider's run takes a slot like a widget run, identical questions at once share
    /// it, and `uid` (nil for callers the daemon trusts) may start `options-rate` such runs a minute: past it the
    /// answer is `RateLimited`.
    public func options(kind: String, parameter: String, search: String?, uid: UInt32?,
                        completion: @escaping (Result<OptionsMethod.Reply, ControlError>) -> Void) {
        guard let manifest = manifests.manifest(forKind: kind), let kindManifest = manifest.widget(kind: kind) else {
            completion(.failure(.unknownKind(kind)))
            return
        }
        guard let spec = kindManifest.parameter(named: parameter) else {
            let name = ControlError.echoed(parameter)
            completion(.failure(.invalidParameter("parameter", reason: "kind \(kind) has no parameter \(name)")))
            return
        }
        guard spec.options == .dynamic else {
            let needle = search?.lowercased() ?? ""
            let options = spec.fixedOptions
                .filter { needle.isEmpty || "\($0.value.jsonText()) \($0.title)".lowercased().contains(needle) }
                .map { OptionsMethod.Option(value: $0.value, title: $0.title) }
            completion(.success(OptionsMethod.Reply(options: options, source: .manifest)))
            return
        }
        let invocation = callerInvocation(.options, manifest: manifest, kind: kind, widget: nil, parameter: parameter,
                                          search: search)
        let searched = (search.map(JSONValue.string) ?? .null).jsonText()
        let question = "options \(JSONValue.string(parameter).jsonText()) \(searched)"
        ask(.options, kind: kind, question: question, invocation: invocation, uid: uid, expecting: "options",
            completion: completion) { answer in
            guard case .options(let options) = answer else { return nil }
            return OptionsMethod.Reply(options: options.map { OptionsMethod.Option(value: $0.value, title: $0.title) },
                                       source: .provider)
        }
    }

    // MARK: - Snapshot

    /// One entry for a gallery's preview of `kind` in `family`: the provider's `snapshot` answer, asked with
    /// `isPreview` (WidgetKit's `getSnapshot`, seed 001). Parameters left out take the manifest's defaults; the
    /// answer is neither stored nor charged to any widget's budget. Like `Options`, the run takes a slot (callers'
    /// runs hold at most half), the same preview asked at once shares one run, and a `uid` (nil for root and the
    /// admin group) may start `optionsRate` such runs a minute.
    public func snapshot(kind: String, family: String?, parameters: [String: JSONValue], uid: UInt32?,
                         completion: @escaping (Result<SnapshotMethod.Reply, ControlError>) -> Void) {
        guard let resolved = resolve(kind: kind, family: family, parameters: parameters, else: completion) else {
            return
        }
        let (manifest, kindManifest, family, given) = resolved
        var configuration = given
        for spec in kindManifest.parameters where configuration[spec.name] == nil {
            configuration[spec.name] = spec.defaultValue
        }
        let invocation = callerInvocation(
            .snapshot, manifest: manifest, kind: kind,
            widget: ProviderRequest.Widget(id: "", family: family, configuration: configuration), isPreview: true)
        // Sorted keys: the same preview asked with its parameters in another order is the same question.
        let question = "snapshot \(JSONValue.string(family).jsonText()) \(JSONValue.object(configuration).jsonText())"
        ask(.snapshot, kind: kind, question: question, invocation: invocation, uid: uid, expecting: "an entry",
            completion: completion) { [weak self] answer in
            guard case .entry(let entry) = answer else { return nil }
            self?.keepPreview(of: kind, question: question, images: entry.images)
            return SnapshotMethod.Reply(family: family, entry: WidgetSummary.CurrentEntry(
                date: entry.date, content: JSONValue(jsonText: entry.content) ?? .null,
                images: entry.images.isEmpty ? nil : entry.images))
        }
    }

    /// Asks `kind`'s provider `question` for a caller of `method`, who may start `options-rate` such runs a minute
    /// (`uid` nil: no rate binds it): past it the answer is `RateLimited`. `reply` makes the answer into the reply; a
    /// failed run, or an answer `reply` does not take (nil: not `expecting`), is `ProviderFailed`.
    private func ask<Reply>(
        _ method: ControlMethod, kind: String, question: String, invocation: ProviderInvocation, uid: UInt32?,
        expecting: String, completion: @escaping (Result<Reply, ControlError>) -> Void,
        reply: @escaping (ProviderAnswer) -> Reply?
    ) {
        let perMinute = scheduler.settings.optionsRate
        askProvider(ProviderRequestKey(kind: kind, question: question), invocation: invocation, uid: uid, refused: {
            completion(.failure(.rateLimited(method: method.rawValue, uid: uid ?? 0, perMinute: perMinute,
                                             retryAfter: $0)))
        }) { result in
            switch result {
            case .success(let answer, _):
                guard let made = reply(answer) else {
                    completion(.failure(.providerFailed(kind: kind, reason: RunFailureReason.invalid.rawValue,
                                                       detail: "the provider did not answer with \(expecting)")))
                    return
                }
                completion(.success(made))
            case .failure(let failure):
                completion(.failure(.providerFailed(kind: kind, reason: failure.reason.rawValue,
                                                   detail: failure.detail)))
            }
        }
    }
}
