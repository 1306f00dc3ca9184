package io.rpcrdma.verbs.disni;

import java.io.IOException;

/**
 * rpcrdma's own memory-window entry points in libdisni (rpcrdma-disni-native), which DiSNI 2.1
 * lacks: type 2 windows allocated in a protection domain, bound to one queue pair by a work
 * request and invalidated by another (verbs {@code ibv_alloc_mw}, {@code IBV_WR_BIND_MW},
 * {@code IBV_WR_LOCAL_INV}). Handles are the native pointers DiSNI's objects carry. A stock
 * libdisni has none of them ({@link DisniWindows} detects that).
 */
final class WindowNatives {

	/** What {@link #version()} answers in the library this provider is built for. */
	static final int VERSION = 1;

	private WindowNatives() {
	}

	/**
	 * @return the version of the entry points
	 */
	static native int version();

	/**
	 * {@code ibv_alloc_mw(pd, IBV_MW_TYPE_2)}.
	 * @param pd the protection domain's handle
	 * @param rkeyOut where the window's initial rkey is stored (4 bytes)
	 * @return the window's handle
	 * @throws IOException if the device offers no windows or has none left
	 */
	static native long allocate(long pd, long rkeyOut) throws IOException;

	/**
	 * {@code ibv_dealloc_mw}: the window's rkey dies at once, bound or not.
	 * @param window the window's handle
	 * @throws IOException if the device refuses
	 */
	static native void deallocate(long window) throws IOException;

	/**
	 * Posts a signaled {@code IBV_WR_BIND_MW} on a queue pair.
	 * @param qp the queue pair's handle
	 * @param wrId the work request id
	 * @param window the window's handle
	 * @param rkey the rkey it is bound under: its index bits and a new key byte
	 * @param mr the region's handle (registered with {@code IBV_ACCESS_MW_BIND})
	 * @param address the first byte's address
	 * @param length the number of bytes
	 * @param access the remote access bits
	 * @throws IOException if the queue pair refuses the work request
	 */
	static native void bind(long qp, long wrId, long window, int rkey, long mr, long address, long length, int access)
			throws IOException;

	/**
	 * Posts a signaled {@code IBV_WR_LOCAL_INV} of an rkey on a queue pair.
	 * @param qp the queue pair's handle
	 * @param wrId the work request id
	 * @param rkey the rkey to invalidate
	 * @throws IOException if the queue pair refuses the work request
	 */
	static native void invalidate(long qp, long wrId, int rkey) throws IOException;

}
