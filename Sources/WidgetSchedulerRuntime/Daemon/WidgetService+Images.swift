import Foundation
import Logging
import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// Images providers write for their entries (docs/provider-protocol.md, "Images"): each timeline or snapshot run gets
/// a fresh directory; when it ends, the files its entries name are read as a guest's, validated (`ImageRules`),
/// stored once by their SHA-256 and named in the entries' `images`, and the directory goes. A stored image is kept
/// while a widget's stored entries or a kept preview refer to it (`ImageReferences`), and its file is removed once
/// the state that no longer names it is committed: a kill at any moment leaves no reference without its file, and
/// the start-up sweep removes files no reference names.
extension WidgetService {
    /// A fresh image directory for a run of `owner` (a widget id, or a preview, for the log), or nil when the daemon
    /// has no image store or cannot make one (logged; the run goes on without).
    func makeImageDirectory(for owner: String) -> String? {
        guard let images else { return nil }
        do {
            return try images.makeRunDirectory()
        } catch {
            logger.warning("cannot make an image directory for \(owner)'s run (\(error)); it runs without one")
            return nil
        }
    }

    /// Reads, validates and stores the images `result`'s entries name in `directory` (`RunImages`), and removes the
    /// directory: the result with the entries' `images`, or a failure `invalid` naming the entry and the file.
    func takeImages(of result: ProviderRunResult, from directory: String) -> ProviderRunResult {
        guard let images else { return result }
        // Most runs write no image: their empty directory goes in one call, and there is nothing to read.
        if images.removeRunDirectoryIfEmpty(directory) { return result }
        defer { images.removeRunDirectory(directory) }
        let taken = RunImages.take(result, from: directory, files: images)
        for (hash, bytes) in taken.bytesByHash {
            do {
                try images.store(bytes, sha256: hash)
            } catch {
                return .failure(ProviderRunFailure(reason: .invalid, detail: "the daemon cannot store its images: "
                                                   + "\(error)", stderrTail: result.stderrTail))
            }
            // Stored for an answer no one may take (a widget removed meanwhile): gone at the next write unless
            // something refers to it by then.
            releasedImages.insert(hash)
        }
        return taken.result
    }

    /// The hashes of the images `entries` name.
    static func hashes(of entries: [TimelineEntry]) -> Set<String> {
        var hashes = Set<String>()
        for entry in entries where !entry.images.isEmpty {
            for image in entry.images.values { hashes.insert(image.sha256) }
        }
        return hashes
    }

    /// Brings the widget's references in line with its newest timeline and current entry: in memory, and for the
    /// next write (`image_reference`), so the sweep after a restart keeps what its stored entries name.
    func updateImageReferences(of id: String) {
        guard images != nil, let widget = widgets[id] else { return }
        var hashes = timelineImageHashes[id] ?? []
        for image in widget.currentImages.values { hashes.insert(image.sha256) }
        let owner = ImageReferences.Owner.widget(id)
        guard imageReferences.hashes(of: owner) != hashes else { return }
        releasedImages.formUnion(imageReferences.set(owner, hashes))
        state.batch.setImageReferences(hashes, widgetID: id)
    }

    /// A removed widget's images are released (its rows go with it).
    func forgetImages(of id: String) {
        timelineImageHashes[id] = nil
        releasedImages.formUnion(imageReferences.set(.widget(id), []))
    }

    /// Keeps the images of a preview of `kind`, for `Image(kind:)`; the kind's oldest kept preview beyond
    /// `KeptPreviews.perKind` lets its images go.
    func keepPreview(of kind: String, question: String, images entryImages: [String: EntryImage]) {
        guard images != nil else { return }
        let hashes = Set(entryImages.values.map(\.sha256))
        releasedImages.formUnion(imageReferences.set(.preview(kind: kind, question: question), hashes))
        if let evicted = keptPreviews.keep(kind: kind, question: question) {
            releasedImages.formUnion(imageReferences.set(.preview(kind: kind, question: evicted), []))
        }
        if !state.hasUnwrittenChanges { removeReleasedImages() }
    }

