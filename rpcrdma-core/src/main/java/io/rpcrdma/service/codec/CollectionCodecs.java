package io.rpcrdma.service.codec;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.rpcrdma.xdr.Xdr;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;
import io.rpcrdma.xdr.XdrInvalidValueException;

/**
 * Variable-length arrays (RFC 4506 §4.13) for Java arrays, {@link List}, {@link Set} and
 * {@link Map} (an array of key/value pairs). Every decoder checks the element count against
 * {@link CodecLimits#maxCollectionSize()} and against the bytes that remain (each element
 * takes at least its codec's {@link XdrCodec#minEncodedSize()}) before allocating. Decoded
 * lists are {@link ArrayList}s, sets {@link LinkedHashSet}s and maps {@link LinkedHashMap}s
 * in wire order; a set or map whose data repeats an element or key is rejected, since an
 * encoder of a set never sends one.
 */
final class CollectionCodecs {

	private CollectionCodecs() {
	}

	static void checkCount(int count, int max, String what) {
		if (count > max) {
			throw new XdrInvalidValueException(what + " of " + count + " elements is longer than the limit of " + max
					+ "; the peer would reject it");
		}
	}

	abstract static class ElementsCodec<C, E> implements XdrCodec<C> {

		final XdrCodec<E> element;

		final int maxCount;

		private final String what;

		ElementsCodec(XdrCodec<E> element, int maxCount, String what) {
			this.element = element;
			this.maxCount = maxCount;
			this.what = what;
		}

		abstract int size(C value);

		abstract Iterable<E> elements(C value);

		@Override
		public void encode(C value, XdrEncoder out) {
			int size = size(Nulls.require(value, "array"));
			checkCount(size, this.maxCount, this.what);
			out.writeInt(size);
			for (E item : elements(value)) {
				this.element.encode(item, out);
			}
		}

		@Override
		public int encodedSize(C value) {
			int size = Xdr.UNIT;
			for (E item : elements(Nulls.require(value, "array"))) {
				size += this.element.encodedSize(item);
			}
			return size;
		}

		int readCount(XdrDecoder in) {
			return in.readArrayCount(this.what, this.maxCount, Math.max(Xdr.UNIT, this.element.minEncodedSize()));
		}

		@Override
		public XdrShape shape() {
			return new XdrShape.ArrayOf(this.element, Integer.MAX_VALUE);
		}

		@Override
		public String toString() {
			return this.what + "<" + this.element + ">";
		}

	}

	static final class ListCodec<E> extends ElementsCodec<List<E>, E> {

		ListCodec(XdrCodec<E> element, int maxCount) {
			super(element, maxCount, "list");
		}

		@Override
		int size(List<E> value) {
			return value.size();
		}

		@Override
		Iterable<E> elements(List<E> value) {
			return value;
		}

