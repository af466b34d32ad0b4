#!/usr/bin/env bash
# The README's test command, and the one CI runs: set up, build, run every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="/opt/swift/usr/bin:$PATH"
swift build --build-tests
swift test --skip-build
