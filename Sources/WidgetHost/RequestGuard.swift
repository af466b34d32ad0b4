/// Who may use the host, decided for each request before any route runs. Pure: the settings and the request's
/// method, path and headers go in, a verdict comes out (a table of tests pins it).
///
/// - On a loopback listener the `Host` header must name the loopback address the host listens on, so a page of
///   another site cannot reach it through a DNS name that resolves to 127.0.0.1 (DNS rebinding).
/// - With a token set, every request carries it, in the `widget_host_token` cookie or as `Authorization: Bearer`.
///   Opening `/?token=T` once sets the cookie (HttpOnly, SameSite=Strict) and sends the browser on to `/`.
/// - A request that changes anything (any method but GET and HEAD) must come from the host's own pages: its `Origin`
///   names the host itself, or, without `Origin`, `Sec-Fetch-Site` says `same-origin`. Pages of other sites cannot
///   add, configure or remove widgets through a person's browser.
public struct RequestGuard: Sendable {
    /// The request as the guard sees it; header names lowercased.
    public struct Request: Sendable, Hashable {
        public var method: String
        public var path: String
        public var query: [String: String]
        public var headers: [String: String]

        public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:]) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
        }
    }

    /// What to do with a request.
    public enum Verdict: Sendable, Hashable {
        case allow
        /// Set the token cookie and redirect to `location` (the request came with a good `?token=`).
        case acceptToken(cookie: String, location: String)
        case refuse(status: Int, reason: String)
    }

    /// The cookie carrying the token.
    public static let cookieName = "widget_host_token"

    public var listener: HostSettings.Listener
    public var token: String?

    public init(listener: HostSettings.Listener, token: String?) {
        self.listener = listener
        self.token = token
    }

    public func decide(_ request: Request) -> Verdict {
        let host = request.headers["host"] ?? ""
        if case .tcp(let address, let port) = listener, listener.isLocalOnly, !Self.isLoopbackHost(host, port: port) {
            return .refuse(status: 421, reason: "this host answers only to its loopback address "
                + "(http://\(address.contains(":") ? "[\(address)]" : address):\(port)/), not to \"\(host)\"")
        }
        if let token {
            if let given = request.query["token"], request.method == "GET", request.path == "/" {
                guard Self.constantTimeEquals(given, token) else {
                    return .refuse(status: 403, reason: "wrong token")
                }
                return .acceptToken(
                    cookie: "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict", location: "/")
            }
            guard let presented = Self.presentedToken(request.headers),
                  Self.constantTimeEquals(presented, token)
            else {
                return .refuse(status: 401, reason: "this host needs its token: open /?token=... once, or send "
                    + "Authorization: Bearer ...")
            }
        }
        if request.method != "GET" && request.method != "HEAD" {
            if let origin = request.headers["origin"] {
                guard Self.origin(origin, matchesHost: host) else {
                    return .refuse(status: 403, reason: "requests that change widgets must come from this host's "
                        + "own pages (Origin \(origin) is another site)")
                }
            } else if request.headers["sec-fetch-site"] != "same-origin" {
                return .refuse(status: 403, reason: "requests that change widgets must come from this host's own "
                    + "pages: send an Origin header naming this host")
            }
        }
        return .allow
    }

    /// Whether `host` (a `Host` header) names a loopback address with `port`.
    static func isLoopbackHost(_ host: String, port: Int) -> Bool {
        let allowed = ["127.0.0.1", "localhost", "[::1]"]
        return allowed.contains { host == "\($0):\(port)" || (port == 80 && host == $0) }
    }

    /// Whether `origin` (`scheme://host[:port]`) is this host, which the browser reached as `host`.
    static func origin(_ origin: String, matchesHost host: String) -> Bool {
        guard !host.isEmpty else { return false }
        for scheme in ["http://", "https://"] where origin.hasPrefix(scheme) {
            return String(origin.dropFirst(scheme.count)) == host
        }
        return false
    }

    /// The token a request carries: a bearer header, else the cookie.
    static func presentedToken(_ headers: [String: String]) -> String? {
        if let authorization = headers["authorization"], authorization.hasPrefix("Bearer ") {
            return String(authorization.dropFirst(7))
        }
        guard let cookies = headers["cookie"] else { return nil }
        for pair in cookies.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            if trimmed.hasPrefix(cookieName + "=") { return String(trimmed.dropFirst(cookieName.count + 1)) }
        }
        return nil
    }

    /// Compares without stopping at the first difference, so timing tells nothing of the token.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8), right = Array(rhs.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
