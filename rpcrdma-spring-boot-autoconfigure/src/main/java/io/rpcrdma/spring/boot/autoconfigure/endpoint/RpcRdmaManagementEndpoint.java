package io.rpcrdma.spring.boot.autoconfigure.endpoint;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntFunction;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import io.rpcrdma.client.RpcClient;
import io.rpcrdma.client.RpcClientPool;
import io.rpcrdma.client.balance.InstanceState;
import io.rpcrdma.client.balance.InstanceStats;
import io.rpcrdma.oncrpc.VersionRange;
import io.rpcrdma.server.RpcServer;
import io.rpcrdma.service.ExportedService;
import io.rpcrdma.service.ProcedureDescriptor;
import io.rpcrdma.service.ProgramNumbers;
import io.rpcrdma.service.ServiceDescriptor;
import io.rpcrdma.spring.boot.autoconfigure.management.RpcRdmaRuntime;
import io.rpcrdma.transport.CreditBudget;
import io.rpcrdma.transport.CreditWindow;
import io.rpcrdma.transport.InlineThresholds;
import io.rpcrdma.transport.RpcRdmaClientConnection;
import io.rpcrdma.transport.RpcRdmaServerConnection;

/**
 * The {@code rpcrdma} actuator endpoint, read-only: the provider, the exported programs with
 * their versions and procedures, the server's connections and the client endpoints, each
 * connection with its RPC-over-RDMA version, inline thresholds (RFC 8166 §3.3.2) and credit
 * state (RFC 8166 §3.3.1), and the servers each client balances over with their state
 * ({@code UP}, {@code EJECTED}, {@code PROBING}, {@code DRAINING}). Reading it changes nothing
 * and opens no connection.
 */
@Endpoint(id = "rpcrdma", defaultAccess = Access.READ_ONLY)
public final class RpcRdmaManagementEndpoint {

	private final RpcRdmaRuntime runtime;

	/**
	 * @param runtime what to describe
	 */
	public RpcRdmaManagementEndpoint(RpcRdmaRuntime runtime) {
		this.runtime = Objects.requireNonNull(runtime, "runtime");
	}

	/**
	 * @return the description of the whole infrastructure
	 */
	@ReadOperation
	public RpcRdmaDescriptor rpcrdma() {
		return new RpcRdmaDescriptor(this.runtime.providerName().orElse(null), server(), clients(), balancing());
	}

	private ServerDescriptor server() {
		Optional<RpcServer> running = this.runtime.server();
		List<ProgramDescriptor> programs = this.runtime.exportedServices()
			.stream()
			.map(RpcRdmaManagementEndpoint::program)
			.sorted(Comparator.comparing(ProgramDescriptor::program).thenComparingLong(ProgramDescriptor::version))
			.toList();
		List<ServerConnectionDescriptor> connections = running
			.map((server) -> server.connections().stream().map(RpcRdmaManagementEndpoint::serverConnection).toList())
			.orElse(List.of());
		CreditsDescriptor credits = running.map(RpcServer::creditBudget)
			.map((budget) -> new CreditsDescriptor(budget.total(), budget.maxPerConnection(), budget.granted()))
			.orElse(null);
		ConnectionCapsDescriptor caps = running.map(RpcServer::transport)
			.map((transport) -> new ConnectionCapsDescriptor(transport.connectionLimits().perPeer(),
					transport.connectionLimits().total(), transport.heldConnections(),
					transport.refusedAtConnectionCaps(), transport.refusedConnections()))
			.orElse(null);
		return new ServerDescriptor(this.runtime.serverEnabled(), running.isPresent(), this.runtime.serverPort(),
				programs, credits, caps, connections);
	}

	private static ProgramDescriptor program(ExportedService exported) {
		ServiceDescriptor service = exported.descriptor();
		List<ProcedureSummary> procedures = service.procedures()
			.stream()
			.map(RpcRdmaManagementEndpoint::procedure)
			.toList();
		return new ProgramDescriptor(service.name(), ProgramNumbers.hex(service.program()),
				Integer.toUnsignedLong(service.program()), Integer.toUnsignedLong(service.version()),
				service.serviceInterface().getName(), exported.implementation().getClass().getName(), procedures);
	}

	private static ProcedureSummary procedure(ProcedureDescriptor procedure) {
		return new ProcedureSummary(Integer.toUnsignedLong(procedure.number()), procedure.name(), procedure.idempotent(),
				procedure.hasBulk());
	}

