/*
 * rpcrdma's libdisni.so: the JNI side of DiSNI 2.1's com.ibm.disni.verbs.impl.NativeDispatcher,
 * written for rpcrdma against rdma-core's public API (libibverbs and librdmacm, see their man
 * pages: rdma_cm(7), ibv_post_send(3), ibv_poll_cq(3), ...).
 *
 * The contract is the one DiSNI 2.1's Java classes expect (docs/hardware.md, "The JNI library"):
 *   - every object is handed to Java as its native pointer in a jlong, and comes back the same way;
 *   - work requests, scatter/gather lists and work completions are laid out by DiSNI's Java side in
 *     direct buffers in rdma-core's own layout (struct ibv_send_wr, ibv_recv_wr, ibv_sge, ibv_wc),
 *     with the next and sg_list pointers already set, so posting passes the buffer's address on;
 *   - a connection-manager event is acknowledged here as soon as its type and ids are copied out:
 *     DiSNI 2.1 reads neither the event's status nor its private data;
 *   - calls whose Java declaration throws IOException throw one whose message names the call and
 *     the errno text; the others return a negative value on failure;
 *   - _getVersion answers 32, the version DiSNI 2.1's Java side refuses to run without.
 *
 * It also implements rpcrdma's own connection-manager natives (io.rpcrdma.verbs.disni.CmNatives),
 * what DiSNI 2.1 lacks for RFC 8797: the private data of connection-manager events (kept per cm
 * id by getCmEvent until taken), rdma_accept with private data and rdma_reject. A stock libdisni
 * has none of them; the Java side detects that once and keeps DiSNI's own behaviour.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <pthread.h>

#include <jni.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/* The JNI version DiSNI 2.1's NativeDispatcher checks for (JVERBS_VERSION). */
#define DISNI_JNI_VERSION 32

/* Scatter/gather entries per work request; DiSNI 2.1 builds queue pairs with this many. */
#define MAX_SGE 4

#define FN(name) Java_com_ibm_disni_verbs_impl_NativeDispatcher__1##name

#define PTR(type, handle) ((type *) (intptr_t) (handle))
#define HANDLE(pointer) ((jlong) (intptr_t) (pointer))

static void throw_io(JNIEnv *env, const char *call, const char *detail)
{
	char message[256];
	jclass io;

	snprintf(message, sizeof message, "libdisni %s: %s", call, detail);
	io = (*env)->FindClass(env, "java/io/IOException");
	if (io != NULL) { /* otherwise FindClass has already thrown */
		(*env)->ThrowNew(env, io, message);
	}
}

/* For calls that report failure through errno (librdmacm, and the verbs that return NULL). */
static void throw_errno(JNIEnv *env, const char *call)
{
	throw_io(env, call, strerror(errno));
}

/*
 * For librdmacm calls documented to return -1 and set errno: some paths return the verbs
 * error number itself instead (rdma_create_qp when the queue pair's first state change fails
 * on an iWARP device), leaving errno 0, which would read "Success".
 */
static void throw_result(JNIEnv *env, const char *call, int result)
{
	int code = result > 0 ? result : errno;

	throw_io(env, call, code != 0 ? strerror(code) : "failed without an error number");
}

/* For verbs that return the error number itself (ibv_post_send, ibv_modify_qp, ...). */
static void throw_code(JNIEnv *env, const char *call, int code)
{
	throw_io(env, call, strerror(code < 0 ? -code : code));
}

static int make_nonblocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/* Waits up to timeout ms (negative: forever) for fd to become readable; 1 when it is. */
static int await_readable(int fd, int timeout)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ready;

	do {
		ready = poll(&pfd, 1, timeout);
	} while (ready < 0 && errno == EINTR);
	return ready > 0 && (pfd.revents & POLLIN) ? 1 : 0;
}

/* ---- Connection manager (rdma_cm(7)) ---------------------------------------------------- */

JNIEXPORT jlong JNICALL FN(createEventChannel)(JNIEnv *env, jobject self)
{
	struct rdma_event_channel *channel = rdma_create_event_channel();

	if (channel == NULL) {
		throw_errno(env, "rdma_create_event_channel");
		return -1;
	}
	/* Events are awaited with poll() and a timeout, so reads must never block. */
	if (make_nonblocking(channel->fd) != 0) {
		throw_errno(env, "fcntl(O_NONBLOCK) on the event channel");
		rdma_destroy_event_channel(channel);
		return -1;
	}
	return HANDLE(channel);
}

JNIEXPORT jlong JNICALL FN(createId)(JNIEnv *env, jobject self, jlong channel, jshort ps)
{
	struct rdma_cm_id *id = NULL;
	enum rdma_port_space space = (enum rdma_port_space) (uint16_t) ps;

	if (channel == 0) {
		throw_io(env, "rdma_create_id", "no event channel");
		return -1;
	}
	/* Connected (reliable) queue pairs: RDMA_PS_TCP unless the caller asked for another space. */
	if (space != RDMA_PS_TCP && space != RDMA_PS_UDP && space != RDMA_PS_IB && space != RDMA_PS_IPOIB) {
		space = RDMA_PS_TCP;
	}
	if (rdma_create_id(PTR(struct rdma_event_channel, channel), &id, NULL, space) != 0) {
		throw_errno(env, "rdma_create_id");
		return -1;
	}
	return HANDLE(id);
}

