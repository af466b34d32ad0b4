// The client moved to its own module so that apps can share it (`WidgetCenter`); widgetctl's commands and tests
// still reach it through their library.
@_exported import WidgetControlClient