	private static ServerConnectionDescriptor serverConnection(RpcRdmaServerConnection connection) {
		int version = connection.version();
		return new ServerConnectionDescriptor(address(connection.remoteAddress()), (version != 0) ? version : null,
				thresholds(connection.supportedVersions(), connection::inlineThresholds), connection.grant(),
				connection.outstanding(), connection.awaitingDone(), connection.creditViolations());
	}

	private Map<String, ClientDescriptor> clients() {
		Map<String, ClientDescriptor> clients = new TreeMap<>();
		this.runtime.clientPools().forEach((name, pool) -> clients.put(name, client(pool)));
		return clients;
	}

	private Map<String, BalancingDescriptor> balancing() {
		Map<String, BalancingDescriptor> balancing = new TreeMap<>();
		this.runtime.clientInstances()
			.forEach((name, instances) -> balancing.put(name, new BalancingDescriptor(this.runtime.clientRetries(name),
					instances.stream().map(RpcRdmaManagementEndpoint::instance).toList())));
		return balancing;
	}

	private static InstanceDescriptor instance(InstanceStats stats) {
		return new InstanceDescriptor(stats.instance().id(), address(stats.instance().address()), stats.state(),
				stats.outstanding(), stats.consecutiveFailures(), stats.lastFailure(), stats.lastFailureTime());
	}

	private static ClientDescriptor client(RpcClientPool pool) {
		List<ClientConnectionDescriptor> connections = new ArrayList<>();
		for (RpcClient client : pool.connections()) {
			connections.add(clientConnection(client));
		}
		String lastError = pool.lastFailure().map(Throwable::getMessage).orElse(null);
		return new ClientDescriptor(pool.endpoint(), pool.consecutiveFailures(), lastError, pool.retries(), connections);
	}

	private static ClientConnectionDescriptor clientConnection(RpcClient client) {
		if (client.transport() instanceof RpcRdmaClientConnection connection) {
			CreditWindow credits = connection.credits();
			return new ClientConnectionDescriptor(address(connection.remoteAddress()), client.isOpen(),
					connection.version(), connection.isVersionConfirmed(),
					thresholds(connection.supportedVersions(), connection::inlineThresholds), credits.limit(),
					credits.outstanding(), credits.waiting(), client.pendingCalls());
		}
		return new ClientConnectionDescriptor(client.endpoint(), client.isOpen(), null, null, List.of(), null, null, null,
				client.pendingCalls());
	}

	private static List<InlineThresholds> thresholds(VersionRange versions,
			IntFunction<InlineThresholds> of) {
		List<InlineThresholds> thresholds = new ArrayList<>();
		for (int version = versions.low(); version <= versions.high(); version++) {
			thresholds.add(of.apply(version));
		}
		return thresholds;
	}

	private static String address(InetSocketAddress address) {
		return (address != null) ? address.getHostString() + ":" + address.getPort() : null;
	}

	/**
	 * The endpoint's answer.
	 * @param provider the RDMA provider's name
	 * @param server the server
	 * @param clients the client endpoints by pool name: the client's name, or
	 * {@code name[host:port]} for each server of a client with several
	 * @param balancing each client's servers as it balances over them, by client name, once its
	 * first call has read them
	 */
	public record RpcRdmaDescriptor(String provider, ServerDescriptor server, Map<String, ClientDescriptor> clients,
			Map<String, BalancingDescriptor> balancing) implements OperationResponseBody {
	}

	/**
	 * The servers of one client.
	 * @param failovers attempts sent again after a failed one, to another server or to the
	 * same after a backoff
	 * @param instances its servers, those draining included
	 */
	public record BalancingDescriptor(long failovers, List<InstanceDescriptor> instances) {
	}

	/**
	 * One server of a client.
	 * @param id the instance's id
	 * @param address where it listens
	 * @param state whether it takes calls
	 * @param outstanding calls sent to it and not yet ended
	 * @param consecutiveFailures connection failures since its last success
	 * @param lastFailure why its last connection failure failed, {@code null} if none did
	 * @param lastFailureTime when, {@code null} if never
	 */
	public record InstanceDescriptor(String id, String address, InstanceState state, int outstanding,
			int consecutiveFailures, String lastFailure, Instant lastFailureTime) {
	}

