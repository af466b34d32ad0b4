/// A plain text table with left-aligned columns separated by two spaces, header first, as systemctl prints.
public struct TextTable: Sendable {
    public var headers: [String]
    public var rows: [[String]]

    public init(headers: [String], rows: [[String]] = []) {
        self.headers = headers
        self.rows = rows
    }

    /// The table's lines, without trailing spaces; `style` decorates each cell after padding (e.g. colour), so
    /// escape codes do not upset the alignment. The header is bold when the palette is on.
    public func render(palette: Palette = Palette(enabled: false), style: (Int, Int, String) -> String = { $2 })
        -> [String]
    {
        var widths = headers.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        func line(_ cells: [String], _ decorate: (Int, String) -> String) -> String {
            var text = ""
            for (column, cell) in cells.enumerated() where column < widths.count {
                let isLast = column == widths.count - 1
                let padded = isLast ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
                let trailing = padded.dropFirst(cell.count)
                text += decorate(column, cell) + trailing
            }
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        var lines = [line(headers) { palette.bold($1) }]
        for (index, row) in rows.enumerated() {
            lines.append(line(row) { style(index, $0, $1) })
        }
        return lines
    }
}
