#!/usr/bin/env bash
# Builds the interop lab's guest once and caches it (docs/interop.md, "How the lab is built").
#
# Everything comes from Debian's packages:
#   - the kernel: Debian's linux-image (ib_core, rdma_cm, iw_cm, rdma_rxe, rpcrdma, nfsd, ...);
#   - Linux's soft-iWARP driver (siw): Debian builds its kernels without CONFIG_RDMA_SIW, so
#     siw.ko is compiled here from drivers/infiniband/sw/siw of Debian's linux-source package
#     of the same version, against that kernel's linux-headers (the way DKMS builds an
#     out-of-tree module); nothing in it is ours;
#   - the guest userspace: busybox-static as init and shell, and the packages' own binaries
#     and libraries (rdma from iproute2, rping, perftest, rpcbind, nfs-kernel-server, socat),
#     unpacked with dpkg-deb into an initramfs. No maintainer script runs.
# Nothing needs root: apt-get downloads into the cache with a private, empty dpkg status.
#
# Usage: build-guest.sh            prints the directory holding vmlinuz and initrd.img
# Environment: RPCRDMA_LAB_CACHE   where images are kept (default ~/.cache/rpcrdma-lab)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${RPCRDMA_LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rpcrdma-lab}
log() { echo "lab: $*" >&2; }
die() { echo "lab: $*" >&2; exit 1; }

for tool in apt-get apt-cache dpkg-deb make gcc xz gzip sha256sum; do
	command -v "$tool" >/dev/null 2>&1 || die "needs '$tool' on the PATH (Debian: apt-get install -y apt dpkg make gcc xz-utils)"
done

