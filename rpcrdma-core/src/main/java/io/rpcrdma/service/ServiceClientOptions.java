package io.rpcrdma.service;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.rpcrdma.log.Durations;

/**
 * How a service proxy calls.
 *
 * @param timeout the deadline of each call, retries of idempotent calls included
 * @param maxReplySize the reply size to make room for when a result's XDR has no bound (a
 * string, a list, unbounded opaque data): beyond the inline threshold the transport offers a
 * Reply chunk of this size (RFC 8166 §3.5.4). Results with a bound get exactly their bound.
 * A larger result fails the call with {@link ResultTooLargeException}; mark results that
 * may be large {@link Bulk} instead, so they travel in a Write chunk.
 * @param ddpThreshold the size from which {@code byte[]} and {@link java.nio.ByteBuffer}
 * values not marked {@link Bulk} are moved by RDMA rather than inline (RFC 8166 §6)
 * @param interceptors act around every call, the first outermost ({@link RpcClientInterceptor})
 */
public record ServiceClientOptions(Duration timeout, int maxReplySize, int ddpThreshold,
		List<RpcClientInterceptor> interceptors) {

	/** 30 seconds, 64 KiB, 4 KiB, no interceptor. */
	public static final ServiceClientOptions DEFAULTS = new ServiceClientOptions(Duration.ofSeconds(30), 64 * 1024, 4096);

	/**
	 * Options without interceptors.
	 * @param timeout the deadline of each call
	 * @param maxReplySize the reply size to make room for
	 * @param ddpThreshold the size from which values go by RDMA
	 */
	public ServiceClientOptions(Duration timeout, int maxReplySize, int ddpThreshold) {
		this(timeout, maxReplySize, ddpThreshold, List.of());
	}

	public ServiceClientOptions {
		interceptors = List.copyOf(Objects.requireNonNull(interceptors, "interceptors"));
		Objects.requireNonNull(timeout, "timeout");
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, got " + Durations.written(timeout));
		}
		if (maxReplySize < 64) {
			throw new IllegalArgumentException("maxReplySize must be at least 64 bytes, got " + maxReplySize);
		}
		if (ddpThreshold < 0) {
			throw new IllegalArgumentException("ddpThreshold must not be negative, got " + ddpThreshold);
		}
	}

	/**
	 * @param value the call deadline
	 * @return a copy with it
	 */
	public ServiceClientOptions withTimeout(Duration value) {
		return new ServiceClientOptions(value, this.maxReplySize, this.ddpThreshold, this.interceptors);
	}

	/**
	 * @param value the reply size for unbounded results
	 * @return a copy with it
	 */
	public ServiceClientOptions withMaxReplySize(int value) {
		return new ServiceClientOptions(this.timeout, value, this.ddpThreshold, this.interceptors);
	}

	/**
	 * @param value the DDP threshold
	 * @return a copy with it
	 */
	public ServiceClientOptions withDdpThreshold(int value) {
		return new ServiceClientOptions(this.timeout, this.maxReplySize, value, this.interceptors);
	}

	/**
	 * These options with interceptors around every call.
	 * @param value the interceptors, the first outermost
	 * @return the new options
	 */
	public ServiceClientOptions withInterceptors(List<RpcClientInterceptor> value) {
		return new ServiceClientOptions(this.timeout, this.maxReplySize, this.ddpThreshold, value);
	}

}
