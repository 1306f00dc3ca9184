package io.rpcrdma.transport.trace;

import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;

/**
 * Whether each rpcrdma event is enabled in a running recording, kept in static volatile
 * fields that the hot path reads instead of creating an event to ask: a post or completion
 * then costs one volatile read while tracing is off and allocates nothing, in the
 * interpreter too. Looked up again whenever a recording starts, stops or closes, so enable
 * the events in a recording's settings before it starts.
 */
public final class TraceSwitch {

	static volatile boolean connections;

	static volatile boolean posts;

	static volatile boolean completions;

	static volatile boolean errors;

	static {
		// Does not start Flight Recorder: a listener added before it starts is told later.
		FlightRecorder.addListener(new FlightRecorderListener() {

			@Override
			public void recorderInitialized(FlightRecorder recorder) {
				refresh();
			}

			@Override
			public void recordingStateChanged(Recording recording) {
				refresh();
			}

		});
	}

	private TraceSwitch() {
	}

	/** Reads each event's enablement again from Flight Recorder. */
	static void refresh() {
		connections = enabled(ConnectEvent.class) || enabled(DisconnectEvent.class);
		posts = enabled(PostEvent.class);
		completions = enabled(CompletionEvent.class);
		errors = enabled(RdmaErrorEvent.class);
	}

	private static boolean enabled(Class<? extends jdk.jfr.Event> event) {
		try {
			return EventType.getEventType(event).isEnabled();
		}
		catch (RuntimeException ex) {
			// Flight Recorder unavailable (disabled in this JVM): no tracing, never a failure.
			return false;
		}
	}

	/** @return whether any rpcrdma event is being recorded now */
	public static boolean anyEnabled() {
		return connections || posts || completions || errors;
	}

}
