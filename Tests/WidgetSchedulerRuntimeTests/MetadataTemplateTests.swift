import Logging
import Testing
@testable import WidgetSchedulerRuntime

/// The kept metadata of a line logged with the same keys again and again: each line gets its own values.
struct MetadataTemplateTests {
    @Test func aTemplateHoldsTheValuesLastSetForEachOfItsKeys() {
        var template = MetadataTemplate(keys: ["WIDGET_ID", "WIDGET_KIND", "PROVIDER_PID"])
        #expect(template.metadata == ["WIDGET_ID": "", "WIDGET_KIND": "", "PROVIDER_PID": ""])
        template.set("WIDGET_ID", "w1")
        template.set("WIDGET_KIND", "weather")
        template.set("PROVIDER_PID", "41")
        #expect(template.metadata == ["WIDGET_ID": "w1", "WIDGET_KIND": "weather", "PROVIDER_PID": "41"])
        template.set("WIDGET_ID", "w2")
        template.set("WIDGET_KIND", "clock")
        template.set("PROVIDER_PID", "42")
        #expect(template.metadata == ["WIDGET_ID": "w2", "WIDGET_KIND": "clock", "PROVIDER_PID": "42"])
    }

    @Test func keysSetOutOfOrderLandOnTheirOwnKeys() {
        var template = MetadataTemplate(keys: ["A", "B", "C"])
        template.set("C", "3")
        template.set("A", "1")
        template.set("B", "2")
        template.set("B", "two")
        #expect(template.metadata == ["A": "1", "B": "two", "C": "3"])
    }

    @Test func metadataKeptFromOneLineKeepsItsValuesWhenTheNextLineIsFilled() {
        var template = MetadataTemplate(keys: ["WIDGET_ID", "POLICY"])
        template.set("WIDGET_ID", "w1")
        template.set("POLICY", "never")
        let kept = template.metadata
        template.set("WIDGET_ID", "w2")
        template.set("POLICY", "atEnd")
        #expect(kept == ["WIDGET_ID": "w1", "POLICY": "never"])
        #expect(template.metadata == ["WIDGET_ID": "w2", "POLICY": "atEnd"])
    }

    @Test func keysMadeAtRunTimeAreFoundByTheirText() {
        // Not the literals the template was made of: equal text must still find the key.
        let key = String(["WIDGET", "ID"].joined(separator: "_"))
        var template = MetadataTemplate(keys: ["WIDGET_KIND", "WIDGET_ID"])
        template.set(key, "w7")
        #expect(template.metadata["WIDGET_ID"] == "w7")
        #expect(template.metadata["WIDGET_KIND"] == "")
    }
}