JNIEXPORT jlong JNICALL FN(createQP)(JNIEnv *env, jobject self, jlong id, jlong pd, jlong send_cq,
		jlong recv_cq, jint type, jint max_send_wr, jint max_recv_wr, jint max_inline)
{
	struct rdma_cm_id *cm_id = PTR(struct rdma_cm_id, id);
	struct ibv_qp_init_attr attr;
	int result;

	if (cm_id == NULL || pd == 0 || send_cq == 0 || recv_cq == 0) {
		throw_io(env, "rdma_create_qp", "the id, protection domain or a completion queue is missing");
		return -1;
	}
	if (max_send_wr < 0 || max_recv_wr < 0 || max_inline < 0) {
		throw_io(env, "rdma_create_qp", "negative queue depth or inline size");
		return -1;
	}
	memset(&attr, 0, sizeof attr);
	attr.qp_type = (enum ibv_qp_type) type;
	attr.send_cq = PTR(struct ibv_cq, send_cq);
	attr.recv_cq = PTR(struct ibv_cq, recv_cq);
	attr.cap.max_send_wr = (uint32_t) max_send_wr;
	attr.cap.max_recv_wr = (uint32_t) max_recv_wr;
	attr.cap.max_send_sge = MAX_SGE;
	attr.cap.max_recv_sge = MAX_SGE;
	attr.cap.max_inline_data = (uint32_t) max_inline;
	errno = 0;
	result = rdma_create_qp(cm_id, PTR(struct ibv_pd, pd), &attr);
	if (result != 0) {
		throw_result(env, "rdma_create_qp", result);
		return -1;
	}
	return HANDLE(cm_id->qp);
}

JNIEXPORT void JNICALL FN(bindAddr)(JNIEnv *env, jobject self, jlong id, jlong address)
{
	int result;

	if (id == 0 || address == 0) {
		throw_io(env, "rdma_bind_addr", "no id or no address");
		return;
	}
	errno = 0;
	if ((result = rdma_bind_addr(PTR(struct rdma_cm_id, id), PTR(struct sockaddr, address))) != 0) {
		throw_result(env, "rdma_bind_addr", result);
	}
}

JNIEXPORT void JNICALL FN(listen)(JNIEnv *env, jobject self, jlong id, jint backlog)
{
	int result;

	if (id == 0) {
		throw_io(env, "rdma_listen", "no id");
		return;
	}
	errno = 0;
	if ((result = rdma_listen(PTR(struct rdma_cm_id, id), backlog)) != 0) {
		throw_result(env, "rdma_listen", result);
	}
}

JNIEXPORT void JNICALL FN(resolveAddr)(JNIEnv *env, jobject self, jlong id, jlong source, jlong destination,
		jint timeout)
{
	int result;

	if (id == 0 || destination == 0) {
		throw_io(env, "rdma_resolve_addr", "no id or no destination");
		return;
	}
	/* A source of 0 lets rdma_cm pick the device by route; DiSNI passes the bound address or 0. */
	errno = 0;
	if ((result = rdma_resolve_addr(PTR(struct rdma_cm_id, id), PTR(struct sockaddr, source),
			PTR(struct sockaddr, destination), timeout)) != 0) {
		throw_result(env, "rdma_resolve_addr", result);
	}
}

JNIEXPORT void JNICALL FN(resolveRoute)(JNIEnv *env, jobject self, jlong id, jint timeout)
{
	int result;

	if (id == 0) {
		throw_io(env, "rdma_resolve_route", "no id");
		return;
	}
	errno = 0;
	if ((result = rdma_resolve_route(PTR(struct rdma_cm_id, id), timeout)) != 0) {
		throw_result(env, "rdma_resolve_route", result);
	}
}

/*
 * Waits up to timeout ms for the next event; returns its type (enum rdma_cm_event_type) and
 * stores the listening id and the event's id (or -1) at the two addresses, or returns -1 when
 * no event came. The event is acknowledged before returning, which rdma_ack_cm_event(3)
 * allows once everything wanted from it is copied.
 */
static void keep_private_data(struct rdma_cm_event *event);

JNIEXPORT jint JNICALL FN(getCmEvent)(JNIEnv *env, jobject self, jlong channel, jlong listen_id_out,
		jlong id_out, jint timeout)
{
	struct rdma_event_channel *events = PTR(struct rdma_event_channel, channel);
	struct rdma_cm_event *event;
	jint type;

	if (events == NULL || listen_id_out == 0 || id_out == 0) {
		return -1;
	}
	if (!await_readable(events->fd, timeout) || rdma_get_cm_event(events, &event) != 0) {
		return -1;
	}
	type = (jint) event->event;
	*PTR(int64_t, listen_id_out) = event->listen_id != NULL ? (int64_t) (intptr_t) event->listen_id : -1;
	*PTR(int64_t, id_out) = event->id != NULL ? (int64_t) (intptr_t) event->id : -1;
	keep_private_data(event);
	rdma_ack_cm_event(event);
	return type;
}

/* Both sides offer the device's full RDMA Read depth (RFC 5040's IRD/ORD, rdma_connect(3)). */
static int fill_conn_param(JNIEnv *env, const char *call, struct rdma_cm_id *id, struct rdma_conn_param *param,
		jint retry, jint rnr_retry)
{
	struct ibv_device_attr device;

	memset(param, 0, sizeof *param);
	if (id->verbs == NULL) {
		throw_io(env, call, "the id is bound to no device (resolve the address first)");
		return -1;
	}
	if (ibv_query_device(id->verbs, &device) != 0) {
		throw_errno(env, "ibv_query_device");
		return -1;
	}
	param->initiator_depth = (uint8_t) (device.max_qp_init_rd_atom > 255 ? 255 : device.max_qp_init_rd_atom);
	param->responder_resources = (uint8_t) (device.max_qp_rd_atom > 255 ? 255 : device.max_qp_rd_atom);
	param->retry_count = (uint8_t) (retry < 0 ? 0 : retry > 7 ? 7 : retry);
	param->rnr_retry_count = (uint8_t) (rnr_retry < 0 ? 0 : rnr_retry > 7 ? 7 : rnr_retry);
	return 0;
}