		@Override
		public List<E> decode(XdrDecoder in) {
			int count = readCount(in);
			List<E> list = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				list.add(this.element.decode(in));
			}
			return list;
		}

	}

	/** {@link Collection} and {@link Iterable} are decoded as lists. */
	static final class CollectionCodec<E> extends ElementsCodec<Collection<E>, E> {

		CollectionCodec(XdrCodec<E> element, int maxCount) {
			super(element, maxCount, "collection");
		}

		@Override
		int size(Collection<E> value) {
			return value.size();
		}

		@Override
		Iterable<E> elements(Collection<E> value) {
			return value;
		}

		@Override
		public Collection<E> decode(XdrDecoder in) {
			int count = readCount(in);
			List<E> list = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				list.add(this.element.decode(in));
			}
			return list;
		}

	}

	static final class SetCodec<E> extends ElementsCodec<Set<E>, E> {

		SetCodec(XdrCodec<E> element, int maxCount) {
			super(element, maxCount, "set");
		}

		@Override
		int size(Set<E> value) {
			return value.size();
		}

		@Override
		Iterable<E> elements(Set<E> value) {
			return value;
		}

		@Override
		public Set<E> decode(XdrDecoder in) {
			int count = readCount(in);
			Set<E> set = new LinkedHashSet<>(capacity(count));
			for (int i = 0; i < count; i++) {
				if (!set.add(this.element.decode(in))) {
					throw new XdrInvalidValueException("XDR array for a set repeats element " + i + "; a set's elements are distinct");
				}
			}
			return set;
		}

	}

	static final class ObjectArrayCodec<E> extends ElementsCodec<Object[], E> {

		private final Class<?> componentType;

		ObjectArrayCodec(XdrCodec<E> element, Class<?> componentType, int maxCount) {
			super(element, maxCount, "array");
			this.componentType = componentType;
		}

		@Override
		int size(Object[] value) {
			return value.length;
		}

		@Override
		@SuppressWarnings("unchecked")
		Iterable<E> elements(Object[] value) {
			return (List<E>) Arrays.asList(value);
		}

		@Override
		@SuppressWarnings("unchecked")
		public void encode(Object[] value, XdrEncoder out) {
			checkCount(Nulls.require(value, "array").length, this.maxCount, "array");
			out.writeInt(value.length);
			for (Object item : value) {
				this.element.encode((E) item, out);
			}
		}

		@Override
		@SuppressWarnings("unchecked")
		public int encodedSize(Object[] value) {
			int size = Xdr.UNIT;
			for (Object item : Nulls.require(value, "array")) {
				size += this.element.encodedSize((E) item);
			}
			return size;
		}

		@Override
		public Object[] decode(XdrDecoder in) {
			int count = readCount(in);
			Object[] array = (Object[]) Array.newInstance(this.componentType, count);
			for (int i = 0; i < count; i++) {
				array[i] = this.element.decode(in);
			}
			return array;
		}

	}

	static final class MapCodec<K, V> implements XdrCodec<Map<K, V>> {

		private final XdrCodec<K> key;

		private final XdrCodec<V> value;

		private final int maxCount;

		MapCodec(XdrCodec<K> key, XdrCodec<V> value, int maxCount) {
			this.key = key;
			this.value = value;
			this.maxCount = maxCount;
		}

		@Override
		public void encode(Map<K, V> map, XdrEncoder out) {
			checkCount(Nulls.require(map, "array of map entries").size(), this.maxCount, "map");
			out.writeInt(map.size());
			for (Map.Entry<K, V> entry : map.entrySet()) {
				this.key.encode(entry.getKey(), out);
				this.value.encode(entry.getValue(), out);
			}
		}

		@Override
		public Map<K, V> decode(XdrDecoder in) {
			int count = in.readArrayCount("map", this.maxCount, Math.max(Xdr.UNIT, this.key.minEncodedSize() + this.value.minEncodedSize()));
			Map<K, V> map = new LinkedHashMap<>(capacity(count));
			for (int i = 0; i < count; i++) {
				K k = this.key.decode(in);
				V v = this.value.decode(in);
				if (map.containsKey(k)) {
					throw new XdrInvalidValueException("XDR array for a map repeats the key of entry " + i + "; a map's keys are distinct");
				}
				map.put(k, v);
			}
			return map;
		}

		@Override
		public int encodedSize(Map<K, V> map) {
			int size = Xdr.UNIT;
			for (Map.Entry<K, V> entry : Nulls.require(map, "array of map entries").entrySet()) {
				size += this.key.encodedSize(entry.getKey()) + this.value.encodedSize(entry.getValue());
			}
			return size;
		}

		@Override
		public XdrShape shape() {
			return new XdrShape.MapOf(this.key, this.value, Integer.MAX_VALUE);
		}

		@Override
		public String toString() {
			return "map<" + this.key + ", " + this.value + ">";
		}

	}

	private static int capacity(int count) {
		return (int) Math.min(Integer.MAX_VALUE - 8, (long) count * 4 / 3 + 1);
	}

}
