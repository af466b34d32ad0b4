#!/usr/bin/env bash
# Regenerates the man pages in docs/man from the command-line definitions (swift-argument-parser's GenerateManual
# plugin), with the EXAMPLES and SEE ALSO of docs/man/sections. scripts/install.sh installs them. Run it after
# changing a command's options, and commit the result.
#
#   scripts/generate-man.sh          write docs/man/*.1, dated today (or MAN_DATE, YYYY-MM-DD)
#   scripts/generate-man.sh --check  write nothing; exit 1, showing the difference, when a committed page is not what
#                                    the generator makes of the commands today (scripts/test.sh runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
check=
case ${1:-} in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: generate-man.sh [--check]" >&2; exit 2 ;;
esac
tools=(widget-scheduler widgetctl)
if [ -n "$check" ]; then
    # The committed page's own date, so that only what the commands say can differ.
    committed=$(sed -n 's/^\.Dd //p' docs/man/widgetctl.1 | head -n 1)
    MAN_DATE=$(date -u -d "$committed" +%Y-%m-%d) || { echo "docs/man/widgetctl.1: no readable .Dd date" >&2; exit 1; }
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
else
    out=docs/man
fi
swift package --allow-writing-to-package-directory generate-manual --configuration debug \
    --date "${MAN_DATE:-$(date -u +%Y-%m-%d)}" --authors "widget-scheduler developers" > /dev/null
mkdir -p "$out"
# The generator copies a discussion's blank lines into the page, where mdoc wants a paragraph macro (groff warns
# "Empty input line"); EXAMPLES and SEE ALSO, which it cannot write, come from docs/man/sections, before AUTHORS.
for tool in "${tools[@]}"; do
    awk -v sections="docs/man/sections/$tool.mdoc" '
        /^$/ { print ".Pp"; next }
        /^\.Sh AUTHORS/ { while ((getline line < sections) > 0) print line }
        { print }
    ' ".build/plugins/GenerateManual/outputs/$tool/$tool.1" > "$out/$tool.1"
done
# Lint: a page groff warns about is not committed.
for tool in "${tools[@]}"; do
    warnings=$(groff -mdoc -ww -z "$out/$tool.1" 2>&1 | grep -v "cannot adjust line" || true)
    [ -z "$warnings" ] || { echo "docs/man/$tool.1: $warnings" >&2; exit 1; }
done
if [ -n "$check" ]; then
    drift=0
    for tool in "${tools[@]}"; do
        if ! diff -u "docs/man/$tool.1" "$out/$tool.1" > "$out/$tool.diff"; then
            echo "docs/man/$tool.1 is not what the commands say now (run scripts/generate-man.sh and commit):" >&2
            cat "$out/$tool.diff" >&2
            drift=1
        fi
    done
    [ "$drift" = 0 ] && echo "docs/man: ${tools[*]} pages match the commands"
    exit "$drift"
fi
ls docs/man
