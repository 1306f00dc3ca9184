package io.rpcrdma.oncrpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.rpcrdma.client.ProgramUnavailableException;
import io.rpcrdma.client.RemoteCall;

class ProgramNumberTextTest {

	@Test
	void programNumbersAreUnsignedHex() {
		assertThat(ProgramNumberText.hex(100003)).isEqualTo("0x186a3");
		assertThat(ProgramNumberText.hex(0x20000500)).isEqualTo("0x20000500");
		assertThat(ProgramNumberText.hex(0x80000001)).isEqualTo("0x80000001");
	}

	@Test
	void everyCallExceptionNamesItsProgramInHexAndItsVersionAndProcedureInDecimal() {
		RemoteCall call = new RemoteCall("rdma://server:20049", 0x2a, 100003, 3, 17, "Files.read");

		assertThat(call).hasToString("Files.read (program 0x186a3 version 3 procedure 17, xid 0x0000002a) at rdma://server:20049");
		assertThat(new ProgramUnavailableException(call)).hasMessageStartingWith("Program 0x186a3 is not available");
	}

}
