// The core's kit (manual clock, seeded generator) comes with this one: tests of the daemon use both.
@_exported import WidgetSchedulerCoreTestKit
