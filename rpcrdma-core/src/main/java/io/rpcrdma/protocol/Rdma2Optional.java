package io.rpcrdma.protocol;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Version 2 RDMA_OPTIONAL (draft-cel-nfsv4-rpcrdma-version-two-00 §3.1, §4.2
 * {@code rpcrdma2_optional}): an optional operation named by rdma_opttype with opaque
 * rdma_optinfo whose meaning the option's own specification defines. An RPC Payload Stream MAY
 * follow. A receiver that does not support the type answers RDMA_ERR_INVAL_OPTION (see
 * {@link RdmaErrorReplies#forInvalidOption}).
 * <p>
 * The option information is held as a read-only buffer. When decoded it is a zero-copy view of
 * the receive buffer, valid only until that buffer is reused; copy it with
 * {@link #optionInfoBytes()} to keep it longer.
 *
 * @param xid rdma_xid
 * @param credits rdma_credit (unsigned)
 * @param optionType rdma_opttype (unsigned)
 * @param optionInfo rdma_optinfo, its remaining bytes
 */
public record Rdma2Optional(int xid, int credits, int optionType, ByteBuffer optionInfo) implements Version2Header {

	public Rdma2Optional {
		// A read-only duplicate keeps the record's bytes and bounds from being moved by the
		// caller's later use of the buffer it passed in.
		optionInfo = Objects.requireNonNull(optionInfo, "optionInfo must not be null").asReadOnlyBuffer();
	}

	/** Builds an option from a copy of {@code optionInfo}. */
	public Rdma2Optional(int xid, int credits, int optionType, byte[] optionInfo) {
		this(xid, credits, optionType, ByteBuffer.wrap(optionInfo.clone()));
	}

	/** @return a read-only view of rdma_optinfo whose position the caller may move freely */
	@Override
	public ByteBuffer optionInfo() {
		return this.optionInfo.duplicate();
	}

	/** @return the length of rdma_optinfo in bytes */
	public int optionInfoLength() {
		return this.optionInfo.remaining();
	}

	/** @return a copy of rdma_optinfo */
	public byte[] optionInfoBytes() {
		byte[] bytes = new byte[this.optionInfo.remaining()];
		this.optionInfo.duplicate().get(bytes);
		return bytes;
	}

	@Override
	public int procedure() {
		return RpcRdmaConstants.RDMA2_OPTIONAL;
	}

	@Override
	public PayloadRule payloadRule() {
		return PayloadRule.OPTIONAL;
	}

	@Override
	public String toString() {
		return "Rdma2Optional[xid=" + this.xid + ", credits=" + this.credits + ", optionType="
				+ Integer.toUnsignedString(this.optionType) + ", optionInfo=" + this.optionInfo.remaining() + " bytes]";
	}

}
