#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian package (make deb): its fields, its files, lintian, then an
# install into a clean Debian root where checkers are built and run. Each
# check prints `PASS name` or `FAIL name: why`; the last line is `N passed,
# N failed`; the exit status is non-zero on a failure.
#
# Usage: tests/deb/run.sh [BUILD_DIR]   (default: build; the package is
#                                        BUILD_DIR/deb/mcgen_VERSION_ARCH.deb)
#
# Needs root (debootstrap, chroot, mount) and the tools make deb installs
# (dpkg-dev, lintian, debootstrap); without them it says so and fails.
#
# The clean root: a minimal Debian of the host's release (debootstrap
# --variant=minbase from the host's first Debian mirror), made once and
# kept as BUILD_DIR/deb-root/RELEASE.tar (about a minute to make, 200 MB),
# unpacked afresh for each run with the host's apt sources. The package is
# installed there by apt, without recommended packages, so that its
# Depends alone must bring what a checker build needs; the packages apt
# downloads are kept in BUILD_DIR/deb-root/archives for the next run.
# /proc is mounted in it while the test runs.
#
# What is checked, and against what:
#   the fields       Version is what the build tree's mcgen --version says,
#                    and the installed one's; Architecture is dpkg's;
#                    Depends names a C compiler, the C library's headers and
#                    m4, and clang's headers for libclang, Suggests Open
#                    MPI's (docs/DESIGN.md, "Dependencies")
#   the files        exactly those of make install under /usr (the lists of
#                    the Makefile, rebuilt here from the tree), mcrt.pc in the
#                    multiarch directory, LICENSE as debian/copyright, the
#                    Debian changelog, the man pages compressed
#   lintian          no tag at all (--pedantic, info included)
#   in the root      examples/filter.mc: 142 states, 249 transitions (the
#                    Rumur twin, tests/oracle/filter.rumur.txt);
#                    examples/lost_update.mc: invariant counts_increments
#                    fails in 4 steps (its header); examples/stop_and_wait.mc
#                    (C through extern, read by libclang): its assert fails
#                    after 16 steps (its header); the same filter checker
#                    built by cc with pkg-config's flags for mcrt alone;
#                    libxxhash-dev not installed; mcgen --mpi without Open
#                    MPI refused (exit 2), naming the packages to install.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"

if [ "$(id -u)" -ne 0 ]; then
  fail setup "not root: debootstrap, chroot and mount need root"
  finish_now
fi
for tool in dpkg-deb lintian debootstrap jq; do
  command -v "$tool" >/dev/null || { fail setup "$tool is not installed (make deb installs it)"; finish_now; }
done
# The version is what the build tree's mcgen --version says.
version=$("$mcgen" --version 2>/dev/null | sed -n 's/^mcgen //p')
[ -n "$version" ] || { fail setup "$mcgen --version says no version (make all)"; finish_now; }
arch=$(dpkg --print-architecture)
deb=$build_dir/deb/mcgen_${version}_$arch.deb
[ -f "$deb" ] || { fail setup "no $deb (make deb)"; finish_now; }

make_work deb
chroot_dir=$work/root
cleanup() {
  mountpoint -q "$chroot_dir/proc" && umount "$chroot_dir/proc"
  # Nothing below may be a mount point any more when the tree goes.
  if grep -qF " $chroot_dir/" /proc/mounts; then
    echo "WARNING: $work left in place: something is still mounted there" >&2
  else
    remove_work
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---------------------------------------------------------------------------
# The package's fields.

field() { dpkg-deb -f "$deb" "$1"; }
expect_text "Package" "$(field Package)" mcgen
expect_text "Version is mcgen's" "$(field Version)" "$version"
expect_text "Architecture" "$(field Architecture)" "$arch"
depends=$(field Depends)
for want in "gcc | clang" "libc6-dev" "m4" "libclang-common-"; do
  case ", $depends" in
    *", $want"*) pass "Depends: $want" ;;
    *) fail "Depends: $want" "Depends: $depends" ;;
  esac
