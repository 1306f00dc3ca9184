package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class DdpReceiveValidatorTest {

	private final DdpReceiveValidator validator = new DdpReceiveValidator();

	private final ByteBuffer payload = ByteBuffer.allocate(64);

	@Test
	void messagesOnEachQueueCountFromOneIndependently() {
		accept(send(RdmapOpcode.SEND, 0, 1, 0, 10, false));
		accept(send(RdmapOpcode.SEND, 0, 1, 10, 5, true));
		accept(untagged(RdmapOpcode.RDMA_READ_REQUEST, 1, 1, 0, ReadRequest.LENGTH, true));
		accept(send(RdmapOpcode.SEND_WITH_SE, 0, 2, 0, 0, true));
		accept(untagged(RdmapOpcode.RDMA_READ_REQUEST, 1, 2, 0, ReadRequest.LENGTH, true));
		accept(untagged(RdmapOpcode.TERMINATE, 2, 1, 0, 4, true));
		assertThat(this.validator.expectedMsn(0)).isEqualTo(3);
		assertThat(this.validator.expectedMsn(1)).isEqualTo(3);
		assertThat(this.validator.expectedMsn(2)).isEqualTo(2);
	}

	@Test
	void aMessageIsUnderWayFromASegmentWithoutLUntilItsLastSegment() {
		assertThat(this.validator.inMessage()).isFalse();
		accept(send(RdmapOpcode.SEND, 0, 1, 0, 10, false));
		assertThat(this.validator.inMessage()).as("a Send owes its next segment").isTrue();
		accept(send(RdmapOpcode.SEND, 0, 1, 10, 5, true));
		assertThat(this.validator.inMessage()).isFalse();
		accept(tagged(RdmapOpcode.RDMA_WRITE, 0x1234, 0x1000, 16, false));
		assertThat(this.validator.inMessage()).as("a tagged message owes its next segment").isTrue();
		accept(tagged(RdmapOpcode.RDMA_WRITE, 0x1234, 0x1010, 16, true));
		assertThat(this.validator.inMessage()).isFalse();
		accept(untagged(RdmapOpcode.RDMA_READ_REQUEST, 1, 1, 0, ReadRequest.LENGTH, true));
		assertThat(this.validator.inMessage()).as("single-segment messages leave nothing owed").isFalse();
	}

	@Test
	void sendOnTheReadRequestQueueIsAnInvalidQueueNumber() {
		assertRejected(send(RdmapOpcode.SEND, 1, 1, 0, 4, true), DdpQueueNumberException.class,
				TerminateError.DDP_UNTAGGED_INVALID_QN);
	}

	@Test
	void queueBeyondTheThreeRdmapQueuesIsInvalid() {
		assertRejected(send(RdmapOpcode.SEND, 7, 1, 0, 4, true), DdpQueueNumberException.class,
				TerminateError.DDP_UNTAGGED_INVALID_QN);
		assertRejected(send(RdmapOpcode.SEND, -1, 1, 0, 4, true), DdpQueueNumberException.class,
				TerminateError.DDP_UNTAGGED_INVALID_QN);
	}

	@Test
	void firstMessageMustHaveMsnOne() {
		assertRejected(send(RdmapOpcode.SEND, 0, 0, 0, 4, true), DdpMsnException.class,
				TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE);
		assertRejected(send(RdmapOpcode.SEND, 0, 2, 0, 4, true), DdpMsnException.class,
				TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE);
	}

	@Test
	void repeatedMsnIsRefused() {
		accept(send(RdmapOpcode.SEND, 0, 1, 0, 4, true));
		assertRejected(send(RdmapOpcode.SEND, 0, 1, 0, 4, true), DdpMsnException.class,
				TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE);
	}

	@Test
	void laterSegmentMustRepeatTheMessagesMsn() {
		accept(send(RdmapOpcode.SEND, 0, 1, 0, 8, false));
		assertRejected(send(RdmapOpcode.SEND, 0, 2, 8, 8, true), DdpMsnException.class,
				TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE);
	}

	@Test
	void firstSegmentMustStartAtOffsetZero() {
		assertRejected(send(RdmapOpcode.SEND, 0, 1, 4, 4, true), DdpMessageOffsetException.class,
				TerminateError.DDP_UNTAGGED_INVALID_MO);
	}

	@Test
	void laterSegmentMustStartWhereThePreviousEnded() {
		accept(send(RdmapOpcode.SEND, 0, 1, 0, 8, false));
		assertRejected(send(RdmapOpcode.SEND, 0, 1, 12, 8, true), DdpMessageOffsetException.class,
				TerminateError.DDP_UNTAGGED_INVALID_MO);
	}

	@Test
	void messageCannotChangeOpcodeMidway() {
		accept(send(RdmapOpcode.SEND, 0, 1, 0, 8, false));
		assertRejected(send(RdmapOpcode.SEND_WITH_SE, 0, 1, 8, 8, true), RdmapHeaderException.class,
				TerminateError.RDMAP_UNEXPECTED_OPCODE);
	}

	@Test
	void untaggedAndTaggedMessagesMayInterleave() {
		accept(send(RdmapOpcode.SEND, 0, 1, 0, 8, false));
		accept(tagged(RdmapOpcode.RDMA_WRITE, 0x100, 0x1000, 8, false));
		accept(send(RdmapOpcode.SEND, 0, 1, 8, 8, true));
		accept(tagged(RdmapOpcode.RDMA_WRITE, 0x100, 0x1008, 8, true));
	}

	@Test
	void taggedMessageMustKeepItsStag() {
		accept(tagged(RdmapOpcode.RDMA_WRITE, 0x100, 0x1000, 8, false));
		assertRejected(tagged(RdmapOpcode.RDMA_WRITE, 0x200, 0x1008, 8, true), DdpTaggedBufferException.class,
				TerminateError.DDP_TAGGED_INVALID_STAG);
	}

	@Test
	void taggedMessageMustContinueItsOffset() {
		accept(tagged(RdmapOpcode.RDMA_READ_RESPONSE, 0x100, 0x1000, 8, false));
		assertRejected(tagged(RdmapOpcode.RDMA_READ_RESPONSE, 0x100, 0x1010, 8, true), DdpTaggedBufferException.class,
				TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION);
	}

	@Test
	void taggedSegmentMayEndExactlyAtTwoToTheSixtyFourButNotPast() {
		accept(tagged(RdmapOpcode.RDMA_WRITE, 0x100, -8L, 8, true));
		assertRejected(tagged(RdmapOpcode.RDMA_WRITE, 0x100, -7L, 8, true), DdpTaggedBufferException.class,
				TerminateError.DDP_TAGGED_TO_WRAP);
	}

	@Test
	void stateIsUntouchedByARejectedSegment() {
		assertRejected(send(RdmapOpcode.SEND, 0, 5, 0, 4, true), DdpMsnException.class,
				TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE);
		accept(send(RdmapOpcode.SEND, 0, 1, 0, 4, true));
	}

	private Fpdu send(RdmapOpcode opcode, int queue, int msn, int offset, int length, boolean last) {
		return untagged(opcode, queue, msn, offset, length, last);
	}

	private Fpdu untagged(RdmapOpcode opcode, int queue, int msn, int offset, int length, boolean last) {
		ByteBuffer out = ByteBuffer.allocate(128);
		new FpduWriter(false).writeUntagged(out, last, opcode, 0, queue, msn, offset, this.payload, 0, length);
		return parse(out);
	}

	private Fpdu tagged(RdmapOpcode opcode, int stag, long offset, int length, boolean last) {
		ByteBuffer out = ByteBuffer.allocate(128);
		new FpduWriter(false).writeTagged(out, last, opcode, stag, offset, this.payload, 0, length);
		return parse(out);
	}

	private static Fpdu parse(ByteBuffer out) {
		Fpdu fpdu = new Fpdu();
		assertThat(new FpduParser(FpduParser.Config.of(false)).next(out.flip(), fpdu)).isTrue();
		return fpdu;
	}

	private void accept(Fpdu fpdu) {
		this.validator.validate(fpdu);
	}

	private void assertRejected(Fpdu fpdu, Class<? extends IwarpWireException> type, TerminateError error) {
		assertThatThrownBy(() -> this.validator.validate(fpdu)).isInstanceOf(type)
			.satisfies(e -> assertThat(((IwarpWireException) e).terminateError()).contains(error));
	}

}