	/**
	 * The server.
	 * @param enabled whether the application asked for one
	 * @param listening whether it listens now
	 * @param port the bound port, -1 when not listening
	 * @param programs the exported program versions
	 * @param credits the credit budget all connections share, {@code null} when not listening
	 * @param connectionCaps the caps on connections and what they refused, {@code null} when not
	 * listening
	 * @param connections the requesters connected now
	 */
	public record ServerDescriptor(boolean enabled, boolean listening, int port, List<ProgramDescriptor> programs,
			CreditsDescriptor credits, ConnectionCapsDescriptor connectionCaps,
			List<ServerConnectionDescriptor> connections) {
	}

	/**
	 * The caps on the connections the server holds at once (a peer is an IP address), and what
	 * it refused since it started.
	 * @param maxPerPeer {@code rpcrdma.server.max-connections-per-peer}
	 * @param max {@code rpcrdma.server.max-connections}
	 * @param held the connections holding a slot now
	 * @param refusedAtCaps connection requests refused because their peer or the server held its cap
	 * @param refused connection requests refused for any reason (caps, or want of resources)
	 */
	public record ConnectionCapsDescriptor(int maxPerPeer, int max, int held, long refusedAtCaps, long refused) {
	}

	/**
	 * One exported program version (RFC 5531 §7).
	 * @param name the service's name
	 * @param program the program number in hex
	 * @param programNumber the program number
	 * @param version the version number
	 * @param serviceInterface the Java interface
	 * @param implementation the implementation's class
	 * @param procedures the procedures (the NULL procedure 0 is implicit)
	 */
	public record ProgramDescriptor(String name, String program, long programNumber, long version,
			String serviceInterface, String implementation, List<ProcedureSummary> procedures) {
	}

	/**
	 * One procedure.
	 * @param number the procedure number
	 * @param name the method's name
	 * @param idempotent whether retries and the duplicate request cache treat it as idempotent
	 * @param bulk whether an argument or the result is DDP-eligible (RFC 8166 §3.4.1)
	 */
	public record ProcedureSummary(long number, String name, boolean idempotent, boolean bulk) {
	}

	/**
	 * The server's credit budget (RFC 8166 §3.3.1).
	 * @param total the credits all connections share
	 * @param maxPerConnection the most one connection is granted
	 * @param granted the credits granted now
	 */
	public record CreditsDescriptor(int total, int maxPerConnection, int granted) {
	}

	/**
	 * One requester connected to the server.
	 * @param remoteAddress the requester
	 * @param version the version of its latest call, {@code null} before the first
	 * @param inlineThresholds the inline thresholds of each version this side speaks
	 * @param creditsGranted the credits granted to it
	 * @param creditsInUse its requests received and not yet answered
	 * @param awaitingDone replies whose Read chunks await RDMA_DONE
	 * @param creditViolations requests that arrived beyond its grant
	 */
	public record ServerConnectionDescriptor(String remoteAddress, Integer version,
			List<InlineThresholds> inlineThresholds, int creditsGranted, int creditsInUse, int awaitingDone,
			int creditViolations) {
	}

	/**
	 * One client endpoint.
	 * @param endpoint the server it calls
	 * @param consecutiveFailures failed connection attempts and lost connections since a connection last opened
	 * @param lastError why the last failed attempt failed, {@code null} if none did
	 * @param retries idempotent calls sent again on another connection
	 * @param connections its open connections
	 */
	public record ClientDescriptor(String endpoint, int consecutiveFailures, String lastError, long retries,
			List<ClientConnectionDescriptor> connections) {
	}

	/**
	 * One connection of a client endpoint.
	 * @param remoteAddress the server
	 * @param open whether it is usable
	 * @param version the version calls are sent in
	 * @param versionConfirmed whether a reply confirmed that version
	 * @param inlineThresholds the inline thresholds of each version this side speaks
	 * @param creditsGranted the server's grant, as used
	 * @param creditsInUse credits held by calls awaiting replies
	 * @param creditsWaiting calls waiting for a credit
	 * @param pendingCalls calls awaiting replies
	 */
	public record ClientConnectionDescriptor(String remoteAddress, boolean open, Integer version,
			Boolean versionConfirmed, List<InlineThresholds> inlineThresholds, Integer creditsGranted,
			Integer creditsInUse, Integer creditsWaiting, int pendingCalls) {
	}

}
