import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import WidgetProtocol
import WidgetViews

/// The host's HTTP interface: the page, its assets and the kinds' images, the event stream, the panels' fragments and
/// the JSON actions. Every response carries the security headers; every request passes the `RequestGuard` first.
public enum HostRoutes {
    /// The Content-Security-Policy of every response: scripts and styles only from the host itself, no inline
    /// script, nothing remote, no framing.
    public static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; "
        + "img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The largest request body accepted (a configuration form).
    static let maximumBodySize = 64 << 10

    public static func router(home: HomeScreen, settings: HostSettings) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: GuardMiddleware(guard: RequestGuard(listener: settings.listener, token: settings.token)))

        router.get("/") { _, _ in html(await home.page()) }
        router.get("/assets/home.css") { _, _ in asset(PackageResources.home_css, type: "text/css; charset=utf-8") }
        router.get("/assets/home.js") { _, _ in
            asset(PackageResources.home_js, type: "text/javascript; charset=utf-8")
        }
        router.get("/assets/widgets.css") { _, _ in
            asset(Array(WidgetStylesheet.css.utf8), type: "text/css; charset=utf-8")
        }
        router.get("/kind-assets/{kind}/**") { _, context in
            let kind = try context.parameters.require("kind")
            let name = context.parameters.getCatchAll().joined(separator: "/")
            guard let folder = await home.assetFolder(kind: kind) else {
                return failure(HostError(status: 404, message: "Kind \(kind) has no asset folder."))
            }
            switch AssetFile.read(name, in: folder) {
            case .success(let file):
                return asset(file.bytes, type: file.type.mediaType)
            case .failure(.badName(let problem)):
                return failure(HostError(status: 400, message: problem))
            case .failure(.tooLarge):
                return failure(HostError(status: 413, message: "\(name) is larger than an asset may be."))
            case .failure(.notFound), .failure(.outsideFolder), .failure(.notAnImage):
                return failure(HostError(status: 404, message: "No image \(name) in the assets of \(kind)."))
            }
        }
        router.get("/images/{widget}/{sha256}") { request, context in
            let widget = try context.parameters.require("widget")
            let sha256 = try context.parameters.require("sha256")
            return providedImage(await ProvidedImage.answer(
                sha256: sha256, ifNoneMatch: request.headers[.ifNoneMatch]
            ) { () async throws(HostError) in try await home.image(widget: widget, sha256: sha256) })
        }
        router.get("/kind-images/{kind}/{sha256}") { request, context in
            let kind = try context.parameters.require("kind")
            let sha256 = try context.parameters.require("sha256")
            return providedImage(await ProvidedImage.answer(
                sha256: sha256, ifNoneMatch: request.headers[.ifNoneMatch]
            ) { () async throws(HostError) in try await home.image(kind: kind, sha256: sha256) })
        }
        router.get("/events") { request, _ in
            await eventStream(home, drawnAt: request.uri.queryParameters["version"].map(String.init))
        }
        // Browsers ask for it unprompted; an answer keeps a 404 out of the page's console.
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }

        router.get("/fragments/gallery") { _, _ in try await fragment { () async throws(HostError) in
            try await home.gallery()
        } }
        router.get("/fragments/preview") { request, _ in
            let kind = request.uri.queryParameters["kind"].map(String.init) ?? ""
            let family = request.uri.queryParameters["family"].map(String.init) ?? ""
            return html(await home.preview(kind: kind, family: family))
        }
        router.get("/fragments/configure/{id}") { _, context in
            let id = try context.parameters.require("id")
            return try await fragment { () async throws(HostError) in try await home.configureForm(id) }
        }
        router.get("/fragments/back/{id}") { _, context in
            let id = try context.parameters.require("id")
            return try await fragment { () async throws(HostError) in try await home.back(id) }
        }
        router.get("/fragments/options") { request, _ in
            let query = request.uri.queryParameters
            let kind = query["kind"].map(String.init) ?? ""
            let parameter = query["parameter"].map(String.init) ?? ""
            let search = query["search"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            return try await fragment { () async throws(HostError) in
                try await home.options(kind: kind, parameter: parameter, search: search)
            }
        }

        router.post("/api/widgets") { request, context in
            let body = try await decode(AddRequest.self, request)
            return try await action { () async throws(HostError) in
                ["id": .string(try await home.add(kind: body.kind, family: body.family))]
            }
        }
        router.post("/api/widgets/{id}/remove") { _, context in
            let id = try context.parameters.require("id")
            return try await action { () async throws(HostError) in
                try await home.remove(id)
                return [:]
            }
        }
        router.post("/api/widgets/{id}/configure") { request, context in
            let id = try context.parameters.require("id")
            let body = try await decode(ConfigureRequest.self, request)
            return try await action { () async throws(HostError) in
                ["decision": .string(try await home.configure(id, parameters: body.parameters))]
            }
        }
        router.post("/api/widgets/{id}/reload") { _, context in
            let id = try context.parameters.require("id")
            return try await action { () async throws(HostError) in
                ["decision": .string(try await home.reload(id))]
            }
        }
        router.post("/api/widgets/{id}/resize") { request, context in
            let id = try context.parameters.require("id")
            let body = try await decode(ResizeRequest.self, request)
            return try await action { () async throws(HostError) in
                ["id": .string(try await home.resize(id, to: body.family))]
            }
        }
        router.post("/api/widgets/{id}/stack") { request, context in
            let id = try context.parameters.require("id")
            let body = try await decode(StackRequest.self, request)
            return try await action { () async throws(HostError) in
                try await home.stack(id, onto: body.slot)
                return [:]
            }
        }
        router.post("/api/widgets/{id}/unstack") { _, context in
            let id = try context.parameters.require("id")
            return try await action { () async throws(HostError) in
                try await home.unstack(id)
                return [:]
            }
        }
        router.post("/api/widgets/{id}/pin") { request, context in
            let id = try context.parameters.require("id")
            let body = try await decode(PinRequest.self, request)
            return try await action { () async throws(HostError) in
                try await home.pin(id, pinned: body.pinned)
                return [:]
            }
        }
        router.post("/api/widgets/{id}/open") { request, context in
            let id = try context.parameters.require("id")
            let body = try await decode(OpenRequest.self, request)
            return try await action { () async throws(HostError) in
                try await home.open(id, url: body.url)
                return [:]
            }
        }
        router.post("/api/slots/{slot}/move") { request, context in
            let slot = try context.parameters.require("slot")
            let body = try await decode(MoveRequest.self, request)
            return try await action { () async throws(HostError) in
                if let delta = body.delta {
                    try await home.move(slot: slot, by: delta)
                } else {
                    try await home.move(slot: slot, before: body.before)
                }
                return [:]
            }
        }
        return router
    }

    struct AddRequest: Decodable {
        var kind: String
        var family: String
    }

    struct ConfigureRequest: Decodable {
        var parameters: [String: JSONValue]
    }

    struct ResizeRequest: Decodable {
        var family: String
    }

    struct StackRequest: Decodable {
        var slot: String
    }

    struct PinRequest: Decodable {
        var pinned: Bool
    }

    struct OpenRequest: Decodable {
        var url: String
    }

    struct MoveRequest: Decodable {
        var delta: Int?
        var before: String?
    }

    // MARK: - Responses

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func asset(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func providedImage(_ answer: ProvidedImage.Answer) -> Response {
        switch answer {
        case .image(let image, let etag):
            return Response(status: .ok,
                            headers: [.contentType: image.type.mediaType, .cacheControl: ProvidedImage.cacheControl,
                                      .eTag: etag],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.bytes)))
        case .notModified(let etag):
            return Response(status: .notModified, headers: [.cacheControl: ProvidedImage.cacheControl, .eTag: etag])
        case .refused(let error):
            var response = failure(error)
            // The daemon busy (its buffers full, its connections taken) or restarting: a browser may ask again soon.
            if error.status == 503 { response.headers[.retryAfter] = "1" }
            return response
        }
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: value.jsonText())))
    }

    static func failure(_ error: HostError) -> Response {
        var members: [String: JSONValue] = ["error": .string(error.message)]
        if let field = error.field { members["field"] = .string(field) }
        return json(.object(members), status: HTTPResponse.Status(code: error.status))
    }

    /// A fragment, or the error as a short paragraph with the error's status.
    static func fragment(_ make: () async throws(HostError) -> String) async throws -> Response {
        do {
            return html(try await make())
        } catch {
            return html("<p class=\"error\" role=\"alert\">\(HTML.escape(error.message))</p>",
                        status: HTTPResponse.Status(code: error.status))
        }
    }

    /// An action's JSON answer, or its error (`{"error","field"?}`) with the error's status.
    static func action(_ perform: () async throws(HostError) -> [String: JSONValue]) async throws -> Response {
        do {
            return json(.object(try await perform()))
        } catch {
            return failure(error)
        }
    }

    static func decode<Body: Decodable>(_ type: Body.Type, _ request: Request) async throws -> Body {
        var request = request
        guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
            throw HTTPError(.unsupportedMediaType, message: "send JSON (Content-Type: application/json)")
        }
        let buffer = try await request.collectBody(upTo: maximumBodySize)
        do {
            return try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView))
        } catch {
            throw HTTPError(.badRequest, message: "the request's JSON does not have the expected shape")
        }
    }

    /// `text/event-stream`: the daemon's state and the grid (unless the page was drawn at the current version), then
    /// every change, for as long as the page listens.
    static func eventStream(_ home: HomeScreen, drawnAt: String?) async -> Response {
        let subscription = await home.subscribe(drawnAt: drawnAt)
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            do {
                for await frame in subscription.stream {
                    try await writer.write(ByteBuffer(string: frame))
                }
                try await writer.finish(nil)
            } catch {
                await home.unsubscribe(subscription.id)
                throw error
            }
            await home.unsubscribe(subscription.id)
        })
    }
}

