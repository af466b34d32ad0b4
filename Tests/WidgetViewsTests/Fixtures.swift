import Foundation
import WidgetProtocol
import WidgetSchedulerCore
@testable import WidgetViews

/// The views and content the snapshot tests draw.
enum Fixtures {
    /// The moment every snapshot is drawn at.
    static let now = RFC3339.date(from: "2026-11-26T10:00:00Z") ?? Date(timeIntervalSince1970: 0)
    static let entryDate = RFC3339.date(from: "2026-11-26T09:48:00Z")

    static func context(placeholder: Bool = false) -> RenderContext {
        RenderContext(now: now, timeZone: TimeZone(secondsFromGMT: 0) ?? .current, placeholder: placeholder,
                      entryDate: entryDate)
    }

    static func json(_ text: String) -> JSONValue {
        guard let value = JSONValue(jsonText: text) else { fatalError("fixture is not JSON: \(text)") }
        return value
    }

    /// Content with every kind of value, and text that must be escaped.
    static let content = json(#"""
        {
          "city": "Paris",
          "temperature": 21.5,
          "condition": "cloud.sun",
          "high": 24, "low": 13,
          "humidity": 0.62,
          "wind": 14,
          "departure": "2026-11-26T10:04:30Z",
          "sunset": "2026-11-26T16:58:00Z",
          "started": "2026-11-26T07:30:00Z",
          "load": 1.25, "cpus": 4,
          "uptime": 273900,
          "zone": "Asia/Tokyo",
          "note": "Léger <b>vent</b> & \"pluie\" — 北京 天气",
          "count": 1234567,
          "alert": "Wind warning",
          "hours": [{"temperature": 22}, {"temperature": 23}]
        }
        """#)

    /// A view of every family, using every element.
    static let document = json(#"""
        {
          "version": 1,
          "families": {
            "systemSmall": {
              "url": "weather://city/{city}",
              "background": {"gradient": ["blue", "indigo"], "direction": "down"},
              "body": {"type": "vstack", "alignment": "leading", "spacing": 4, "children": [
                {"type": "hstack", "children": [
                  {"type": "text", "value": "city", "font": "headline", "lineLimit": 1},
                  {"type": "spacer"},
                  {"type": "image", "value": "condition", "size": "small"}
                ]},
                {"type": "text", "value": "temperature", "format": "unit", "unit": "°C", "decimals": 0,
                 "font": "title"},
                {"type": "spacer"},
                {"type": "if", "present": "alert",
                 "then": {"type": "text", "value": "alert", "font": "caption", "color": "yellow", "lineLimit": 1}},
                {"type": "hstack", "spacing": 4, "children": [
                  {"type": "text", "text": "H", "font": "caption"},
                  {"type": "text", "value": "high", "format": "unit", "unit": "°", "font": "caption"},
                  {"type": "text", "text": "L", "font": "caption"},
                  {"type": "text", "value": "low", "format": "unit", "unit": "°", "font": "caption"}
                ]}
              ]}
            },
            "systemMedium": {
              "url": "weather://today",
              "body": {"type": "hstack", "spacing": 16, "children": [
                {"type": "vstack", "alignment": "leading", "spacing": 2, "children": [
                  {"type": "link", "url": "weather://city/{city}",
                   "content": {"type": "text", "value": "city", "font": "headline"}},
                  {"type": "text", "value": "temperature", "format": "unit", "unit": "°C", "font": "title"},
                  {"type": "date", "value": "@date", "style": "relative", "font": "caption", "color": "secondary"}
                ]},
                {"type": "spacer"},
                {"type": "vstack", "alignment": "trailing", "children": [
                  {"type": "hstack", "spacing": 4, "children": [
                    {"type": "image", "symbol": "timer", "size": "small", "color": "orange"},
                    {"type": "date", "value": "departure", "style": "timer", "font": "headline", "color": "orange"}
                  ]},
                  {"type": "progress", "value": "humidity", "label": "Humidity", "format": "percent",
                   "color": "teal"},
                  {"type": "date", "value": "sunset", "style": "time", "timeZone": "zone", "font": "caption"}
                ]}
              ]}
            },
            "systemLarge": {
              "background": "green",
              "padding": 12,
              "body": {"type": "vstack", "alignment": "leading", "spacing": 6, "children": [
                {"type": "text", "text": "Everything", "font": "title"},
                {"type": "text", "value": "note", "lineLimit": 2},
                {"type": "hstack", "children": [
                  {"type": "gauge", "value": "load", "max": "cpus", "label": "Load", "format": "number",
                   "decimals": 2, "color": "red"},
                  {"type": "gauge", "value": "humidity", "format": "percent"},
                  {"type": "vstack", "alignment": "leading", "spacing": 0, "children": [
                    {"type": "text", "value": "count", "format": "number", "grouping": true,
                     "font": "monospaced"},
                    {"type": "text", "value": "uptime", "format": "duration"},
                    {"type": "text", "value": "sunset", "format": "date", "font": "caption"}
                  ]}
                ]},
                {"type": "progress", "value": "load", "min": 0, "max": 4},
                {"type": "zstack", "alignment": "bottomTrailing", "children": [
                  {"type": "image", "asset": "icons/sun.png", "label": "Sun", "size": "large"},
                  {"type": "image", "symbol": "star", "size": "small", "color": "yellow"}
                ]},
                {"type": "hstack", "alignment": "bottom", "children": [
                  {"type": "date", "now": true, "style": "time", "seconds": true, "font": "monospaced"},
                  {"type": "date", "now": true, "style": "date"},
                  {"type": "date", "value": "started", "style": "relative"},
                  {"type": "text", "value": "hours.1.temperature", "format": "unit", "unit": "°C"}
                ]},
                {"type": "spacer", "minLength": 8},
                {"type": "if", "present": "nothing", "then": {"type": "text", "text": "hidden"},
                 "else": {"type": "text", "value": "missing.field", "font": "caption"}}
              ]}
            },
            "systemExtraLarge": {
              "background": "indigo",
              "body": {"type": "hstack", "alignment": "top", "spacing": 24, "children": [
                {"type": "vstack", "alignment": "leading", "children": [
                  {"type": "text", "value": "city", "font": "title"},
                  {"type": "text", "value": "note"}
                ]},
                {"type": "spacer"},
                {"type": "vstack", "alignment": "trailing", "children": [
                  {"type": "date", "value": "departure", "style": "timer", "font": "title"},
                  {"type": "date", "value": "sunset", "style": "relative"}
                ]}
              ]}
            },
            "accessoryCircular": {
              "body": {"type": "gauge", "value": "humidity", "format": "percent"}
            },
            "accessoryRectangular": {
              "body": {"type": "vstack", "alignment": "leading", "spacing": 0, "children": [
                {"type": "text", "value": "city", "font": "headline"},
                {"type": "date", "value": "departure", "style": "timer"}
              ]}
            },
            "accessoryInline": {
              "body": {"type": "hstack", "children": [
                {"type": "image", "value": "condition"},
                {"type": "text", "value": "temperature", "format": "unit", "unit": "°C", "decimals": 0},
                {"type": "text", "value": "city"}
              ]}
            }
          }
        }
        """#)

    static func parsedDocument() throws -> ViewDocument {
        try ViewDocument(json: document)
    }

    /// A one-family document whose body is `element`, for the per-element snapshots.
    static func single(_ element: String, family: String = "systemMedium") throws -> FamilyView {
        let document = try ViewDocument(json: json(
            #"{"version": 1, "families": {"\#(family)": {"body": \#(element)}}}"#))
        guard let view = document.view(for: WidgetFamily(rawValue: family) ?? .systemMedium) else {
            fatalError("no view")
        }
        return view
    }

    /// Each element type (and each of its forms) alone, named for its snapshot.
    static let elements: [(name: String, json: String)] = [
        ("vstack", #"{"type": "vstack", "alignment": "trailing", "spacing": 12, "children": [{"type": "text", "text": "one"}, {"type": "text", "text": "three"}]}"#),
        ("hstack", #"{"type": "hstack", "alignment": "top", "spacing": 0, "children": [{"type": "text", "text": "left"}, {"type": "text", "text": "right", "font": "caption"}]}"#),
        ("zstack", #"{"type": "zstack", "alignment": "topLeading", "children": [{"type": "text", "text": "under the text"}, {"type": "text", "text": "ON", "font": "headline"}]}"#),
        ("spacer", #"{"type": "hstack", "children": [{"type": "text", "text": "edge"}, {"type": "spacer", "minLength": 16}, {"type": "text", "text": "edge"}]}"#),
        ("text-literal", #"{"type": "text", "text": "Hello, <world> & \"you\"", "font": "headline", "color": "pink"}"#),
        ("text-fonts", #"{"type": "vstack", "spacing": 0, "children": [{"type": "text", "text": "title", "font": "title"}, {"type": "text", "text": "headline", "font": "headline"}, {"type": "text", "text": "body"}, {"type": "text", "text": "caption", "font": "caption"}, {"type": "text", "text": "monospaced", "font": "monospaced"}]}"#),
        ("text-formats", #"{"type": "vstack", "spacing": 0, "children": [{"type": "text", "value": "count", "format": "number", "grouping": true}, {"type": "text", "value": "temperature", "format": "number", "decimals": 3}, {"type": "text", "value": "humidity", "format": "percent", "decimals": 1}, {"type": "text", "value": "wind", "format": "unit", "unit": "km/h"}, {"type": "text", "value": "sunset", "format": "date"}, {"type": "text", "value": "uptime", "format": "duration"}]}"#),
        ("text-line-limit", #"{"type": "text", "value": "note", "lineLimit": 1}"#),
        ("text-missing", #"{"type": "text", "value": "no.such.field"}"#),
        ("date-relative", #"{"type": "date", "value": "started", "style": "relative"}"#),
        ("date-timer", #"{"type": "date", "value": "departure", "style": "timer", "font": "title"}"#),
        ("date-time", #"{"type": "date", "value": "sunset", "style": "time", "timeZone": "zone"}"#),
        ("date-date", #"{"type": "date", "value": "sunset", "style": "date"}"#),
        ("date-now", #"{"type": "date", "now": true, "style": "time", "seconds": true}"#),
        ("gauge", #"{"type": "gauge", "value": "load", "min": 0, "max": "cpus", "label": "Load", "color": "green"}"#),
        ("progress", #"{"type": "progress", "value": "humidity", "label": "Humidity", "format": "percent", "color": "blue"}"#),
        ("image-symbol", #"{"type": "image", "symbol": "sun", "size": "large", "color": "yellow"}"#),
        ("image-asset", #"{"type": "image", "asset": "icons/sun.png", "label": "Sunny"}"#),
        ("image-bound", #"{"type": "image", "value": "condition", "label": "Conditions"}"#),
        ("link", #"{"type": "link", "url": "weather://city/{city}?note={note}", "content": {"type": "text", "value": "city"}}"#),
        ("if-present", #"{"type": "if", "present": "alert", "then": {"type": "text", "value": "alert"}, "else": {"type": "text", "text": "calm"}}"#),
        ("if-absent", #"{"type": "if", "present": "storm", "then": {"type": "text", "value": "storm"}, "else": {"type": "text", "text": "calm"}}"#),
    ]
}
