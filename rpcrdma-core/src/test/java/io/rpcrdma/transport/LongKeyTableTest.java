package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class LongKeyTableTest {

	@Test
	void behavesLikeAMapThroughInsertsRemovalsAndGrowth() {
		LongKeyTable<String> table = new LongKeyTable<>(4);
		Map<Long, String> reference = new HashMap<>();
		SplittableRandom random = new SplittableRandom(42);
		for (int step = 0; step < 200_000; step++) {
			// A small key space forces collisions, long probe runs and backward shifts.
			long key = (random.nextInt(4) == 0) ? random.nextLong() : random.nextInt(300) - 150;
			switch (random.nextInt(3)) {
				case 0 -> {
					String value = "v" + step;
					assertThat(table.putIfAbsent(key, value)).isEqualTo(reference.putIfAbsent(key, value));
				}
				case 1 -> assertThat(table.remove(key)).isEqualTo(reference.remove(key));
				default -> assertThat(table.get(key)).isEqualTo(reference.get(key));
			}
			assertThat(table.size()).isEqualTo(reference.size());
		}
		for (Map.Entry<Long, String> entry : reference.entrySet()) {
			assertThat(table.get(entry.getKey())).isEqualTo(entry.getValue());
		}
	}

	@Test
	void removesOnlyTheExpectedValue() {
		LongKeyTable<String> table = new LongKeyTable<>(4);
		String first = new String("a");
		String other = new String("a");
		table.putIfAbsent(7, first);
		assertThat(table.remove(7, other)).isFalse();
		assertThat(table.get(7)).isSameAs(first);
		assertThat(table.remove(7, first)).isTrue();
		assertThat(table.get(7)).isNull();
		assertThat(table.remove(7, first)).isFalse();
	}

	@Test
	void clearingHandsOverEveryValueOnce() {
		LongKeyTable<Integer> table = new LongKeyTable<>(2);
		for (int i = 0; i < 100; i++) {
			table.putIfAbsent(i * 1_000_003L, i);
		}
		List<Integer> drained = new ArrayList<>();
		table.clear(drained::add);
		assertThat(drained).hasSize(100).doesNotHaveDuplicates();
		assertThat(table.isEmpty()).isTrue();
		assertThat(table.get(0)).isNull();
	}

	@Test
	void refusesNull() {
		assertThatThrownBy(() -> new LongKeyTable<String>(4).putIfAbsent(1, null))
			.isInstanceOf(IllegalArgumentException.class);
	}

}