/// Runs the `RequestGuard` before any route and sets the security headers on every response.
struct GuardMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let `guard`: RequestGuard

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        // HTTP/1.1's Host header becomes the request's authority in HTTPTypes.
        if let authority = request.head.authority { headers["host"] = authority }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
        let verdict = self.guard.decide(RequestGuard.Request(
            method: request.method.rawValue, path: request.uri.path, query: query, headers: headers))
        var response: Response
        switch verdict {
        case .allow:
            do {
                response = try await next(request, context)
            } catch let error as HTTPError {
                response = HostRoutes.failure(HostError(status: Int(error.status.code),
                                                        message: error.body ?? error.status.reasonPhrase))
            }
        case .acceptToken(let cookie, let location):
            response = Response(status: .seeOther, headers: [.setCookie: cookie, .location: location])
        case .refuse(let status, let reason):
            response = HostRoutes.failure(HostError(status: status, message: reason))
        }
        response.headers[HTTPField.Name("Content-Security-Policy")!] = HostRoutes.contentSecurityPolicy
        response.headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        response.headers[HTTPField.Name("Cross-Origin-Opener-Policy")!] = "same-origin"
        response.headers[HTTPField.Name("Cross-Origin-Resource-Policy")!] = "same-origin"
        return response
    }
}
