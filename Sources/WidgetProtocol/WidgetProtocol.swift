// Module WidgetProtocol: see Package.swift for what it holds.
