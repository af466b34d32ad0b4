// Module WidgetProviderKit: see Package.swift for what it holds.