# The newest Debian kernel this host's package lists know (linux-image-amd64's dependency).
kernel_pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
[ -n "$kernel_pkg" ] || die "apt-cache knows no linux-image-amd64: run 'apt-get update' first"
kver=${kernel_pkg#linux-image-}
kversion=$(apt-cache policy "$kernel_pkg" | awk '/Candidate:/{print $2}')
series=$(echo "$kver" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')

# libstdc++6 and zlib1g: what a JDK shared with the guest links against (Debian's libjvm.so needs
# libstdc++, its libzip.so and libjli.so the system zlib; docs/interop.md, "Java in the guest").
guest_packages=(busybox-static kmod iproute2 rdmacm-utils perftest ibverbs-providers ibverbs-utils
	rpcbind nfs-kernel-server socat libstdc++6 zlib1g)
# Kernel modules the guest loads (their dependencies come along through modules.dep).
# 9p and 9pnet_virtio: the host's read-only virtio-9p shares (the JDK and the classpath).
guest_modules=(virtio_pci virtio_net dummy siw rdma_rxe rdma_ucm ib_uverbs ib_umad rpcrdma nfsd nfsv3 nfsv4
	crc32c_generic crc32c_intel crc32_generic 9p 9pnet_virtio)

key=$( { echo "$kernel_pkg $kversion"; echo "${guest_packages[*]}"; echo "${guest_modules[*]}";
	cat "$here/build-guest.sh" "$here"/guest/*; } | sha256sum | cut -c1-16)
out="$cache/guest-$key"
if [ -f "$out/ready" ]; then
	echo "$out"
	exit 0
fi

log "building the guest image for $kernel_pkg ($kversion) into $out"
work="$cache/work-$key"
rm -rf "$work" "$out"
mkdir -p "$work/state" "$work/kernel" "$work/headers" "$work/rootfs"
: > "$work/state/status"

apt_download() { # archive directory, packages...
	local archives=$1
	shift
	mkdir -p "$archives/partial"
	apt-get -qq -o Dir::State::status="$work/state/status" -o Dir::Cache::archives="$archives" \
		-o Debug::NoLocking=1 -o APT::Install-Recommends=false -o APT::Sandbox::User=root \
		install --download-only -y "$@" >/dev/null \
		|| die "apt-get could not download $* (is 'apt-get update' done?)"
}

# 1. Download: the guest's packages with their whole dependency closure (the empty status makes
#    apt treat the guest as an empty system), the kernel, its headers and its source.
log "downloading packages"
# The guest's and the build's packages are kept apart, so that no compiler lands in the guest.
apt_download "$cache/debs/guest" "${guest_packages[@]}"
apt_download "$cache/debs/kernel" "$kernel_pkg" "linux-headers-$kver" "linux-source-$series"

deb_of() { ls "$cache/debs/kernel/$1"_*.deb 2>/dev/null | sort -V | tail -n 1; }

# 2. The kernel and its modules.
log "unpacking the kernel"
dpkg-deb -x "$(deb_of "$kernel_pkg")" "$work/kernel"
cp "$work/kernel/boot/vmlinuz-$kver" "$work/vmlinuz"

# 3. siw.ko from Debian's source of the same kernel, against its headers, in a private root.
log "building siw.ko from linux-source-$series"
for p in "linux-headers-$kver" "linux-headers-${kver%-amd64}-common" "linux-kbuild-$series"; do
	deb=$(deb_of "$p")
	[ -n "$deb" ] || die "package $p was not downloaded"
	dpkg-deb -x "$deb" "$work/headers"
done
# The arch headers include the common ones by absolute path; point it into the private root.
echo "include $work/headers/usr/src/linux-headers-${kver%-amd64}-common/Makefile" \
	> "$work/headers/usr/src/linux-headers-$kver/Makefile"
mkdir -p "$work/siw-src"
dpkg-deb --fsys-tarfile "$(deb_of "linux-source-$series")" \
	| tar -xO "./usr/src/linux-source-$series.tar.xz" \
	| xz -dc | tar -x -C "$work/siw-src" --strip-components=5 --wildcards "linux-source-$series/drivers/infiniband/sw/siw/*"
make -s -C "$work/headers/usr/src/linux-headers-$kver" M="$work/siw-src" CONFIG_RDMA_SIW=m modules \
	>"$work/siw-build.log" 2>&1 || { cat "$work/siw-build.log" >&2; die "building siw.ko failed"; }
mkdir -p "$work/kernel/lib/modules/$kver/extra"
cp "$work/siw-src/siw.ko" "$work/kernel/lib/modules/$kver/extra/"

# 4. The guest userspace: every downloaded package but the kernel's, unpacked.
log "unpacking the guest userspace"
for deb in "$cache"/debs/guest/*.deb; do
	case "$(basename "$deb")" in
		perl_*|perl-modules*|libperl*|python3*|libpython3*) continue ;;  # scripts the lab never runs
	esac
	dpkg-deb -x "$deb" "$work/rootfs"
done
rootfs="$work/rootfs"

# 5. Only the modules the guest loads, with their dependencies (depmod from the guest's kmod).
# kmod is one binary that acts as depmod when called by that name; the guest's /sbin/depmod is an
# absolute symlink, so call the guest's kmod under that name with the guest's libraries.
depmod() {
	[ -x "$rootfs/bin/kmod" ] || die "kmod not found in the guest packages"
	LD_LIBRARY_PATH="$rootfs/lib/x86_64-linux-gnu:$rootfs/usr/lib/x86_64-linux-gnu" \
		bash -c 'exec -a depmod "$0" "$@"' "$rootfs/bin/kmod" "$@"
}
depmod -b "$work/kernel" "$kver"
moddir="$work/kernel/lib/modules/$kver"
awk -v wanted="${guest_modules[*]}" '
	BEGIN { n = split(wanted, w, " "); for (i = 1; i <= n; i++) want[w[i]] = 1 }
	{ file = $1; sub(/:$/, "", file); name = file; sub(/.*\//, "", name); sub(/\.ko.*$/, "", name); gsub(/-/, "_", name)
	  deps[file] = ""; for (i = 2; i <= NF; i++) deps[file] = deps[file] " " $i; byname[name] = file }
	END {
		for (m in want) if (m in byname) stack[++top] = byname[m]; else print "missing " m > "/dev/stderr"
		while (top > 0) { f = stack[top--]; if (f in seen) continue; seen[f] = 1; print f
			k = split(deps[f], d, " "); for (i = 1; i <= k; i++) if (d[i] != "") stack[++top] = d[i] }
	}' "$moddir/modules.dep" > "$work/modules.list"
mkdir -p "$rootfs/lib/modules/$kver"
(cd "$moddir" && tar -cf - $(cat "$work/modules.list") modules.builtin modules.builtin.modinfo modules.order) \
	| tar -xf - -C "$rootfs/lib/modules/$kver"
depmod -b "$rootfs" "$kver"

# 6. The lab's own init and agent, and the accounts the daemons run as.
install -m 0755 "$here/guest/init" "$rootfs/init"
mkdir -p "$rootfs/lab"
install -m 0755 "$here/guest/agent.sh" "$rootfs/lab/agent.sh"
mkdir -p "$rootfs/etc"
cat > "$rootfs/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
_rpc:x:100:65534::/run/rpcbind:/usr/sbin/nologin
statd:x:101:65534::/var/lib/nfs:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOF
cat > "$rootfs/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
echo "lab" > "$rootfs/etc/hostname"
printf '127.0.0.1 localhost\n10.0.2.15 lab\n10.0.2.100 host\n' > "$rootfs/etc/hosts"
rm -rf "$rootfs/usr/share/doc" "$rootfs/usr/share/man" "$rootfs/usr/share/locale" "$rootfs/usr/share/info"

# 7. The initramfs (newc cpio by busybox), gzip-compressed.
log "packing the initramfs"
(cd "$rootfs" && find . -mindepth 1 | LC_ALL=C sort | "$rootfs/bin/busybox" cpio -o -H newc 2>/dev/null) \
	| gzip -1 > "$work/initrd.img"

mkdir -p "$out"
mv "$work/vmlinuz" "$work/initrd.img" "$out/"
echo "$kernel_pkg $kversion" > "$out/kernel-version"
cp "$work/modules.list" "$out/modules.list"
rm -rf "$work"
touch "$out/ready"
log "guest image ready: $(du -sh "$out/initrd.img" | cut -f1) initramfs"
echo "$out"
