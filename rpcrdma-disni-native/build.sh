#!/usr/bin/env bash
# Builds rpcrdma's own libdisni.so, the JNI library DiSNI 2.1's Java side loads
# (docs/hardware.md, "The JNI library"), and prints its path on the last line.
#
# Needs gcc, make and a JDK. rdma-core's headers come from the system when installed
# (Debian: libibverbs-dev librdmacm-dev); otherwise Debian's packages are downloaded into a
# cache with 'apt-get download' (no root needed) and only unpacked there.
#
# Environment: JAVA_HOME                 the JDK whose jni.h to use (default: from javac)
#              RPCRDMA_NATIVE_CACHE      where downloaded packages go (default ~/.cache/rpcrdma-native)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
die() { echo "libdisni: $*" >&2; exit 1; }

for tool in gcc make; do
	command -v "$tool" >/dev/null 2>&1 || die "needs '$tool' on the PATH (Debian: apt-get install -y gcc make)"
done

if [ -z "${JAVA_HOME:-}" ]; then
	javac=$(command -v javac) || die "no JAVA_HOME and no javac on the PATH"
	JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$javac")")")
fi
[ -f "$JAVA_HOME/include/jni.h" ] || die "$JAVA_HOME/include/jni.h not found: set JAVA_HOME to a JDK"

rdma_include=/usr/include
rdma_lib=
if [ ! -f /usr/include/infiniband/verbs.h ] || [ ! -f /usr/include/rdma/rdma_cma.h ] \
	|| ! ls /usr/lib/*/libibverbs.so /usr/lib/libibverbs.so >/dev/null 2>&1; then
	command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 \
		|| die "rdma-core's headers are missing: install libibverbs-dev and librdmacm-dev (or rdma-core-devel)"
	cache=${RPCRDMA_NATIVE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rpcrdma-native}
	packages=(libibverbs-dev librdmacm-dev libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200)
	mkdir -p "$cache/debs"
	missing=()
	for p in "${packages[@]}"; do
		ls "$cache/debs/${p}_"*.deb >/dev/null 2>&1 || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		echo "libdisni: downloading ${missing[*]} (rdma-core's headers are not installed)" >&2
		(cd "$cache/debs" && apt-get download -qq -o APT::Sandbox::User=root "${missing[@]}" >/dev/null) \
			|| die "apt-get could not download ${missing[*]}: run 'apt-get update', or install libibverbs-dev and librdmacm-dev"
	fi
	root="$cache/root"
	rm -rf "$root" && mkdir -p "$root"
	for deb in "$cache"/debs/*.deb; do
		dpkg-deb -x "$deb" "$root"
	done
	rdma_include="$root/usr/include"
	rdma_lib="$root/usr/lib/x86_64-linux-gnu"
fi

make -s -C "$here" JNI_INCLUDE="$JAVA_HOME/include" RDMA_INCLUDE="$rdma_include" RDMA_LIB="$rdma_lib" \
	OUT="$here/target" >&2
echo "$here/target/libdisni.so"
