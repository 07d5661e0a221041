#!/usr/bin/env bash
# The README's two commands on a machine where nothing ran before: a new Debian 12 root
# made by mmdebstrap, holding only what a new machine of the CI's kind holds (git, a C
# toolchain, cmake, python3; Rust from rustup, lent read-only from this machine's
# toolchain), a clean clone of this checkout's HEAD at /work/main and ../shared beside it.
# In it, as root: `scripts/dev.sh run` (no Wayland there: it builds and prints a
# snapshot), then `scripts/dev.sh test`. The root shares this kernel, its devices and its
# running system (chroot with /proc, /sys, /dev and /run mounted), so the probe, KVM and
# the compositors work as on a machine; only the installed packages and files are new.
#
#   scripts/fresh-check.sh [ROOT]   default /var/tmp/ringbar-fresh; made anew each run
#   scripts/fresh-check.sh --again ROOT COMMAND
#                                   COMMAND in the root a run left (to look at a failure)
#
# Writes the log of each command to ROOT.log and says how long each took.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tag=fresh
# shellcheck source=scripts/common.sh
. "$here/scripts/common.sh"

[ "$(id -u)" -eq 0 ] || die "run as root (mmdebstrap, chroot, mounts)"
again=
if [ "${1:-}" = --again ]; then
    [ $# -eq 3 ] || die "usage: scripts/fresh-check.sh --again ROOT COMMAND"
    again=$3
    set -- "$2"
fi
root=${1:-/var/tmp/ringbar-fresh}
shared=$(cd "$here/../shared" 2>/dev/null && pwd) || die "no ../shared beside the checkout"
rustup_home=${RUSTUP_HOME:-$HOME/.rustup}
cargo_bin=$(dirname "$(command -v cargo)")
[ -d "$rustup_home" ] || die "no rustup toolchain at $rustup_home"
log_file=$root.log

# What a new machine of the CI's kind has before any project installs anything.
base_packages=ca-certificates,git,gcc,g++,make,cmake,ninja-build,python3,curl,procps

# The mount points under the root, innermost first (findmnt -R finds nothing under a
# directory that is not itself a mount point).
mounts_under_root() {
    awk -v r="$root" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo | sort -ru
}

unmount_all() {
    local target
    for target in $(mounts_under_root); do
        umount "$target" 2>/dev/null || umount -l "$target" 2>/dev/null || true
    done
}

remove_root() {
    unmount_all
    if [ -n "$(mounts_under_root)" ]; then
        die "something is still mounted under $root: not removing it"
    fi
    # Never into another file system, should a mount have been missed.
    rm -rf --one-file-system "$root"
}
trap unmount_all EXIT

make_root() {
    command -v mmdebstrap >/dev/null || install_missing mmdebstrap
    [ -e "$root" ] && remove_root

    started=$(date +%s)
    log "making a Debian 12 root at $root"
    quietly mmdebstrap --variant=apt --include="$base_packages" bookworm "$root" "$(debian_mirror)"
    cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/" 2>/dev/null ||
        cp /etc/apt/sources.list "$root/etc/apt/sources.list"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # The machine's own certificate authorities (a registry proxy's), as a new machine has them.
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
        chroot "$root" update-ca-certificates >/dev/null
    fi
}

# The root a mount point of its own, as / is on a machine: `unshare --propagation`
# (the tests' private mounts) refuses a root that is not one.
mount_root() {
    mount --bind "$root" "$root"
    mkdir -p "$root/work/shared" "$root/opt/rustup" "$root/opt/cargo-bin"
    mount --bind "$shared" "$root/work/shared"
    mount -o remount,bind,ro "$root/work/shared"
    mount --bind "$rustup_home" "$root/opt/rustup"
    mount -o remount,bind,ro "$root/opt/rustup"
    mount --bind "$cargo_bin" "$root/opt/cargo-bin"
    mount -o remount,bind,ro "$root/opt/cargo-bin"
    mount -t proc proc "$root/proc"
    mount --rbind /sys "$root/sys"
    mount --make-rslave "$root/sys"
    mount --rbind /dev "$root/dev"
    mount --make-rslave "$root/dev"
    # This machine's /run, as a machine's: its systemd's state there is what wireplumber's
    # logind monitor needs (on an empty /run it ends, and no default sink is ever set).
    mount --rbind /run "$root/run"
    mount --make-rslave "$root/run"
}

in_root() {
    chroot "$root" env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/opt/cargo-bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        RUSTUP_HOME=/opt/rustup CARGO_HOME=/root/.cargo \
        bash -c "cd /work/main && $1"
}

if [ -n "$again" ]; then
    [ -d "$root/work/main" ] || die "no root left at $root"
    mount_root
    in_root "$again"
    exit
fi
make_root
git clone --quiet "$here" "$root/work/main"
mount_root
log "root ready after $(($(date +%s) - started)) s"

: >"$log_file"
status=0
for command in "bash scripts/dev.sh run" "bash scripts/dev.sh test"; do
    step=$(date +%s)
    log "$command"
    if in_root "$command" >>"$log_file" 2>&1; then
        log "$command: passed in $(($(date +%s) - step)) s"
    else
        log "$command: FAILED after $(($(date +%s) - step)) s (log: $log_file)"
        tail -n 40 "$log_file" >&2
        status=1
        break
    fi
done
log "all in $(($(date +%s) - started)) s"
unmount_all
exit $status
