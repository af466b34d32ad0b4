import Testing
@testable import WidgetHost

/// The layout's rules: reconciling with the daemon, moving, stacking (same family, at most ten), pinning.
struct HomeLayoutTests {
    private func layout(_ slots: [[String]]) -> HomeLayout {
        HomeLayout(slots: slots.enumerated().map { HomeLayout.Slot(id: "s\($0.offset + 1)", widgets: $0.element) },
                   nextSlotNumber: slots.count + 1)
    }

    @Test func reconcilingAppendsNewWidgetsDropsGoneOnesAndKeepsStacks() {
        let before = layout([["w1", "w2"], ["w3"]])
        let after = before.reconciled(with: [("w1", "systemSmall"), ("w3", "systemSmall"), ("w4", "systemMedium")])
        #expect(after.slots.map(\.widgets) == [["w1"], ["w3"], ["w4"]])
        #expect(after.slots.map(\.id) == ["s1", "s2", "s3"])
        #expect(after.nextSlotNumber == 4)
    }

    @Test func reconcilingSplitsAStackWhoseWidgetsNoLongerShareAFamily() {
        var before = layout([["w1", "w2", "w3"]])
        before.slots[0].pinned = "w2"
        let after = before.reconciled(with: [("w1", "systemSmall"), ("w2", "systemMedium"), ("w3", "systemSmall")])
        #expect(after.slots.map(\.widgets) == [["w1", "w3"], ["w2"]])
        #expect(after.slots[0].pinned == nil, "the pinned widget left the stack")
    }

    @Test func reconcilingTheSameWidgetsChangesNothing() {
        let before = layout([["w2"], ["w1", "w3"]])
        #expect(before.reconciled(with: [("w1", "systemSmall"), ("w2", "systemSmall"), ("w3", "systemSmall")])
                == before)
    }

    @Test func movingPutsASlotBeforeAnotherOrAtTheEnd() throws {
        var arranged = layout([["w1"], ["w2"], ["w3"]])
        try arranged.move(slot: "s3", before: "s1")
        #expect(arranged.widgetIDs == ["w3", "w1", "w2"])
        try arranged.move(slot: "s3", before: nil)
        #expect(arranged.widgetIDs == ["w1", "w2", "w3"])
        #expect(throws: HomeLayout.Refusal.unknownSlot("s9")) { try arranged.move(slot: "s9", before: nil) }
    }

    @Test func stackingMovesAWidgetIntoAnotherSlotOfItsFamilyAndRemovesItsEmptySlot() throws {
        var arranged = layout([["w1"], ["w2"]])
        try arranged.stack("w2", family: "systemSmall", onto: "s1", targetFamily: "systemSmall")
        #expect(arranged.slots.map(\.widgets) == [["w1", "w2"]])
        #expect(throws: HomeLayout.Refusal.familyMismatch(widget: "w3", family: "systemMedium",
                                                          slotFamily: "systemSmall")) {
            var other = layout([["w1"], ["w3"]])
            try other.stack("w3", family: "systemMedium", onto: "s1", targetFamily: "systemSmall")
        }
    }

    @Test func aStackHoldsAtMostTenWidgets() throws {
        var arranged = layout([(1...10).map { "w\($0)" }, ["w11"]])
        #expect(throws: HomeLayout.Refusal.stackFull(slot: "s1")) {
            try arranged.stack("w11", family: "systemSmall", onto: "s1", targetFamily: "systemSmall")
        }
        #expect(arranged.slots.count == 2, "a refused stack leaves the layout as it was")
    }

    @Test func unstackingGivesTheWidgetASlotRightAfterAndDropsItsPin() throws {
        var arranged = layout([["w1", "w2"], ["w3"]])
        try arranged.pin("w2", in: "s1")
        try arranged.unstack("w2")
        #expect(arranged.slots.map(\.widgets) == [["w1"], ["w2"], ["w3"]])
        #expect(arranged.slots[0].pinned == nil)
    }

    @Test func pinningNeedsAWidgetOfTheSlot() throws {
        var arranged = layout([["w1", "w2"], ["w3"]])
        try arranged.pin("w2", in: "s1")
        #expect(arranged.slots[0].pinned == "w2")
        #expect(throws: HomeLayout.Refusal.notInSlot(widget: "w3", slot: "s1")) { try arranged.pin("w3", in: "s1") }
        try arranged.pin(nil, in: "s1")
        #expect(arranged.slots[0].pinned == nil)
    }

    @Test func replacingKeepsThePlaceOrLeavesAStackTheWidgetNoLongerFits() throws {
        var alone = layout([["w1"], ["w2"]])
        try alone.replace("w2", with: "w9", fitsStack: false)
        #expect(alone.slots.map(\.widgets) == [["w1"], ["w9"]])
        var stacked = layout([["w1", "w2"], ["w3"]])
        try stacked.pin("w2", in: "s1")
        try stacked.replace("w2", with: "w9", fitsStack: false)
        #expect(stacked.slots.map(\.widgets) == [["w1"], ["w9"], ["w3"]])
        #expect(stacked.slots[0].pinned == nil)
    }

    @Test func aReplacementAlreadyPlacedEndsUpInTheOldPlaceAlone() throws {
        // The host saw the new widget added, and gave it a slot at the end, before the resize put it in place.
        var arranged = layout([["w1"], ["w2"], ["w3"], ["w9"]])
        try arranged.replace("w2", with: "w9", fitsStack: false)
        #expect(arranged.slots.map(\.widgets) == [["w1"], ["w9"], ["w3"]])
        var stacked = layout([["w1", "w2"], ["w3", "w9"]])
        try stacked.replace("w2", with: "w9", fitsStack: true)
        #expect(stacked.slots.map(\.widgets) == [["w1", "w9"], ["w3"]])
        #expect(arranged.widgetIDs.count == Set(arranged.widgetIDs).count)
    }

    @Test func removingTheLastWidgetOfASlotRemovesTheSlot() {
        var arranged = layout([["w1", "w2"], ["w3"]])
        arranged.remove("w3")
        arranged.remove("w1")
        #expect(arranged.slots.map(\.widgets) == [["w2"]])
    }
}
