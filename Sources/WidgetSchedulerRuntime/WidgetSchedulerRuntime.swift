// Module WidgetSchedulerRuntime: see Package.swift for what it holds.
