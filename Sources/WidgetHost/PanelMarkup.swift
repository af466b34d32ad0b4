import Foundation
import WidgetProtocol

/// The markup of the host's panels: the gallery, a preview, the configuration form with its options, and a widget's
/// back side. Pure functions, every outside text escaped.
enum PanelMarkup {
    /// The gallery: every kind with its name, description and a preview per family (filled in by the page from
    /// `/fragments/preview`), and an Add button per family.
    static func gallery(kinds: [KindsMethod.Kind]) -> String {
        var html = "<header class=\"sheet-head\"><h2>Add a widget</h2>"
            + "<button type=\"button\" data-close aria-label=\"Close\">Done</button></header>"
        guard !kinds.isEmpty else {
            return html + "<p class=\"empty\">No widget kinds are installed: providers' manifests declare them.</p>"
        }
        html += "<ul class=\"kinds\">"
        for kind in kinds {
            let name = kind.displayName ?? kind.kind
            let slug = HTML.escape(kind.kind)
            html += "<li class=\"kind\" data-kind=\"\(slug)\"><h3>\(HTML.escape(name))</h3>"
            if let description = kind.description { html += "<p class=\"description\">\(HTML.escape(description))</p>" }
            html += "<div class=\"previews\">"
            for family in kind.families {
                let query = "kind=\(percentEncoded(kind.kind))&family=\(percentEncoded(family))"
                html += "<figure class=\"preview-cell\"><div class=\"preview slot f-\(HTML.escape(family))\" "
                    + "data-preview=\"/fragments/preview?\(HTML.escape(query))\" aria-busy=\"true\"></div>"
                    + "<figcaption><button type=\"button\" data-add-kind=\"\(slug)\" data-add-family=\""
                    + "\(HTML.escape(family))\">Add \(HTML.escape(FamilyName.label(family)))</button></figcaption>"
                    + "</figure>"
            }
            html += "</div><p class=\"error\" role=\"alert\" hidden></p></li>"
        }
        return html + "</ul>"
    }

    /// A preview's inside: the face drawn from the provider's snapshot.
    static func preview(face: RenderedFace) -> String {
        "<article class=\"widget shown\"><div class=\"face\">\(face.html)</div></article>"
    }

    /// A preview the provider gave no snapshot for: the kind's placeholder face, and why.
    static func previewFailed(_ message: String, placeholder: RenderedFace) -> String {
        "<article class=\"widget shown placeholder\"><div class=\"face\">\(placeholder.html)</div></article>"
            + "<p class=\"preview-error\">\(HTML.escape(message))</p>"
    }

    /// The configuration form of `widget`: one field per parameter of its kind, typed, with its current value.
    /// `fixedOptions` holds the manifest's options of enum parameters.
    static func configureForm(widget: WidgetSummary, kind: KindsMethod.Kind,
                              fixedOptions: [String: [OptionsMethod.Option]]) -> String {
        let name = kind.displayName ?? kind.kind
        var html = "<header class=\"sheet-head\"><h2>Edit \(HTML.escape(name))</h2>"
            + "<button type=\"button\" data-close aria-label=\"Close\">Cancel</button></header>"
        html += "<form class=\"configure\" data-widget=\"\(HTML.escape(widget.id))\" data-kind=\""
            + "\(HTML.escape(kind.kind))\" novalidate>"
        if kind.parameters.isEmpty {
            html += "<p class=\"empty\">This widget has nothing to configure.</p>"
        }
        for parameter in kind.parameters {
            html += field(parameter, value: widget.configuration[parameter.name],
                          options: fixedOptions[parameter.name] ?? [])
        }
        html += "<p class=\"form-error error\" role=\"alert\" hidden></p>"
        html += "<div class=\"form-actions\"><button type=\"submit\" class=\"primary\">Save</button></div></form>"
        return html
    }

