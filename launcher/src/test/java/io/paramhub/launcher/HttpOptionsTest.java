package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Where an app's HTTP endpoint binds and which token it asks for, as {@link HttpOptions} parses them. */
class HttpOptionsTest {

    @Command(name = "probe")
    static final class Probe {
        @Mixin
        private HttpOptions http;
    }

    private static HttpOptions.Endpoint parse(final String... args) throws IOException {
        final Probe probe = new Probe();
        new CommandLine(probe).parseArgs(args);
        return probe.http.endpoint(0);
    }

    @Test
    void shouldNotBeReachableOnANonLoopbackAddressWhenTheHostIsNotGiven() throws Exception {
        // given: an address of this machine that is not loopback
        final Optional<InetAddress> outside = nonLoopbackAddress();
        assumeTrue(outside.isPresent(), "this machine has no non-loopback address");
        final HttpOptions.Endpoint endpoint = parse();

        // when
        try (AppMetrics metrics = AppMetrics.create("http-options-test");
                HttpEndpoint server =
                        OpsHttpServer.start(new OpsEndpoints(metrics, () -> null), endpoint.bindHost(), 0)) {

            // then: answers on loopback, refuses on the other address
            assertThat(endpoint.bindHost()).isEqualTo("127.0.0.1");
            final HttpResponse<String> live = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + OpsEndpoints.LIVE))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(live.statusCode()).isEqualTo(200);
            assertThatThrownBy(() -> {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress(outside.get(), server.port()), 2_000);
                        }
                    })
                    .as("connecting to " + outside.get().getHostAddress() + ":" + server.port())
                    .isInstanceOfAny(ConnectException.class, SocketTimeoutException.class);
        }
    }

    @Test
    void shouldBindWhereToldWhenTheHostIsGiven() throws IOException {
        // when
        final HttpOptions.Endpoint endpoint = parse("--http-host", "0.0.0.0");

        // then
        assertThat(endpoint.bindHost()).isEqualTo("0.0.0.0");
        assertThat(endpoint.token().required()).isFalse();
    }

    @Test
    void shouldReadTheTokenFromItsFileWhenAFileIsGiven(@TempDir final Path dir) throws IOException {
        // given
        final Path file = dir.resolve("token");
        Files.writeString(file, "s3cret\n");

        // when
        final HttpOptions.Endpoint endpoint = parse("--http-token-file", file.toString());

        // then
        assertThat(endpoint.token().required()).isTrue();
        assertThat(endpoint.token().accepts("Bearer s3cret")).isTrue();
        assertThat(endpoint.toString()).doesNotContain("s3cret");
    }

    @Test
    void shouldRefuseBothATokenAndATokenFile(@TempDir final Path dir) throws IOException {
        // given
        final Path file = dir.resolve("token");
        Files.writeString(file, "one");

        // when / then
        assertThatThrownBy(() -> parse("--http-token", "two", "--http-token-file", file.toString()))
                .isInstanceOf(SettingException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(
                        () -> parse("--http-token-file", dir.resolve("missing").toString()))
                .isInstanceOf(SettingException.class)
                .hasMessageContaining("cannot read");
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (final NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!network.isUp() || network.isLoopback()) {
                continue;
            }
            for (final InetAddress address : Collections.list(network.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                    return Optional.of(address);
                }
            }
        }
        return Optional.empty();
    }
}
