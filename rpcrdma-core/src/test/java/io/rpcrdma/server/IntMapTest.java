package io.rpcrdma.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

class IntMapTest {

	@Property(tries = 300)
	void findsExactlyTheKeysItWasBuiltFrom(@ForAll @Size(max = 200) Set<Integer> keys, @ForAll int probe) {
		Map<Integer, String> source = new HashMap<>();
		for (int key : keys) {
			source.put(key, "v" + key);
		}

		IntMap<String> map = IntMap.of(source);

		for (int key : keys) {
			assertThat(map.get(key)).isEqualTo("v" + key);
		}
		assertThat(map.get(probe)).isEqualTo(source.get(probe));
	}

}
