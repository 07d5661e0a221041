# gtk4-layer-shell >= 1.0 is packaged from Debian 13 on, not in bookworm. There it is built
# from Debian's own source package of the next release (source only, never binaries).
# Sourced by dev.sh (a shared library under /usr/local, for development) and deb.sh (a
# static one inside the build tree, linked into the packaged binary). Needs the helpers
# of scripts/common.sh.

# Builds gtk4-layer-shell into PREFIX as LIBRARY (shared or static), installing with
# INSTALL_AS ("as_root" for a system prefix, empty for one the caller owns).
build_gtk4_layer_shell() {
    local prefix=$1 library=$2 install_as=${3:-}
    command -v apt-get >/dev/null || die "gtk4-layer-shell >= 1.0 not found: install it with your package manager"
    log "building gtk4-layer-shell ($library) from Debian's trixie source package"
    local uri
    uri=$(debian_mirror)
    # A private apt configuration that only knows trixie's sources: the machine's own apt
    # sources are left untouched and no binary package can come from trixie.
    local work
    work=$(mktemp -d)
    mkdir -p "$work/lists/partial" "$work/parts" "$work/cache/archives/partial"
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie main" >"$work/sources.list"
    local apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/parts"
        -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "APT::Sandbox::User=root")
    (
        cd "$work"
        quietly as_root apt-get "${apt_opts[@]}" update
        quietly as_root apt-get "${apt_opts[@]}" source --tar-only gtk4-layer-shell
        tar xf gtk4-layer-shell_*.orig.tar.*
        cd gtk4-layer-shell-*/
        quietly meson setup build --prefix="$prefix" -Ddefault_library="$library" \
            -Dexamples=false -Dintrospection=false -Dvapi=false -Dsmoke-tests=false -Ddocs=false
        quietly ninja -C build
        quietly $install_as ninja -C build install
        # Its licence goes with a copy linked into a package.
        $install_as install -D -m 0644 LICENSE "$prefix/share/doc/gtk4-layer-shell/LICENSE"
    )
    rm -rf "$work"
}
