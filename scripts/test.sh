#!/usr/bin/env bash
# The README's test command, and the one CI runs: set up, build, run every test suite:
#   1. swift test: the core's tables and properties, the runtime against fakes, the real daemon driven by widgetctl
#      (integration), the fault suite (reliability);
#   2. pytest: the Python SDK's unit tests (python/tests; its runs through the real daemon are in swift test), and
#      the Varlink conformance test: a third-party client (PyPI's `varlink`) against the real daemon
#      (Tests/Conformance);
#   3. the man pages: docs/man/*.1 must be what the generator makes of the commands (scripts/generate-man.sh --check);
#   4. the benchmark tools' own tests (Benchmarks/Package.swift, built in the same scratch path, where the product's
#      modules are already built);
#   5. Tests/System/run.sh: the installed service under a real systemd booted in a throw-away container.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="/opt/swift/usr/bin:$PATH"
swift build --build-tests
swift test --skip-build
python3 -m pytest -q -p no:cacheprovider python/tests
WIDGET_SCHEDULER_BIN="$(swift build --show-bin-path)" PYTHONPATH=.build-varlink/python \
    python3 -m pytest -q -p no:cacheprovider Tests/Conformance
./scripts/generate-man.sh --check
swift build --package-path Benchmarks --scratch-path .build --build-tests
swift test --package-path Benchmarks --scratch-path .build --skip-build

if [ "$(id -u)" = 0 ] && command -v systemd-nspawn > /dev/null; then
    Tests/System/run.sh -B "$(swift build --show-bin-path)"
else
    echo "test.sh: the system tests need root and systemd-nspawn; run as root to include them" >&2
    [ -z "${CI:-}" ] || exit 1
fi
