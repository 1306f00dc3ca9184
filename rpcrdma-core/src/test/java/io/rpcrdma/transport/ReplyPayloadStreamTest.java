package io.rpcrdma.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The Payload stream the responder sends inline (RFC 8166 §3.4.6): the reply without the
 * DDP-eligible items moved into chunks, and with the data of items held outside the message
 * that stayed inline put in their place.
 */
class ReplyPayloadStreamTest {

	@Test
	void anItemMovedIntoAChunkLeavesItsLengthWordAndDropsItsPaddedData() {
		// XID and type, a length word of 5, five bytes of data and three of padding, a trailer.
		ByteBuffer message = message(8, 5, 8, 4);
		DdpRange item = new DdpRange(12, 5);
		ByteBuffer stream = ReplyMarshaller.removeItems(message, List.of(item), List.of(item));
		assertThat(stream.remaining()).isEqualTo(16);
		assertThat(stream.getInt(8)).isEqualTo(5);
		assertThat(stream.getInt(12)).isEqualTo(message.getInt(20));
	}

	@Test
	void aReplyWithNothingMovedIsSentAsItIs() {
		ByteBuffer message = message(8, 5, 8, 4);
		ByteBuffer stream = ReplyMarshaller.removeItems(message, List.of(new DdpRange(12, 5)), List.of());
		assertThat(stream).isEqualTo(message);
	}

	@Test
	void anItemHeldOutsideTheMessageThatStaysInlineIsPutInItsPlaceWithZeroPadding() {
		// XID and type, a length word of 5, then the trailer: the data item is reduced.
		ByteBuffer message = message(8, 5, 0, 4);
		ByteBuffer data = ByteBuffer.wrap(new byte[] { 1, 2, 3, 4, 5 });
		ByteBuffer stream = ReplyMarshaller.removeItems(message, List.of(DdpRange.reduced(12, data)), List.of());
		assertThat(stream.remaining()).isEqualTo(24);
		for (int i = 0; i < 5; i++) {
			assertThat(stream.get(12 + i)).isEqualTo((byte) (i + 1));
		}
		assertThat(stream.get(17)).isZero();
		assertThat(stream.get(19)).isZero();
		assertThat(stream.getInt(20)).isEqualTo(message.getInt(12));
	}

	/** A message of a header, a length word, data of the given room and a trailer, each byte distinct. */
	private static ByteBuffer message(int header, int length, int dataRoom, int trailer) {
		ByteBuffer message = ByteBuffer.allocate(header + 4 + dataRoom + trailer);
		for (int i = 0; i < message.capacity(); i++) {
			message.put(i, (byte) (0x40 + i));
		}
		message.putInt(header, length);
		return message;
	}

}