    static func field(_ parameter: KindsMethod.Parameter, value: JSONValue?,
                      options: [OptionsMethod.Option]) -> String {
        let name = HTML.escape(parameter.name)
        let label = HTML.escape(parameter.title ?? parameter.name)
        let inputID = "param-\(name)"
        var html = "<div class=\"field\" data-param=\"\(name)\" data-type=\"\(HTML.escape(parameter.type))\">"
        html += "<label for=\"\(inputID)\">\(label)</label>"
        let current = value.map(text) ?? ""
        switch parameter.type {
        case "boolean":
            let checked = value == .bool(true) ? " checked" : ""
            html += "<input type=\"checkbox\" id=\"\(inputID)\" name=\"\(name)\"\(checked)>"
        case "enum":
            html += "<select id=\"\(inputID)\" name=\"\(name)\">"
            for option in options {
                let optionValue = text(option.value)
                html += "<option value=\"\(HTML.escape(optionValue))\"\(optionValue == current ? " selected" : "")>"
                    + "\(HTML.escape(option.title ?? optionValue))</option>"
            }
            html += "</select>"
        case "integer":
            html += "<input type=\"number\" step=\"1\" id=\"\(inputID)\" name=\"\(name)\" value=\""
                + "\(HTML.escape(current))\">"
        case "decimal":
            html += "<input type=\"number\" step=\"any\" id=\"\(inputID)\" name=\"\(name)\" value=\""
                + "\(HTML.escape(current))\">"
        case "date":
            // The browser's local time in the field; the page sends it back as an RFC 3339 UTC date.
            html += "<input type=\"datetime-local\" step=\"1\" id=\"\(inputID)\" name=\"\(name)\" data-utc=\""
                + "\(HTML.escape(current))\">"
        case "url":
            html += "<input type=\"url\" id=\"\(inputID)\" name=\"\(name)\" value=\"\(HTML.escape(current))\">"
        default:
            html += "<input type=\"text\" id=\"\(inputID)\" name=\"\(name)\" value=\"\(HTML.escape(current))\""
                + " autocomplete=\"off\">"
        }
        if parameter.dynamicOptions {
            html += "<input type=\"search\" class=\"option-search\" aria-label=\"Search \(label)\" "
                + "placeholder=\"Search…\" autocomplete=\"off\">"
                + "<ul class=\"options\" role=\"listbox\" aria-label=\"\(label) choices\"></ul>"
        }
        if let defaultValue = parameter.defaultValue {
            html += "<p class=\"hint\">Default: \(HTML.escape(text(defaultValue)))</p>"
        }
        return html + "<p class=\"field-error error\" role=\"alert\" hidden></p></div>"
    }

    /// The dynamic options found for a search: buttons that put their value in the field.
    static func options(_ options: [OptionsMethod.Option]) -> String {
        guard !options.isEmpty else { return "<li class=\"none\">No matches</li>" }
        return options.map { option in
            let value = text(option.value)
            return "<li><button type=\"button\" role=\"option\" data-value=\"\(HTML.escape(value))\">"
                + "\(HTML.escape(option.title ?? value))</button></li>"
        }.joined()
    }

    /// A widget's back side: what the scheduler knows of it, with a Reload button.
    static func back(widget: WidgetSummary, ledger: BudgetMethod.Ledger?, kind: KindsMethod.Kind?) -> String {
        let name = kind?.displayName ?? widget.kind
        var html = "<div class=\"back-body\"><h3>\(HTML.escape(name)) <span class=\"id\">\(HTML.escape(widget.id))"
            + "</span></h3><dl>"
        func row(_ term: String, _ detail: String) {
            html += "<dt>\(HTML.escape(term))</dt><dd>\(HTML.escape(detail))</dd>"
        }
        row("State", widget.state)
        if let last = widget.lastReload {
            let outcome = widget.lastOutcome ?? "running"
            row("Last run", "\(DecisionText.clock(last)) (\(widget.lastReason ?? "?")): \(outcome)")
        } else {
            row("Last run", "none yet")
        }
        if let next = widget.nextReload {
            row("Next reload", "\(DecisionText.clock(next)) (\(widget.nextReason ?? "?"))")
        } else {
            row("Next reload", "none planned")
        }
        if let ledger {
            let tokens = String(format: "%.2f of %.0f", ledger.tokens, ledger.capacity)
            row("Budget", tokens + (ledger.nextTokenAt.map { ", next token at \(DecisionText.clock($0))" } ?? ""))
            row("Runs in 24 h", "\(ledger.budgetedRuns24h) budgeted, \(ledger.exemptRuns24h) free")
            if let floor = ledger.floorLiftsAt { row("Floor lifts at", DecisionText.clock(floor)) }
            if let backoff = ledger.backoffUntil {
                row("Backing off until", DecisionText.clock(backoff) + " after \(ledger.consecutiveFailures) failures")
            }
            if ledger.quarantined { row("Quarantined", "yes: its provider keeps failing") }
            if ledger.developerMode { row("Developer mode", "no budget, no floor") }
        }
        html += "</dl>"
        if let runs = ledger?.runs, !runs.isEmpty {
            html += "<h4>Ledger</h4><ol class=\"ledger\">"
            for run in runs.suffix(8).reversed() {
                let count = run.runCount > 1 ? " ×\(run.runCount)" : ""
                html += "<li><time>\(HTML.escape(DecisionText.clock(run.at)))</time> \(HTML.escape(run.reason))"
                    + "\(count): \(HTML.escape(run.outcome))\(run.budgeted ? " · 1 token" : " · free")</li>"
            }
            html += "</ol>"
        }
        html += "<p class=\"decision\" role=\"status\"></p><div class=\"back-actions\">"
            + "<button type=\"button\" data-action=\"reload\">Reload</button>"
            + "<button type=\"button\" data-action=\"flip-back\">Done</button></div></div>"
        return html
    }

    /// A parameter value as the form shows it: strings bare, everything else as JSON text.
    static func text(_ value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return value.jsonText()
    }

    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? text
    }
}
