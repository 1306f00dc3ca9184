package io.rpcrdma.interop.nfs;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.rpcrdma.oncrpc.OncRpcException;
import io.rpcrdma.oncrpc.RpcCall;
import io.rpcrdma.oncrpc.RpcMessageCodec;
import io.rpcrdma.oncrpc.RpcReply;
import io.rpcrdma.xdr.XdrDecoder;
import io.rpcrdma.xdr.XdrEncoder;

/**
 * The MOUNT protocol version 3 (RFC 1813 Appendix I) over ONC RPC on TCP (record marking,
 * RFC 5531 §11), which Linux's NFSv3 client asks for the root file handle before it speaks
 * NFS over RDMA: NULL, MNT of "/" (the {@link ReadOnlyNfs3Export}'s root, AUTH_SYS), UMNT.
 * Anything else gets PROC_UNAVAIL or PROG_UNAVAIL. Every call it answers is recorded.
 */
public final class TcpMountServer implements AutoCloseable {

	/** MOUNT's program number. */
	public static final int PROGRAM = 100005;

	private static final int VERSION = 3;

	private static final int MNT = 1;

	private static final int UMNT = 3;

	private static final int MNT3ERR_NOENT = 2;

	private static final int AUTH_SYS = 1;

	private static final int LAST_FRAGMENT = 0x80000000;

	private static final int MAX_RECORD = 64 * 1024;

	private final ServerSocket socket;

	private final List<String> answered = new CopyOnWriteArrayList<>();

	private TcpMountServer(ServerSocket socket) {
		this.socket = socket;
		Thread acceptor = new Thread(this::accept, "mountd-" + socket.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Listens on a loopback address.
	 * @param address where
	 * @return the server
	 * @throws IOException if the port is taken
	 */
	public static TcpMountServer start(InetSocketAddress address) throws IOException {
		ServerSocket socket = new ServerSocket();
		socket.setReuseAddress(true);
		socket.bind(address);
		return new TcpMountServer(socket);
	}

	/**
	 * The procedures answered so far, as "MNT /" or "UMNT /".
	 * @return the calls
	 */
	public List<String> answered() {
		return List.copyOf(this.answered);
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try {
				Socket connection = this.socket.accept();
				Thread serving = new Thread(() -> serve(connection), "mountd-connection");
				serving.setDaemon(true);
				serving.start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void serve(Socket connection) {
		try (connection) {
			DataInputStream in = new DataInputStream(connection.getInputStream());
			OutputStream out = connection.getOutputStream();
			while (true) {
				int marker = in.readInt();
				int length = marker & ~LAST_FRAGMENT;
				if ((marker & LAST_FRAGMENT) == 0 || length > MAX_RECORD) {
					return; // calls this small come in one fragment; anything else is not MOUNT
				}
				byte[] record = new byte[length];
				in.readFully(record);
				ByteBuffer reply = answer(new XdrDecoder(ByteBuffer.wrap(record)));
				if (!reply.hasRemaining()) {
					continue;
				}
				out.write(ByteBuffer.allocate(4).putInt(LAST_FRAGMENT | reply.remaining()).array());
				out.write(reply.array(), 0, reply.remaining());
				out.flush();
			}
		}
		catch (IOException ex) {
			// the client closed the connection
		}
	}

	private ByteBuffer answer(XdrDecoder in) {
		XdrEncoder out = new XdrEncoder(ByteBuffer.allocate(1024));
		RpcCall call;
		try {
			call = RpcMessageCodec.decodeCall(in);
		}
		catch (OncRpcException ex) {
			// A call too broken to answer gets no reply (RFC 5531 §9 allows silence).
			ex.reply().ifPresent((reply) -> RpcMessageCodec.encodeReply(reply, out));
			return out.buffer().flip();
		}
		if (call.program() != PROGRAM) {
			RpcMessageCodec.encodeReply(RpcReply.progUnavail(call.xid()), out);
		}
		else if (call.version() != VERSION) {
			RpcMessageCodec.encodeReply(RpcReply.progMismatch(call.xid(), VERSION, VERSION), out);
		}
		else if (call.procedure() == 0) {
			RpcMessageCodec.encodeSuccessHeader(call.xid(), out);
		}
		else if (call.procedure() == MNT) {
			String path = in.readString(1024);
			RpcMessageCodec.encodeSuccessHeader(call.xid(), out);
			if (path.equals("/")) {
				out.writeInt(0).writeOpaque(ReadOnlyNfs3Export.ROOT).writeInt(1).writeInt(AUTH_SYS);
			}
			else {
				out.writeInt(MNT3ERR_NOENT);
			}
			this.answered.add("MNT " + path);
		}
		else if (call.procedure() == UMNT) {
			this.answered.add("UMNT " + in.readString(1024));
			RpcMessageCodec.encodeSuccessHeader(call.xid(), out);
		}
		else {
			RpcMessageCodec.encodeReply(RpcReply.procUnavail(call.xid()), out);
		}
		return out.buffer().flip();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
