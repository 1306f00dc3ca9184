package io.rpcrdma.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

import io.rpcrdma.service.ResultTooLargeException;
import io.rpcrdma.spring.boot.autoconfigure.keys.UnknownProperty;
import io.rpcrdma.verbs.disni.DisniRequirement;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The docs quote the messages users see as the code writes them (issue #38, finding 5):
 * wrapped lines are compared as one, so a paragraph may wrap anywhere.
 */
class DocumentedMessagesTest {

	private static final Path DOCS = Path.of("..", "docs");

	@Test
	void gettingStartedShowsTheDisniReportOfAMachineWithoutAnything() throws IOException {
		String needs = Arrays.stream(DisniRequirement.values())
			.map(DisniRequirement::description)
			.collect(Collectors.joining("; "));
		String description = "rpcrdma.provider is 'disni', which cannot run here: " + DisniRequirement.values().length
				+ " requirements are missing: " + needs + ". Or set rpcrdma.provider to another provider (available "
				+ "here: loopback, siw); see docs/hardware.md.";
		String action = Arrays.stream(DisniRequirement.values())
			.map((requirement) -> "- " + requirement.remedy())
			.collect(Collectors.joining("\n"));
		String guide = Files.readString(DOCS.resolve("getting-started.md"));
		assertThat(guide).contains("Description:\n\n" + description + "\n\nAction:\n\n" + action + "\n```");
	}

	@Test
	void troubleshootingQuotesTheResultTooLargeRemedy() throws IOException {
		assertThat(flat("troubleshooting.md")).contains(ResultTooLargeException.REMEDY);
	}

	@Test
	void troubleshootingQuotesTheUnknownPropertyReports() throws IOException {
		String misspelt = new UnknownProperty("rpcrdma.server.prot", Optional.of("… from property source …"),
				Optional.of("rpcrdma.server.port"),
				Optional.empty())
			.describe();
		String unaddressed = new UnknownProperty("rpcrdma.client.greeter.adress", Optional.empty(),
				Optional.of("rpcrdma.client.greeter.address"), Optional.of("greeter"))
			.describe();
		assertThat(flat("troubleshooting.md")).contains(misspelt).contains(unaddressed);
	}

	/** The doc with each run of white space, line ends included, as one space. */
	private static String flat(String doc) throws IOException {
		return Files.readString(DOCS.resolve(doc)).replaceAll("\\s+", " ");
	}

}
