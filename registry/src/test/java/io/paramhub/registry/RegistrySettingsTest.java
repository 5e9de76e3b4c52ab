package io.paramhub.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistrySettingsTest {

    private static final RegistrySettings.Options NONE = new RegistrySettings.Options(null, null, null, null);

    @Test
    void shouldReadConfluentImageVariablesWhenNoOptionIsGiven() {
        // given
        final Map<String, String> env = Map.of(
                "SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:8085",
                "SCHEMA_REGISTRY_HOST_NAME", "schema-registry",
                "SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://kafka:9092,SSL://kafka-2:9093",
                "SCHEMA_REGISTRY_KAFKASTORE_TOPIC", "_schemas_2",
                "SCHEMA_REGISTRY_KAFKASTORE_SECURITY_PROTOCOL", "SASL_SSL",
                "SCHEMA_REGISTRY_KAFKASTORE_SASL_MECHANISM", "PLAIN");

        // when
        final RegistrySettings settings = RegistrySettings.resolve(env, new Properties(), Map.of(), NONE);

        // then
        assertThat(settings.kafka())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "bootstrap.servers", "kafka:9092,kafka-2:9093",
                        "security.protocol", "SASL_SSL",
                        "sasl.mechanism", "PLAIN"));
        assertThat(settings.topic()).isEqualTo("_schemas_2");
        assertThat(settings.host()).isEqualTo("0.0.0.0");
        assertThat(settings.port()).isEqualTo(8085);
    }

    @Test
    void shouldLayerFileThenEnvironmentThenOverridesThenOptionsWhenAllAreGiven() {
        // given
        final Properties file = new Properties();
        file.setProperty("bootstrap.servers", "from-file:9092");
        file.setProperty("client.dns.lookup", "use_all_dns_ips");
        file.setProperty("request.timeout.ms", "1000");
        final Map<String, String> env = Map.of(
                "SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "from-confluent-env:9092",
                "KAFKA_BOOTSTRAP_SERVERS", "from-env:9092",
                "SCHEMA_REGISTRY_KAFKASTORE_REQUEST_TIMEOUT_MS", "2000");
        final Map<String, String> overrides = Map.of("request.timeout.ms", "3000");

        // when
        final RegistrySettings fromEnv = RegistrySettings.resolve(env, file, overrides, NONE);
        final RegistrySettings fromOptions = RegistrySettings.resolve(
                env, file, overrides, new RegistrySettings.Options("from-option:9092", "127.0.0.1", 0, "own-schemas"));

        // then
        assertThat(fromEnv.kafka())
                .containsEntry("bootstrap.servers", "from-env:9092")
                .containsEntry("request.timeout.ms", "3000")
                .containsEntry("client.dns.lookup", "use_all_dns_ips");
        assertThat(fromEnv.topic()).isEqualTo("_schemas");
        assertThat(fromEnv.host()).isEqualTo("127.0.0.1");
        assertThat(fromEnv.port()).isEqualTo(8081);
        assertThat(fromOptions.kafka()).containsEntry("bootstrap.servers", "from-option:9092");
        assertThat(fromOptions.topic()).isEqualTo("own-schemas");
        assertThat(fromOptions.host()).isEqualTo("127.0.0.1");
        assertThat(fromOptions.port()).isZero();
    }

    @Test
    void shouldNameEveryPlaceToGiveThemWhenBootstrapServersAreMissing() {
        assertThatThrownBy(() -> RegistrySettings.resolve(Map.of(), new Properties(), Map.of(), NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bootstrap.servers")
                .hasMessageContaining("--bootstrap-servers")
                .hasMessageContaining("KAFKA_BOOTSTRAP_SERVERS")
                .hasMessageContaining("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS");
    }

    @Test
    void shouldRefuseListenerWhenItIsNeitherHttpNorHttps() {
        // given
        final Map<String, String> env =
                Map.of("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092", "SCHEMA_REGISTRY_LISTENERS", "ftp://0.0.0.0:8443");

        // when / then
        assertThatThrownBy(() -> RegistrySettings.resolve(env, new Properties(), Map.of(), NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SCHEMA_REGISTRY_LISTENERS");
    }

    @Test
    void shouldRefuseHttpsListenerWhenNoKeyStoreIsGiven() {
        // given
        final Map<String, String> env =
                Map.of("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092", "SCHEMA_REGISTRY_LISTENERS", "https://0.0.0.0:8443");

        // when / then
        assertThatThrownBy(() -> RegistrySettings.resolve(env, new Properties(), Map.of(), NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("https://")
                .hasMessageContaining("SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION");
    }

    @Test
    void shouldServeHttpsWithUsersWhenConfluentKeyStoreVariablesAndUsersFileAreGiven(@TempDir final Path dir)
            throws Exception {
        // given: Confluent's variables for the key store, a Jetty password file with roles and a comment
        final Path keyStore = TestKeyStores.create(dir.resolve("registry.p12"), "store-secret");
        final Path users = Files.writeString(
                dir.resolve("users.properties"),
                "# registry users\nalice: " + hash("wonder") + ",admin\nbob:" + hash("builder") + "\n");
        final Map<String, String> env = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", "kafka:9092",
                "SCHEMA_REGISTRY_LISTENERS", "https://0.0.0.0:8443",
                "SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION", keyStore.toString(),
                "SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD", "store-secret",
                "SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE", "PKCS12",
                "PARAMHUB_REGISTRY_USERS_FILE", users.toString());

        // when
        final RegistrySettings settings = RegistrySettings.resolve(env, new Properties(), Map.of(), NONE);

        // then
        assertThat(settings.port()).isEqualTo(8443);
        assertThat(settings.access().tls()).isTrue();
        assertThat(settings.access().keyStore()).isEqualTo(keyStore);
        assertThat(settings.access().users()).containsOnlyKeys("alice", "bob");
        assertThat(settings.access().users().get("alice").matches("wonder".toCharArray()))
                .isTrue();
        assertThat(settings.access().users().get("bob").matches("builder".toCharArray()))
                .isTrue();
        assertThat(settings.access().users().get("bob").matches("wonder".toCharArray()))
                .isFalse();
        assertThat(settings.kafka()).doesNotContainKeys("ssl.keystore.location", "ssl.keystore.password");
    }

    @Test
    void shouldRefuseKeyStoreWhenItsPasswordIsWrong(@TempDir final Path dir) throws Exception {
        // given
        final Path keyStore = TestKeyStores.create(dir.resolve("registry.p12"), "store-secret");
        final Path password = Files.writeString(dir.resolve("password"), "not-the-secret\n");
        final RegistrySettings.Options options =
                new RegistrySettings.Options("kafka:9092", null, null, null, keyStore, password, null, false);

        // when / then
        assertThatThrownBy(() -> RegistrySettings.resolve(Map.of(), new Properties(), Map.of(), options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot open the PKCS12 key store " + keyStore);
    }

    @Test
    void shouldRefuseKeyStoreWhenItHasNoPassword(@TempDir final Path dir) throws Exception {
        // given
        final Path keyStore = TestKeyStores.create(dir.resolve("registry.p12"), "store-secret");
        final RegistrySettings.Options options =
                new RegistrySettings.Options("kafka:9092", null, null, null, keyStore, null, null, false);

        // when / then
        assertThatThrownBy(() -> RegistrySettings.resolve(Map.of(), new Properties(), Map.of(), options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--tls-keystore-password-file");
    }

    @Test
    void shouldBindLoopbackUnlessToldToBindElsewhere() {
        // given
        final Map<String, String> bootstrap = Map.of("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092");
        final Map<String, String> hostEnv =
                Map.of("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092", "PARAMHUB_HTTP_HOST", "0.0.0.0");
        final Map<String, String> listener = Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", "kafka:9092",
                "PARAMHUB_HTTP_HOST", "0.0.0.0",
                "SCHEMA_REGISTRY_LISTENERS", "http://10.1.2.3:8081");
        final RegistrySettings.Options hostOption = new RegistrySettings.Options(null, "::", null, null);

        // when
        final String byDefault = RegistrySettings.resolve(bootstrap, new Properties(), Map.of(), NONE)
                .host();
        final String byEnv = RegistrySettings.resolve(hostEnv, new Properties(), Map.of(), NONE)
                .host();
        final String byListener = RegistrySettings.resolve(listener, new Properties(), Map.of(), NONE)
                .host();
        final String byOption = RegistrySettings.resolve(listener, new Properties(), Map.of(), hostOption)
                .host();

        // then
        assertThat(byDefault).isEqualTo("127.0.0.1");
        assertThat(SchemaRegistryApp.loopback(byDefault)).isTrue();
        assertThat(byEnv).isEqualTo("0.0.0.0");
        assertThat(SchemaRegistryApp.loopback(byEnv)).isFalse();
        assertThat(byListener).isEqualTo("10.1.2.3");
        assertThat(byOption).isEqualTo("::");
    }

    @Test
    void shouldRefuseKeyStoreTypeWhenItIsNotPkcs12() {
        // given
        final Map<String, String> env =
                Map.of("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092", "SCHEMA_REGISTRY_SSL_KEYSTORE_TYPE", "JKS");

        // when / then
        assertThatThrownBy(() -> RegistrySettings.resolve(env, new Properties(), Map.of(), NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PKCS12 only");
    }

    @Test
    void shouldNameTheLineWhenUsersFileIsMalformedOrInJettysWeakForms(@TempDir final Path dir) throws Exception {
        // given
        final Path malformed =
                Files.writeString(dir.resolve("malformed"), "alice: " + hash("wonder") + "\njust-a-name\n");
        final Path md5 = Files.writeString(dir.resolve("md5"), "alice: MD5:164c88b302622e17050af52c89945d44\n");
        final Path badHash = Files.writeString(dir.resolve("bad-hash"), "alice: PBKDF2-SHA256:10000:c2FsdA==\n");
        final Path fewIterations = Files.writeString(
                dir.resolve("few"), "alice: PBKDF2-SHA256:1000:c2FsdHNhbHQ=:aGFzaGhhc2hoYXNoaGFzaA==\n");
        final Path twice = Files.writeString(dir.resolve("twice"), "alice: a\nalice: b\n");
        final Path empty = Files.writeString(dir.resolve("empty"), "# nobody\n");

        // when / then
        assertThatThrownBy(() -> RegistryUsers.read(malformed, false)).hasMessageContaining("line 2");
        assertThatThrownBy(() -> RegistryUsers.read(md5, true))
                .hasMessageContaining("line 1")
                .hasMessageContaining("MD5");
        assertThatThrownBy(() -> RegistryUsers.read(badHash, false))
                .hasMessageContaining("line 1")
                .hasMessageContaining("ITERATIONS:SALT:HASH")
                .hasMessageNotContaining("c2FsdA==");
        assertThatThrownBy(() -> RegistryUsers.read(fewIterations, false)).hasMessageContaining("1000 iterations");
        assertThatThrownBy(() -> RegistryUsers.read(twice, true)).hasMessageContaining("listed twice");
        assertThatThrownBy(() -> RegistryUsers.read(empty, false)).hasMessageContaining("no user");
        assertThatThrownBy(() -> RegistryUsers.read(dir.resolve("missing"), false))
                .hasMessageContaining("cannot read");
    }

    @Test
    void shouldRefusePlainPasswordWhenPlainPasswordsAreNotAllowed(@TempDir final Path dir) throws Exception {
        // given
        final Path users =
                Files.writeString(dir.resolve("users"), "alice: " + hash("wonder") + "\nbob: builder,admin\n");
        final Map<String, String> env = Map.of("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092");
        final RegistrySettings.Options options =
                new RegistrySettings.Options("kafka:9092", null, null, null, null, null, users, false);

        // when / then: refused, naming the line and the way out, and not the password
        assertThatThrownBy(() -> RegistrySettings.resolve(env, new Properties(), Map.of(), options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2")
                .hasMessageContaining("bob")
                .hasMessageContaining("hash-password")
                .hasMessageContaining("--allow-plain-passwords")
                .hasMessageNotContaining("builder");
    }

    @Test
    void shouldKeepPlainPasswordAsHashWhenPlainPasswordsAreAllowed(@TempDir final Path dir) throws Exception {
        // given: allowed by the option, or by the environment
        final Path users = Files.writeString(dir.resolve("users"), "bob: builder,admin\n");
        final RegistrySettings.Options byOption =
                new RegistrySettings.Options("kafka:9092", null, null, null, null, null, users, true);
        final RegistrySettings.Options byEnv =
                new RegistrySettings.Options("kafka:9092", null, null, null, null, null, users, false);

        // when
        final RegistrySettings optionSettings =
                RegistrySettings.resolve(Map.of(), new Properties(), Map.of(), byOption);
        final RegistrySettings envSettings = RegistrySettings.resolve(
                Map.of("PARAMHUB_REGISTRY_ALLOW_PLAIN_PASSWORDS", "true"), new Properties(), Map.of(), byEnv);

        // then
        for (final RegistrySettings settings : new RegistrySettings[] {optionSettings, envSettings}) {
            final PasswordHash bob = settings.access().users().get("bob");
            assertThat(bob.matches("builder".toCharArray())).isTrue();
            assertThat(bob.matches("builde".toCharArray())).isFalse();
            assertThat(bob.encoded()).startsWith("PBKDF2-SHA256:").doesNotContain("builder");
        }
    }

    @Test
    void shouldExitWithOneLineAndCodeTwoWhenBootstrapServersAreMissing() {
        // given
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();

        // when
        final int code = SchemaRegistryApp.execute(
                new SchemaRegistryApp(Map.of()), new PrintWriter(out, true), new PrintWriter(err, true));

        // then
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines())
                .hasSize(1)
                .first()
                .asString()
                .startsWith("paramhub-registry: missing setting bootstrap.servers");
    }

    @Test
    void shouldListEveryOptionWhenAskedForHelp() {
        // given
        final StringWriter out = new StringWriter();

        // when
        final int code = SchemaRegistryApp.execute(
                new SchemaRegistryApp(Map.of()),
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true),
                "--help");

        // then
        assertThat(code).isZero();
        assertThat(out.toString())
                .contains(
                        "Usage: paramhub-registry",
                        "--bootstrap-servers",
                        "--http-host",
                        "--http-port",
                        "--topic",
                        "--config",
                        "-D",
                        "--tls-keystore",
                        "--tls-keystore-password-file",
                        "--users-file",
                        "--allow-plain-passwords",
                        "hash-password",
                        "PARAMHUB_HTTP_HOST",
                        "SCHEMA_REGISTRY_LISTENERS",
                        "SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION",
                        "PARAMHUB_REGISTRY_USERS_FILE");
    }

    /** {@code password} as the users file keeps it, with few iterations to keep the test fast. */
    private static String hash(final String password) {
        return PasswordHash.of(password.toCharArray(), PasswordHash.MIN_ITERATIONS)
                .encoded();
    }
}
