/// The stylesheet every HTML fragment of `HTMLRenderer` is drawn with. A host serves it as a file
/// (`<link rel="stylesheet" href="/widget-views.css">`), so pages need no inline style.
///
/// Families have their real sizes in CSS pixels (`WidgetFamily.pointSize`); a host scales a whole grid with CSS
/// `zoom` or `transform` if it wants. Colors follow `prefers-color-scheme`, unless a widget (or an ancestor) has the
/// class `wv-light` or `wv-dark`.
public enum WidgetStylesheet {
    /// The stylesheet's text.
    public static let css: String = {
        var css = """
        /* widget-scheduler views: the stylesheet of WidgetViews' HTML renderer (docs/views.md). */
        .wv{\(lightVariables)position:relative;box-sizing:border-box;overflow:hidden;display:flex;\
        flex-direction:column;border-radius:22px;background:var(--wv-surface);color:var(--wv-fg);\
        font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif;\
        font-size:17px;line-height:1.2;-webkit-font-smoothing:antialiased}
        .wv *{box-sizing:border-box}
        .wv.wv-dark,.wv-dark .wv{\(darkVariables)}
        @media (prefers-color-scheme:dark){.wv:not(.wv-light){\(darkVariables)}.wv-light .wv{\(lightVariables)}}

        """
        for family in WidgetFamily.allCases {
            let size = family.pointSize
            css += ".wv-\(family.rawValue){width:\(size.width)px;height:\(size.height)px}\n"
        }
        // Centering is `safe`: what is wider or taller than its box (a long word, a hostile string) starts at the
        // box's leading or top edge and is cut at the other, instead of spilling past both and losing its start.
        // A stack is never wider than its box either: a one-line text in it (lineLimit 1, a date) would otherwise
        // widen it past the widget's edge, where its ellipsis is cut off with it.
        css += """
        .wv-accessoryCircular{border-radius:50%}
        .wv-accessoryRectangular{border-radius:12px}
        .wv-accessoryInline{border-radius:0;background:transparent;flex-direction:row;align-items:center;\
        white-space:nowrap}
        .wv-accessoryInline .wv-body{flex-direction:row;padding:0}
        .wv-accessoryInline .wv-text{text-overflow:ellipsis}
        .wv-accessoryInline .wv-v{flex-direction:row;gap:.4em}
        .wv-accessoryCircular .wv-body,.wv-accessoryRectangular .wv-body{padding:4px}
        .wv-body{position:relative;z-index:1;flex:1 1 auto;min-width:0;min-height:0;display:flex;\
        flex-direction:column;align-items:safe center;justify-content:safe center;pointer-events:none}
        .wv-tap{position:absolute;inset:0;z-index:0;border-radius:inherit}
        .wv-link{pointer-events:auto;color:inherit;text-decoration:none;display:flex;flex-direction:column;\
        align-items:inherit}
        .wv-link:focus-visible,.wv-tap:focus-visible{outline:2px solid var(--wv-blue);outline-offset:-2px}
        .wv-v,.wv-h{display:flex;min-width:0;min-height:0;max-width:100%}
        .wv-v{flex-direction:column}
        .wv-h{flex-direction:row}
        .wv-z{display:grid;min-width:0;min-height:0;max-width:100%}
        .wv-z>*{grid-area:1/1}
        .wv-v.wv-a-leading{align-items:flex-start}.wv-v.wv-a-center{align-items:safe center}\
        .wv-v.wv-a-trailing{align-items:flex-end}
        .wv-h.wv-a-top{align-items:flex-start}.wv-h.wv-a-center{align-items:safe center}\
        .wv-h.wv-a-bottom{align-items:flex-end}
        .wv-zh-leading{justify-items:start}.wv-zh-center{justify-items:safe center}.wv-zh-trailing{justify-items:end}
        .wv-zv-top{align-items:start}.wv-zv-center{align-items:safe center}.wv-zv-bottom{align-items:end}
        .wv-body>.wv-xh,.wv-v>.wv-xh,.wv-z>.wv-xh{align-self:stretch;justify-self:stretch;width:100%}
        .wv-body>.wv-xv,.wv-v>.wv-xv{flex:1 1 0}
        .wv-h>.wv-xh{flex:1 1 0}
        .wv-h>.wv-xv,.wv-z>.wv-xv{align-self:stretch}
        .wv-spacer{flex:1 1 0}

        """
        for points in 0...ViewParser.maximumSpacing {
            css += ".wv-gap-\(points){gap:\(points)px}.wv-pad-\(points){padding:\(points)px}"
                + ".wv-v>.wv-min-\(points){min-height:\(points)px}.wv-h>.wv-min-\(points){min-width:\(points)px}\n"
        }
        css += """
        .wv-text{min-width:0;max-width:100%;overflow:hidden;overflow-wrap:anywhere}
        .wv-f-title{font-size:28px;font-weight:600;line-height:1.1}
        .wv-f-headline{font-size:17px;font-weight:600}
        .wv-f-body{font-size:17px}
        .wv-f-caption{font-size:12px}
        .wv-f-monospaced{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:15px}
        time.wv-text{font-variant-numeric:tabular-nums}
        .wv-ll-1{white-space:nowrap;text-overflow:ellipsis}

        """
        for lines in 2...ViewParser.maximumLineLimit {
            css += ".wv-ll-\(lines){display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:\(lines)}\n"
        }
        css += """
        .wv-gauge{position:relative;display:grid;place-items:center;width:56px;height:56px;flex:none}
        .wv-gauge>*{grid-area:1/1}
        .wv-ring{width:100%;height:100%;transform:rotate(135deg)}
        .wv-ring circle{fill:none;stroke-width:4;stroke-linecap:round}
        .wv-ring-track{stroke:var(--wv-bar)}
        .wv-ring-fill{stroke:currentColor}
        .wv-gauge:not([class*=wv-c-]) .wv-ring-fill{stroke:var(--wv-fg)}
        .wv-gauge-value{font-size:15px;font-weight:600;color:var(--wv-fg);font-variant-numeric:tabular-nums}
        .wv-gauge-label{align-self:end;font-size:10px;color:var(--wv-fg2);transform:translateY(2px)}
        .wv-progress{display:flex;flex-direction:column;gap:2px;min-width:0}
        .wv-progress-label,.wv-progress-value{font-size:12px;color:var(--wv-fg2)}
        .wv-bar{-webkit-appearance:none;appearance:none;display:block;width:100%;height:6px;border:0;\
        border-radius:3px;background:var(--wv-bar);overflow:hidden;color:inherit}
        .wv-bar::-webkit-progress-bar{background:var(--wv-bar);border-radius:3px}
        .wv-bar::-webkit-progress-value{background:currentColor;border-radius:3px}
        .wv-bar::-moz-progress-bar{background:currentColor;border-radius:3px}
        .wv-progress:not([class*=wv-c-]) .wv-bar{color:var(--wv-fg)}
        .wv-redacted-gauge .wv-ring-fill{stroke:transparent}
        .wv-redacted-gauge::-webkit-progress-value{background:transparent}
        .wv-sym{display:inline-flex;align-items:center;justify-content:center;line-height:1;flex:none}
        .wv-img{object-fit:contain;flex:none}
        .wv-img-missing{display:inline-block;border-radius:6px;background:var(--wv-bar);flex:none}

        """
        for size in ImageSize.allCases {
            guard let points = size.points else { continue }
            css += ".wv-img-\(size.rawValue){width:\(points)px;height:\(points)px;font-size:\(points * 5 / 6)px}\n"
        }
        // A filling picture takes its stack's room (the `wv-xh wv-xv` rules) whatever its own size attributes say,
        // and is cropped to it; in a zstack it is the layer under the others.
        css += """
        .wv-img-fill{width:auto;height:auto;min-width:0;min-height:0;object-fit:cover;border-radius:12px}
        .wv-z>.wv-img-fill{width:100%;height:100%}
        span.wv-img-fill{display:block}

        """
        // A hue behind white text is its light value in both schemes (`--wv-NAME-fill`): the dark values are
        // lighter, for text on a dark surface, and white on them would be too faint.
        for color in NamedColor.allCases {
            let fill = color.isLabel ? "--wv-\(color.rawValue)" : "--wv-\(color.rawValue)-fill"
            css += ".wv-c-\(color.rawValue){color:var(--wv-\(color.rawValue))}"
                + ".wv-bg-\(color.rawValue){background:var(\(fill))}"
                + ".wv-from-\(color.rawValue){--wv-from:var(\(fill))}"
                + ".wv-to-\(color.rawValue){--wv-to:var(\(fill))}\n"
        }
        // `.wv.wv-bg` outranks the dark scheme's `.wv:not(.wv-light)`, which would give text on a colored
        // background the dark surface's grays.
        css += """
        .wv-bg,.wv.wv-bg{--wv-fg:#FFFFFF;--wv-fg2:rgba(255,255,255,0.9);--wv-bar:rgba(255,255,255,0.3);\
        --wv-primary:#FFFFFF;--wv-secondary:rgba(255,255,255,0.9)}
        .wv-bg-primary{--wv-fg:var(--wv-surface);--wv-primary:var(--wv-surface)}
        .wv-grad{background:linear-gradient(var(--wv-angle),var(--wv-from),var(--wv-to))}
        .wv-dir-down{--wv-angle:180deg}.wv-dir-across{--wv-angle:90deg}.wv-dir-diagonal{--wv-angle:135deg}
        .wv .wv-redacted{color:transparent;background:var(--wv-bar);border-radius:4px;user-select:none}
        .wv-placeholder .wv-sym{color:transparent;background:var(--wv-bar);border-radius:6px}

        """
        return css
    }()

    private static var lightVariables: String {
        "--wv-surface:#FFFFFF;--wv-fg:#000000;--wv-fg2:\(NamedColor.secondary.light);--wv-bar:rgba(120,120,128,0.2);"
            + NamedColor.allCases.map { "--wv-\($0.rawValue):\($0.light);" }.joined()
            + NamedColor.allCases.filter { !$0.isLabel }.map { "--wv-\($0.rawValue)-fill:\($0.light);" }.joined()
    }

    private static var darkVariables: String {
        "--wv-surface:#1C1C1E;--wv-fg:#FFFFFF;--wv-fg2:\(NamedColor.secondary.dark);--wv-bar:rgba(120,120,128,0.36);"
            + NamedColor.allCases.map { "--wv-\($0.rawValue):\($0.dark);" }.joined()
    }
}
