package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.rpcrdma.service.CallSide;

/**
 * Names service call observations {@code rpcrdma.server.calls} and {@code rpcrdma.client.calls}
 * (so the default meter handler records timers of those names) with low-cardinality keys
 * {@code service}, {@code method}, {@code outcome} and {@code conveyance}, and the
 * high-cardinality key {@code endpoint} (for traces only). Replace it for both sides with a
 * {@code GlobalObservationConvention<RpcRdmaCallContext>} bean.
 */
public final class DefaultRpcRdmaCallObservationConvention implements ObservationConvention<RpcRdmaCallContext> {

	/** The convention of the server side. */
	public static final DefaultRpcRdmaCallObservationConvention SERVER = new DefaultRpcRdmaCallObservationConvention(
			CallSide.SERVER);

	/** The convention of the client side. */
	public static final DefaultRpcRdmaCallObservationConvention CLIENT = new DefaultRpcRdmaCallObservationConvention(
			CallSide.CLIENT);

	/** The value of {@code outcome} and {@code conveyance} while a call runs. */
	static final String UNKNOWN = "unknown";

	private final CallSide side;

	private final String name;

	private DefaultRpcRdmaCallObservationConvention(CallSide side) {
		this.side = Objects.requireNonNull(side, "side");
		this.name = (side == CallSide.SERVER) ? "rpcrdma.server.calls" : "rpcrdma.client.calls";
	}

	/**
	 * @param side client or server
	 * @return the convention of that side
	 */
	public static DefaultRpcRdmaCallObservationConvention of(CallSide side) {
		return (side == CallSide.SERVER) ? SERVER : CLIENT;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof RpcRdmaCallContext call && call.side() == this.side;
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public String getContextualName(RpcRdmaCallContext context) {
		// OpenTelemetry's RPC span name convention: service/method.
		return context.service().name() + "/" + context.procedure().name();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(RpcRdmaCallContext context) {
		return KeyValues.of(KeyValue.of("service", context.service().name()),
				KeyValue.of("method", context.procedure().name()),
				KeyValue.of("outcome", (context.outcome() != null) ? context.outcome().tag() : UNKNOWN),
				KeyValue.of("conveyance", (context.conveyance() != null) ? context.conveyance().tag() : UNKNOWN));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(RpcRdmaCallContext context) {
		return (context.endpoint() != null) ? KeyValues.of(KeyValue.of("endpoint", context.endpoint()))
				: KeyValues.empty();
	}

}
