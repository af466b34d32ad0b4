#!/usr/bin/env bash
# Regenerates the man pages in docs/man from the command-line definitions (swift-argument-parser's GenerateManual
# plugin). scripts/install.sh installs them. Run it after changing a command's options, and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift package --allow-writing-to-package-directory generate-manual --configuration debug \
    --date "${MAN_DATE:-$(date -u +%Y-%m-%d)}" --authors "widget-scheduler developers" > /dev/null
mkdir -p docs/man
for tool in widget-scheduler widgetctl; do
    cp .build/plugins/GenerateManual/outputs/$tool/$tool.1 docs/man/$tool.1
done
ls docs/man
