package io.rpcrdma.verbs.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.rpcrdma.verbs.MemoryRegion;

class DomainRegionsTest {

	private final List<String> deregistered = new ArrayList<>();

	private final DomainRegions<MemoryRegion> regions = new DomainRegions<>();

	@Test
	void closingDeregistersTheRegionsLeftOnce() {
		this.regions.register(() -> region("kept"));
		MemoryRegion gone = this.regions.register(() -> region("gone"));
		this.regions.deregistered(gone);
		assertThat(this.regions.count()).isEqualTo(1);
		assertThat(this.regions.close()).isTrue();
		assertThat(this.regions.isClosed()).isTrue();
		assertThat(this.deregistered).containsExactly("kept");
		assertThat(this.regions.close()).isFalse();
		assertThat(this.deregistered).containsExactly("kept");
	}

	@Test
	void aClosedDomainRegistersNothing() {
		this.regions.close();
		assertThatIllegalStateException().isThrownBy(() -> this.regions.register(() -> {
			throw new AssertionError("registered in a closed domain");
		})).withMessage("The protection domain is closed; allocate a new one to register memory");
	}

	@Test
	void aRegistrationThatACloseOvertakesIsTakenBack() {
		assertThatIllegalStateException().isThrownBy(() -> this.regions.register(() -> {
			MemoryRegion region = region("raced");
			this.regions.close();
			return region;
		})).withMessage("The protection domain was closed during registration");
		assertThat(this.deregistered).containsExactly("raced");
	}

	/** A region that records its deregistration, and answers nothing else. */
	private MemoryRegion region(String name) {
		return Stand.in(MemoryRegion.class, name, Set.of("deregister"), (region, method) -> {
			this.deregistered.add(name);
			this.regions.deregistered(region);
		});
	}

}
