import Testing
import WidgetSchedulerCore

/// Which stored images the daemon keeps: an image stays while any owner names it, and goes once the last lets it go.
struct ImageReferencesTests {
    @Test func anImageIsReleasedOnlyWhenItsLastOwnerLetsItGo() {
        var references = ImageReferences()
        #expect(references.set(.widget("w1"), ["a", "b"]).isEmpty)
        #expect(references.set(.preview(kind: "photo", question: "q"), ["b"]).isEmpty)
        #expect(references.set(.widget("w1"), ["a"]) == [], "the preview still holds b")
        #expect(references.set(.preview(kind: "photo", question: "q"), []) == ["b"])
        #expect(references.set(.widget("w1"), []) == ["a"])
        #expect(references.referenced.isEmpty)
        #expect(references.owners.isEmpty, "an owner holding nothing is forgotten")
    }

    @Test func settingTheSameHashesAgainChangesNoCount() {
        var references = ImageReferences()
        references.set(.widget("w1"), ["a"])
        references.set(.widget("w1"), ["a"])
        references.set(.widget("w2"), ["a"])
        #expect(references.counts == ["a": 2])
        #expect(references.set(.widget("w2"), []).isEmpty)
        #expect(references.isReferenced("a"))
    }

    @Test func orphansAreStoredImagesNoOwnerHoldsAndMissingOnesAreHeldButNotStored() {
        var references = ImageReferences()
        references.set(.widget("w1"), ["kept", "lost"])
        #expect(references.orphans(among: ["kept", "stray"]) == ["stray"])
        #expect(references.missing(from: ["kept", "stray"]) == ["lost"])
    }

    @Test func aKindKeepsItsNewestPreviewsAndPushesOutTheOldest() {
        var previews = KeptPreviews()
        for index in 0..<KeptPreviews.perKind {
            #expect(previews.keep(kind: "photo", question: "q\(index)") == nil)
        }
        #expect(previews.keep(kind: "photo", question: "q0") == nil, "asked again, q0 becomes the newest")
        #expect(previews.keep(kind: "photo", question: "new") == "q1")
        #expect(previews.questions["photo"]?.last == "new")
        #expect(previews.keep(kind: "clock", question: "q0") == nil, "each kind keeps its own")
    }
}
