import Foundation
import WidgetControlClient
import WidgetProtocol

/// The fragments the page loads into its panels: the gallery and its previews, the configuration form and its
/// options, a widget's back side.
extension HomeScreen {
    public func gallery() async throws(HostError) -> String {
        let reply: KindsMethod.Reply
        do {
            reply = try await daemon.call(KindsMethod.self, NoParameters())
        } catch {
            throw HostError(error)
        }
        return PanelMarkup.gallery(kinds: reply.kinds)
    }

    /// A kind's face in a family from the provider's `snapshot` answer (kept for a few minutes: opening the gallery
    /// again runs no provider), or its placeholder with the reason when there is none. A host whose user is not in
    /// the daemon's admin group may start only `options-rate` provider runs a minute: a preview refused for that is
    /// asked again when the daemon says it may be, a few times, so a gallery of many kinds fills in instead of
    /// showing refusals.
    public func preview(kind: String, family: String) async -> String {
        let key = "\(kind)/\(family)"
        if let cached = previews[key], Date().timeIntervalSince(cached.made) < Self.previewLifetime {
            return PanelMarkup.preview(face: cached.face)
        }
        var attempts = 0
        while true {
            attempts += 1
            do {
                let reply = try await daemon.call(
                    SnapshotMethod.self, SnapshotMethod.Parameters(kind: kind, family: family))
                let face = faces.face(kind: kind, family: reply.family, date: reply.entry.date,
                                      content: reply.entry.content, images: reply.entry.images,
                                      imageBaseURL: WidgetFaces.previewImagePrefix(kind: kind), now: Date())
                previews[key] = (face, Date())
                return PanelMarkup.preview(face: face)
            } catch {
                guard attempts < Self.previewAttempts, let wait = Self.retryAfter(error) else {
                    // The kind's placeholder stands in for the face (its shape, drawn here without a provider run),
                    // with the reason beneath it.
                    let placeholder = faces.face(kind: kind, family: family, date: nil, content: nil, now: Date())
                    return PanelMarkup.previewFailed(HostError(error).message, placeholder: placeholder)
                }
                try? await LoopSleep.sleep(seconds: wait)
            }
        }
    }

    static let previewAttempts = 3

    /// How long to wait before asking again after `error`: the daemon's `retryAfter` for a rate refusal (at most a
    /// minute, the length of the rate's window), nil for any other error.
    static func retryAfter(_ error: ControlClientError) -> Double? {
        guard case .remote(let remote) = error, remote.name == ControlError.Name.rateLimited else { return nil }
        let seconds: Double
        switch remote.parameters["retryAfter"] {
        case .integer(let value)?: seconds = Double(value)
        case .number(let value)?: seconds = value
        default: seconds = 1
        }
        return seconds.isFinite ? min(max(seconds, 0.1), 60) : 1
    }

    /// The form to configure `id`, read fresh from the daemon.
    public func configureForm(_ id: String) async throws(HostError) -> String {
        try await refresh()
        guard let widget = widgets[id] else { throw HostError(status: 404, message: "No widget \(id).") }
        guard let kind = kinds[widget.kind] else {
            throw HostError(status: 404, message: "Kind \(widget.kind) is no longer installed.")
        }
        var fixed: [String: [OptionsMethod.Option]] = [:]
        for parameter in kind.parameters where parameter.type == "enum" {
            do {
                fixed[parameter.name] = try await daemon.call(
                    OptionsMethod.self, OptionsMethod.Parameters(kind: kind.kind, parameter: parameter.name)).options
            } catch {
                throw HostError(error)
            }
        }
        return PanelMarkup.configureForm(widget: widget, kind: kind, fixedOptions: fixed)
    }

    /// The options of a parameter matching `search`, asked of the provider when they are dynamic.
    public func options(kind: String, parameter: String, search: String?) async throws(HostError) -> String {
        do {
            let reply = try await daemon.call(
                OptionsMethod.self, OptionsMethod.Parameters(kind: kind, parameter: parameter, search: search))
            return PanelMarkup.options(reply.options)
        } catch {
            throw HostError(error)
        }
    }

    /// The back side of `id`: its state, ledger and next reload, read from the daemon now.
    public func back(_ id: String) async throws(HostError) -> String {
        try await refresh()
        guard let widget = widgets[id] else { throw HostError(status: 404, message: "No widget \(id).") }
        let ledger: BudgetMethod.Ledger?
        do {
            ledger = try await daemon.call(BudgetMethod.self, BudgetMethod.Parameters(id: id)).ledgers.first
        } catch {
            throw HostError(error)
        }
        return PanelMarkup.back(widget: widget, ledger: ledger, kind: kinds[widget.kind])
    }

    /// The asset folder of `kind`, from its views, for the images its faces show.
    /// The bytes of an image `widget`'s entries show, from the daemon (`Image`), which checks that the caller may
    /// read the widget and that its entries name the image.
    public func image(widget: String, sha256: String) async throws(HostError) -> ImageMethod.Reply {
        do {
            return try await daemon.call(ImageMethod.self, ImageMethod.Parameters(widget: widget, sha256: sha256))
        } catch {
            throw HostError(error)
        }
    }

    /// The bytes of an image a gallery preview of `kind` shows.
    public func image(kind: String, sha256: String) async throws(HostError) -> ImageMethod.Reply {
        do {
            return try await daemon.call(ImageMethod.self, ImageMethod.Parameters(kind: kind, sha256: sha256))
        } catch {
            throw HostError(error)
        }
    }

    public func assetFolder(kind: String) -> String? {
        faces.assetFolders[kind]
    }
}
