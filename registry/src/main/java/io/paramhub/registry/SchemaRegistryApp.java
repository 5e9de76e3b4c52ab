package io.paramhub.registry;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The schema registry on its own: {@code java -jar paramhub-registry.jar --bootstrap-servers HOST:PORT}.
 * Serves until stopped (SIGTERM, Ctrl-C), then closes cleanly. A missing or malformed setting is one line on
 * stderr and exit code 2; a registry that cannot start (Kafka unreachable, a topic of the wrong shape) is one
 * line and exit code 1.
 */
@Command(
        name = "paramhub-registry",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        version = "paramhub-registry 0.1.0",
        subcommands = HashPasswordCommand.class,
        description =
                "A Confluent-compatible schema registry (Avro) that keeps its schemas in a compacted Kafka topic, "
                        + "so ids and versions survive restarts. Serves until stopped.",
        footer = {
            "",
            "HTTP: 127.0.0.1:8081 by default, which only this machine reaches; --http-host 0.0.0.0 (or "
                    + RegistrySettings.HTTP_HOST_ENV + "=0.0.0.0, or SCHEMA_REGISTRY_LISTENERS=http://0.0.0.0:8081) "
                    + "serves every interface, as in a container.",
            "Settings, lowest first: defaults; the --config properties file (Kafka client settings under their own "
                    + "names); the environment, read as Confluent's registry image reads it (SCHEMA_REGISTRY_LISTENERS, "
                    + "SCHEMA_REGISTRY_KAFKASTORE_TOPIC, SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS and any other "
                    + "SCHEMA_REGISTRY_KAFKASTORE_* as a Kafka client setting, e.g. SCHEMA_REGISTRY_KAFKASTORE_SECURITY_PROTOCOL "
                    + "-> security.protocol), KAFKA_BOOTSTRAP_SERVERS and PARAMHUB_HTTP_HOST; the command line "
                    + "(-D key=value, then the options).",
            "HTTPS: --tls-keystore with --tls-keystore-password-file, or Confluent's SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION "
                    + "and SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD with an https:// SCHEMA_REGISTRY_LISTENERS. Basic "
                    + "authentication: --users-file or PARAMHUB_REGISTRY_USERS_FILE, a Jetty password file of hashed passwords "
                    + "(NAME: PBKDF2-SHA256:ITERATIONS:SALT:HASH[,role...] a line, roles ignored; `paramhub-registry "
                    + "hash-password NAME` prints such a line). A plain password in it is refused unless "
                    + "--allow-plain-passwords, and then logged as a warning.",
            "Several instances may share one topic: each write is made by one writer (a transactional producer "
                    + "with the id paramhub-schema-registry-TOPIC, which a principal on a cluster with ACLs needs WRITE "
                    + "and DESCRIBE on), so no id names two schemas.",
            "Exit codes: 0 done, 1 failed to start, 2 missing or malformed setting, 143 (128 + SIGTERM) stopped."
        })
