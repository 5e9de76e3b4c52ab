package io.paramhub.integration.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.paramhub.registry.TestKeyStores;
import io.paramhub.testing.KafkaTestCluster;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry as a user runs it, {@code java -jar target/paramhub-registry.jar} in a JVM of its own (the jar
 * the package phase built), against a KRaft broker in the test JVM: it registers and serves schemas over HTTP,
 * or over HTTPS to the users of a password file, refuses a key store it cannot open with exit code 2, and stops
 * cleanly on SIGTERM.
 */
@Tag("integration")
class SchemaRegistryAppIT {

    private static final Path JAR = Path.of("..", "registry", "target", "paramhub-registry.jar");
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern ID = Pattern.compile("\\{\"id\":(\\d+)}");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static KafkaTestCluster kafka;

    @BeforeAll
    static void startCluster() {
        kafka = KafkaTestCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        kafka.close();
    }

    @Test
    void shouldRegisterAndServeSchemaWhenStartedFromItsJarWithOptions(@TempDir final Path dir) throws Exception {
        // given
        final int port = freePort();
        final Process registry = start(
                dir,
                Map.of(),
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--http-host",
                "127.0.0.1",
                "--http-port",
                Integer.toString(port));
        try {
            final String url = "http://127.0.0.1:" + port;
            awaitListening(url, registry, dir);

            // when
            final HttpResponse<String> registered = post(url + "/subjects/app-it-value/versions", schemaBody("AppIt"));
            final int id = id(registered);
            final HttpResponse<String> fetched = get(url + "/schemas/ids/" + id);

            // then
            assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
            assertThat(fetched.statusCode()).isEqualTo(200);
            assertThat(fetched.body()).contains("AppIt");
            assertThat(get(url + "/subjects").body()).contains("app-it-value");
        } finally {
            stop(registry, dir);
        }
    }

