package io.rpcrdma.service;

import java.util.List;

/**
 * A Java interface cannot be bound as an ONC RPC program. Raised at bind time with every
 * problem found, each naming the method, parameter and type involved and saying what to
 * change.
 */
public class ServiceDefinitionException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final List<String> problems;

	public ServiceDefinitionException(Class<?> serviceInterface, List<String> problems) {
		super(message(serviceInterface, problems));
		this.problems = List.copyOf(problems);
	}

	/** @return the problems found, one sentence each */
	public List<String> problems() {
		return this.problems;
	}

	private static String message(Class<?> serviceInterface, List<String> problems) {
		if (problems.size() == 1) {
			return "cannot bind " + serviceInterface.getName() + " as an RPC program: " + problems.get(0);
		}
		StringBuilder text = new StringBuilder("cannot bind " + serviceInterface.getName() + " as an RPC program (" + problems.size()
				+ " problems):");
		for (String problem : problems) {
			text.append("\n - ").append(problem);
		}
		return text.toString();
	}

}
