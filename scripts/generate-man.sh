#!/usr/bin/env bash
# Regenerates the man pages in docs/man from the command-line definitions (swift-argument-parser's GenerateManual
# plugin), with the EXAMPLES and SEE ALSO of docs/man/sections. scripts/install.sh installs them. Run it after
# changing a command's options, and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift package --allow-writing-to-package-directory generate-manual --configuration debug \
    --date "${MAN_DATE:-$(date -u +%Y-%m-%d)}" --authors "widget-scheduler developers" > /dev/null
mkdir -p docs/man
# The generator copies a discussion's blank lines into the page, where mdoc wants a paragraph macro (groff warns
# "Empty input line"); EXAMPLES and SEE ALSO, which it cannot write, come from docs/man/sections, before AUTHORS.
for tool in widget-scheduler widgetctl; do
    awk -v sections="docs/man/sections/$tool.mdoc" '
        /^$/ { print ".Pp"; next }
        /^\.Sh AUTHORS/ { while ((getline line < sections) > 0) print line }
        { print }
    ' .build/plugins/GenerateManual/outputs/$tool/$tool.1 > docs/man/$tool.1
done
# Lint: a page groff warns about is not committed.
for page in docs/man/*.1; do
    warnings=$(groff -mdoc -ww -z "$page" 2>&1 | grep -v "cannot adjust line" || true)
    [ -z "$warnings" ] || { echo "$page: $warnings" >&2; exit 1; }
done
ls docs/man
