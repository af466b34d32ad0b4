// Module WidgetSchedulerTestKit: see Package.swift for what it holds.
