#!/usr/bin/env bash
# Rehearse the Raspberry Pi install on this machine: an arm64 Debian Bookworm root made with
# debootstrap, run under qemu user-mode emulation (qemu-user-static, binfmt_misc), in which
# scripts/install-pi.sh installs the hub; then `tablehub doctor` and a short demo, in the root.
# No camera and no GPIO there. Slow (emulated arm64), so not part of scripts/test; the
# measured result is in docs/raspberry-pi.md ("Rehearsal on arm64").
#
#   sudo scripts/rehearse-arm64.sh [--root DIR] [--mirror URL] [--turns N] [--fresh]
#
#   --root DIR    where the arm64 root goes (default /var/tmp/tablehub-arm64; kept between runs,
#                 so a second run reuses the debootstrapped root)
#   --mirror URL  the Debian mirror (default http://deb.debian.org/debian)
#   --turns N     turns of the demo at the end (default 3)
#   --fresh       remove the root first
#
# The Raspberry Pi archive (python3-picamera2, python3-lgpio) is added when it can be reached;
# otherwise the installer runs with --allow-missing and the hub runs without camera and GPIO
# packages, as on plain Debian. Each stage prints its duration; the exit status is that of
# the first stage that failed.
set -euo pipefail
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET=/var/tmp/tablehub-arm64
MIRROR=http://deb.debian.org/debian
TURNS=3
FRESH=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) TARGET="$2"; shift 2 ;;
        --mirror) MIRROR="$2"; shift 2 ;;
        --turns) TURNS="$2"; shift 2 ;;
        --fresh) FRESH=1; shift ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "rehearse-arm64.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ "$(id -u)" != 0 ]; then echo "rehearse-arm64.sh: run as root (debootstrap, chroot, mounts)" >&2; exit 1; fi

T0=$(date +%s)
stage_start=$T0
stage() {  # stage NAME: print the previous stage's duration, start the next
    local now; now=$(date +%s)
    echo "rehearse: [$(( now - T0 ))s] $*"
    stage_start=$now
}
in_root() { chroot "$TARGET" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 PIP_CERT=/etc/ssl/host-ca-certificates.crt "$@"; }

stage "1 host tools: debootstrap, qemu-user-static, binfmt-support"
need=()
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
command -v update-binfmts >/dev/null || need+=(binfmt-support)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
        || { echo "rehearse: binfmt_misc cannot be mounted here: no arm64 emulation" >&2; exit 3; }
fi
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
if ! grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
    echo "rehearse: qemu-aarch64 is not registered with binfmt_misc: no arm64 emulation" >&2
    exit 3
fi

if [ "$FRESH" = 1 ]; then rm -rf "$TARGET"; fi
mounted=()
cleanup() {
    local i
    for (( i=${#mounted[@]}-1; i>=0; i-- )); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT

if [ ! -f "$TARGET/.rehearse-debootstrapped" ]; then
    stage "2 debootstrap arm64 bookworm into $TARGET (emulated second stage)"
    rm -rf "$TARGET"
    debootstrap --arch=arm64 --variant=minbase --include=ca-certificates,python3,python3-venv,procps,systemd \
        bookworm "$TARGET" "$MIRROR"
    touch "$TARGET/.rehearse-debootstrapped"
else
    stage "2 reusing the arm64 root in $TARGET"
fi
echo "rehearse: the root's machine: $(in_root uname -m), $(in_root python3 --version)"

for fs in proc sys dev dev/pts; do
    mkdir -p "$TARGET/$fs"
    case "$fs" in
        proc) mount -t proc proc "$TARGET/proc" ;;
        sys) mount -t sysfs sys "$TARGET/sys" ;;
        dev) mount --bind /dev "$TARGET/dev" ;;
        dev/pts) mount --bind /dev/pts "$TARGET/dev/pts" ;;
    esac
    mounted+=("$TARGET/$fs")
done
cp -L /etc/resolv.conf "$TARGET/etc/resolv.conf"
# pip in the root trusts what this machine trusts (behind a TLS-inspecting proxy, its CA is only here)
cp -L /etc/ssl/certs/ca-certificates.crt "$TARGET/etc/ssl/host-ca-certificates.crt"
# no daemons started by package scripts in the root (Debian's policy-rc.d convention)
printf '#!/bin/sh\nexit 101\n' > "$TARGET/usr/sbin/policy-rc.d" && chmod +x "$TARGET/usr/sbin/policy-rc.d"

stage "3 the Raspberry Pi archive (picamera2, lgpio), if reachable"
INSTALL_OPTS=(--no-start)
if in_root python3 -c "import urllib.request; urllib.request.urlopen('http://archive.raspberrypi.com/debian/dists/bookworm/InRelease', timeout=20)" 2>/dev/null; then
    echo "deb [trusted=yes] http://archive.raspberrypi.com/debian/ bookworm main" > "$TARGET/etc/apt/sources.list.d/raspi.list"
    echo "rehearse: archive.raspberrypi.com reached: picamera2 and lgpio come from it"
else
    rm -f "$TARGET/etc/apt/sources.list.d/raspi.list"
    INSTALL_OPTS+=(--allow-missing)
    echo "rehearse: archive.raspberrypi.com cannot be reached from here: the installer goes on without" \
         "python3-picamera2 and python3-lgpio (--allow-missing)"
fi

stage "4 the checkout copied to /root/tablehub in the root"
rm -rf "$TARGET/root/tablehub"
mkdir -p "$TARGET/root/tablehub"
tar -C "$SRC" --exclude=.venv --exclude=.venv-pi --exclude=var --exclude=.git --exclude=__pycache__ \
    --exclude='*.egg-info' -cf - . | tar -C "$TARGET/root/tablehub" -xf -
mkdir -p "$TARGET/boot/firmware" && touch "$TARGET/boot/firmware/config.txt"  # what Raspberry Pi OS has

stage "5 scripts/install-pi.sh ${INSTALL_OPTS[*]} (emulated)"
in_root bash /root/tablehub/scripts/install-pi.sh "${INSTALL_OPTS[@]}"

stage "6 checks of what the installer left"
grep -n "include tablehub.txt" -B1 "$TARGET/boot/firmware/config.txt"
grep -n "<port>" "$TARGET/etc/avahi/services/tablehub.service"
grep -n "127.0.1.1" "$TARGET/etc/hosts"; cat "$TARGET/etc/hostname"
in_root /opt/tablehub/.venv/bin/python -c \
    "import numpy, cv2, platform; print('rehearse: venv', platform.machine(), 'numpy', numpy.__version__, 'OpenCV', cv2.__version__)"

stage "7 tablehub doctor as the service user, with the service's settings and data folder"
set +e
in_root runuser -u tablehub -- /opt/tablehub/.venv/bin/tablehub doctor --config /etc/tablehub/tablehub.toml \
    --data /var/lib/tablehub
doctor=$?
set -e
echo "rehearse: doctor exit status $doctor (1 = something failed; without camera, GPIO and systemd some checks do)"

stage "8 a short demo ($TURNS turns, no page) in the installed venv"
in_root bash -c "cd /tmp && TABLEHUB_DATA=/tmp/tablehub-demo /opt/tablehub/.venv/bin/tablehub demo --no-web --exit \
    --turns $TURNS --fps 20"

stage "done in $(( $(date +%s) - T0 )) s"
