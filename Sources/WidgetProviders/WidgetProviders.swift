// Module WidgetProviders: see Package.swift for what it holds.