JNIEXPORT void JNICALL FN(connect)(JNIEnv *env, jobject self, jlong id, jint retry, jint rnr_retry,
		jlong private_data, jbyte private_data_length)
{
	struct rdma_cm_id *cm_id = PTR(struct rdma_cm_id, id);
	struct rdma_conn_param param;
	int result;

	if (cm_id == NULL) {
		throw_io(env, "rdma_connect", "no id");
		return;
	}
	if (fill_conn_param(env, "rdma_connect", cm_id, &param, retry, rnr_retry) != 0) {
		return;
	}
	if (private_data != 0 && private_data_length != 0) {
		param.private_data = PTR(const void, private_data);
		param.private_data_len = (uint8_t) private_data_length;
	}
	errno = 0;
	if ((result = rdma_connect(cm_id, &param)) != 0) {
		throw_result(env, "rdma_connect", result);
	}
}

/* rdma_accept, with private data when rpcrdma's CmNatives.accept passes some (RFC 8797 section 4). */
static void accept_with(JNIEnv *env, jlong id, jint retry, jint rnr_retry, jlong private_data, jint private_data_length)
{
	struct rdma_cm_id *cm_id = PTR(struct rdma_cm_id, id);
	struct rdma_conn_param param;
	int result;

	if (cm_id == NULL) {
		throw_io(env, "rdma_accept", "no id");
		return;
	}
	if (private_data_length < 0 || private_data_length > 255 || (private_data_length > 0 && private_data == 0)) {
		throw_io(env, "rdma_accept", "private data longer than 255 bytes or without an address");
		return;
	}
	if (fill_conn_param(env, "rdma_accept", cm_id, &param, retry, rnr_retry) != 0) {
		return;
	}
	if (private_data_length > 0) {
		param.private_data = PTR(const void, private_data);
		param.private_data_len = (uint8_t) private_data_length;
	}
	errno = 0;
	if ((result = rdma_accept(cm_id, &param)) != 0) {
		throw_result(env, "rdma_accept", result);
	}
}

JNIEXPORT void JNICALL FN(accept)(JNIEnv *env, jobject self, jlong id, jint retry, jint rnr_retry)
{
	accept_with(env, id, retry, rnr_retry, 0, 0);
}

/* getCmEvent acknowledged the event already; DiSNI's Java side still calls this. */
JNIEXPORT jint JNICALL FN(ackCmEvent)(JNIEnv *env, jobject self, jint event)
{
	return 0;
}

JNIEXPORT jint JNICALL FN(disconnect)(JNIEnv *env, jobject self, jlong id)
{
	if (id == 0) {
		throw_io(env, "rdma_disconnect", "no id");
		return -1;
	}
	return rdma_disconnect(PTR(struct rdma_cm_id, id)) == 0 ? 0 : -errno;
}

JNIEXPORT jint JNICALL FN(destroyEventChannel)(JNIEnv *env, jobject self, jlong channel)
{
	if (channel == 0) {
		return -1;
	}
	rdma_destroy_event_channel(PTR(struct rdma_event_channel, channel));
	return 0;
}

static void forget_private_data(struct rdma_cm_id *id);

JNIEXPORT jint JNICALL FN(destroyCmId)(JNIEnv *env, jobject self, jlong id)
{
	if (id == 0) {
		return -1;
	}
	forget_private_data(PTR(struct rdma_cm_id, id));
	return rdma_destroy_id(PTR(struct rdma_cm_id, id)) == 0 ? 0 : -errno;
}

/* Takes the cm id, as DiSNI's Java side does: rdma_cm owns the queue pair it created. */
JNIEXPORT jint JNICALL FN(destroyQP)(JNIEnv *env, jobject self, jlong id)
{
	struct rdma_cm_id *cm_id = PTR(struct rdma_cm_id, id);

	if (cm_id == NULL || cm_id->qp == NULL) {
		return -1;
	}
	rdma_destroy_qp(cm_id);
	return 0;
}

static jint copy_address(struct sockaddr *address, jlong out)
{
	size_t length;

	if (address == NULL || out == 0) {
		return -1;
	}
	/* DiSNI's buffer holds a sockaddr_in6 (28 bytes), enough for either family. */
	length = address->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	memcpy(PTR(void, out), address, length);
	return 0;
}

JNIEXPORT jint JNICALL FN(getSrcAddr)(JNIEnv *env, jobject self, jlong id, jlong out)
{
	return id == 0 ? -1 : copy_address(rdma_get_local_addr(PTR(struct rdma_cm_id, id)), out);
}

JNIEXPORT jint JNICALL FN(getDstAddr)(JNIEnv *env, jobject self, jlong id, jlong out)
{
	return id == 0 ? -1 : copy_address(rdma_get_peer_addr(PTR(struct rdma_cm_id, id)), out);
}

JNIEXPORT jint JNICALL FN(destroyEp)(JNIEnv *env, jobject self, jlong id)
{
	if (id == 0) {
		return -1;
	}
	rdma_destroy_ep(PTR(struct rdma_cm_id, id));
	return 0;
}

/* ---- Verbs (ibv_*(3)) -------------------------------------------------------------------- */

/*
 * Linux's soft-iWARP device: the kernel driver's vendor id ("bmt").
 */
#define SIW_VENDOR_ID 0x626d74

/* The mmap key libsiw reads as "no key" (SIW_INVAL_UOBJ_KEY in rdma/siw-abi.h). */
#define SIW_INVAL_UOBJ_KEY 0x90000

/* Completion queue entries that cover that key from wherever the guard lands below it. */
#define SIW_GUARD_CQE (1 << 15)

static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;

