package io.rpcrdma.verbs.siw.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The exact codes of RFC 5040 §7, RFC 5041 §7, RFC 5044 §8 and RFC 6581, as siw and Wireshark know them. */
class TerminateErrorTest {

	@Test
	void rdmapRemoteProtectionErrors() {
		assertCode(TerminateError.RDMAP_INVALID_STAG, 0, 1, 0x00);
		assertCode(TerminateError.RDMAP_BASE_OR_BOUNDS_VIOLATION, 0, 1, 0x01);
		assertCode(TerminateError.RDMAP_ACCESS_RIGHTS_VIOLATION, 0, 1, 0x02);
		assertCode(TerminateError.RDMAP_STAG_NOT_ASSOCIATED, 0, 1, 0x03);
		assertCode(TerminateError.RDMAP_TO_WRAP, 0, 1, 0x04);
	}

	@Test
	void rdmapRemoteOperationErrors() {
		assertCode(TerminateError.RDMAP_INVALID_VERSION, 0, 2, 0x05);
		assertCode(TerminateError.RDMAP_UNEXPECTED_OPCODE, 0, 2, 0x06);
		assertCode(TerminateError.RDMAP_CATASTROPHIC_STREAM, 0, 2, 0x07);
		assertCode(TerminateError.RDMAP_CATASTROPHIC_GLOBAL, 0, 2, 0x08);
		assertCode(TerminateError.RDMAP_LOCAL_CATASTROPHIC, 0, 0, 0x00);
	}

	@Test
	void ddpErrors() {
		assertCode(TerminateError.DDP_LOCAL_CATASTROPHIC, 1, 0, 0x00);
		assertCode(TerminateError.DDP_TAGGED_INVALID_STAG, 1, 1, 0x00);
		assertCode(TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION, 1, 1, 0x01);
		assertCode(TerminateError.DDP_TAGGED_STAG_NOT_ASSOCIATED, 1, 1, 0x02);
		assertCode(TerminateError.DDP_TAGGED_TO_WRAP, 1, 1, 0x03);
		assertCode(TerminateError.DDP_TAGGED_INVALID_VERSION, 1, 1, 0x04);
		assertCode(TerminateError.DDP_UNTAGGED_INVALID_QN, 1, 2, 0x01);
		assertCode(TerminateError.DDP_UNTAGGED_INVALID_MSN_NO_BUFFER, 1, 2, 0x02);
		assertCode(TerminateError.DDP_UNTAGGED_INVALID_MSN_RANGE, 1, 2, 0x03);
		assertCode(TerminateError.DDP_UNTAGGED_INVALID_MO, 1, 2, 0x04);
		assertCode(TerminateError.DDP_UNTAGGED_MESSAGE_TOO_LONG, 1, 2, 0x05);
		assertCode(TerminateError.DDP_UNTAGGED_INVALID_VERSION, 1, 2, 0x06);
	}

	@Test
	void mpaErrors() {
		assertCode(TerminateError.MPA_TCP_CONNECTION_LOST, 2, 0, 0x01);
		assertCode(TerminateError.MPA_CRC_ERROR, 2, 0, 0x02);
		assertCode(TerminateError.MPA_FPDU_FRAMING_ERROR, 2, 0, 0x03);
		assertCode(TerminateError.MPA_INVALID_REQUEST_OR_REPLY, 2, 0, 0x04);
		assertCode(TerminateError.MPA_LOCAL_CATASTROPHIC, 2, 0, 0x05);
		assertCode(TerminateError.MPA_INSUFFICIENT_IRD, 2, 0, 0x06);
		assertCode(TerminateError.MPA_NO_MATCHING_RTR, 2, 0, 0x07);
	}

	@Test
	void everyTripleIsUniqueAndLooksItselfUp() {
		for (TerminateError error : TerminateError.values()) {
			assertThat(TerminateError.of(error.layer(), error.errorType(), error.errorCode())).contains(error);
		}
		assertThat(TerminateError.of(3, 0, 0)).isEmpty();
	}

	@Test
	void remoteAccessErrorsMapToRdmapProtectionErrors() {
		assertThat(RemoteAccessError.INVALID_STAG.terminateError()).isEqualTo(TerminateError.RDMAP_INVALID_STAG);
		assertThat(RemoteAccessError.BASE_OR_BOUNDS.terminateError()).isEqualTo(TerminateError.RDMAP_BASE_OR_BOUNDS_VIOLATION);
		assertThat(RemoteAccessError.ACCESS_RIGHTS.terminateError()).isEqualTo(TerminateError.RDMAP_ACCESS_RIGHTS_VIOLATION);
		assertThat(RemoteAccessError.WRONG_PROTECTION_DOMAIN.terminateError()).isEqualTo(TerminateError.RDMAP_STAG_NOT_ASSOCIATED);
		for (RemoteAccessError error : RemoteAccessError.values()) {
			assertThat(error.terminateError().layer()).isEqualTo(TerminateError.LAYER_RDMAP);
			assertThat(error.terminateError().errorType()).isEqualTo(1);
		}
	}

	@Test
	void remoteAccessErrorsMapToDdpTaggedErrorsLikeSiw() {
		assertThat(RemoteAccessError.INVALID_STAG.ddpTaggedTerminateError()).isEqualTo(TerminateError.DDP_TAGGED_INVALID_STAG);
		assertThat(RemoteAccessError.BASE_OR_BOUNDS.ddpTaggedTerminateError())
			.isEqualTo(TerminateError.DDP_TAGGED_BASE_OR_BOUNDS_VIOLATION);
		assertThat(RemoteAccessError.ACCESS_RIGHTS.ddpTaggedTerminateError()).isEqualTo(TerminateError.DDP_TAGGED_INVALID_STAG);
		assertThat(RemoteAccessError.WRONG_PROTECTION_DOMAIN.ddpTaggedTerminateError())
			.isEqualTo(TerminateError.DDP_TAGGED_STAG_NOT_ASSOCIATED);
	}

	private static void assertCode(TerminateError error, int layer, int errorType, int errorCode) {
		assertThat(error.layer()).as("%s layer", error).isEqualTo(layer);
		assertThat(error.errorType()).as("%s etype", error).isEqualTo(errorType);
		assertThat(error.errorCode()).as("%s ecode", error).isEqualTo(errorCode);
	}

}
