package io.rpcrdma.service;

import java.util.Objects;

/**
 * An implementation cannot be served: it implements no {@link RpcProgram} interface, or
 * another implementation already serves one of its program versions.
 */
public class ServiceExportException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final Reason reason;

	/**
	 * Why an implementation cannot be served.
	 */
	public enum Reason {

		/** It implements no interface annotated {@link RpcProgram}. */
		NO_PROGRAM_INTERFACE,

		/** One of its program versions is already served, or declared twice. */
		PROGRAM_VERSION_TAKEN,

		/** Another reason, given by the message. */
		OTHER

	}

	/**
	 * @param message what is wrong and what to do
	 */
	public ServiceExportException(String message) {
		this(Reason.OTHER, message);
	}

	/**
	 * @param reason why
	 * @param message what is wrong and what to do
	 */
	public ServiceExportException(Reason reason, String message) {
		super(message);
		this.reason = Objects.requireNonNull(reason, "reason");
	}

	/**
	 * Why the implementation cannot be served.
	 * @return the reason
	 */
	public Reason reason() {
		return this.reason;
	}

}
