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

    /// Reads, validates and stores the images `result`'s entries name in `directory`, and removes the directory: the
    /// result with the entries' `images`, or a failure `invalid` naming the entry and the file.
    func takeImages(of result: ProviderRunResult, from directory: String) -> ProviderRunResult {
        guard let images else { return result }
        defer { images.removeRunDirectory(directory) }
        guard case .success(let answer, let tail) = result else { return result }
        func failed(_ detail: String) -> ProviderRunResult {
            .failure(ProviderRunFailure(reason: .invalid, detail: detail, stderrTail: tail))
        }
        switch answer {
        case .timeline(var timeline):
            if let problem = collectImages(into: &timeline.entries, numbered: true, from: directory, store: images) {
                return failed(problem)
            }
            return .success(.timeline(timeline), stderrTail: tail)
        case .entry(let entry):
            var entries = [entry]
            if let problem = collectImages(into: &entries, numbered: false, from: directory, store: images) {
                return failed(problem)
            }
            return .success(.entry(entries[0]), stderrTail: tail)
        case .configuration, .options:
            return result
        }
    }

    /// Fills `entries`' `images` with the files of `directory` their contents name, stored; returns why not instead.
    /// Entries are named by their place in date order (`numbered`), or as the single entry.
    private func collectImages(into entries: inout [TimelineEntry], numbered: Bool, from directory: String,
                               store: ImageStoring) -> String? {
        let files = Set(store.names(inRunDirectory: directory).filter(ImageRules.isPlainName))
        // Most runs write no image: nothing is parsed for them.
        guard !files.isEmpty else { return nil }
        var taken: [String: EntryImage] = [:]
        var bytesByHash: [String: [UInt8]] = [:]
        var total = 0
        for index in entries.indices {
            let names = ImageRules.references(inContentText: entries[index].content, among: files)
            guard !names.isEmpty else { continue }
            func problem(_ name: String, _ text: String) -> String {
                ImageRules.message(entry: numbered ? index : nil, date: entries[index].date, name: name, problem: text)
            }
            var named: [String: EntryImage] = [:]
            for name in names {
                if let image = taken[name] {
                    named[name] = image
                    continue
                }
                let bytes: [UInt8]
                switch store.readRunFile(name, inRunDirectory: directory, limit: ImageRules.maximumImageBytes) {
                case .failure(let refusal): return problem(name, refusal.description)
                case .success(let read): bytes = read
                }
                let header: ImageHeader
                switch ImageRules.check(bytes) {
                case .failure(let refusal): return problem(name, refusal.description)
                case .success(let read): header = read
                }
                let hash = ImageDigest.sha256(bytes)
                if bytesByHash[hash] == nil {
                    total += bytes.count
                    guard total <= ImageRules.maximumTotalBytes else {
                        let whose = numbered ? "timeline" : "entry"
                        return problem(name, "brings the \(whose)'s images to \(total) bytes, past 16 MiB")
                    }
                    bytesByHash[hash] = bytes
                }
                let image = EntryImage(sha256: hash, contentType: header.format.contentType, width: header.width,
                                       height: header.height, byteCount: bytes.count)
                taken[name] = image
                named[name] = image
            }
            entries[index].images = named
        }
        for (hash, bytes) in bytesByHash {
            do {
                try store.store(bytes, sha256: hash)
            } catch {
                return "the daemon cannot store its images: \(error)"
            }
            // Stored for an answer no one may take (a widget removed meanwhile): gone at the next write unless
            // something refers to it by then.
            releasedImages.insert(hash)
        }
        return nil
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
        let orphans = ImageReferences.orphans(stored: stored, referenced: imageReferences.referenced)
        for hash in orphans { images.remove(sha256: hash) }
        let missing = imageReferences.referenced.subtracting(stored)
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
        return ImageMethod.Reply(contentType: header.format.contentType, width: header.width, height: header.height,
                                 byteCount: bytes.count, data: Data(bytes).base64EncodedString())
    }
}
