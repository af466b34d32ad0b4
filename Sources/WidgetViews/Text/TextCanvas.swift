/// A grid of terminal cells that the boxed layout draws into, then writes out as lines (with ANSI styles when asked).
struct TextCanvas {
    /// A cell's look: SGR parameters, empty for the terminal's own.
    struct Style: Hashable {
        var sgr: String

        static let plain = Style(sgr: "")
    }

    private struct Cell {
        /// The character drawn; empty for the second column of a wide character.
        var text: String
        var style: Style
    }

    let width: Int
    let height: Int
    private var cells: [Cell]

    init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Cell(text: " ", style: .plain), count: self.width * self.height)
    }

    /// Writes `text` from column `x` of row `y`, clipped at `limit` (exclusive) and at the canvas's edge. A wide
    /// character that would straddle the edge is left out.
    mutating func write(_ text: String, x: Int, y: Int, limit: Int, style: Style) {
        guard y >= 0, y < height else { return }
        let end = min(limit, width)
        var column = x
        for character in text {
            let columns = DisplayWidth.of(character)
            if columns == 0 {
                // A combining mark joins the character before it.
                if column > 0, column - 1 < end, column - 1 >= 0 { cells[y * width + column - 1].text.append(character) }
                continue
            }
            guard column + columns <= end else { break }
            if column >= 0 {
                cells[y * width + column] = Cell(text: String(character), style: style)
                if columns == 2 { cells[y * width + column + 1] = Cell(text: "", style: style) }
            }
            column += columns
        }
    }

    /// The rows as text, styled runs wrapped in SGR sequences when `color`.
    func lines(color: Bool) -> [String] {
        (0..<height).map { row in
            var line = ""
            var current = Style.plain
            for column in 0..<width {
                let cell = cells[row * width + column]
                if color && cell.style != current {
                    if !current.sgr.isEmpty { line += "\u{1B}[0m" }
                    if !cell.style.sgr.isEmpty { line += "\u{1B}[" + cell.style.sgr + "m" }
                    current = cell.style
                }
                line += cell.text
            }
            if color && !current.sgr.isEmpty { line += "\u{1B}[0m" }
            return line
        }
    }
}
