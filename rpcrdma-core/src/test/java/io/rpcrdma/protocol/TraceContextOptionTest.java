package io.rpcrdma.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The trace-context option's rdma_optinfo ({@link TraceContextOption}): the W3C values and the
 * wrapped call header round-trip, and what is out of bounds is refused.
 */
class TraceContextOptionTest {

	private static final TraceContext CONTEXT = new TraceContext(
			"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");

	@Test
	void theContextAndTheWrappedHeaderRoundTrip() {
		Rdma2Nomsg call = new Rdma2Nomsg(7, 32, new ChunkLists(
				List.of(new ReadSegment(0, 0x1234, 5000, 0x10000L)), List.of(), null));
		byte[] info = TraceContextOption.encode(CONTEXT, call);

		TraceContextOption.TracedCall traced = TraceContextOption.decode(ByteBuffer.wrap(info));

		assertThat(traced.context()).isEqualTo(CONTEXT);
		HeaderDecodeResult inner = new TransportHeaderDecoder().decode(traced.callHeader().duplicate());
		assertThat(inner).isInstanceOf(HeaderDecodeResult.Valid.class);
		assertThat(((HeaderDecodeResult.Valid) inner).header()).isEqualTo(call);
	}

	@Test
	void onlyCallHeadersAreWrapped() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TraceContextOption.encode(CONTEXT, new Rdma2ErrInvalOption(7, 1)));
	}

	@Test
	void valuesOutsideTheW3cBoundsOrAlphabetAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new TraceContext("", ""));
		assertThatIllegalArgumentException().isThrownBy(() -> new TraceContext("x".repeat(129), ""));
		assertThatIllegalArgumentException().isThrownBy(() -> new TraceContext("00-a", "s".repeat(513)));
		assertThatIllegalArgumentException().isThrownBy(() -> new TraceContext("00-\u00e9", ""))
			.withMessageContaining("printable ASCII");
		assertThat(new TraceContext("00-a", null).tracestate()).isEmpty();
	}

	@Test
	void malformedOptionInfoIsRefusedAsInvalidOptionInfo() {
		ByteBuffer tooLong = ByteBuffer.allocate(8).putInt(4096).putInt(0).flip();
		assertThatThrownBy(() -> TraceContextOption.decode(tooLong)).isInstanceOf(InvalidOptionInfoException.class)
			.extracting((ex) -> ((InvalidOptionInfoException) ex).fault())
			.isEqualTo(HeaderFault.INVALID_OPTION_INFO);
		// A context with no call header after it.
		byte[] info = TraceContextOption.encode(CONTEXT, new Rdma2Msg(1, 1, ChunkLists.EMPTY));
		ByteBuffer contextOnly = ByteBuffer.wrap(info, 0, info.length - 28).slice();
		assertThatThrownBy(() -> TraceContextOption.decode(contextOnly)).isInstanceOf(InvalidOptionInfoException.class)
			.hasMessageContaining("no rdma_call header");
	}

}
