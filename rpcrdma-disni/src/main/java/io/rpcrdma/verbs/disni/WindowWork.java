package io.rpcrdma.verbs.disni;

/**
 * A memory-window work request the provider posts on its own behalf (a bind or a local
 * invalidation, {@link WindowNatives}), told its outcome on the completion thread instead of
 * the caller's completion queue.
 */
@FunctionalInterface
interface WindowWork {

	/** For binds: a failed bind puts the queue pair in error, which the connection reports. */
	WindowWork NONE = (completed) -> {
	};

	/**
	 * The work request completed, or was flushed or refused.
	 * @param completed {@code true} if it completed successfully
	 */
	void windowWorkDone(boolean completed);

}