static struct ibv_context *guarded[16];

/*
 * Works around a Linux siw incompatibility (docs/interop.md, "Incompatibilities found"): the
 * kernel hands out mmap keys for completion and work queues as byte offsets, first fit from 0,
 * and libsiw (rdma-core 44, providers/siw) refuses any queue whose key equals
 * SIW_INVAL_UOBJ_KEY, 0x90000, a sentinel from the old key scheme. Once live queues fill the
 * key space up to exactly that offset, the next queue pair or completion queue fails with
 * "prepare QP mapping failed" and errno 0, and so does every retry, since the same offset is
 * handed out again. A completion queue made first and kept for the context's life covers the
 * offset, so no queue ever starts there. It costs 1 MiB of kernel memory per process.
 */
static void guard_siw_mmap_keys(struct ibv_context *context)
{
	struct ibv_device_attr device;
	size_t i, free_slot = sizeof guarded / sizeof guarded[0];

	pthread_mutex_lock(&guard_lock);
	for (i = 0; i < sizeof guarded / sizeof guarded[0]; i++) {
		if (guarded[i] == context) {
			pthread_mutex_unlock(&guard_lock);
			return;
		}
		if (guarded[i] == NULL && free_slot == sizeof guarded / sizeof guarded[0]) {
			free_slot = i;
		}
	}
	if (free_slot < sizeof guarded / sizeof guarded[0] && ibv_query_device(context, &device) == 0) {
		if (device.vendor_id == SIW_VENDOR_ID) {
			/* Deliberately never destroyed: it must outlive every queue of the context. */
			if (ibv_create_cq(context, SIW_GUARD_CQE, NULL, NULL, 0) == NULL) {
				fprintf(stderr, "libdisni: could not create the siw mmap-key guard (%s); queues whose key "
						"would be 0x%x will fail\n", strerror(errno), SIW_INVAL_UOBJ_KEY);
			}
		}
		guarded[free_slot] = context;
	}
	pthread_mutex_unlock(&guard_lock);
}

JNIEXPORT jlong JNICALL FN(getContext)(JNIEnv *env, jobject self, jlong id)
{
	struct rdma_cm_id *cm_id = PTR(struct rdma_cm_id, id);

	if (cm_id == NULL) {
		throw_io(env, "getContext", "no id");
		return -1;
	}
	/* An id not yet bound to a device has no context; DiSNI's Java side checks for -1. */
	return cm_id->verbs != NULL ? HANDLE(cm_id->verbs) : -1;
}

JNIEXPORT jlong JNICALL FN(allocPd)(JNIEnv *env, jobject self, jlong context)
{
	struct ibv_pd *pd;

	if (context == 0) {
		throw_io(env, "ibv_alloc_pd", "no device context");
		return -1;
	}
	pd = ibv_alloc_pd(PTR(struct ibv_context, context));
	if (pd == NULL) {
		throw_errno(env, "ibv_alloc_pd");
		return -1;
	}
	return HANDLE(pd);
}

JNIEXPORT jlong JNICALL FN(createCompChannel)(JNIEnv *env, jobject self, jlong context)
{
	struct ibv_comp_channel *channel;

	if (context == 0) {
		throw_io(env, "ibv_create_comp_channel", "no device context");
		return -1;
	}
	channel = ibv_create_comp_channel(PTR(struct ibv_context, context));
	if (channel == NULL) {
		throw_errno(env, "ibv_create_comp_channel");
		return -1;
	}
	if (make_nonblocking(channel->fd) != 0) {
		throw_errno(env, "fcntl(O_NONBLOCK) on the completion channel");
		ibv_destroy_comp_channel(channel);
		return -1;
	}
	return HANDLE(channel);
}

JNIEXPORT jlong JNICALL FN(createCQ)(JNIEnv *env, jobject self, jlong context, jlong channel, jint entries,
		jint vector)
{
	struct ibv_cq *cq;

	if (context == 0) {
		throw_io(env, "ibv_create_cq", "no device context");
		return -1;
	}
	if (entries <= 0) {
		throw_io(env, "ibv_create_cq", "the number of entries must be positive");
		return -1;
	}
	guard_siw_mmap_keys(PTR(struct ibv_context, context));
	cq = ibv_create_cq(PTR(struct ibv_context, context), entries, NULL, PTR(struct ibv_comp_channel, channel),
			vector);
	if (cq == NULL) {
		throw_errno(env, "ibv_create_cq");
		return -1;
	}
	return HANDLE(cq);
}

/*
 * DiSNI 2.1's Java side passes no attributes (the address is always 0); rdma_cm moves its queue
 * pairs through INIT, RTR and RTS itself, so there is nothing to modify.
 */
JNIEXPORT jint JNICALL FN(modifyQP)(JNIEnv *env, jobject self, jlong qp, jlong attributes)
{
	if (qp == 0) {
		throw_io(env, "ibv_modify_qp", "no queue pair");
		return -1;
	}
	if (attributes == 0) {
		throw_io(env, "ibv_modify_qp", "no attributes: rdma_cm moves the queue pair through its states");
		return -1;
	}
	throw_io(env, "ibv_modify_qp", "DiSNI 2.1 defines no attribute layout to read");
	return -1;
}

/* The RC on-demand-paging capabilities (IBV_ODP_SUPPORT_*), or -1 without ODP. */
JNIEXPORT jint JNICALL FN(queryOdpSupport)(JNIEnv *env, jobject self, jlong context)
{
	struct ibv_device_attr_ex device;

	if (context == 0 || ibv_query_device_ex(PTR(struct ibv_context, context), NULL, &device) != 0) {
		return -1;
	}
	if (!(device.odp_caps.general_caps & IBV_ODP_SUPPORT)) {
		return -1;
	}
	return (jint) device.odp_caps.per_transport_caps.rc_odp_caps;
}

