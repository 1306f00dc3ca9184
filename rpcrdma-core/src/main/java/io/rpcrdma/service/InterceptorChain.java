package io.rpcrdma.service;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the client's and the server's interceptor chains share: walking the interceptors in
 * order, the first outermost, then the call itself, and the attributes the interceptors of one
 * call share.
 *
 * @param <I> the kind of interceptor
 */
abstract class InterceptorChain<I> {

	private final List<I> interceptors;

	private int next;

	private Map<String, Object> attributes;

	InterceptorChain(List<I> interceptors) {
		this.interceptors = interceptors;
	}

	/**
	 * Values the interceptors of this call share, made on first use.
	 * @return the call's attributes
	 */
	public Map<String, Object> attributes() {
		if (this.attributes == null) {
			this.attributes = new HashMap<>();
		}
		return this.attributes;
	}

	/**
	 * Passes the call to the next interceptor, or makes it.
	 * @return the method's result (for a future-returning method, the future)
	 * @throws Throwable what the call failed with
	 */
	public Object proceed() throws Throwable {
		int index = this.next;
		if (index < this.interceptors.size()) {
			this.next = index + 1;
			try {
				return intercept(this.interceptors.get(index));
			}
			finally {
				// An interceptor may proceed again (a retry): the ones after it run again too.
				this.next = index;
			}
		}
		return call();
	}

	/** Gives the call to one interceptor. */
	abstract Object intercept(I interceptor) throws Throwable;

	/** Makes the call itself, after the last interceptor. */
	abstract Object call() throws Throwable;

}
