import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The control API's state-changing methods, as plain functions: tested without a socket, called by
/// `DaemonControlHandler` after authorization.
extension WidgetService {
    // MARK: - Reload

    /// The widget ids a reload target names; an unknown kind or widget is an error naming it.
    func widgetIDs(for target: ReloadMethod.Parameters.Target) throws(ControlError) -> [String] {
        switch target {
        case .kind(let kind):
            guard manifests.widgetKind(kind) != nil || !scheduler.widgetIDs(ofKind: kind).isEmpty else {
                throw .unknownKind(kind)
            }
            return scheduler.widgetIDs(ofKind: kind)
        case .all:
            return scheduler.widgetIDs
        case .widgets(let ids):
            for id in ids where widgets[id] == nil { throw .unknownWidget(id) }
            return ids
        }
    }

    /// The kinds a reload target touches, for authorization; an unknown kind or widget is an error naming it.
    /// Cheap for a kind (no list of its widgets), as a `Reload` of a large kind answers in milliseconds.
    func kinds(for target: ReloadMethod.Parameters.Target) throws(ControlError) -> Set<String> {
        switch target {
        case .kind(let kind):
            guard manifests.widgetKind(kind) != nil || scheduler.hasWidgets(ofKind: kind) else {
                throw .unknownKind(kind)
            }
            return [kind]
        case .all:
            return scheduler.kinds
        case .widgets(let ids):
            var kinds: Set<String> = []
            for id in ids {
                guard let widget = widgets[id] else { throw .unknownWidget(id) }
                kinds.insert(widget.kind)
            }
            return kinds
        }
    }

    /// `reloadTimelines(ofKind:)`, `reloadAllTimelines()` or a reload of named widgets: one decision per widget.
    public func reload(_ target: ReloadMethod.Parameters.Target, foreground: Bool) throws(ControlError)
        -> [ReloadDecision]
    {
        _ = try kinds(for: target)
        let coreTarget: ReloadTarget
        switch target {
        case .kind(let kind): coreTarget = .kind(kind)
        case .all: coreTarget = .all
        case .widgets(let ids): coreTarget = .widgets(ids)
        }
        nextRequestID += 1
        let decided = handle(.reloadRequested(coreTarget, foreground: foreground, request: nextRequestID))
        let now = clock.now()
        logUnchanged(decided, target: target)
        return decided.map { ReloadDecision(widget: $0.widget, decision: $0.decision, now: now) }
    }

    /// One journal entry for the widgets a request left as they were (each already had that run planned or in
    /// flight); the widgets whose plan changed got one entry each from `handle`.
    private func logUnchanged(_ decided: [RequestDecision], target: ReloadMethod.Parameters.Target) {
        var ran = 0, coalesced = 0, deferred = 0
        for decision in decided where !decision.changedPlan {
            switch decision.decision {
            case .ran: ran += 1
            case .coalesced: coalesced += 1
            case .deferred: deferred += 1
            }
        }
        let total = ran + coalesced + deferred
        guard total > 0 else { return }
        let counts = ["coalesced": coalesced, "deferred": deferred, "ran": ran].filter { $0.value > 0 }
        var fields: Logger.Metadata = [
            JournalField.messageID: JournalMessageID.requestUnchanged.metadataValue,
            JournalField.widgetCount: "\(total)",
        ]
        let subject: String
        switch target {
        case .kind(let kind):
            subject = "kind \(kind)"
            fields[JournalField.widgetKind] = "\(kind)"
        case .all:
            subject = "all widgets"
        case .widgets(let ids):
            subject = ids.count == 1 ? ids[0] : "\(ids.count) widgets"
            if ids.count == 1 { fields[JournalField.widgetID] = "\(ids[0])" }
        }
        if counts.count == 1, let name = counts.keys.first { fields[JournalField.decision] = "\(name)" }
        let breakdown = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let text = "reload request for \(subject): \(total) widget(s) already had that run planned (\(breakdown)); "
            + "nothing changed"
        logger.info("\(text)", metadata: fields)
    }

    // MARK: - Add, remove, configure

    /// Adds a widget of `kind`. Parameters the caller leaves out are filled from the provider's `defaults` answer,
    /// then from the manifest's defaults (seed 000: never a blank widget); a parameter with no value after that is
    /// an error naming it. The `initial` run follows at once. `completion` gets the new id, later if the provider is
    /// asked for defaults: that run takes a slot like any other, and identical `Add`s at once share it; no rate binds
    /// it, the caller having passed `Add`'s authorization.
    public func add(kind: String, family: String?, parameters: [String: JSONValue],
                    completion: @escaping (Result<String, ControlError>) -> Void) {
        guard let resolved = resolve(kind: kind, family: family, parameters: parameters, else: completion) else {
            return
        }
        let (manifest, kindManifest, family, given) = resolved
        let missing = kindManifest.parameters.map(\.name).filter { given[$0] == nil }
        guard !missing.isEmpty else {
            completion(.success(insertWidget(kind: kind, family: family, configuration: given)))
            return
        }
        let invocation = callerInvocation(
            .defaults, manifest: manifest, kind: kind,
            widget: ProviderRequest.Widget(id: "", family: family, configuration: given))
        let question = "defaults \(JSONValue.string(family).jsonText()) \(JSONValue.object(given).jsonText())"
        let key = ProviderRequestKey(kind: kind, question: question)
        askProvider(key, invocation: invocation, uid: nil, refused: { _ in }) { [weak self] result in
            guard let self else { return }
            var configuration = given
            switch result {
            case .success(.configuration(let defaults), _):
                for spec in kindManifest.parameters where configuration[spec.name] == nil {
                    if let value = defaults[spec.name], case .success(let valid) = spec.validate(value) {
                        configuration[spec.name] = valid
                    }
                }
            case .success, .failure:
                let reason = result.failure.map { "\($0)" } ?? "the answer was not a configuration"
                self.logger.notice("\(kind): the provider gave no defaults (\(reason)); using the manifest's",
                                   metadata: [JournalField.widgetKind: "\(kind)"])
            }
            for spec in kindManifest.parameters where configuration[spec.name] == nil {
                configuration[spec.name] = spec.defaultValue
            }
            let stillMissing = kindManifest.parameters.map(\.name).filter { configuration[$0] == nil }
            guard stillMissing.isEmpty else {
                completion(.failure(.invalidParameter(
                    stillMissing[0], reason: "no value given, and neither the provider's defaults nor the manifest "
                        + "(\(manifest.path)) has one")))
                return
            }
            // Writes may have started failing while the provider answered.
            do throws(ControlError) {
                try self.requireWritableState()
            } catch {
                completion(.failure(error))
                return
            }
            completion(.success(self.insertWidget(kind: kind, family: family, configuration: configuration)))
        }
    }