/* Prefetches an on-demand-paging region for writing (ibv_advise_mr(3)). */
JNIEXPORT jint JNICALL FN(expPrefetchMr)(JNIEnv *env, jobject self, jlong handle, jlong address, jint length)
{
	struct ibv_mr *mr = PTR(struct ibv_mr, handle);
	struct ibv_sge sge;
	int result;

	if (mr == NULL || length <= 0) {
		return -1;
	}
	sge.addr = (uint64_t) address;
	sge.length = (uint32_t) length;
	sge.lkey = mr->lkey;
	result = ibv_advise_mr(mr->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1);
	if (result != 0) {
		throw_code(env, "ibv_advise_mr", result);
		return -1;
	}
	return 0;
}

/* Registers [address, address + length) and stores its lkey, rkey and handle at the three addresses. */
JNIEXPORT jlong JNICALL FN(regMr)(JNIEnv *env, jobject self, jlong pd, jlong address, jint length, jint access,
		jlong lkey_out, jlong rkey_out, jlong handle_out)
{
	struct ibv_mr *mr;

	if (pd == 0) {
		throw_io(env, "ibv_reg_mr", "no protection domain");
		return -1;
	}
	if (address == 0 || length <= 0 || lkey_out == 0 || rkey_out == 0 || handle_out == 0) {
		throw_io(env, "ibv_reg_mr", "no memory to register, or nowhere to put its keys");
		return -1;
	}
	mr = ibv_reg_mr(PTR(struct ibv_pd, pd), PTR(void, address), (size_t) length, access);
	if (mr == NULL) {
		throw_errno(env, "ibv_reg_mr");
		return -1;
	}
	*PTR(uint32_t, lkey_out) = mr->lkey;
	*PTR(uint32_t, rkey_out) = mr->rkey;
	*PTR(uint32_t, handle_out) = mr->handle;
	return HANDLE(mr);
}

JNIEXPORT void JNICALL FN(deregMr)(JNIEnv *env, jobject self, jlong handle)
{
	int result;

	if (handle == 0) {
		throw_io(env, "ibv_dereg_mr", "no memory region");
		return;
	}
	result = ibv_dereg_mr(PTR(struct ibv_mr, handle));
	if (result != 0) {
		throw_code(env, "ibv_dereg_mr", result);
	}
}

JNIEXPORT void JNICALL FN(postSend)(JNIEnv *env, jobject self, jlong qp, jlong requests)
{
	struct ibv_send_wr *bad = NULL;
	int result;

	if (qp == 0 || requests == 0) {
		throw_io(env, "ibv_post_send", "no queue pair or no work request");
		return;
	}
	result = ibv_post_send(PTR(struct ibv_qp, qp), PTR(struct ibv_send_wr, requests), &bad);
	if (result != 0) {
		throw_code(env, "ibv_post_send", result);
	}
}

JNIEXPORT void JNICALL FN(postRecv)(JNIEnv *env, jobject self, jlong qp, jlong requests)
{
	struct ibv_recv_wr *bad = NULL;
	int result;

	if (qp == 0 || requests == 0) {
		throw_io(env, "ibv_post_recv", "no queue pair or no work request");
		return;
	}
	result = ibv_post_recv(PTR(struct ibv_qp, qp), PTR(struct ibv_recv_wr, requests), &bad);
	if (result != 0) {
		throw_code(env, "ibv_post_recv", result);
	}
}

/*
 * Waits up to timeout ms for a completion event; 0 when one was taken (the caller must
 * acknowledge it with ackCqEvent), -1 when none came.
 */
JNIEXPORT jint JNICALL FN(getCqEvent)(JNIEnv *env, jobject self, jlong channel, jint timeout)
{
	struct ibv_comp_channel *events = PTR(struct ibv_comp_channel, channel);
	struct ibv_cq *cq;
	void *context;

	if (events == NULL) {
		throw_io(env, "ibv_get_cq_event", "no completion channel");
		return -1;
	}
	if (!await_readable(events->fd, timeout)) {
		return -1;
	}
	return ibv_get_cq_event(events, &cq, &context) == 0 ? 0 : -1;
}

JNIEXPORT jint JNICALL FN(pollCQ)(JNIEnv *env, jobject self, jlong cq, jint entries, jlong completions)
{
	if (cq == 0 || completions == 0) {
		throw_io(env, "ibv_poll_cq", "no completion queue or nowhere to put completions");
		return -1;
	}
	if (entries <= 0) {
		return 0;
	}
	return ibv_poll_cq(PTR(struct ibv_cq, cq), entries, PTR(struct ibv_wc, completions));
}

JNIEXPORT jint JNICALL FN(reqNotifyCQ)(JNIEnv *env, jobject self, jlong cq, jint solicited_only)
{
	if (cq == 0) {
		throw_io(env, "ibv_req_notify_cq", "no completion queue");
		return -1;
	}
	return ibv_req_notify_cq(PTR(struct ibv_cq, cq), solicited_only);
}

JNIEXPORT jint JNICALL FN(ackCqEvent)(JNIEnv *env, jobject self, jlong cq, jint events)
{
	if (cq == 0 || events < 0) {
		return -1;
	}
	ibv_ack_cq_events(PTR(struct ibv_cq, cq), (unsigned int) events);
	return 0;
}

JNIEXPORT jint JNICALL FN(destroyCompChannel)(JNIEnv *env, jobject self, jlong channel)
{
	return channel == 0 ? -1 : ibv_destroy_comp_channel(PTR(struct ibv_comp_channel, channel));
}

