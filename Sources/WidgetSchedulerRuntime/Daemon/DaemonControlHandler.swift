import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// Answers control calls: decodes parameters, checks the peer's permission (SO_PEERCRED), and calls the service.
/// Every refusal is a Varlink error and a journal entry. A state-changing call is answered once its change is
/// committed: the reply waits, without holding the loop, for the write the daemon makes at the end of the turn
/// (`WidgetService.whenWritten`), and becomes `StateNotWritten` if that write fails; while writes fail, such calls
/// are refused before they change anything (`WidgetService.requireWritableState`).
public final class DaemonControlHandler: ControlHandler {
    let service: WidgetService
    let authorization: Authorization
    let version: String
    var logger: Logger
    private var owners: [String: KindOwners] = [:]
    /// Each group's declarations, one per manifest that names it.
    private var groupDeclarations: [String: [GroupDataAccess.Declaration]] = [:]
    /// Open `Watch` streams, ended cleanly when the daemon stops.
    private var streams: [Int: VarlinkCall] = [:]

    public init(service: WidgetService, authorization: Authorization, version: String, logger: Logger) {
        self.service = service
        self.authorization = authorization
        self.version = version
        self.logger = logger
        manifestsChanged()
    }

    /// Re-resolves the kinds' owners and the groups' readers and writers after the manifests were re-read.
    public func manifestsChanged() {
        owners = [:]
        groupDeclarations = [:]
        for manifest in service.manifests.manifests {
            let resolved = KindOwners.resolving(users: manifest.ownerUsers, groups: manifest.ownerGroups)
            for name in resolved.unresolved {
                logger.warning("\(manifest.path): owner \"\(name)\" is not a known user or group")
            }
            for kind in manifest.widgets { owners[kind.kind] = resolved.owners }
            guard let group = manifest.group else { continue }
            func principals(_ names: ProviderManifest.Principals?, _ side: String) -> GroupDataAccess.Principals? {
                guard let names else { return nil }
                let resolved = KindOwners.resolving(users: names.users, groups: names.groups)
                for name in resolved.unresolved {
                    logger.warning("\(manifest.path): group \(side) \"\(name)\" is not a known user or group")
                }
                return resolved.owners.principals
            }
            groupDeclarations[group, default: []].append(GroupDataAccess.Declaration(
                manifest: manifest.path, readers: principals(manifest.groupReaders, "reader"),
                writers: principals(manifest.groupWriters, "writer"), owners: resolved.owners.principals))
        }
    }

    /// Checks `access` to `group` for `peer` (`handle` logs a refusal), and that a change to it can be saved.
    private func checkGroupData(_ access: GroupDataAccess.Access, group: String, call: VarlinkCall,
                                peer: PeerCredentials) throws(ControlError) {
        try authorization.checkGroupData(access, group: group, declarations: groupDeclarations[group] ?? [],
                                         method: call.method, peer: peer)
        if access != .read { try service.requireWritableState() }
    }

    /// Ends every `Watch` stream with the declared error `DaemonStopping`, so hosts tell a clean end from a lost
    /// connection (an empty reply would break the method's declared reply type).
    public func endStreams() {
        for call in streams.values { call.fail(.daemonStopping()) }
        streams = [:]
    }

    public func handle(_ call: VarlinkCall, peer: PeerCredentials) -> VarlinkResponse {
        do {
            try authorization.admit(method: call.method, peer: peer)
            let response = try dispatch(call, peer: peer)
            // Nothing a client is told (a widget, a configuration, a spent token) may be undone by a kill -9.
            guard call.method.isPrivileged, service.hasUnwrittenChanges else { return response }
            switch response {
            case .pending, .error: return response
            case .reply, .encoded, .message: break
            }
            service.whenWritten { error in
                if let error { call.fail(error) } else { call.answer(response) }
            }
            return .pending
        } catch {
            if error.name == ControlError.Name.permissionDenied {
                logger.warning("refused \(call.method.rawValue) from \(peer): \(error)", metadata: [
                    JournalField.messageID: JournalMessageID.requestRefused.metadataValue])
            }
            return .error(error)
        }
    }

    /// Checks the peer's permission, then, for a state-changing call, that its change can be saved.
    private func check(_ call: VarlinkCall, kinds: Set<String>, foreground: Bool = false,
                       peer: PeerCredentials) throws(ControlError) {
        try authorization.check(method: call.method, kinds: kinds, foreground: foreground, peer: peer) {
            owners[$0]
        }
        if call.method.isPrivileged { try service.requireWritableState() }
    }

    /// The uid whose rate a provider run a caller asks for (`Options`, `Snapshot`) is charged to; nil for root and
    /// the admin group, who are trusted with providers as with connections.
    private func rated(_ peer: PeerCredentials) -> UInt32? {
        ConnectionAdmission.isAdministrator(peer, adminGroupID: authorization.adminGroupID) ? nil : peer.uid
    }

    private func kinds(of ids: [String]) -> Set<String> {
        Set(ids.compactMap { service.widgets[$0]?.kind })
    }

