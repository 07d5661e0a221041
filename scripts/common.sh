# Helpers the scripts share; the sourcing script sets `tag` (dev, deb) for its log lines.

log() { printf '[%s] %s\n' "$tag" "$*" >&2; }
die() { printf '[%s] error: %s\n' "$tag" "$*" >&2; exit 1; }

# Runs a command with its output in a log that is shown only if it fails.
quietly() {
    local out
    out=$(mktemp)
    if ! "$@" >"$out" 2>&1; then
        tail -n 40 "$out" >&2
        rm -f "$out"
        die "failed: $*"
    fi
    rm -f "$out"
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs those of the Debian packages named that are missing.
install_missing() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        log "installing: ${missing[*]}"
        quietly as_root apt-get update
        quietly as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    fi
}

# The machine's Debian mirror, from its apt sources (deb822 or one-line format).
debian_mirror() {
    local uri
    uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | grep -v security | head -n1)
    if [ -z "$uri" ]; then
        uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^(https?|file):/) { print $i; exit } }' \
            /etc/apt/sources.list 2>/dev/null)
    fi
    [ -n "$uri" ] || die "cannot find the Debian mirror in /etc/apt/sources.list{,.d/debian.sources}"
    echo "$uri"
}