JNIEXPORT jint JNICALL FN(deallocPd)(JNIEnv *env, jobject self, jlong pd)
{
	return pd == 0 ? -1 : ibv_dealloc_pd(PTR(struct ibv_pd, pd));
}

JNIEXPORT jint JNICALL FN(destroyCQ)(JNIEnv *env, jobject self, jlong cq)
{
	return cq == 0 ? -1 : ibv_destroy_cq(PTR(struct ibv_cq, cq));
}

JNIEXPORT jint JNICALL FN(getQpNum)(JNIEnv *env, jobject self, jlong qp)
{
	if (qp == 0) {
		throw_io(env, "getQpNum", "no queue pair");
		return -1;
	}
	return (jint) PTR(struct ibv_qp, qp)->qp_num;
}

JNIEXPORT jint JNICALL FN(getContextFd)(JNIEnv *env, jobject self, jlong context)
{
	if (context == 0) {
		throw_io(env, "getContextFd", "no device context");
		return -1;
	}
	return PTR(struct ibv_context, context)->cmd_fd;
}

JNIEXPORT jint JNICALL FN(getContextNumCompVectors)(JNIEnv *env, jobject self, jlong context)
{
	if (context == 0) {
		throw_io(env, "getContextNumCompVectors", "no device context");
		return -1;
	}
	return PTR(struct ibv_context, context)->num_comp_vectors;
}

JNIEXPORT jint JNICALL FN(getPdHandle)(JNIEnv *env, jobject self, jlong pd)
{
	if (pd == 0) {
		throw_io(env, "getPdHandle", "no protection domain");
		return -1;
	}
	return (jint) PTR(struct ibv_pd, pd)->handle;
}

/* ---- Layouts DiSNI's Java side asks about -------------------------------------------------- */

JNIEXPORT jint JNICALL FN(getSockAddrInSize)(JNIEnv *env, jobject self)
{
	return sizeof(struct sockaddr_in);
}

JNIEXPORT jint JNICALL FN(getIbvRecvWRSize)(JNIEnv *env, jobject self)
{
	return sizeof(struct ibv_recv_wr);
}

JNIEXPORT jint JNICALL FN(getIbvSendWRSize)(JNIEnv *env, jobject self)
{
	return sizeof(struct ibv_send_wr);
}

JNIEXPORT jint JNICALL FN(getIbvSgeSize)(JNIEnv *env, jobject self)
{
	return sizeof(struct ibv_sge);
}

JNIEXPORT jint JNICALL FN(getIbvWCSize)(JNIEnv *env, jobject self)
{
	return sizeof(struct ibv_wc);
}

JNIEXPORT jint JNICALL FN(getRemoteAddressOffset)(JNIEnv *env, jobject self)
{
	return offsetof(struct ibv_send_wr, wr.rdma.remote_addr);
}

JNIEXPORT jint JNICALL FN(getRKeyOffset)(JNIEnv *env, jobject self)
{
	return offsetof(struct ibv_send_wr, wr.rdma.rkey);
}

JNIEXPORT jint JNICALL FN(getVersion)(JNIEnv *env, jobject self)
{
	return DISNI_JNI_VERSION;
}


/* ---- rpcrdma's own connection-manager natives (io.rpcrdma.verbs.disni.CmNatives) ---------- */

/* What CmNatives.version() answers; the Java side uses the natives only when it matches. */
#define RPCRDMA_CM_VERSION 1

#define CM(name) Java_io_rpcrdma_verbs_disni_CmNatives_##name

/*
 * The private data of the last CONNECT_REQUEST, ESTABLISHED or REJECTED event of a cm id, kept
 * until the Java side takes it or destroys the id. Only connections being set up have an entry,
 * so a fixed table is enough; when it is full the oldest slot of the hash chain is overwritten
 * and that connection falls back to in-band negotiation (RFC 5666 section 6), as on stock DiSNI.
 */
#define KEPT_SLOTS 256

struct kept_private_data {
	struct rdma_cm_id *id;
	uint8_t length;
	uint8_t bytes[255];
};

static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static struct kept_private_data kept[KEPT_SLOTS];

static unsigned kept_slot(struct rdma_cm_id *id)
{
	uintptr_t key = (uintptr_t) id;

	return (unsigned) ((key >> 4) ^ (key >> 12)) % KEPT_SLOTS;
}

/* The slot holding id, or with create the first free one on its chain (else its home slot). */
static struct kept_private_data *kept_find(struct rdma_cm_id *id, int create)
{
	unsigned home = kept_slot(id);
	struct kept_private_data *free_slot = NULL;

	for (unsigned i = 0; i < KEPT_SLOTS; i++) {
		struct kept_private_data *slot = &kept[(home + i) % KEPT_SLOTS];

		if (slot->id == id) {
			return slot;
		}
		if (slot->id == NULL && free_slot == NULL) {
			free_slot = slot;
		}
	}
	if (!create) {
		return NULL;
	}
	return free_slot != NULL ? free_slot : &kept[home];
}

static void keep_private_data(struct rdma_cm_event *event)
{
	struct kept_private_data *slot;

	if (event->id == NULL || (event->event != RDMA_CM_EVENT_CONNECT_REQUEST
			&& event->event != RDMA_CM_EVENT_ESTABLISHED && event->event != RDMA_CM_EVENT_REJECTED)) {
		return;
	}
	pthread_mutex_lock(&kept_lock);
	slot = kept_find(event->id, event->param.conn.private_data_len > 0);
	if (slot != NULL) {
		/* A later event without private data replaces an earlier one's. */
		slot->id = event->param.conn.private_data_len > 0 ? event->id : NULL;
		slot->length = event->param.conn.private_data_len;
		if (slot->length > 0) {
			memcpy(slot->bytes, event->param.conn.private_data, slot->length);
		}
	}
	pthread_mutex_unlock(&kept_lock);
}

