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
