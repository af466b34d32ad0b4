import WidgetProtocol
import WidgetProviders
import WidgetSchedulerCore

/// The images a run's entries name, read from its image directory as a guest's files and checked as the daemon takes
/// them (docs/provider-protocol.md, "Images"): each a regular file of its own, a PNG, JPEG or WebP within 2 MiB and
/// 2048×2048, and at most 16 MiB for the distinct images of the answer. The daemon stores what this gives
/// (`WidgetService.takeImages`); `widget-scheduler run-provider` shows it to the provider's author.
public struct RunImages {
    /// The run's result with its entries' `images`, or a failure `invalid` naming the entry and the file.
    public var result: ProviderRunResult
    /// The bytes of each distinct image the entries name, by SHA-256; empty when `result` is a failure.
    public var bytesByHash: [String: [UInt8]]
    /// The files of the directory no entry names, sorted: the daemon drops them.
    public var unnamed: [String]

    /// Reads the images `result`'s entries name in `directory` through `files` (only its run-directory reading is
    /// used). A result that is a failure, or an answer with no entries, is given back as it is.
    public static func take(_ result: ProviderRunResult, from directory: String, files: ImageStoring) -> RunImages {
        guard case .success(let answer, let tail) = result else {
            return RunImages(result: result, bytesByHash: [:], unnamed: [])
        }
        let names = Set(files.names(inRunDirectory: directory))
        var collector = Collector(files: names.filter(ImageRules.isPlainName), directory: directory, reader: files)
        func failed(_ detail: String) -> RunImages {
            RunImages(result: .failure(ProviderRunFailure(reason: .invalid, detail: detail, stderrTail: tail)),
                      bytesByHash: [:], unnamed: [])
        }
        let taken: ProviderAnswer
        switch answer {
        case .timeline(var timeline):
            if let problem = collector.collect(into: &timeline.entries, numbered: true) { return failed(problem) }
            taken = .timeline(timeline)
        case .entry(let entry):
            var entries = [entry]
            if let problem = collector.collect(into: &entries, numbered: false) { return failed(problem) }
            taken = .entry(entries[0])
        case .configuration, .options:
            taken = answer
        }
        return RunImages(result: .success(taken, stderrTail: tail), bytesByHash: collector.bytesByHash,
                         unnamed: names.subtracting(collector.named).sorted())
    }

    /// Fills entries' `images` from the files of one run's directory, each read and checked once.
    private struct Collector {
        let files: Set<String>
        let directory: String
        let reader: ImageStoring
        var bytesByHash: [String: [UInt8]] = [:]
        var named: Set<String> = []
        private var taken: [String: EntryImage] = [:]
        private var total = 0

        init(files: Set<String>, directory: String, reader: ImageStoring) {
            self.files = files
            self.directory = directory
            self.reader = reader
        }

        /// Gives `entries` the images their contents name; returns why not instead. Entries are named by their place
        /// in date order (`numbered`), or as the single entry.
        mutating func collect(into entries: inout [TimelineEntry], numbered: Bool) -> String? {
            // Most runs write no image: nothing is parsed for them.
            guard !files.isEmpty else { return nil }
            for index in entries.indices {
                let names = ImageRules.references(inContentText: entries[index].content, among: files)
                guard !names.isEmpty else { continue }
                var images: [String: EntryImage] = [:]
                for name in names {
                    switch image(named: name, numbered: numbered) {
                    case .success(let image): images[name] = image
                    case .failure(let problem):
                        return ImageRules.message(entry: numbered ? index : nil, date: entries[index].date,
                                                  name: name, problem: problem.description)
                    }
                }
                entries[index].images = images
            }
            return nil
        }

        private mutating func image(named name: String, numbered: Bool) -> Result<EntryImage, ImageRules.Refusal> {
            if let image = taken[name] { return .success(image) }
            let bytes: [UInt8]
            switch reader.readRunFile(name, inRunDirectory: directory, limit: ImageRules.maximumImageBytes) {
            case .failure(let refusal): return .failure(ImageRules.Refusal(refusal.description))
            case .success(let read): bytes = read
            }
            let header: ImageHeader
            switch ImageRules.check(bytes) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let read): header = read
            }
            let hash = ImageDigest.sha256(bytes)
            if bytesByHash[hash] == nil {
                total += bytes.count
                guard total <= ImageRules.maximumTotalBytes else {
                    let whose = numbered ? "timeline" : "entry"
                    return .failure(ImageRules.Refusal("brings the \(whose)'s images to \(total) bytes, past 16 MiB"))
                }
                bytesByHash[hash] = bytes
            }
            let image = EntryImage(sha256: hash, contentType: header.format.contentType, width: header.width,
                                   height: header.height, byteCount: bytes.count)
            taken[name] = image
            named.insert(name)
            return .success(image)
        }
    }
}
