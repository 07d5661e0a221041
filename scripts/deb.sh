#!/usr/bin/env bash
# Builds the Debian package: target/deb/ringbar_VERSION_ARCH.deb, checked by lintian.
#
#   scripts/deb.sh        (or scripts/dev.sh deb)
#
# The binaries are linked with a static gtk4-layer-shell built from Debian's trixie source
# (Debian 12 has no package of it), so the package needs nothing outside bookworm. Its
# other dependencies come from the binaries' real shared-library needs (dpkg-shlibdeps,
# through cargo-deb). The man pages come from docs/man/*.scd (scdoc), the completions and
# the config from data/.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

tag=deb
# shellcheck source=scripts/common.sh
. "$here/scripts/common.sh"
# shellcheck source=scripts/layer-shell.sh
. "$here/scripts/layer-shell.sh"

# cargo-deb's version is pinned: the package's layout must not change under us.
CARGO_DEB_VERSION=3.8.0
out=target/deb

install_tools() {
    install_missing scdoc lintian dpkg-dev fakeroot meson ninja-build libwayland-dev wayland-protocols
    if [ "$(cargo deb --version 2>/dev/null | awk '{print $2}')" != "$CARGO_DEB_VERSION" ]; then
        log "installing cargo-deb $CARGO_DEB_VERSION"
        quietly cargo install --locked cargo-deb --version "$CARGO_DEB_VERSION"
    fi
}

# A static libgtk4-layer-shell.a under target/deb/layer-shell, once.
static_layer_shell() {
    local prefix=$here/$out/layer-shell
    if [ -n "$(find "$prefix" -name 'LICENSE' 2>/dev/null)" ]; then return; fi
    build_gtk4_layer_shell "$prefix" static
}

man_pages() {
    mkdir -p "$out/man"
    local page name
    for page in docs/man/*.scd; do
        name=$(basename "$page" .scd)
        scdoc <"$page" >"$out/man/$name"
        gzip -9nf "$out/man/$name"
    done
}

# debian/copyright, with the licence of the statically linked gtk4-layer-shell appended
# as its own paragraph (the text from its source, each line indented, blank lines as ".").
copyright() {
    local license
    license=$(find "$out/layer-shell" -path '*gtk4-layer-shell/LICENSE' | head -n1)
    [ -n "$license" ] || die "gtk4-layer-shell's LICENSE is missing from $out/layer-shell"
    {
        cat debian/copyright
        printf '\nFiles: gtk4-layer-shell (linked statically into /usr/bin/ringbar)\n'
        printf 'Copyright: the gtk4-layer-shell authors, see below\n'
        printf 'License: MIT\n'
        sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' "$license"
    } >"$out/copyright"
}

# The units as shipped point at /usr/local/bin (a source install); the package's at /usr/bin.
units() {
    mkdir -p "$out/units"
    sed 's|/usr/local/bin/|/usr/bin/|g' data/ringbar.service >"$out/units/ringbar.service"
    sed 's|/usr/local/bin/|/usr/bin/|g' data/systemd/ringbar-probe.service >"$out/units/ringbar-probe.service"
    cp data/systemd/ringbar-probe.socket "$out/units/"
}

binaries() {
    local pc
    pc=$(dirname "$(find "$here/$out/layer-shell" -name 'gtk4-layer-shell-0.pc' | head -n1)")
    log "building the release binaries (static gtk4-layer-shell)"
    # Its own target directory: the static link must not flip the development builds'.
    PKG_CONFIG_PATH="$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
        SYSTEM_DEPS_GTK4_LAYER_SHELL_0_LINK=static \
        CARGO_TARGET_DIR="$out/build" \
        quietly cargo build --release --locked --workspace --bins --lib
    if ldd "$out/build/release/ringbar" | grep -q 'gtk4-layer-shell'; then
        die "ringbar still links gtk4-layer-shell dynamically"
    fi
}

main() {
    install_tools
    static_layer_shell
    copyright
    man_pages
    units
    binaries
    rm -f "$out"/ringbar_*.deb
    quietly cargo deb --no-build --output "$out/"
    local deb
    deb=$(ls "$out"/ringbar_*.deb)
    log "built $deb"
    # Errors fail the build; warnings are shown.
    lintian --fail-on error --tag-display-limit 0 "$deb" >&2
    echo "$deb"
}

main "$@"