    @Test
    void shouldTakeConfluentImageVariablesWhenStartedInItsPlace(@TempDir final Path dir) throws Exception {
        // given: the variables compose gives Confluent's image, a broker address with its protocol, a topic of its own
        final int port = freePort();
        final Process registry = start(
                dir,
                Map.of(
                        "SCHEMA_REGISTRY_HOST_NAME",
                        "schema-registry",
                        "SCHEMA_REGISTRY_LISTENERS",
                        "http://127.0.0.1:" + port,
                        "SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS",
                        "PLAINTEXT://" + kafka.bootstrapServers(),
                        "SCHEMA_REGISTRY_KAFKASTORE_TOPIC",
                        "_app_it_schemas"));
        try {
            final String url = "http://127.0.0.1:" + port;
            awaitListening(url, registry, dir);

            // when
            final HttpResponse<String> registered = post(url + "/subjects/env-it-value/versions", schemaBody("EnvIt"));

            // then: registered, and kept in that topic, compacted, one partition
            assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
            assertThat(get(url + "/schemas/ids/" + id(registered)).body()).contains("EnvIt");
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
                final TopicDescription topic = admin.describeTopics(List.of("_app_it_schemas"))
                        .allTopicNames()
                        .get(30, TimeUnit.SECONDS)
                        .get("_app_it_schemas");
                assertThat(topic.partitions()).hasSize(1);
            }
        } finally {
            stop(registry, dir);
        }
    }

    @Test
    void shouldServeHttpsAndAskForCredentialsWhenGivenKeyStoreAndUsersFile(@TempDir final Path dir) throws Exception {
        // given: a self-signed key store, its password in a file, a Jetty password file of the hash the jar's
        // hash-password printed for alice's password
        final int port = freePort();
        final Path keyStore = TestKeyStores.create(dir.resolve("registry.p12"), "store-secret");
        final Path password = Files.writeString(dir.resolve("keystore-password"), "store-secret\n");
        final Path users = Files.writeString(dir.resolve("users.properties"), hashLine(dir, "alice", "wonder"));
        assertThat(Files.readString(users)).startsWith("alice: PBKDF2-SHA256:").doesNotContain("wonder");
        final HttpClient https = HttpClient.newBuilder()
                .sslContext(TestKeyStores.trusting(keyStore, "store-secret"))
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        final Process registry = start(
                dir,
                Map.of(),
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--http-host",
                "127.0.0.1",
                "--http-port",
                Integer.toString(port),
                "--tls-keystore",
                keyStore.toString(),
                "--tls-keystore-password-file",
                password.toString(),
                "--users-file",
                users.toString());
        try {
            final String url = "https://localhost:" + port;
            final String alice = basic("alice", "wonder");
            awaitListening(https, url, registry, dir, "Authorization", alice);

            // when
            final HttpResponse<String> registered =
                    post(https, url + "/subjects/tls-it-value/versions", schemaBody("TlsIt"), "Authorization", alice);
            final HttpResponse<String> anonymous = get(https, url + "/subjects");
            final HttpResponse<String> wrongPassword =
                    get(https, url + "/subjects", "Authorization", basic("alice", "guess"));
            final HttpResponse<String> unknownUser =
                    get(https, url + "/subjects", "Authorization", basic("mallory", "wonder"));
            final HttpResponse<String> again = get(https, url + "/subjects", "Authorization", alice);

            // then: registered over HTTPS with credentials; refused without or with a wrong password; no plain HTTP
            assertThat(registered.statusCode()).as(registered.body()).isEqualTo(200);
            assertThat(get(https, url + "/schemas/ids/" + id(registered), "Authorization", alice)
                            .body())
                    .contains("TlsIt");
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(wrongPassword.statusCode()).isEqualTo(401);
            assertThat(unknownUser.statusCode()).isEqualTo(401);
            assertThat(again.statusCode()).isEqualTo(200);
            assertThatThrownBy(() -> get("http://127.0.0.1:" + port + "/subjects"))
                    .isInstanceOf(IOException.class);
        } finally {
            stop(registry, dir);
        }
    }

    @Test
    void shouldExitWithCodeTwoAndOneLineWhenKeyStorePasswordIsWrong(@TempDir final Path dir) throws Exception {
        // given
        final Path keyStore = TestKeyStores.create(dir.resolve("registry.p12"), "store-secret");
        final Path password = Files.writeString(dir.resolve("keystore-password"), "wrong\n");

        // when
        final Process registry = start(
                dir,
                Map.of(),
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--tls-keystore",
                keyStore.toString(),
                "--tls-keystore-password-file",
                password.toString());

        // then
        assertThat(registry.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(registry.exitValue()).as(output(dir)).isEqualTo(2);
        assertThat(output(dir)).contains("paramhub-registry: cannot open the PKCS12 key store " + keyStore);
    }

    private static Process start(final Path dir, final Map<String, String> env, final String... args)
            throws IOException {
        assertThat(JAR).as("the registry's jar, built by the package phase").isRegularFile();
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                JAR.toString()));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("registry.out").toFile());
        builder.environment()
                .keySet()
                .removeIf(name -> name.startsWith("KAFKA_") || name.startsWith("SCHEMA_REGISTRY_"));
        builder.environment().putAll(env);
        return builder.start();
    }

    /** The users file line {@code java -jar paramhub-registry.jar hash-password NAME} prints for {@code password}. */
    private static String hashLine(final Path dir, final String name, final String password) throws Exception {
        final Process hashing = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        JAR.toString(),
                        "hash-password",
                        name)
                .redirectError(dir.resolve("hash-password.err").toFile())
                .start();
        try (OutputStream in = hashing.getOutputStream()) {
            in.write((password + "\n").getBytes(StandardCharsets.UTF_8));
        }
        final String line = new String(hashing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(hashing.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(hashing.exitValue())
                .as(() -> line + output(dir, "hash-password.err"))
                .isZero();
        return line;
    }

    private static void awaitListening(final String url, final Process registry, final Path dir) {
        awaitListening(HTTP, url, registry, dir);
    }

    private static void awaitListening(
            final HttpClient client,
            final String url,
            final Process registry,
            final Path dir,
            final String... headers) {
        await().alias("the registry answering at " + url)
                .atMost(TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    assertThat(registry.isAlive())
                            .as(() -> "registry exited early: " + output(dir))
                            .isTrue();
                    try {
                        return get(client, url + "/subjects", headers).statusCode() == 200;
                    } catch (final IOException e) {
                        return false;
                    }
                });
    }

    /** SIGTERM, as a container runtime stops it: a clean shutdown, exit code 128 + 15. */
    private static void stop(final Process registry, final Path dir) throws Exception {
        registry.destroy();
        assertThat(registry.waitFor(30, TimeUnit.SECONDS))
                .as("registry stopped")
                .isTrue();
        assertThat(registry.exitValue()).as(output(dir)).isEqualTo(143);
        assertThat(output(dir)).contains("schema registry stopped");
    }

    private static String output(final Path dir) {
        return output(dir, "registry.out");
    }

    private static String output(final Path dir, final String file) {
        try {
            return Files.readString(dir.resolve(file));
        } catch (final IOException e) {
            return "(no output: " + e + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String schemaBody(final String name) {
        final String schema = "{\"type\":\"record\",\"name\":\"" + name + "\",\"namespace\":\"io.paramhub.it\","
                + "\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}";
        return "{\"schema\":\"" + schema.replace("\"", "\\\"") + "\"}";
    }

    private static int id(final HttpResponse<String> response) {
        final Matcher matcher = ID.matcher(response.body().replace(" ", ""));
        assertThat(matcher.matches()).as(response.body()).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    private static HttpResponse<String> get(final String url) throws IOException, InterruptedException {
        return get(HTTP, url);
    }

    private static HttpResponse<String> get(final HttpClient client, final String url, final String... headers)
            throws IOException, InterruptedException {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .GET();
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(final String url, final String body)
            throws IOException, InterruptedException {
        return post(HTTP, url, body);
    }

    private static HttpResponse<String> post(
            final HttpClient client, final String url, final String body, final String... headers)
            throws IOException, InterruptedException {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", CONTENT_TYPE)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String basic(final String user, final String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