public final class SchemaRegistryApp implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(SchemaRegistryApp.class);

    /** Exit code of a missing or malformed setting (picocli's usage-error code). */
    static final int BAD_SETTING = 2;
    /** Exit code of a registry that could not start. */
    static final int FAILED = 1;

    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT[,...]",
            description = "Kafka bootstrap servers: bootstrap.servers, env KAFKA_BOOTSTRAP_SERVERS or "
                    + "SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS. Required.")
    private String bootstrapServers;

    @Option(
            names = "--http-host",
            paramLabel = "HOST",
            description = "Address the HTTP server binds to, e.g. 0.0.0.0 for every interface (default: "
                    + RegistrySettings.DEFAULT_HOST + ": only this machine; or the host of SCHEMA_REGISTRY_LISTENERS, "
                    + "else " + RegistrySettings.HTTP_HOST_ENV + ").")
    private String httpHost;

    @Option(
            names = "--http-port",
            paramLabel = "PORT",
            description = "HTTP port; 0 = any free port (default: " + RegistrySettings.DEFAULT_PORT
                    + ", or the port of SCHEMA_REGISTRY_LISTENERS).")
    private Integer httpPort;

    @Option(
            names = "--topic",
            paramLabel = "TOPIC",
            description = "Compacted, single-partition topic the schemas are kept in, created when missing "
                    + "(default: " + SchemaLog.DEFAULT_TOPIC + ", or SCHEMA_REGISTRY_KAFKASTORE_TOPIC).")
    private String topic;

    @Option(
            names = "--tls-keystore",
            paramLabel = "FILE",
            description = "PKCS12 key store with the server's key and certificate: serve HTTPS "
                    + "(or SCHEMA_REGISTRY_SSL_KEYSTORE_LOCATION). Default: plain HTTP.")
    private Path keyStore;

    @Option(
            names = "--tls-keystore-password-file",
            paramLabel = "FILE",
            description = "File whose first line is the key store's password "
                    + "(or SCHEMA_REGISTRY_SSL_KEYSTORE_PASSWORD).")
    private Path keyStorePasswordFile;

    @Option(
            names = "--users-file",
            paramLabel = "FILE",
            description =
                    "Ask for HTTP basic credentials of the users in this Jetty password file of hashed "
                            + "passwords (or PARAMHUB_REGISTRY_USERS_FILE; see hash-password). Default: anyone may call the API.")
    private Path usersFile;

    @Option(
            names = "--allow-plain-passwords",
            description = "Accept plain passwords in the users file, each logged as a warning (or "
                    + RegistrySettings.ALLOW_PLAIN_PASSWORDS_ENV + "=true). Default: only hashed ones.")
    private boolean allowPlainPasswords;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file of Kafka client settings (security.protocol, sasl.*, ssl.*, ...).")
    private Path configFile;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description = "A Kafka client setting (repeatable); wins over the file and the environment.")
    private Map<String, String> overrides = new LinkedHashMap<>();

    private final Map<String, String> env;

    /** A registry configured from this process's environment. */
    public SchemaRegistryApp() {
        this(System.getenv());
    }

    SchemaRegistryApp(final Map<String, String> env) {
        this.env = env;
    }

    public static void main(final String[] args) {
        System.exit(execute(
                new SchemaRegistryApp(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs {@code app} with {@code args}, help on {@code out} and the one-line errors on {@code err}. */
    static int execute(
            final SchemaRegistryApp app, final PrintWriter out, final PrintWriter err, final String... args) {
        final CommandLine cli = new CommandLine(app);
        final String name = cli.getCommandName();
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((error, ignored) -> {
            err.println(name + ": " + error.getMessage() + " (see --help)");
            return BAD_SETTING;
        });
        cli.setExecutionExceptionHandler((error, line, parsed) -> {
            err.println(name + ": " + error.getMessage());
            return error instanceof IllegalArgumentException || error instanceof ConfigException ? BAD_SETTING : FAILED;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() throws InterruptedException {
        final RegistrySettings settings = RegistrySettings.resolve(
                env,
                load(configFile),
                overrides,
                new RegistrySettings.Options(
                        bootstrapServers,
                        httpHost,
                        httpPort,
                        topic,
                        keyStore,
                        keyStorePasswordFile,
                        usersFile,
                        allowPlainPasswords));
        if (settings.access().authenticates() && !settings.access().tls()) {
            log.warn("basic authentication without HTTPS: passwords cross the network in clear; add --tls-keystore");
        }
        if (!settings.access().authenticates() && !loopback(settings.host())) {
            log.warn(
                    "the registry binds {} without --users-file: anyone who reaches it may register schemas and "
                            + "change compatibility levels",
                    settings.host());
        }
        final SchemaRegistryServer server = SchemaRegistryServer.start(
                settings.kafka(), settings.topic(), settings.host(), settings.port(), settings.access());
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            stopped.countDown();
                        },
                        "schema-registry-shutdown"));
        stopped.await();
        return 0;
    }

    /** Whether {@code host} is one only this machine reaches. */
    static boolean loopback(final String host) {
        return "localhost".equalsIgnoreCase(host) || host.startsWith("127.") || "::1".equals(host);
    }

    /** The properties file, empty when none is given. */
    private static Properties load(final Path file) {
        final Properties props = new Properties();
        if (file == null) {
            return props;
        }
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        } catch (final IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("--config: cannot read " + file + ": " + e, e);
        }
        return props;
    }
}