done
case " $(field Suggests) " in
  *" libopenmpi-dev,"*) pass "Suggests: libopenmpi-dev" ;;
  *) fail "Suggests: libopenmpi-dev" "Suggests: $(field Suggests)" ;;
esac

# ---------------------------------------------------------------------------
# The package's files: make install's under /usr (the MPI runtime always:
# Open MPI is a build dependency).

multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
expected=$(cd "$root" && {
  printf '%s\n' usr/bin/mcgen usr/include/mcgen/mcrt.h usr/lib/mcgen/libmcrt.a usr/lib/mcgen/libmcrt_mpi.a \
    "usr/lib/$multiarch/pkgconfig/mcrt.pc" usr/share/mcgen/templates/checker.c.m4 \
    usr/share/man/man1/mcgen.1.gz usr/share/man/man1/mcgen-checker.1.gz \
    usr/share/vim/vimfiles/syntax/mc.vim usr/share/vim/vimfiles/ftdetect/mc.vim \
    usr/share/doc/mcgen/copyright usr/share/doc/mcgen/changelog.gz
  ls README.md docs/*.md docs/journal/*.md docs/schema/*.json | sed 's|^|usr/share/doc/mcgen/|'
  ls specs/*.mc specs/serial/* | sed 's|^specs/|usr/share/doc/mcgen/examples/|'
} | LC_ALL=C sort)
files=$(dpkg-deb --fsys-tarfile "$deb" | tar -tf - | grep -v '/$' | sed 's|^\./||' | LC_ALL=C sort)
if [ "$files" = "$expected" ]; then
  pass "the package's files"
else
  fail "the package's files" "missing: $(comm -13 <(echo "$files") <(echo "$expected") | tr '\n' ' ')\
 unexpected: $(comm -23 <(echo "$files") <(echo "$expected") | tr '\n' ' ')"
fi
pc=$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/lib/$multiarch/pkgconfig/mcrt.pc")
expect_text "mcrt.pc: prefix /usr" "$(sed -n 's/^prefix=//p' <<<"$pc")" /usr

# ---------------------------------------------------------------------------
# lintian: no tag, of any level.

lintian --tag-display-limit 0 -I -E --pedantic "$deb" >"$work/lintian" 2>&1
grep -v 'running with root privileges' "$work/lintian" >"$work/lintian.tags"
if [ ! -s "$work/lintian.tags" ]; then
  pass "lintian: no tag"
else
  fail "lintian: no tag" "$(head -c 800 "$work/lintian.tags")"
fi

# ---------------------------------------------------------------------------
# A clean Debian root: apt installs the package there.

release=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
mirror=$(sed -n 's|^URIs: *\([^ ]*/debian\)$|\1|p; s|^deb \([^ ]*/debian\) .*|\1|p' \
  /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | head -1)
cache=$build_dir/deb-root
base=$cache/$release.tar
if [ -z "$release" ] || [ -z "$mirror" ]; then
  fail "clean root" "no Debian release or mirror found in /etc/os-release and apt's sources"
  finish_now
fi
mkdir -p "$cache/archives"
if [ ! -f "$base" ]; then
  echo "== debootstrap --variant=minbase $release $mirror (kept as $base)"
  if ! debootstrap --variant=minbase "$release" "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1; then
    fail "debootstrap $release" "$(tail -5 "$work/debootstrap.log")"
    finish_now
  fi
  tar -C "$work/base" -cf "$base.part" . && mv "$base.part" "$base"
  rm -rf "$work/base"
fi
mkdir -p "$chroot_dir"
tar -C "$chroot_dir" -xf "$base"
# The host's apt sources and keyrings; the downloads are kept.
rm -f "$chroot_dir/etc/apt/sources.list"
cp /etc/apt/sources.list "$chroot_dir/etc/apt/" 2>/dev/null
cp /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources "$chroot_dir/etc/apt/sources.list.d/" 2>/dev/null
cat >"$chroot_dir/etc/apt/apt.conf.d/90mcgen-test" <<'EOF'
Acquire::Check-Valid-Until "false";
APT::Keep-Downloaded-Packages "true";
Binary::apt::APT::Keep-Downloaded-Packages "true";
EOF
cp -p "$cache/archives/"*.deb "$chroot_dir/var/cache/apt/archives/" 2>/dev/null
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf" 2>/dev/null
mount -t proc proc "$chroot_dir/proc"
cp "$deb" "$chroot_dir/tmp/"
mkdir -p "$chroot_dir/tmp/run"

in_root() { chroot "$chroot_dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive sh -c "cd /tmp/run && $1"; }
out=$work/out rc=0
# `run COMMAND`: COMMAND in the root's /tmp/run; output in $out, status in $rc.
run() { in_root "$1" >"$out" 2>&1; rc=$?; }
expect() {
  if [ "$rc" -eq "$2" ]; then pass "$1"; else fail "$1" "exit $rc, expected $2: $(tail -c 600 "$out")"; fi
}
report() { jq -r "$2" "$chroot_dir/tmp/run/$1" 2>&1; }

run "apt-get update -qq"
expect "apt-get update in the clean root" 0
run "apt-get install -y -qq --no-install-recommends /tmp/${deb##*/}"
expect "apt-get install ./${deb##*/} (no recommends)" 0
cp -pn "$chroot_dir/var/cache/apt/archives/"*.deb "$cache/archives/" 2>/dev/null
if [ "$rc" -ne 0 ]; then
  finish_now
fi

run "mcgen --version"
expect_text "installed mcgen --version" "$(head -1 "$out")" "mcgen $version"
# and the commit make deb packaged (tools/build-deb), as git names it.
if packaged=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null); then
  case $(sed -n 2p "$out") in
  "built from commit $packaged"*) pass "installed mcgen --version names the packaged commit" ;;
  *) fail "installed mcgen --version names the packaged commit" "$(cat "$out")" ;;
  esac
