package io.rpcrdma.benchmarks.attack;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

import io.rpcrdma.verbs.siw.SiwWirePeer;
import io.rpcrdma.verbs.siw.wire.FpduWriter;
import io.rpcrdma.verbs.siw.wire.RdmapOpcode;

/**
 * Attack 7: many connections at once, each sending the first bytes of an FPDU (the MPA length
 * and the DDP and RDMAP control of an RDMA Write of almost 64 KiB, the most one MPA frame
 * carries, RFC 5044 §7.1) and then nothing: the server holds what each stalled connection
 * costs for as long as it waits for the rest.
 */
final class StalledFrames extends WireAttack {

	/** The segment the header announces: the largest a 16-bit MPA length allows, rounded down. */
	static final int SEGMENT = 60 << 10;

	/** How many bytes of the frame are sent. */
	static final int SENT = 6;

	StalledFrames(int connections) {
		// Counted by attempts: a connection stalled mid-frame gets no reply, only its end at
		// siw.fpdu-timeout-millis.
		super(Attacks.STALLED_FRAMES,
				"(7) connections that send the first " + SENT + " bytes of an FPDU of a 60 KiB RDMA Write, and stop",
				Evidence.ATTEMPTS, connections);
	}

	@Override
	void play(SiwWirePeer peer, int thread) throws IOException {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		ByteBuffer frame = ByteBuffer.allocate(SEGMENT + 64);
		new FpduWriter(false).writeTagged(frame, true, RdmapOpcode.RDMA_WRITE, random.nextInt(),
				random.nextLong() & ~0xFFFL, ByteBuffer.allocate(SEGMENT), 0, SEGMENT);
		peer.writeRaw(Arrays.copyOf(frame.array(), SENT));
		this.attempts.increment();
		awaitDrop(peer);
	}

}
