/// A grid of terminal cells that the boxed layout draws into, then writes out as lines (with ANSI styles when asked).
///
/// Cells hold a scalar and a style number, not strings: a box is a few hundred cells and a host may draw a thousand
/// boxes, so the grid is plain memory and a line is written as UTF-8 bytes in one pass.
struct TextCanvas {
    /// A cell's look: SGR parameters, empty for the terminal's own.
    struct Style: Hashable {
        var sgr: String

        static let plain = Style(sgr: "")
    }

    private struct Cell {
        /// The scalar drawn; `continuation` for the second column of a wide character, `cluster` when the character
        /// has more than one scalar (kept in `clusters`).
        var scalar: UInt32
        var style: UInt16
    }

    private static let continuation: UInt32 = 0xFFFF_FFFF
    private static let cluster: UInt32 = 0xFFFF_FFFE
    private static let space = UInt32(UInt8(ascii: " "))

    let width: Int
    let height: Int
    private var cells: [Cell]
    private var styles: [Style] = [.plain]
    private var clusters: [Int: String] = [:]

    init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: Cell(scalar: Self.space, style: 0), count: self.width * self.height)
    }

    /// The number a style is drawn with, for `put`.
    mutating func styleNumber(_ style: Style) -> UInt16 {
        if style.sgr.isEmpty { return 0 }
        if let index = styles.firstIndex(of: style) { return UInt16(index) }
        styles.append(style)
        return UInt16(styles.count - 1)
    }

    /// Writes `text` from column `x` of row `y`, clipped at `limit` (exclusive) and at the canvas's edge. A wide
    /// character that would straddle the edge is left out.
    mutating func write(_ text: String, x: Int, y: Int, limit: Int, style: Style) {
        guard y >= 0, y < height else { return }
        let end = min(limit, width)
        let number = styleNumber(style)
        let row = y * width
        var column = x
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in text.utf8 {
                guard column < end else { return }
                if column >= 0 { cells[row + column] = Cell(scalar: UInt32(byte), style: number) }
                column += 1
            }
            return
        }
        for character in text {
            let columns = DisplayWidth.of(character)
            if columns == 0 {
                // A combining mark joins the character before it.
                let previous = row + column - 1
                if column > 0, column - 1 < end, column - 1 >= 0 {
                    var joined = clusters[previous] ?? String(Unicode.Scalar(cells[previous].scalar) ?? " ")
                    joined.append(character)
                    clusters[previous] = joined
                    cells[previous].scalar = Self.cluster
                }
                continue
            }
            guard column + columns <= end else { break }
            if column >= 0 {
                let scalars = character.unicodeScalars
                if scalars.count == 1, let scalar = scalars.first {
                    cells[row + column] = Cell(scalar: scalar.value, style: number)
                } else {
                    cells[row + column] = Cell(scalar: Self.cluster, style: number)
                    clusters[row + column] = String(character)
                }
                if columns == 2 { cells[row + column + 1] = Cell(scalar: Self.continuation, style: number) }
            }
            column += columns
        }
    }

    /// Draws a one-column scalar (a border's piece) at a cell, in the style numbered `style` (`styleNumber`).
    mutating func put(_ scalar: Unicode.Scalar, x: Int, y: Int, style: UInt16) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        cells[y * width + x] = Cell(scalar: scalar.value, style: style)
    }

    /// The rows as text, styled runs wrapped in SGR sequences when `color`.
    func lines(color: Bool) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(height)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * 4 + 32)
        for row in 0..<height {
            bytes.removeAll(keepingCapacity: true)
            append(row: row, color: color, to: &bytes)
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        return lines
    }

    /// The rows as one text, each row ended by a newline: one allocation for the whole box.
    func text(color: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(height * (width * 3 + 1) + (color ? height * 24 : 0))
        for row in 0..<height {
            append(row: row, color: color, to: &bytes)
            bytes.append(0x0A)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends row `row`'s UTF-8 (scalars encoded by hand: the hot loop of a thousand boxes).
    private func append(row: Int, color: Bool, to bytes: inout [UInt8]) {
        var current: UInt16 = 0
        for column in 0..<width {
            let index = row * width + column
            let cell = cells[index]
            if color && cell.style != current {
                if current != 0 { bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D]) }
                if cell.style != 0 {
                    bytes.append(contentsOf: [0x1B, 0x5B])
                    bytes.append(contentsOf: styles[Int(cell.style)].sgr.utf8)
                    bytes.append(0x6D)
                }
                current = cell.style
            }
            let value = cell.scalar
            if value < 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: value))
            } else if value < 0x800 {
                bytes.append(UInt8(truncatingIfNeeded: 0xC0 | (value >> 6)))
                bytes.append(UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F)))
            } else if value < 0x10000 {
                bytes.append(UInt8(truncatingIfNeeded: 0xE0 | (value >> 12)))
                bytes.append(UInt8(truncatingIfNeeded: 0x80 | ((value >> 6) & 0x3F)))
                bytes.append(UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F)))
            } else if value <= 0x10FFFF {
                bytes.append(UInt8(truncatingIfNeeded: 0xF0 | (value >> 18)))
                bytes.append(UInt8(truncatingIfNeeded: 0x80 | ((value >> 12) & 0x3F)))
                bytes.append(UInt8(truncatingIfNeeded: 0x80 | ((value >> 6) & 0x3F)))
                bytes.append(UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F)))
            } else if value == Self.cluster {
                bytes.append(contentsOf: (clusters[index] ?? " ").utf8)
            }
            // A continuation cell writes nothing: its wide character took both columns.
        }
        if color && current != 0 { bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D]) }
    }
}
