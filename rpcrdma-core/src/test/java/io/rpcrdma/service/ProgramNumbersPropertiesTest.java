package io.rpcrdma.service;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A derived program number is in the user-defined range for any interface name and depends
 * on the name alone.
 */
class ProgramNumbersPropertiesTest {

	@Property
	void derivedNumberIsInTheUserDefinedRange(@ForAll String name) {
		int number = ProgramNumbers.derive(name);
		assertThat(number).isBetween(ProgramNumbers.USER_DEFINED_FIRST, ProgramNumbers.USER_DEFINED_LAST);
		assertThat(ProgramNumbers.derive(new String(name.toCharArray()))).isEqualTo(number);
	}

}