static void forget_private_data(struct rdma_cm_id *id)
{
	struct kept_private_data *slot;

	pthread_mutex_lock(&kept_lock);
	if ((slot = kept_find(id, 0)) != NULL) {
		slot->id = NULL;
		slot->length = 0;
	}
	pthread_mutex_unlock(&kept_lock);
}

JNIEXPORT jint JNICALL CM(version)(JNIEnv *env, jclass type)
{
	return RPCRDMA_CM_VERSION;
}

/*
 * Copies the kept private data of id's last event (at most capacity bytes) to out and forgets
 * it; returns the number of bytes copied, 0 when there is none.
 */
JNIEXPORT jint JNICALL CM(takePrivateData)(JNIEnv *env, jclass type, jlong id, jlong out, jint capacity)
{
	struct kept_private_data *slot;
	jint length = 0;

	if (id == 0 || out == 0 || capacity <= 0) {
		return 0;
	}
	pthread_mutex_lock(&kept_lock);
	if ((slot = kept_find(PTR(struct rdma_cm_id, id), 0)) != NULL) {
		length = slot->length < capacity ? slot->length : capacity;
		memcpy(PTR(void, out), slot->bytes, (size_t) length);
		slot->id = NULL;
		slot->length = 0;
	}
	pthread_mutex_unlock(&kept_lock);
	return length;
}

/* rdma_accept with private data (RFC 8797 section 4: the responder's sizes and flags). */
JNIEXPORT void JNICALL CM(accept)(JNIEnv *env, jclass type, jlong id, jint retry, jint rnr_retry,
		jlong private_data, jint private_data_length)
{
	accept_with(env, id, retry, rnr_retry, private_data, private_data_length);
}

/* rdma_reject(3): the requester sees RDMA_CM_EVENT_REJECTED with this private data. */
JNIEXPORT void JNICALL CM(reject)(JNIEnv *env, jclass type, jlong id, jlong private_data, jint private_data_length)
{
	struct rdma_cm_id *cm_id = PTR(struct rdma_cm_id, id);
	int result;

	if (cm_id == NULL) {
		throw_io(env, "rdma_reject", "no id");
		return;
	}
	if (private_data_length < 0 || private_data_length > 255 || (private_data_length > 0 && private_data == 0)) {
		throw_io(env, "rdma_reject", "private data longer than 255 bytes or without an address");
		return;
	}
	errno = 0;
	if ((result = rdma_reject(cm_id, private_data_length > 0 ? PTR(const void, private_data) : NULL,
			(uint8_t) private_data_length)) != 0) {
		throw_result(env, "rdma_reject", result);
	}
}

/*
 * rpcrdma's address natives (io.rpcrdma.verbs.disni.CmAddressNatives): rdma_bind_addr,
 * rdma_resolve_addr and the addresses of a cm id for either family. DiSNI 2.1's Java side builds
 * only a struct sockaddr_in for bind and resolve and reads only one back, so IPv6 needs these;
 * the Java side lays out the struct sockaddr_in or sockaddr_in6 itself (SocketAddressLayout).
 */
#define RPCRDMA_ADDRESS_VERSION 1

#define ADDR(name) Java_io_rpcrdma_verbs_disni_CmAddressNatives_##name

static int valid_sockaddr(jlong address)
{
	sa_family_t family;

	if (address == 0) {
		return 0;
	}
	family = PTR(struct sockaddr, address)->sa_family;
	return family == AF_INET || family == AF_INET6;
}

JNIEXPORT jint JNICALL ADDR(version)(JNIEnv *env, jclass type)
{
	return RPCRDMA_ADDRESS_VERSION;
}

JNIEXPORT void JNICALL ADDR(bind)(JNIEnv *env, jclass type, jlong id, jlong address)
{
	int result;

	if (id == 0 || !valid_sockaddr(address)) {
		throw_io(env, "rdma_bind_addr", "no id or not an AF_INET or AF_INET6 address");
		return;
	}
	errno = 0;
	if ((result = rdma_bind_addr(PTR(struct rdma_cm_id, id), PTR(struct sockaddr, address))) != 0) {
		throw_result(env, "rdma_bind_addr", result);
	}
}

JNIEXPORT void JNICALL ADDR(resolve)(JNIEnv *env, jclass type, jlong id, jlong source, jlong destination,
		jint timeout)
{
	int result;

	if (id == 0 || !valid_sockaddr(destination) || (source != 0 && !valid_sockaddr(source))) {
		throw_io(env, "rdma_resolve_addr", "no id or not an AF_INET or AF_INET6 address");
		return;
	}
	errno = 0;
	if ((result = rdma_resolve_addr(PTR(struct rdma_cm_id, id), source != 0 ? PTR(struct sockaddr, source) : NULL,
			PTR(struct sockaddr, destination), timeout)) != 0) {
		throw_result(env, "rdma_resolve_addr", result);
	}
}

/* Copies the local (local != 0) or peer address of id to out; returns its length, -1 if none fits. */
JNIEXPORT jint JNICALL ADDR(address)(JNIEnv *env, jclass type, jlong id, jint local, jlong out, jint capacity)
{
	struct sockaddr *address;
	size_t length;

	if (id == 0 || out == 0) {
		return -1;
	}
	address = local ? rdma_get_local_addr(PTR(struct rdma_cm_id, id)) : rdma_get_peer_addr(PTR(struct rdma_cm_id, id));
	if (address == NULL || (address->sa_family != AF_INET && address->sa_family != AF_INET6)) {
		return -1;
	}
	length = address->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	if (capacity < 0 || length > (size_t) capacity) {
		return -1;
	}
	memcpy(PTR(void, out), address, length);
	return (jint) length;
}

