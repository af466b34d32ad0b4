import Foundation
import WidgetProtocol

/// The home screen's markup: the page, its grid of slots, and each widget's card. Pure functions of what the host
/// knows; every text that came from a provider or the daemon goes through `HTML.escape` or the renderer.
enum HomeMarkup {
    /// What one slot needs to be drawn.
    struct SlotModel {
        var slot: HomeLayout.Slot
        /// The slot's widgets, the one on top first.
        var order: [String]
        var widgets: [String: WidgetSummary]
        var kinds: [String: KindsMethod.Kind]
        /// Widgets whose last run failed, with the failure in words (`RunFailureText`).
        var failures: [String: String] = [:]
    }

    static func page(title: String, version: String, daemonDown: String?, tapsToCommand: Bool, grid: String) -> String {
        let bannerHTML = daemonDown.map { banner(for: $0) } ?? ""
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(HTML.escape(title))</title>
        <link rel="stylesheet" href="/assets/widgets.css">
        <link rel="stylesheet" href="/assets/home.css">
        <script src="/assets/home.js" defer></script>
        </head>
        <body\(tapsToCommand ? " data-tap=\"command\"" : "")>
        <header class="bar">
        <h1>\(HTML.escape(title))</h1>
        <div class="actions">
        <button type="button" id="edit-toggle" aria-pressed="false">Edit</button>
        <button type="button" id="open-gallery">Add widget</button>
        </div>
        </header>
        <div id="banner" class="banner" role="alert"\(daemonDown == nil ? " hidden" : "")>\(bannerHTML)</div>
        <main id="grid" class="grid" data-version="\(HTML.escape(version))" \
        data-stack-limit="\(HomeLayout.maximumStackSize)">\(grid)</main>
        <dialog id="gallery" class="sheet" aria-label="Add a widget"><div class="sheet-body"></div></dialog>
        <dialog id="configure" class="sheet" aria-label="Edit widget"><div class="sheet-body"></div></dialog>
        </body>
        </html>

        """
    }

    static func banner(for reason: String) -> String {
        "<strong>The widget daemon is not running.</strong> Showing the last entries; reconnecting by itself. "
            + "<span class=\"reason\">(\(HTML.escape(reason)))</span>"
    }

    static func emptyGrid() -> String {
        "<p class=\"empty\">No widgets yet. Choose <strong>Add widget</strong> to place one.</p>"
    }

    /// One slot: its widgets' cards (the first shown), stack controls when it holds several. `faces` holds each
    /// widget's face, drawn by `WidgetFaces`.
    static func slot(_ model: SlotModel, faces: [String: RenderedFace]) -> String {
        let slot = model.slot
        guard let top = model.order.first, let family = model.widgets[top]?.family else { return "" }
        let isStack = model.order.count > 1
        let slotID = HTML.escape(slot.id)
        var html = "<section class=\"slot f-\(HTML.escape(family))\(isStack ? " stack" : "")\" id=\"slot-\(slotID)\""
            + " data-slot=\"\(slotID)\" data-family=\"\(HTML.escape(family))\""
            + " data-order=\"\(HTML.escape(model.order.joined(separator: " ")))\""
        if let pinned = slot.pinned { html += " data-pinned=\"\(HTML.escape(pinned))\"" }
        html += ">"
        for (index, id) in model.order.enumerated() {
            guard let widget = model.widgets[id], let face = faces[id] else { continue }
            html += card(widget, face: face, kind: model.kinds[widget.kind], shown: index == 0, position: index,
                         count: model.order.count, pinned: slot.pinned == id, failure: model.failures[id])
        }
        if isStack {
            // Beside the stack's controls, below the cards: on a card it would cover the face's last line.
            let pin = slot.pinned == nil ? "" : "<span class=\"pin-mark\" title=\"The widget on top is pinned there\">"
                + "Pinned</span>"
            html += "<div class=\"stack-nav\">\(pin)<button type=\"button\" class=\"flip\" data-flip=\"-1\" "
                + "aria-label=\"Previous widget in the stack\">‹</button><span class=\"dots\" aria-live=\"polite\">"
                + "1 / \(model.order.count)</span><button type=\"button\" class=\"flip\" data-flip=\"1\" "
                + "aria-label=\"Next widget in the stack\">›</button></div>"
        }
        return html + "</section>"
    }

    static func card(
        _ widget: WidgetSummary, face: RenderedFace, kind: KindsMethod.Kind?, shown: Bool, position: Int, count: Int,
        pinned: Bool, failure: String? = nil
    ) -> String {
        let name = kind?.displayName ?? widget.kind
        let id = HTML.escape(widget.id)
        var html = "<article class=\"widget\(shown ? " shown" : "")\(widget.currentEntry == nil ? " placeholder" : "")"
            + "\" data-widget=\"\(id)\" data-kind=\"\(HTML.escape(widget.kind))\" data-name=\"\(HTML.escape(name))\""
        if let url = face.urls.first { html += " data-url=\"\(HTML.escape(url))\"" }
        html += " aria-label=\"\(HTML.escape(name))\(count > 1 ? ", \(position + 1) of \(count)" : "")\""
            + (failure == nil ? "" : " aria-describedby=\"failure-\(id)\"")
            + "\(shown ? "" : " hidden")>"
        html += Self.face(face)
        // The failure beside the entry the widget keeps showing; the card's name is its accessible description
        // too, so a screen reader says it with the widget.
        if let failure {
            html += "<p class=\"run-error\" id=\"failure-\(id)\" role=\"status\" title=\"\(HTML.escape(failure))\">"
                + "\(HTML.escape(failure))</p>"
        }
        html += "<div class=\"back\" hidden></div>"
        html += "<button type=\"button\" class=\"info\" data-action=\"inspect\" aria-label=\"About \(HTML.escape(name))"
            + "\">i</button>"
        html += editBar(widget, kind: kind, inStack: count > 1, pinned: pinned)
        return html + "<p class=\"error\" role=\"alert\" hidden></p></article>"
    }

    /// A card's face: the view's markup in its frame. A new entry of a widget alone in its slot sends this alone.
    static func face(_ face: RenderedFace) -> String {
        "<div class=\"face\">\(face.html)</div>"
    }

    /// A card's controls in edit mode. *Stack with* lists the other slots of the card's size with room left, which
    /// the page fills in from the grid it shows when a person opens it: the list depends on every other slot, so
    /// drawing it into each card would make every card's markup grow with the grid and go stale at any change.
    static func editBar(_ widget: WidgetSummary, kind: KindsMethod.Kind?, inStack: Bool, pinned: Bool) -> String {
        var html = "<div class=\"edit-bar\">"
        html += "<button type=\"button\" data-action=\"move\" data-delta=\"-1\" aria-label=\"Move earlier\">"
            + "←</button>"
        html += "<button type=\"button\" data-action=\"move\" data-delta=\"1\" aria-label=\"Move later\">→</button>"
        html += "<button type=\"button\" data-action=\"configure\">Edit widget</button>"
        let families = kind?.families ?? [widget.family]
        if families.count > 1 {
            html += "<label>Size <select data-action=\"resize\">"
            for family in families {
                html += "<option value=\"\(HTML.escape(family))\"\(family == widget.family ? " selected" : "")>"
                    + "\(HTML.escape(FamilyName.label(family)))</option>"
            }
            html += "</select></label>"
        }
        if inStack {
            html += pinned
                ? "<button type=\"button\" data-action=\"unpin\">Unpin</button>"
                : "<button type=\"button\" data-action=\"pin\">Pin on top</button>"
            html += "<button type=\"button\" data-action=\"unstack\">Take out of stack</button>"
        }
        html += "<label>Stack with <select data-action=\"stack\"><option value=\"\">…</option></select></label>"
        html += "<button type=\"button\" class=\"danger\" data-action=\"remove\">Remove</button>"
        return html + "</div>"
    }
}

/// Families' names for people.
enum FamilyName {
    static func label(_ family: String) -> String {
        switch family {
        case "systemSmall": return "Small"
        case "systemMedium": return "Medium"
        case "systemLarge": return "Large"
        case "systemExtraLarge": return "Extra large"
        case "accessoryCircular": return "Circular"
        case "accessoryRectangular": return "Rectangular"
        case "accessoryInline": return "Inline"
        default: return family
        }
    }
}
