package io.paramhub.launcher;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import picocli.CommandLine.Option;

/**
 * The HTTP options of the apps (a picocli mixin): where an app's endpoint listens (loopback unless told
 * otherwise), the host other instances reach it at, which Kafka Streams learns as {@code application.server},
 * and the bearer token that guards the routes returning model parameters or internal state.
 */
public final class HttpOptions {

    /** Where an endpoint binds when {@code --http-host} is not given: this machine only. */
    public static final String DEFAULT_BIND_HOST = "127.0.0.1";

    @Option(
            names = "--http-port",
            description = "Port of the HTTP endpoint; 0 = any free port, -1 = none "
                    + "(default: 8090 for the aggregator, 8091 for the orchestrator, 8092 for a worker).")
    private Integer port;

    @Option(
            names = "--http-host",
            defaultValue = DEFAULT_BIND_HOST,
            description = "Address the HTTP endpoint binds to; 0.0.0.0 for every interface, as in a container "
                    + "(default: ${DEFAULT-VALUE}, reachable from this machine only).")
    private String bindHost;

    @Option(
            names = "--advertised-host",
            defaultValue = "localhost",
            description = "Host name other instances reach this one's HTTP endpoint at (Streams application.server) "
                    + "(default: ${DEFAULT-VALUE}).")
    private String advertisedHost;

    @Option(
            names = "--http-token",
            paramLabel = "TOKEN",
            description = "Bearer token that GET /jobs/{job}/model, /internal/... and /jobs/{job}/workers require "
                    + "(Authorization: Bearer TOKEN); health, readiness, metrics and the dashboard stay open. "
                    + "Prefer --http-token-file or PARAMHUB_HTTP_TOKEN, which stay off the command line "
                    + "(default: none, every route open).")
    private String token;

    @Option(
            names = "--http-token-file",
            paramLabel = "FILE",
            description = "File holding the bearer token (surrounding white space ignored); instead of --http-token.")
    private Path tokenFile;

    /** Where the endpoint will be, once a port is chosen, and the token its guarded routes require. */
    public record Endpoint(int port, String bindHost, String advertisedHost, BearerToken token) {

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
        final BearerToken bearer = token();
        final int chosen = port == null ? appDefault : port;
        if (chosen != 0) {
            return new Endpoint(chosen, bindHost, advertisedHost, bearer);
        }
        try (ServerSocket socket = new ServerSocket(0)) {
            return new Endpoint(socket.getLocalPort(), bindHost, advertisedHost, bearer);
        }
    }

    /** The token from {@code --http-token} or {@code --http-token-file}, {@link BearerToken#NONE} for neither. */
    private BearerToken token() {
        if (tokenFile == null) {
            if (token != null && token.isBlank()) {
                throw new SettingException("--http-token", "--http-token is blank");
            }
            return BearerToken.of(token);
        }
        if (token != null) {
            throw new SettingException("--http-token", "give --http-token or --http-token-file, not both");
        }
        final String read;
        try {
            read = Files.readString(tokenFile, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new SettingException("--http-token-file", "--http-token-file: cannot read " + tokenFile + ": " + e);
        }
        if (read.isBlank()) {
            throw new SettingException("--http-token-file", "--http-token-file: " + tokenFile + " is empty");
        }
        return BearerToken.of(read);
    }
}
