import Foundation
import WidgetControlClient
import WidgetProtocol
import WidgetViews

/// An image a provider wrote for an entry, served to a page at `/images/WIDGET/SHA256` (or a gallery preview's at
/// `/kind-images/KIND/SHA256`): the bytes the daemon's `Image` method gives, checked again before they go out. The
/// address names the bytes, so the answer is cached for a year (`immutable`), with the hash as its `ETag`.
struct ProvidedImage: Sendable, Equatable {
    var bytes: [UInt8]
    var type: ImageType

    /// What the host answers: the image, a 304 for a page that has it already, or a refusal.
    enum Answer: Sendable, Equatable {
        case image(ProvidedImage, etag: String)
        case notModified(etag: String)
        case refused(HostError)
    }

    /// `Cache-Control` of an image: its address is its hash, so it never changes.
    static let cacheControl = "public, max-age=31536000, immutable"

    /// The `ETag` of the image whose SHA-256 is `sha256`.
    static func etag(_ sha256: String) -> String { "\"" + sha256 + "\"" }

    /// The answer to a request for the image `sha256`, whose bytes `fetch` asks the daemon for. A malformed hash is
    /// refused before the daemon is asked; a request whose `If-None-Match` names the hash is answered 304 without
    /// asking at all (the page already has those very bytes).
    static func answer(
        sha256: String, ifNoneMatch: String?, fetch: () async throws(HostError) -> ImageMethod.Reply
    ) async -> Answer {
        guard ImageMethod.isSHA256(sha256) else {
            return .refused(HostError(status: 404, message: "No image \(sha256.prefix(80)): an image is named by its "
                + "SHA-256, 64 lowercase hexadecimal digits."))
        }
        let etag = etag(sha256)
        if let ifNoneMatch, ifNoneMatch.split(separator: ",").contains(where: {
            let tag = $0.trimmingCharacters(in: .whitespaces)
            return tag == etag || tag == "W/" + etag || tag == "*"
        }) {
            return .notModified(etag: etag)
        }
        do {
            let reply = try await fetch()
            switch check(reply) {
            case .success(let image): return .image(image, etag: etag)
            case .failure(let error): return .refused(error)
            }
        } catch {
            return .refused(error)
        }
    }

    /// The daemon's reply as bytes to serve, refused (502) unless the bytes are base64, as long as it says, and a
    /// PNG, JPEG or WebP of the type it says, by their first bytes: the host never sends bytes under a type they are
    /// not.
    static func check(_ reply: ImageMethod.Reply) -> Result<ProvidedImage, HostError> {
        guard let data = Data(base64Encoded: reply.data), data.count == reply.image.byteCount,
              data.count <= ImageType.maximumFileSize
        else {
            return .failure(HostError(status: 502, message: "The widget daemon's image could not be read."))
        }
        let bytes = [UInt8](data)
        guard let type = ImageType(signature: bytes), type.mediaType == reply.image.contentType else {
            return .failure(HostError(status: 502, message: "The widget daemon's image is not the "
                + "\(reply.image.contentType.prefix(40)) it says it is."))
        }
        return .success(ProvidedImage(bytes: bytes, type: type))
    }
}