    /// Removes the files of released images no one refers to again, once everything changed so far is committed:
    /// until then the stored state may still name them.
    func removeReleasedImages() {
        guard let images, !releasedImages.isEmpty, !state.hasUnwrittenChanges else { return }
        for hash in releasedImages where !imageReferences.isReferenced(hash) { images.remove(sha256: hash) }
        releasedImages = []
    }

    /// At start: the references of every stored widget (its rows, and its current entry's images, which a run-start
    /// record may hold ahead of its rows), then the sweep: run directories a death left, and stored images nothing
    /// names. Both are logged when they remove anything.
    func restoreImageReferences() {
        guard let images else { return }
        images.removeRunDirectories()
        let rows: [String: Set<String>]
        do {
            rows = try state.store.imageReferences()
        } catch {
            // Without the references nothing can be swept safely: every stored image is kept until the next start.
            logger.error("cannot read the stored image references (\(error)); no stored image is removed")
            return
        }
        for id in widgets.keys {
            var hashes = rows[id] ?? []
            timelineImageHashes[id] = hashes.isEmpty ? nil : hashes
            if let current = widgets[id]?.currentImages {
                for image in current.values { hashes.insert(image.sha256) }
            }
            imageReferences.set(.widget(id), hashes)
        }
        let stored: Set<String>
        do {
            stored = try images.storedHashes()
        } catch {
            logger.error("cannot list the stored images (\(error)); none is removed")
            return
        }
        let orphans = imageReferences.orphans(among: stored)
        for hash in orphans { images.remove(sha256: hash) }
        let missing = imageReferences.missing(from: stored)
        if !orphans.isEmpty {
            logger.info("removed \(Counted.phrase(orphans.count, "stored image")) no entry refers to")
        }
        if !missing.isEmpty {
            let text = "\(Counted.phrase(missing.count, "image")) stored entries refer to are missing from "
                + "\(options.stateDirectory.path)/images; hosts show their placeholders"
            logger.error("\(text)")
        }
    }

    /// An image `parameters` names, with its bytes: one of `widget`'s stored entries, or of `kind`'s kept previews.
    public func image(_ parameters: ImageMethod.Parameters) throws(ControlError) -> ImageMethod.Reply {
        let sha256 = parameters.sha256
        let owners: [ImageReferences.Owner]
        let missing: ControlError
        switch (parameters.widget, parameters.kind) {
        case (let widget?, nil):
            guard widgets[widget] != nil else { throw .unknownWidget(widget) }
            owners = [.widget(widget)]
            missing = .noSuchImage(widget: widget, sha256: sha256)
        case (nil, let kind?):
            guard manifests.widgetKind(kind) != nil else { throw .unknownKind(kind) }
            owners = (keptPreviews.questions[kind] ?? []).map { .preview(kind: kind, question: $0) }
            missing = .noSuchImage(kind: kind, sha256: sha256)
        default:
            throw .invalidParameter("widget", reason: "give exactly one of widget and kind")
        }
        guard ImageMethod.isSHA256(sha256) else {
            throw .invalidParameter("sha256", reason: "must be a SHA-256 as an entry's images give it: 64 lowercase "
                + "hexadecimal digits")
        }
        guard let images, owners.contains(where: { imageReferences.hashes(of: $0).contains(sha256) }) else {
            throw missing
        }
        let bytes: [UInt8]
        do {
            guard let read = try images.read(sha256: sha256) else {
                logger.error("image \(sha256), which stored entries refer to, is missing from the image store")
                throw missing
            }
            bytes = read
        } catch let error as ControlError {
            throw error
        } catch {
            logger.error("cannot read stored image \(sha256): \(error)")
            throw missing
        }
        // The header read again from the stored bytes: what is served is described by what is sent.
        guard case .success(let header) = ImageRules.check(bytes) else {
            logger.error("stored image \(sha256) is no longer an image the daemon takes; it is not served")
            throw missing
        }
        let image = EntryImage(sha256: sha256, contentType: header.format.contentType, width: header.width,
                               height: header.height, byteCount: bytes.count)
        return ImageMethod.Reply(image: image, data: Data(bytes).base64EncodedString())
    }
}
