#!/usr/bin/env bash
# Installs widget-scheduler: binaries, systemd units, sysusers entry, journal catalog, docs, man pages, shell
# completions and the example providers with their manifests.
#
#   scripts/install.sh [BUILD_DIR]
#
# BUILD_DIR holds the built executables (default: .build/release, else .build/debug). Environment:
#   PREFIX      installation prefix (default /usr/local); the units' /usr/local paths are rewritten to it
#   DESTDIR     staging root for packaging (default empty = the live system)
#   CATALOGDIR  journal catalog directory (default /usr/lib/systemd/catalog, whatever PREFIX is: journalctl
#               --update-catalog reads only that directory, so `journalctl -x` works with PREFIX=/usr/local too)
#   MANSRC      directory of generated man pages *.1 ... *.8 (default docs/man; skipped when absent)
#   PYTHONSITEDIR  where the Python SDK (python/widgetkit) goes (default: the site directory under PREFIX of the
#               python3 that providers run, e.g. /usr/local/lib/python3.11/dist-packages on Debian)
#
# With an empty DESTDIR it then creates the system user (systemd-sysusers), rebuilds the catalog database
# (journalctl --update-catalog) and, when systemd is running, runs systemctl daemon-reload. It enables nothing:
#   systemctl enable --now widget-scheduler.socket
#   systemctl enable --now widget-host           # the web home screen at http://127.0.0.1:8470/
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
CATALOGDIR=${CATALOGDIR:-/usr/lib/systemd/catalog}
MANSRC=${MANSRC:-docs/man}
if [ $# -gt 0 ]; then
    BUILD_DIR=$1
elif [ -x .build/release/widget-scheduler ]; then
    BUILD_DIR=.build/release
else
    BUILD_DIR=.build/debug
fi

BINDIR=$PREFIX/bin
UNITDIR=$PREFIX/lib/systemd/system
USERUNITDIR=$PREFIX/lib/systemd/user
SYSUSERSDIR=$PREFIX/lib/sysusers.d
PROVIDERLIBDIR=$PREFIX/lib/widget-providers
MANIFESTDIR=$PREFIX/share/widget-scheduler/providers
DOCDIR=$PREFIX/share/doc/widget-scheduler
MANDIR=$PREFIX/share/man

say() { echo "install: $*" >&2; }
die() { echo "install: error: $*" >&2; exit 1; }

# install(1) with DESTDIR prepended to the target, creating parent directories.
put() {  # put MODE SOURCE TARGET
    install -D -m "$1" "$2" "$DESTDIR$3"
}

# The committed units name /usr/local; any other PREFIX is substituted in.
put_rewritten() {  # put_rewritten MODE SOURCE TARGET
    local tmp; tmp=$(mktemp)
    sed "s|/usr/local/|$PREFIX/|g" "$2" > "$tmp"
    put "$1" "$tmp" "$3"
    rm -f "$tmp"
}

# --- binaries ---------------------------------------------------------------------------------------------------------
for program in widget-scheduler widgetctl widget-host; do
    [ -x "$BUILD_DIR/$program" ] || die "$BUILD_DIR/$program not found: build first (swift build -c release)"
    put 0755 "$BUILD_DIR/$program" "$BINDIR/$program"
done
say "binaries -> $DESTDIR$BINDIR"

# --- systemd units, sysusers, catalog ---------------------------------------------------------------------------------
for unit in units/widget-scheduler.service units/widget-scheduler.socket units/widget-host.service; do
    put_rewritten 0644 "$unit" "$UNITDIR/$(basename "$unit")"
done
for unit in units/user/widget-scheduler.service units/user/widget-scheduler.socket units/user/widget-host.service; do
    put_rewritten 0644 "$unit" "$USERUNITDIR/$(basename "$unit")"
done
put 0644 units/widget-scheduler.sysusers "$SYSUSERSDIR/widget-scheduler.conf"
put_rewritten 0644 units/widget-scheduler.catalog "$CATALOGDIR/widget-scheduler.catalog"
say "units -> $DESTDIR$UNITDIR, $DESTDIR$USERUNITDIR; catalog -> $DESTDIR$CATALOGDIR"

# --- documentation, man pages, completions ----------------------------------------------------------------------------
for doc in README.md docs/*.md docs/*.varlink; do
    [ -f "$doc" ] && put 0644 "$doc" "$DOCDIR/$(basename "$doc")"
done
if [ -d "$MANSRC" ]; then
    for page in "$MANSRC"/*.[1-8]; do
        [ -f "$page" ] || continue
        section=${page##*.}
        put 0644 "$page" "$MANDIR/man$section/$(basename "$page")"
    done
fi
# swift-argument-parser writes the completion scripts itself.
for program in widgetctl widget-scheduler widget-host; do
    tmp=$(mktemp)
    if "$BUILD_DIR/$program" --generate-completion-script bash > "$tmp" 2>/dev/null && [ -s "$tmp" ]; then
        put 0644 "$tmp" "$PREFIX/share/bash-completion/completions/$program"
    fi
    if "$BUILD_DIR/$program" --generate-completion-script zsh > "$tmp" 2>/dev/null && [ -s "$tmp" ]; then
        put 0644 "$tmp" "$PREFIX/share/zsh/site-functions/_$program"
    fi
    if "$BUILD_DIR/$program" --generate-completion-script fish > "$tmp" 2>/dev/null && [ -s "$tmp" ]; then
        put 0644 "$tmp" "$PREFIX/share/fish/vendor_completions.d/$program.fish"
    fi
    rm -f "$tmp"
done

# --- the administrator's directory ------------------------------------------------------------------------------------
# /etc/widget-scheduler (the configuration file) and its providers/ (local manifests) belong to root: the daemon only
# reads them, so neither it nor a provider it runs can change its own configuration.
install -d -m 0755 "$DESTDIR/etc/widget-scheduler/providers"
if [ -z "$DESTDIR" ] && [ "$(id -u)" = 0 ]; then chown root:root /etc/widget-scheduler /etc/widget-scheduler/providers; fi

# --- the Python SDK ---------------------------------------------------------------------------------------------------
# python/widgetkit goes where python3 on the providers' PATH finds it, so that Python providers, the examples first,
# and apps simply `import widgetkit`: that interpreter's site directory under PREFIX (Debian's dist-packages). It is
# compiled here, as a sandboxed provider may not write its __pycache__.
python=$(PATH=/usr/local/bin:/usr/bin:/bin command -v python3 || true)
if [ -z "$python" ]; then
    say "python3 not found: the Python SDK is not installed, and the Python example providers will fail"
else
    sitedir=${PYTHONSITEDIR:-$("$python" - "$PREFIX" <<'PYTHON'
import site, sys
prefix = sys.argv[1].rstrip("/") + "/"
# Directories directly under PREFIX/lib (not /usr/local/lib for PREFIX=/usr); Debian's version-independent one first.
found = [d for d in site.getsitepackages() if d.startswith(prefix) and d[len(prefix):].startswith("lib/")]
found.sort(key=lambda d: "/python3/" not in d)
print(found[0] if found else "")
PYTHON
)}
    if [ -z "$sitedir" ]; then
        say "$python has no site directory under $PREFIX: set PYTHONSITEDIR to install the Python SDK"
    else
        for file in python/widgetkit/*.py; do
            put 0644 "$file" "$sitedir/widgetkit/$(basename "$file")"
        done
        "$python" -m compileall -q -d "$sitedir/widgetkit" "$DESTDIR$sitedir/widgetkit" > /dev/null
        say "Python SDK -> $DESTDIR$sitedir/widgetkit"
    fi
fi

# --- example providers ------------------------------------------------------------------------------------------------
# examples/NAME/ -> $PREFIX/lib/widget-providers/NAME/ (with its view files and asset folder), its manifests ->
# $PREFIX/share/widget-scheduler/providers/, with every "./..." path on the manifest's exec, views and assets lines
# made absolute. A program named by exec that was built (a compiled provider) is taken from BUILD_DIR, in place of the
# example folder's launcher; one neither built nor in the example folder skips that manifest.
installed_manifests=0
for example in examples/*/; do
    name=$(basename "$example")
    compgen -G "$example*.toml" > /dev/null || continue
    target=$PROVIDERLIBDIR/$name
    for file in "$example"*; do
        [ -f "$file" ] || continue
        case $file in *.toml | *.swift) continue ;; esac
        if [ -x "$file" ]; then put 0755 "$file" "$target/$(basename "$file")"
        else put 0644 "$file" "$target/$(basename "$file")"; fi
    done
    # Asset folders (the images the views show), file by file.
    while IFS= read -r -d '' file; do
        put 0644 "$file" "$target/${file#"$example"}"
    done < <(find "$example" -mindepth 2 -type f -print0)
    for manifest in "$example"*.toml; do
        exec_line=$(grep -E '^[[:space:]]*exec[[:space:]]*=' "$manifest" | head -n 1) \
            || die "$manifest: no exec line"
        missing=
        for relative in $(grep -oE '"\./[^"]+"' <<< "$exec_line" | tr -d '"'); do
            program=${relative#./}
            # A built program replaces the example's launcher of the same name (examples/clock-swift/clock-provider
            # runs the checkout's build).
            if [ -x "$BUILD_DIR/$program" ]; then
                put 0755 "$BUILD_DIR/$program" "$target/$program"
            elif [ ! -f "$example$program" ]; then
                missing=$program
            fi
        done
        if [ -n "$missing" ]; then
            say "skipping $manifest: $missing is neither in $example nor built in $BUILD_DIR"
            continue
        fi
        tmp=$(mktemp)
        sed -E "/^[[:space:]]*(exec|views|assets)[[:space:]]*=/ s|\"\./|\"$target/|g" "$manifest" > "$tmp"
        put 0644 "$tmp" "$MANIFESTDIR/$(basename "$manifest")"
        rm -f "$tmp"
        installed_manifests=$((installed_manifests + 1))
    done
done
say "$installed_manifests example provider manifests -> $DESTDIR$MANIFESTDIR"

# --- activate on the live system --------------------------------------------------------------------------------------
if [ -z "$DESTDIR" ]; then
    if command -v systemd-sysusers > /dev/null; then
        systemd-sysusers "$SYSUSERSDIR/widget-scheduler.conf"
    fi
    journalctl --update-catalog
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload
        say "systemd reloaded; start with: systemctl enable --now widget-scheduler.socket"
    fi
fi
