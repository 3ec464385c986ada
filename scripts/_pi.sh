# Sourced by scripts/install-pi.sh and scripts/demo: the Raspberry Pi specific steps, as functions
# that take their files as arguments (tests/hardware/test_install.py runs them on copies).

# The upstream part of a Debian version: 1:1.24.2-1+deb12u1 -> 1.24.2, 1:2.2.4+ds-1 -> 2.2.4.
deb_upstream() {
    local v="${1#*:}"
    v="${v%%-*}"; v="${v%%+*}"; v="${v%%~*}"
    echo "$v"
}

# The version of apt package $1 here: installed, else apt's candidate; nothing when apt has none.
apt_version() {
    local v=""
    if dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q "ok installed"; then
        v="$(dpkg-query -W -f='${Version}' "$1")"
    elif command -v apt-cache >/dev/null 2>&1; then
        v="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2; exit}')"
    fi
    if [ -n "$v" ] && [ "$v" != "(none)" ]; then deb_upstream "$v"; fi
}

# Whether apt's picamera2 is installed (a Raspberry Pi OS with the camera stack).
has_apt_picamera2() {
    dpkg-query -W -f='${Status}\n' python3-picamera2 2>/dev/null | grep -q "ok installed"
}

# constraints/pi.txt ($1) with its numpy line following apt's numpy ($2, e.g. 1.24.2 on Bookworm,
# 2.2.4 on Trixie): apt's picamera2 and simplejpeg are built against that numpy, so pip must keep
# it. Without a version ($2 empty) the file as written (Bookworm's). Writes to stdout.
pi_constraints() {
    if [ -n "${2:-}" ]; then
        sed "s/^numpy==.*/numpy==$2  # apt's python3-numpy on this machine/" "$1"
    else
        cat "$1"
    fi
}

# The [web] port of settings file $1 (8080, the hub's default, when it names none or is absent).
settings_port() {
    python3 - "$1" <<'PY'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        port = tomllib.load(f).get("web", {}).get("port", 8080)
except FileNotFoundError:
    port = 8080
print(int(port))
PY
}

# The avahi service ($1, a template) announcing the page on port $2. Writes to stdout.
avahi_service() {
    sed "s#<port>[0-9]*</port>#<port>$2</port>#" "$1"
}

# /etc/hosts ($1) names this machine $2 on its 127.0.1.1 line (as Debian writes it), so that
# sudo and others still resolve the host name once hostnamectl has changed it.
set_hosts_name() {
    if grep -qs '^127\.0\.1\.1[[:space:]]' "$1"; then
        sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$2/" "$1"
    else
        printf '127.0.1.1\t%s\n' "$2" >> "$1"
    fi
}

# config.txt ($1) includes tablehub.txt once, under an [all] section: a config.txt that ends in a
# model filter ([pi4], [cm5]...) would otherwise apply the include to that model only.
add_boot_include() {
    local section
    if grep -qxF "include tablehub.txt" "$1" 2>/dev/null; then
        section="$(awk '/^\[.*\]/ {s = $0} $0 == "include tablehub.txt" {print s; exit}' "$1")"
        if [ -n "$section" ] && [ "$section" != "[all]" ]; then
            sed -i 's/^include tablehub\.txt$/[all]\n&/' "$1"
        fi
        return 0
    fi
    printf '\n# tablehub (scripts/install-pi.sh)\n[all]\ninclude tablehub.txt\n' >> "$1"
}