fi
run "dpkg-query -W -f='\${Status}' libxxhash-dev"
if grep -q "ok installed" "$out"; then
  fail "libxxhash-dev not installed" "the checkers below would not show that it is not needed"
else
  pass "libxxhash-dev not installed"
fi

ex=/usr/share/doc/mcgen/examples
run "mcgen $ex/filter.mc && ./filter_checker --symmetry off --quiet --report filter.json"
expect "filter.mc: built and checked" 0
expect_text "filter.mc: states (Rumur: 142)" "$(report filter.json .states)" 142
expect_text "filter.mc: transitions (Rumur: 249)" "$(report filter.json .transitions)" 249

run "mcgen -o lost $ex/lost_update.mc && ./lost --symmetry off --por off --quiet --report lost.json"
expect "lost_update.mc: a violation (exit 1)" 1
expect_text "lost_update.mc: invariant" "$(report lost.json '.violations[0].name')" counts_increments
expect_text "lost_update.mc: trace steps" "$(report lost.json '.violations[0].trace | length - 1')" 4

run "mcgen -o saw $ex/stop_and_wait.mc && ./saw --no-deadlock --quiet --report saw.json"
expect "stop_and_wait.mc (extern C, libclang): a violation (exit 1)" 1
expect_text "stop_and_wait.mc: trace steps" "$(report saw.json '.violations[0].trace | length - 1')" 16

run "apt-get install -y -qq --no-install-recommends pkg-config"
expect "apt-get install pkg-config" 0
cp -pn "$chroot_dir/var/cache/apt/archives/"*.deb "$cache/archives/" 2>/dev/null
run "mcgen --emit-c -o pc $ex/filter.mc && cc pc.c \$(pkg-config --cflags --libs mcrt) -o pc &&
  ./pc --symmetry off --quiet --report pc.json"
expect "cc pc.c \$(pkg-config --cflags --libs mcrt): built and checked" 0
expect_text "pkg-config-built filter checker: states" "$(report pc.json .states)" 142

run "mcgen --mpi -o lost_mpi $ex/lost_update.mc"
if [ "$rc" -eq 2 ] && grep -q "libopenmpi-dev" "$out"; then
  pass "mcgen --mpi without Open MPI: exit 2, names libopenmpi-dev"
else
  fail "mcgen --mpi without Open MPI: exit 2, names libopenmpi-dev" "exit $rc: $(head -c 600 "$out")"
fi

finish
