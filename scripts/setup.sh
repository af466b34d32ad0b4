#!/usr/bin/env bash
# Installs what a fresh machine lacks (Debian packages), then builds the project.
# Used by the README's demo and test commands and by CI.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in libsystemd-dev pkg-config libsqlite3-dev systemd-container; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing ${need[*]}" >&2
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

export PATH="/opt/swift/usr/bin:$PATH"
swift build ${SWIFT_BUILD_FLAGS:-}
