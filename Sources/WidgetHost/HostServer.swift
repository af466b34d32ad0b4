import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// `widget-host` running: the HTTP server, the daemon's `Watch` feed and the home screen between them, in one
/// service group that ends on SIGTERM or SIGINT.
///
/// The server is Hummingbird's HTTP/1 server and router, started without `Application`: `Application.run` adds a
/// task that reformats the `Date` header every second, which would wake an idle host once a second for nothing.
/// Here the header is formatted per response instead, and an idle host sleeps.
public struct HostServer: Sendable {
    public let settings: HostSettings
    public let logger: Logger

    public init(settings: HostSettings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Runs until a shutdown signal; `onListening` is called once the server accepts connections.
    public func run(onListening: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let daemon = DaemonClient(socketPath: settings.daemonSocket)
        let home = HomeScreen(settings: settings, daemon: daemon, logger: logger)
        let feed = WatchFeed(socketPath: settings.daemonSocket)
        let responder = HostRoutes.router(home: home, settings: settings).buildResponder()
        let logger = self.logger
        let address: BindAddress
        switch settings.listener {
        case .tcp(let host, let port): address = .hostname(host, port: port)
        case .unix(let path):
            Self.removeStaleSocket(at: path)
            address = .unixDomainSocket(path: path)
        }
        let listener = settings.listener
        let server = try HTTPServerBuilder.http1().buildServer(
            configuration: ServerConfiguration(address: address, serverName: nil),
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton, logger: logger,
            responder: { request, writer, channel in
                let context = BasicRequestContext(source: .init(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch let error as HTTPParserError {
                    throw error
                } catch {
                    logger.error("\(request.method) \(request.uri.path): \(error)")
                    response = Response(status: .internalServerError)
                }
                response.headers[.date] = HTTPDateFormat.now()
                try await writer.write(response: response.head, body: response.body)
            },
            onServerRunning: { _ in onListening(listener.description) })
        feed.start()
        let group = ServiceGroup(configuration: .init(
            services: [FeedConsumer(home: home, feed: feed), server],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// A socket file left by a host that was killed would make the bind fail; anything else at the path is left
    /// alone (and the bind reports it).
    static func removeStaleSocket(at path: String) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
    }
}

/// Hands the feed's messages to the home screen, one at a time and in order.
struct FeedConsumer: Service {
    let home: HomeScreen
    let feed: WatchFeed

    func run() async throws {
        for await message in feed.messages.cancelOnGracefulShutdown() {
            await home.handle(message)
        }
    }
}

/// The `Date` header's format (RFC 9110 IMF-fixdate).
enum HTTPDateFormat {
    static func now() -> String {
        var time = time_t(Date().timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let clock = String(format: "%02d %04d %02d:%02d:%02d", parts.tm_mday, Int(parts.tm_year) + 1900,
                           parts.tm_hour, parts.tm_min, parts.tm_sec)
        let day = clock.prefix(2), rest = clock.dropFirst(3)
        return "\(days[Int(parts.tm_wday)]), \(day) \(months[Int(parts.tm_mon)]) \(rest) GMT"
    }
}
