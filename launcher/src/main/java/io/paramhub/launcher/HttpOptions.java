package io.paramhub.launcher;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Option;

/**
 * The HTTP options of the Streams apps (a picocli mixin): where an app's endpoint listens and the host
 * other instances reach it at, which Kafka Streams learns as {@code application.server}.
 */
public final class HttpOptions {

    @Option(
            names = "--http-port",
            description = "Port of the HTTP endpoint; 0 = any free port, -1 = none "
                    + "(default: 8090 for the aggregator, 8091 for the orchestrator, 8092 for a worker).")
    private Integer port;

    @Option(
            names = "--http-host",
            defaultValue = "0.0.0.0",
            description = "Address the HTTP endpoint binds to (default: ${DEFAULT-VALUE}).")
    private String bindHost;

    @Option(
            names = "--advertised-host",
            defaultValue = "localhost",
            description = "Host name other instances reach this one's HTTP endpoint at (Streams application.server) "
                    + "(default: ${DEFAULT-VALUE}).")
    private String advertisedHost;

    /** Where the endpoint will be, once a port is chosen. */
    public record Endpoint(int port, String bindHost, String advertisedHost) {

        public boolean enabled() {
            return port > 0;
        }

        /** Tells Kafka Streams where this instance answers, if it does. */
        public void advertise(final Properties props) {
            if (enabled()) {
                props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertisedHost + ":" + port);
            }
        }
    }

    /** The endpoint: the port given, a free one for 0, {@code appDefault} when none was given; disabled for -1. */
    public Endpoint endpoint(final int appDefault) throws IOException {
        final int chosen = port == null ? appDefault : port;
        if (chosen != 0) {
            return new Endpoint(chosen, bindHost, advertisedHost);
        }
        try (ServerSocket socket = new ServerSocket(0)) {
            return new Endpoint(socket.getLocalPort(), bindHost, advertisedHost);
        }
    }
}