    /// A kind's manifest, a family of it, and parameters it takes, as a caller named them (`resolve`).
    typealias ResolvedKind = (
        manifest: ProviderManifest, kind: WidgetKindManifest, family: String, parameters: [String: JSONValue]
    )

    /// The manifest of `kind`, the family asked for (the kind's first when nil) and `parameters` validated against
    /// the kind; refused when the kind is unknown, lacks the family, or does not take a parameter as given.
    func resolve(kind: String, family: String?, parameters: [String: JSONValue]) throws(ControlError)
        -> ResolvedKind
    {
        guard let manifest = manifests.manifest(forKind: kind), let kindManifest = manifest.widget(kind: kind) else {
            throw .unknownKind(kind)
        }
        let family = family ?? kindManifest.families.first ?? "systemSmall"
        guard kindManifest.families.contains(family) else {
            throw .invalidParameter("family", reason: "kind \(kind) supports "
                + kindManifest.families.joined(separator: ", ") + "; not \(ControlError.echoed(family))")
        }
        return (manifest, kindManifest, family, try validate(parameters, against: kindManifest))
    }

    /// `resolve` for a caller answered through `completion`: nil once its refusal is given there.
    func resolve<Reply>(kind: String, family: String?, parameters: [String: JSONValue],
                        else completion: (Result<Reply, ControlError>) -> Void) -> ResolvedKind? {
        do {
            return try resolve(kind: kind, family: family, parameters: parameters)
        } catch {
            completion(.failure(error))
            return nil
        }
    }

    private func insertWidget(kind: String, family: String, configuration: [String: JSONValue]) -> String {
        var number = nextWidgetNumber
        while widgets["w\(number)"] != nil { number += 1 }
        nextWidgetNumber = number + 1
        let id = "w\(number)"
        let widget = ManagedWidget(id: id, kind: kind, family: family, configuration: configuration,
                                   addedAt: clock.now().wall, lastRun: nil, currentContent: nil)
        widgets[id] = widget
        state.batch.upsertWidget(widget.record)
        let text = JSONValue.object(configuration).jsonText()
        logger.info("\(id): added, kind \(kind), family \(family), configuration \(text)",
                    metadata: metadata(id))
        handle(.widgetAdded(id: id, kind: kind))
        return id
    }

    /// Removes a widget, its timeline and history; a run in flight is killed.
    public func remove(id: String) throws(ControlError) {
        guard widgets[id] != nil else { throw .unknownWidget(id) }
        running.removeValue(forKey: id)?.terminate()
        logger.info("\(id): removed", metadata: metadata(id))
        widgets[id] = nil
        state.forget(id)
        forgetImages(of: id)
        handle(.widgetRemoved(id: id))
    }

    /// Changes some of a widget's parameters, validated against its manifest, and runs its provider at once
    /// (`configuration` runs are budget-exempt, as in WidgetKit).
    public func configure(id: String, parameters: [String: JSONValue]) throws(ControlError) -> ReloadDecision {
        guard var widget = widgets[id] else { throw .unknownWidget(id) }
        guard let kindManifest = manifests.widgetKind(widget.kind) else { throw .unknownKind(widget.kind) }
        guard !parameters.isEmpty else { throw .invalidParameter("parameters", reason: "name at least one") }
        let valid = try validate(parameters, against: kindManifest)
        widget.configuration.merge(valid) { _, new in new }
        widgets[id] = widget
        state.batch.upsertWidget(widget.record)
        nextRequestID += 1
        let decided = handle(.configurationChanged(id: id, request: nextRequestID))
        let now = clock.now()
        guard let decision = decided.first else { throw .unknownWidget(id) }
        return ReloadDecision(widget: id, decision: decision.decision, now: now)
    }

    func validate(_ parameters: [String: JSONValue], against kind: WidgetKindManifest) throws(ControlError)
        -> [String: JSONValue]
    {
        var valid: [String: JSONValue] = [:]
        for name in parameters.keys.sorted() {
            guard let spec = kind.parameter(named: name), let value = parameters[name] else {
                let known = kind.parameters.map(\.name)
                throw .invalidParameter(name, reason: "kind \(kind.kind) has no such parameter"
                    + (known.isEmpty ? "" : " (it has: \(known.joined(separator: ", ")))"))
            }
            // Checked against the type, never converted: "3" is not an integer (widgetctl converts command-line text
            // before it sends it).
            switch spec.validate(value) {
            case .success(let canonical): valid[name] = canonical
            case .failure(let error): throw .invalidParameter(name, reason: "\(error)")
            }
        }
        return valid
    }
}
