import Testing
@testable import WidgetSchedulerCore

@Suite struct SchedulerSettingsTests {
    private static let manyKinds: Set<String> = ["a", "b", "c", "d", "e", "weather-with-a-long-kind-name", "clock"]

    private static let cases: [(Set<String>, String, Bool)] = [
        ([], "clock", true),
        (["clock"], "clock", false),
        (["clock"], "weather", true),
        (["clock"], "clock2", true),
        (["clock", "weather"], "weather", false),
        (["a", "b", "c", "clock"], "clock", false),
        (["a", "b", "c", "clock"], "d", true),
        (manyKinds, "clock", false),
        (manyKinds, "weather-with-a-long-kind-name", false),
        (manyKinds, "weather-with-a-long-kind-nam", true),
        (manyKinds, "f", true),
    ]

    @Test("the floor and the budget bind every kind but those in developer mode, however many there are",
          arguments: cases)
    func floorAndBudgetBindAllButDeveloperKinds(_ developerKinds: Set<String>, _ kind: String, _ binds: Bool) {
        #expect(SchedulerSettings(developerKinds: developerKinds).bindsFloorAndBudget(ofKind: kind) == binds)
    }
}