    private func dispatch(_ call: VarlinkCall, peer: PeerCredentials) throws(ControlError) -> VarlinkResponse {
        switch call.method {
        case .reload:
            let parameters = try call.parameters(ReloadMethod.self)
            let target = try parameters.target()
            try check(call, kinds: try service.kinds(for: target), foreground: parameters.isForeground, peer: peer)
            let decisions = try service.reload(target, foreground: parameters.isForeground)
            return .reply(ReloadMethod.Reply(decisions: decisions, kind: parameters.kind))
        case .list:
            return .message(capacity: service.listCapacityEstimate) { service.writeList(into: &$0) }
        case .status:
            return .reply(service.status(version: version))
        case .kinds:
            return .reply(KindsMethod.Reply(kinds: service.kinds()))
        case .views:
            return .reply(ViewsMethod.Reply(views: try service.views(kind: try call.parameters(ViewsMethod.self).kind)))
        case .add:
            let parameters = try call.parameters(AddMethod.self)
            try check(call, kinds: [parameters.kind], peer: peer)
            service.add(kind: parameters.kind, family: parameters.family, parameters: parameters.parameters ?? [:]) {
                [service] in
                switch $0 {
                case .success(let id):
                    service.whenWritten { error in
                        if let error { call.fail(error) } else { call.reply(AddMethod.Reply(id: id)) }
                    }
                case .failure(let error): call.fail(error)
                }
            }
            return .pending
        case .remove:
            let parameters = try call.parameters(RemoveMethod.self)
            try check(call, kinds: kinds(of: [parameters.id]), peer: peer)
            try service.remove(id: parameters.id)
            return .reply(NoParameters())
        case .configure:
            let parameters = try call.parameters(ConfigureMethod.self)
            guard service.widgets[parameters.id] != nil else { throw .unknownWidget(parameters.id) }
            try check(call, kinds: kinds(of: [parameters.id]), peer: peer)
            return .reply(ConfigureMethod.Reply(decision: try service.configure(id: parameters.id,
                                                                              parameters: parameters.parameters)))
        case .options:
            let parameters = try call.parameters(OptionsMethod.self)
            service.options(kind: parameters.kind, parameter: parameters.parameter, search: parameters.search,
                            uid: rated(peer)) {
                switch $0 {
                case .success(let reply): call.reply(reply)
                case .failure(let error): call.fail(error)
                }
            }
            return .pending
        case .snapshot:
            let parameters = try call.parameters(SnapshotMethod.self)
            service.snapshot(kind: parameters.kind, family: parameters.family,
                             parameters: parameters.parameters ?? [:], uid: rated(peer)) {
                switch $0 {
                case .success(let reply): call.reply(reply)
                case .failure(let error): call.fail(error)
                }
            }
            return .pending
        case .timeline:
            return .reply(try service.timeline(id: try call.parameters(TimelineMethod.self).id))
        case .image:
            // The connection has checked that the buffer budget has room for the largest reply
            // (`ControlMethod.largestReplyBytes`).
            return .reply(try service.image(try call.parameters(ImageMethod.self)))
        case .budget:
            let parameters = try call.parameters(BudgetMethod.self)
            return .reply(BudgetMethod.Reply(ledgers: try service.budget(id: parameters.id, kind: parameters.kind)))
        case .stack:
            return .reply(StackMethod.Reply(stack: try service.stack(ids: try call.parameters(StackMethod.self).ids)))
        case .watch:
            let filter = try call.parameters(WatchMethod.self)
            if let id = filter.id, service.widgets[id] == nil { throw .unknownWidget(id) }
            // A kind no manifest declares and no widget has is a typo: say so rather than stream nothing for ever.
            if let kind = filter.kind { _ = try service.widgetIDs(for: .kind(kind)) }
            let watcher = service.watch(filter) { [weak call] event in call?.stream(event) ?? false }
            streams[watcher] = call
            call.onClose = { [weak self] in
                self?.service.unwatch(watcher)
                self?.streams[watcher] = nil
            }
            return .pending
        case .dataSet:
            let parameters = try call.parameters(DataSetMethod.self)
            try service.checkName(parameters.group, "group")
            try checkGroupData(.write, group: parameters.group, call: call, peer: peer)
            if let kind = parameters.reloadKind { try check(call, kinds: [kind], peer: peer) }
            return .reply(try service.dataSet(group: parameters.group, key: parameters.key, value: parameters.value,
                                              reloadKind: parameters.reloadKind))
        case .dataGet:
            let parameters = try call.parameters(DataGetMethod.self)
            try service.checkName(parameters.group, "group")
            try checkGroupData(.read, group: parameters.group, call: call, peer: peer)
            return .reply(try service.dataGet(group: parameters.group, key: parameters.key))
        case .dataList:
            let group = try call.parameters(DataListMethod.self).group
            try service.checkName(group, "group")
            try checkGroupData(.read, group: group, call: call, peer: peer)
            return .reply(DataListMethod.Reply(items: try service.dataList(group: group)))
        case .dataDelete:
            let parameters = try call.parameters(DataDeleteMethod.self)
            try service.checkName(parameters.group, "group")
            try checkGroupData(.delete, group: parameters.group, call: call, peer: peer)
            try service.dataDelete(group: parameters.group, key: parameters.key)
            return .reply(NoParameters())
        }
    }
}
