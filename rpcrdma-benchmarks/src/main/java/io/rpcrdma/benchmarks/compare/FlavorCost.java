package io.rpcrdma.benchmarks.compare;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.rpcrdma.client.RpcCaller;
import io.rpcrdma.client.security.RpcSecGssClient;
import io.rpcrdma.kerberos.MitKdc;
import io.rpcrdma.oncrpc.gss.GssService;
import io.rpcrdma.oncrpc.gss.KerberosCredentials;
import io.rpcrdma.server.security.RpcSecGssServer;
import io.rpcrdma.server.security.SecurityFlavor;
import io.rpcrdma.server.security.SecurityPolicy;

/**
 * What each security flavor costs: rpcrdma over software iWARP with AUTH_NONE, then RPCSEC_GSS
 * {@code krb5}, {@code krb5i} and {@code krb5p} (RFC 2203) with tickets from a real MIT KDC
 * this run starts on 127.0.0.1, in rounds with the flavors interleaved. Cases: 64-byte call
 * p50 (one thread), 1 MiB arguments and 1 MiB results (MB/s). Each flavor's figure is given
 * as the median of its per-round ratios to {@code none}, with their interquartile range.
 * <pre>
 * java -cp rpcrdma-benchmarks/target/rpcrdma-benchmarks.jar io.rpcrdma.benchmarks.compare.FlavorCost [--quick]
 * </pre>
 * Needs MIT Kerberos ({@code apt-get install krb5-kdc krb5-admin-server}).
 */
public final class FlavorCost {

	/** The service principal's host part, and the GSS service name clients ask for. */
	private static final String SERVICE = "rpcrdma@localhost";

	private static final int MEBIBYTE = 1 << 20;

	private FlavorCost() {
	}

	/**
	 * @param args {@code [--quick | --smoke]}
	 * @throws Exception if the run fails
	 */
	public static void main(String[] args) throws Exception {
		Pace pace = (args.length > 0 && "--quick".equals(args[0])) ? Pace.QUICK
				: (args.length > 0 && "--smoke".equals(args[0])) ? Pace.SMOKE : Pace.FULL;
		try (MitKdc kdc = MitKdc.start()) {
			run(pace, kdc, System.out);
		}
		catch (MitKdc.KdcUnavailableException missing) {
			System.err.println("FlavorCost needs MIT Kerberos: " + missing.getMessage());
			System.exit(2);
		}
		// Kerberos and the contenders may leave non-daemon threads: the figures are printed.
		System.exit(0);
	}

	/**
	 * Measures every flavor in rounds and prints the table.
	 * @param pace how long each case runs, and how many rounds
	 * @param kdc the KDC issuing the tickets
	 * @param out where the table goes
	 * @return the per-round measurements
	 * @throws Exception if a call or a login fails
	 */
	static List<List<Measurement>> run(Pace pace, MitKdc kdc, PrintStream out) throws Exception {
		RpcSecGssServer rpcsecGss = new RpcSecGssServer(KerberosCredentials.acceptorFromKeytab(
				MitKdc.qualified("rpcrdma/localhost"), kdc.principalWithKeytab("rpcrdma/localhost")));
		SecurityPolicy policy = SecurityPolicy.builder()
			.rpcsecGss(rpcsecGss)
			.byDefault(EnumSet.of(SecurityFlavor.NONE, SecurityFlavor.KRB5, SecurityFlavor.KRB5I, SecurityFlavor.KRB5P))
			.build();
		KerberosCredentials client = KerberosCredentials.initiatorFromKeytab(MitKdc.qualified("bench"),
				kdc.principalWithKeytab("bench"));
		Map<String, UnaryOperator<RpcCaller>> flavors = new LinkedHashMap<>();
		flavors.put("none", RpcRdmaContender.UNPROTECTED);
		flavors.put("krb5", protect(client, GssService.NONE));
		flavors.put("krb5i", protect(client, GssService.INTEGRITY));
		flavors.put("krb5p", protect(client, GssService.PRIVACY));
		List<List<Measurement>> rounds = new ArrayList<>();
		try (CompareServer server = new CompareServer("siw", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
				policy)) {
			List<Contender> contenders = new ArrayList<>();
			try {
				for (Map.Entry<String, UnaryOperator<RpcCaller>> flavor : flavors.entrySet()) {
					contenders.add(new RpcRdmaContender(flavor.getKey(), "siw",
							new RpcRdmaContender.Running(server.address(), () -> {
							}), flavor.getValue()));
				}
				Workload workload = new Workload(pace);
				for (Contender contender : contenders) {
					workload.warmUp(contender);
				}
				for (int round = 0; round < pace.rounds(); round++) {
					List<Measurement> measured = new ArrayList<>();
					for (Contender contender : contenders) {
						measured.add(p50(workload.latency(contender)));
						measured.add(workload.bulk(contender, true, MEBIBYTE).get(0));
						measured.add(workload.bulk(contender, false, MEBIBYTE).get(0));
					}
					rounds.add(measured);
				}
			}
			finally {
				for (Contender contender : contenders) {
					contender.close();
				}
			}
		}
		print(rounds, List.copyOf(flavors.keySet()), pace, out);
		return rounds;
	}

	private static UnaryOperator<RpcCaller> protect(KerberosCredentials client, GssService protection) {
		return (connection) -> RpcSecGssClient.onFirstCall(connection, client, SERVICE, protection, java.time.Duration.ofSeconds(30));
	}

	private static Measurement p50(List<Measurement> latency) {
		return latency.stream().filter((m) -> "p50".equals(m.metric())).findFirst().orElseThrow();
	}

	/** One row per flavor: each case's median figure and its median ratio to none [quartiles]. */
	static void print(List<List<Measurement>> rounds, List<String> flavors, Pace pace, PrintStream out) {
		out.printf(Locale.ROOT, "%nSecurity flavors, software iWARP, %d round(s) (%s):%n%n", rounds.size(), pace.name());
		out.println("| flavor | 64 B p50 (µs) | ratio to none | 1 MiB arguments (MB/s) | ratio to none | 1 MiB results (MB/s) | ratio to none |");
		out.println("|---|---|---|---|---|---|---|");
		for (String flavor : flavors) {
			StringBuilder row = new StringBuilder("| " + flavor + " |");
			for (int column = 0; column < 3; column++) {
				double[] values = new double[rounds.size()];
				double[] ratios = new double[rounds.size()];
				for (int r = 0; r < rounds.size(); r++) {
					values[r] = figure(rounds.get(r), flavor, column);
					ratios[r] = values[r] / figure(rounds.get(r), "none", column);
				}
				row.append(String.format(Locale.ROOT, " %.1f | %.2f [%.2f–%.2f] |", Rounds.quantile(values, 0.5),
						Rounds.quantile(ratios, 0.5), Rounds.quantile(ratios, 0.25), Rounds.quantile(ratios, 0.75)));
			}
			out.println(row);
		}
		if (pace != Pace.FULL) {
			out.println();
			out.println("(" + pace.name() + " pace: these figures decide nothing)");
		}
	}

	private static double figure(List<Measurement> round, String flavor, int column) {
		return round.get(indexOf(round, flavor) * 3 + column).value();
	}

	private static int indexOf(List<Measurement> round, String flavor) {
		for (int i = 0; i < round.size(); i += 3) {
			if (round.get(i).contender().equals(flavor)) {
				return i / 3;
			}
		}
		throw new IllegalArgumentException("no figures of " + flavor);
	}

}