/*
 * Lists and frees librdmacm's devices: a librdmacm that supports removal then closes the verbs
 * context of a removed device no cm id uses any more, which the kernel's removal waits for.
 */
JNIEXPORT void JNICALL ADDR(forgetRemovedDevices)(JNIEnv *env, jclass type)
{
	struct ibv_context **devices = rdma_get_devices(NULL);

	if (devices != NULL) {
		rdma_free_devices(devices);
	}
}


/* ---- rpcrdma's own memory-window natives (io.rpcrdma.verbs.disni.WindowNatives) ------------ */

/*
 * Type 2 memory windows (ibv_alloc_mw(3), ibv_post_send(3) IBV_WR_BIND_MW and IBV_WR_LOCAL_INV),
 * which DiSNI 2.1 lacks: an advertised chunk gets a window bound to one queue pair under a fresh
 * rkey by a work request, and loses it by a local or the peer's remote invalidation, with no
 * system call and no page pinning per RPC (RFC 8166 section 8.1 on the lifetime of an
 * advertised STag; Linux's xprtrdma reaches the same with fast registration, a kernel-only
 * verb). Devices without windows (Linux's siw) refuse ibv_alloc_mw; the Java side then keeps
 * rotation by registration.
 */
#define RPCRDMA_WINDOW_VERSION 1

#define WN(name) Java_io_rpcrdma_verbs_disni_WindowNatives_##name

JNIEXPORT jint JNICALL WN(version)(JNIEnv *env, jclass type)
{
	return RPCRDMA_WINDOW_VERSION;
}

/* Allocates a type 2 window in pd, stores its initial rkey at rkey_out and returns its handle. */
JNIEXPORT jlong JNICALL WN(allocate)(JNIEnv *env, jclass type, jlong pd, jlong rkey_out)
{
	struct ibv_mw *mw;

	if (pd == 0 || rkey_out == 0) {
		throw_io(env, "ibv_alloc_mw", "no protection domain, or nowhere to put the rkey");
		return 0;
	}
	errno = 0;
	mw = ibv_alloc_mw(PTR(struct ibv_pd, pd), IBV_MW_TYPE_2);
	if (mw == NULL) {
		throw_io(env, "ibv_alloc_mw", errno != 0 ? strerror(errno) : "the device offers no memory windows");
		return 0;
	}
	*PTR(uint32_t, rkey_out) = mw->rkey;
	return HANDLE(mw);
}

JNIEXPORT void JNICALL WN(deallocate)(JNIEnv *env, jclass type, jlong mw)
{
	int result;

	if (mw == 0) {
		return;
	}
	if ((result = ibv_dealloc_mw(PTR(struct ibv_mw, mw))) != 0) {
		throw_code(env, "ibv_dealloc_mw", result);
	}
}

/*
 * Posts a signaled IBV_WR_BIND_MW on qp: the window mw becomes valid under rkey (the window's
 * index with a new key byte) for [address, address + length) of mr with the remote access bits,
 * reachable through this queue pair only (a type 2 window).
 */
JNIEXPORT void JNICALL WN(bind)(JNIEnv *env, jclass type, jlong qp, jlong wr_id, jlong mw, jint rkey, jlong mr,
		jlong address, jlong length, jint access)
{
	struct ibv_send_wr wr, *bad = NULL;
	int result;

	if (qp == 0 || mw == 0 || mr == 0 || length <= 0) {
		throw_io(env, "ibv_post_send(IBV_WR_BIND_MW)", "no queue pair, window or region, or nothing to bind");
		return;
	}
	memset(&wr, 0, sizeof wr);
	wr.wr_id = (uint64_t) wr_id;
	wr.opcode = IBV_WR_BIND_MW;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.bind_mw.mw = PTR(struct ibv_mw, mw);
	wr.bind_mw.rkey = (uint32_t) rkey;
	wr.bind_mw.bind_info.mr = PTR(struct ibv_mr, mr);
	wr.bind_mw.bind_info.addr = (uint64_t) address;
	wr.bind_mw.bind_info.length = (uint64_t) length;
	wr.bind_mw.bind_info.mw_access_flags = (unsigned int) access;
	if ((result = ibv_post_send(PTR(struct ibv_qp, qp), &wr, &bad)) != 0) {
		throw_code(env, "ibv_post_send(IBV_WR_BIND_MW)", result);
		return;
	}
	/*
	 * The provider names the window in the next bind by the rkey it holds now (Soft-RoCE
	 * refuses a bind whose window rkey is not the window's current one), and the bind moves it
	 * on: keep the user-space copy in step, as ibv_bind_mw(3) does for type 1 windows.
	 */
	PTR(struct ibv_mw, mw)->rkey = (uint32_t) rkey;
}

/* Posts a signaled IBV_WR_LOCAL_INV of rkey on qp: once it completes, no peer reaches the window. */
JNIEXPORT void JNICALL WN(invalidate)(JNIEnv *env, jclass type, jlong qp, jlong wr_id, jint rkey)
{
	struct ibv_send_wr wr, *bad = NULL;
	int result;

	if (qp == 0) {
		throw_io(env, "ibv_post_send(IBV_WR_LOCAL_INV)", "no queue pair");
		return;
	}
	memset(&wr, 0, sizeof wr);
	wr.wr_id = (uint64_t) wr_id;
	wr.opcode = IBV_WR_LOCAL_INV;
	wr.send_flags = IBV_SEND_SIGNALED;
	wr.invalidate_rkey = (uint32_t) rkey;
	if ((result = ibv_post_send(PTR(struct ibv_qp, qp), &wr, &bad)) != 0) {
		throw_code(env, "ibv_post_send(IBV_WR_LOCAL_INV)", result);
	}
}
