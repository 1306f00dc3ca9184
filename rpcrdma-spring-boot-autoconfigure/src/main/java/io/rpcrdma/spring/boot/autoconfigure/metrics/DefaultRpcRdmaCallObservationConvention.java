package io.rpcrdma.spring.boot.autoconfigure.metrics;

import java.util.Objects;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.rpcrdma.service.CallSide;

/**
 * Names service call observations {@code rpcrdma.server.calls} and {@code rpcrdma.client.calls}
 * (so the default meter handler records timers of those names) and spans
 * {@code service/method}, with low-cardinality keys {@code service}, {@code method},
 * {@code outcome} and {@code conveyance}, and OpenTelemetry's RPC semantic conventions
 * {@code rpc.system} ({@value #RPC_SYSTEM}), {@code rpc.service} and {@code rpc.method}; the
 * high-cardinality keys (for traces only) are {@code endpoint} and, on the client,
 * {@code server.address} and {@code server.port}, on the server {@code client.address}.
 * Replace it for both sides with a {@code GlobalObservationConvention<Observation.Context>}
 * bean whose {@code supportsContext} accepts {@link RpcRdmaCallContext}s.
 */
public final class DefaultRpcRdmaCallObservationConvention implements ObservationConvention<Observation.Context> {

	/**
	 * The value of {@code rpc.system}: OpenTelemetry names the RPC systems it knows (grpc,
	 * java_rmi, dotnet_wcf, apache_dubbo, connect_rpc) and lets others name themselves; ONC
	 * RPC (RFC 5531) is the system here, RPC-over-RDMA only its transport.
	 */
	public static final String RPC_SYSTEM = "onc_rpc";

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
	public String getContextualName(Observation.Context context) {
		RpcRdmaCallContext call = (RpcRdmaCallContext) context;
		// OpenTelemetry's RPC span name convention: service/method.
		return call.service().name() + "/" + call.procedure().name();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(Observation.Context context) {
		RpcRdmaCallContext call = (RpcRdmaCallContext) context;
		String service = call.service().name();
		String method = call.procedure().name();
		return KeyValues.of(KeyValue.of("service", service), KeyValue.of("method", method),
				KeyValue.of("outcome", (call.outcome() != null) ? call.outcome().tag() : UNKNOWN),
				KeyValue.of("conveyance", (call.conveyance() != null) ? call.conveyance().tag() : UNKNOWN),
				KeyValue.of("rpc.system", RPC_SYSTEM), KeyValue.of("rpc.service", service),
				KeyValue.of("rpc.method", method));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(Observation.Context context) {
		RpcRdmaCallContext call = (RpcRdmaCallContext) context;
		String endpoint = call.endpoint();
		if (endpoint == null) {
			return KeyValues.empty();
		}
		if (call.side() == CallSide.SERVER) {
			return KeyValues.of(KeyValue.of("endpoint", endpoint), KeyValue.of("client.address", endpoint));
		}
		Endpoints.HostPort server = Endpoints.parse(endpoint);
		return (server != null) ? KeyValues.of(KeyValue.of("endpoint", endpoint),
				KeyValue.of("server.address", server.host()), KeyValue.of("server.port", Integer.toString(server.port())))
				: KeyValues.of(KeyValue.of("endpoint", endpoint));
	}

}
