#!/usr/bin/env bash
# Installs what a fresh machine lacks (Debian packages), then builds the project.
# Used by the README's demo and test commands and by CI.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
# chromium, chromium-driver and a font: the web home screen's browser tests and the demo's screenshot; groff-base:
# the man pages' lint and drift check (scripts/generate-man.sh).
for pkg in libsystemd-dev pkg-config libsqlite3-dev systemd-container chromium chromium-driver fonts-dejavu-core \
    groff-base; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
# Python 3 runs the example providers and the system tests' checks; pytest runs the Python SDK's tests. Debian's own
# python3 takes pytest from apt (it refuses pip installs, PEP 668); another python3 first on PATH takes it from pip.
pip_pytest=
if ! command -v python3 > /dev/null; then
    need+=(python3 python3-pytest)
elif ! python3 -m pytest --version > /dev/null 2>&1; then
    if [ "$(command -v python3)" = /usr/bin/python3 ]; then need+=(python3-pytest); else pip_pytest=1; fi
fi
# pip installs Selenium for the browser tests below; Debian's python3 comes without it.
if ! command -v python3 > /dev/null || ! python3 -m pip --version > /dev/null 2>&1; then
    need+=(python3-pip)
fi
if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ -n "$pip_pytest" ]; then
    echo "setup: installing pytest for $(command -v python3)" >&2
    python3 -m pip install -q pytest
fi

# Selenium from PyPI for the browser tests, into a folder of the build (the target folder changes no Python
# installation, so Debian's PEP 668 guard is lifted for it).
# Without PyPI the build and the demo go on (the demo then says it took no picture); the browser tests say what is
# missing.
if [ ! -d .build-browser/python/selenium ]; then
    echo "setup: installing selenium (pip) into .build-browser/python" >&2
    python3 -m pip install --quiet --disable-pip-version-check --target .build-browser/python "selenium>=4.20,<5" ||
        python3 -m pip install --quiet --disable-pip-version-check --break-system-packages \
            --target .build-browser/python "selenium>=4.20,<5" ||
        echo "setup: could not install selenium: the browser tests and the demo's screenshot need it" >&2
fi

# The Varlink conformance test's third-party client: the `varlink` package from PyPI, into a folder of the build too.
if [ ! -d .build-varlink/python/varlink ]; then
    echo "setup: installing varlink (pip) into .build-varlink/python" >&2
    python3 -m pip install --quiet --disable-pip-version-check --target .build-varlink/python "varlink>=31,<32" ||
        python3 -m pip install --quiet --disable-pip-version-check --break-system-packages \
            --target .build-varlink/python "varlink>=31,<32" ||
        echo "setup: could not install varlink: the Varlink conformance test needs it" >&2
fi

export PATH="/opt/swift/usr/bin:$PATH"
swift build ${SWIFT_BUILD_FLAGS:-}
