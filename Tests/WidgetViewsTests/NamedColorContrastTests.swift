import Foundation
import Testing
@testable import WidgetViews

/// Text in any named color can be read: WCAG AA's 4.5:1 for the light value on a widget's white surface and on a
/// light host page (an accessory widget has no surface of its own), for the dark value on the dark surface and a
/// dark page, and for white text (and the 0.9 white of secondary text) on a colored background, which keeps the light
/// value in both schemes. The browser tests measure the same on the drawn page.
struct NamedColorContrastTests {
    static let hues = NamedColor.allCases.filter { !$0.isLabel }
    static let whiteSurface = RGB(hex: "#FFFFFF")
    static let lightPage = RGB(hex: "#EEF0F4")
    static let darkSurface = RGB(hex: "#1C1C1E")
    static let darkPage = RGB(hex: "#0D0D10")

    @Test(arguments: hues)
    func aHuesLightValueReadsOnLightSurfacesAndCarriesWhiteText(color: NamedColor) {
        let value = RGB(hex: color.light)
        #expect(value.contrast(with: Self.whiteSurface) >= 4.5)
        #expect(value.contrast(with: Self.lightPage) >= 4.5)
        #expect(RGB.white.contrast(with: value) >= 4.5)
        #expect(RGB.white.over(value, alpha: 0.9).contrast(with: value) >= 4.5)
    }

    @Test(arguments: hues)
    func aHuesDarkValueReadsOnDarkSurfaces(color: NamedColor) {
        let value = RGB(hex: color.dark)
        #expect(value.contrast(with: Self.darkSurface) >= 4.5)
        #expect(value.contrast(with: Self.darkPage) >= 4.5)
    }

    @Test func secondaryTextReadsInBothSchemes() {
        let light = RGB(red: 60, green: 60, blue: 67)
        #expect(NamedColor.secondary.light == "rgba(60,60,67,0.76)")
        #expect(light.over(Self.whiteSurface, alpha: 0.76).contrast(with: Self.whiteSurface) >= 4.5)
        #expect(light.over(Self.lightPage, alpha: 0.76).contrast(with: Self.lightPage) >= 4.5)
        let dark = RGB(red: 235, green: 235, blue: 245)
        #expect(NamedColor.secondary.dark == "rgba(235,235,245,0.6)")
        #expect(dark.over(Self.darkSurface, alpha: 0.6).contrast(with: Self.darkSurface) >= 4.5)
        #expect(dark.over(Self.darkPage, alpha: 0.6).contrast(with: Self.darkPage) >= 4.5)
    }

    @Test func theStylesheetPutsHuedBackgroundsOnTheirLightValueInBothSchemes() {
        let css = WidgetStylesheet.css
        #expect(css.contains(".wv-bg-green{background:var(--wv-green-fill)}"))
        #expect(css.contains("--wv-green-fill:\(NamedColor.green.light);"))
        #expect(!css.contains("--wv-green-fill:\(NamedColor.green.dark);"))
        // Text on a colored background stays white in the dark scheme too.
        #expect(css.contains(".wv-bg,.wv.wv-bg{--wv-fg:#FFFFFF;--wv-fg2:rgba(255,255,255,0.9)"))
    }
}

/// A color for WCAG's relative luminance.
struct RGB {
    var red: Double
    var green: Double
    var blue: Double

    static let white = RGB(red: 255, green: 255, blue: 255)

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    init(hex: String) {
        let digits = hex.dropFirst()
        func channel(_ offset: Int) -> Double {
            let start = digits.index(digits.startIndex, offsetBy: offset)
            return Double(UInt8(digits[start..<digits.index(start, offsetBy: 2)], radix: 16) ?? 0)
        }
        self.init(red: channel(0), green: channel(2), blue: channel(4))
    }

    /// This color drawn at `alpha` over `background`.
    func over(_ background: RGB, alpha: Double) -> RGB {
        RGB(red: red * alpha + background.red * (1 - alpha), green: green * alpha + background.green * (1 - alpha),
            blue: blue * alpha + background.blue * (1 - alpha))
    }

    var luminance: Double {
        func linear(_ value: Double) -> Double {
            let channel = value / 255
            return channel <= 0.03928 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    func contrast(with other: RGB) -> Double {
        let (lighter, darker) = (max(luminance, other.luminance), min(luminance, other.luminance))
        return (lighter + 0.05) / (darker + 0.05)
    }
}
