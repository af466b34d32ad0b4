import Testing
@testable import WidgetHost

/// Who may use the host: the loopback Host check, the token, and the same-origin rule for changes.
struct RequestGuardTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var listener = HostSettings.defaultListener
        var token: String?
        var request: RequestGuard.Request
        var allowed: Bool

        var testDescription: String { name }
    }

    static let local = "127.0.0.1:8470"
    static let secret = "0123456789abcdef-secret"

    static let cases: [Case] = [
        Case(name: "a page from the loopback address", request: .init(method: "GET", path: "/",
             headers: ["host": local]), allowed: true),
        Case(name: "localhost names the loopback address too", request: .init(method: "GET", path: "/",
             headers: ["host": "localhost:8470"]), allowed: true),
        Case(name: "another name for 127.0.0.1 is DNS rebinding", request: .init(method: "GET", path: "/",
             headers: ["host": "evil.example:8470"]), allowed: false),
        Case(name: "no Host header at all", request: .init(method: "GET", path: "/"), allowed: false),
        Case(name: "the right name with another port", request: .init(method: "GET", path: "/",
             headers: ["host": "127.0.0.1:9999"]), allowed: false),
        Case(name: "a change from the host's own page", request: .init(method: "POST", path: "/api/widgets",
             headers: ["host": local, "origin": "http://\(local)"]), allowed: true),
        Case(name: "a change from another site", request: .init(method: "POST", path: "/api/widgets",
             headers: ["host": local, "origin": "http://evil.example"]), allowed: false),
        Case(name: "a change whose origin names another port", request: .init(method: "POST", path: "/api/widgets",
             headers: ["host": local, "origin": "http://127.0.0.1:9999"]), allowed: false),
        Case(name: "a change without Origin but same-origin fetch metadata", request: .init(method: "POST",
             path: "/api/widgets", headers: ["host": local, "sec-fetch-site": "same-origin"]), allowed: true),
        Case(name: "a change without Origin from a cross-site fetch", request: .init(method: "POST",
             path: "/api/widgets", headers: ["host": local, "sec-fetch-site": "cross-site"]), allowed: false),
        Case(name: "a change with neither Origin nor fetch metadata", request: .init(method: "POST",
             path: "/api/widgets", headers: ["host": local]), allowed: false),
        Case(name: "a Unix socket listener does not check Host", listener: .unix(path: "/run/h.socket"),
             request: .init(method: "GET", path: "/", headers: ["host": "kiosk.lan"]), allowed: true),
        Case(name: "a network listener needs the token", listener: .tcp(host: "0.0.0.0", port: 8470), token: secret,
             request: .init(method: "GET", path: "/", headers: ["host": "kiosk.lan:8470"]), allowed: false),
        Case(name: "the token in the cookie", listener: .tcp(host: "0.0.0.0", port: 8470), token: secret,
             request: .init(method: "GET", path: "/events", headers: ["host": "kiosk.lan:8470",
                                                                     "cookie": "a=b; widget_host_token=\(secret)"]),
             allowed: true),
        Case(name: "the token as a bearer header", listener: .tcp(host: "0.0.0.0", port: 8470), token: secret,
             request: .init(method: "GET", path: "/", headers: ["host": "kiosk.lan:8470",
                                                               "authorization": "Bearer \(secret)"]), allowed: true),
        Case(name: "a wrong token", listener: .tcp(host: "0.0.0.0", port: 8470), token: secret,
             request: .init(method: "GET", path: "/", headers: ["host": "kiosk.lan:8470",
                                                               "cookie": "widget_host_token=\(secret)x"]),
             allowed: false),
        Case(name: "a token does not lift the same-origin rule", listener: .tcp(host: "0.0.0.0", port: 8470),
             token: secret, request: .init(method: "POST", path: "/api/widgets", headers: [
                "host": "kiosk.lan:8470", "cookie": "widget_host_token=\(secret)", "origin": "http://evil.example"]),
             allowed: false),
    ]

    @Test(arguments: cases)
    func decides(_ testCase: Case) {
        let verdict = RequestGuard(listener: testCase.listener, token: testCase.token).decide(testCase.request)
        #expect((verdict == .allow) == testCase.allowed, "\(verdict)")
    }

    @Test func aGoodTokenInTheAddressSetsAnHttpOnlyStrictCookieAndSendsTheBrowserHome() {
        let guarding = RequestGuard(listener: .tcp(host: "0.0.0.0", port: 8470), token: Self.secret)
        let verdict = guarding.decide(.init(method: "GET", path: "/", query: ["token": Self.secret],
                                            headers: ["host": "kiosk.lan:8470"]))
        #expect(verdict == .acceptToken(cookie: "widget_host_token=\(Self.secret); Path=/; HttpOnly; SameSite=Strict",
                                        location: "/"))
        let wrong = guarding.decide(.init(method: "GET", path: "/", query: ["token": "guess"],
                                          headers: ["host": "kiosk.lan:8470"]))
        guard case .refuse(let status, _) = wrong else {
            Issue.record("a wrong token was accepted: \(wrong)")
            return
        }
        #expect(status == 403)
    }

    @Test func refusalsSayWhatToDoInstead() {
        let verdict = RequestGuard(listener: HostSettings.defaultListener, token: nil)
            .decide(.init(method: "GET", path: "/", headers: ["host": "evil.example:8470"]))
        guard case .refuse(let status, let reason) = verdict else {
            Issue.record("expected a refusal, got \(verdict)")
            return
        }
        #expect(status == 421)
        #expect(reason.contains("http://127.0.0.1:8470/"))
    }
}
