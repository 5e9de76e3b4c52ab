package io.paramhub.embedded;

import io.paramhub.embedded.secure.BrokerSecurity;
import io.paramhub.embedded.secure.LocalSecrets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka (KRaft, broker and controller combined) inside this JVM, through Kafka's
 * public server API; the embedded default of {@code paramhub demo} and {@code paramhub up}.
 * Replication factor 1 everywhere (a transaction log that cannot reach its replication factor keeps
 * Streams in REBALANCING), no initial rebalance delay (Streams starts in 0.2–0.8 s instead of 3.2–3.9 s),
 * 5 partitions for the offsets and transaction topics (~0.9 s less on the first start); measured in
 * docs/kafka-on-two-cores.md. Those and the other settings it shares with {@link BrokerProcesses} are in
 * {@link BrokerSettings}.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final Path dataDir;
    private final boolean deleteOnClose;

    private EmbeddedKafka(
            final KafkaRaftServer server,
            final String bootstrapServers,
            final Path dataDir,
            final boolean deleteOnClose) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.dataDir = dataDir;
        this.deleteOnClose = deleteOnClose;
    }

    /** Starts a broker on a fresh temporary directory, deleted on close. */
    public static EmbeddedKafka startTemporary() {
        try {
            return start(Files.createTempDirectory("paramhub-kafka-"), freePort(), freePort(), true);
        } catch (final IOException e) {
            throw new UncheckedIOException("could not create a temporary directory for Kafka", e);
        }
    }

    /**
     * Starts a broker keeping its logs in {@code dataDir} (formatted on first use, reused after), with
     * clients on {@code brokerPort}; keep both ports across restarts of the same directory.
     */
    public static EmbeddedKafka start(
            final Path dataDir, final int brokerPort, final int controllerPort, final boolean deleteOnClose) {
        return start(dataDir, brokerPort, controllerPort, deleteOnClose, null);
    }

    /**
     * As {@link #start(Path, int, int, boolean)}; with {@code security} (null: PLAINTEXT) the client listener is
     * SASL_SSL with SCRAM-SHA-512 and only ACLs allow, as {@link BrokerSecurity} says.
     */
    public static EmbeddedKafka start(
            final Path dataDir,
            final int brokerPort,
            final int controllerPort,
            final boolean deleteOnClose,
            final BrokerSecurity security) {
        final long started = System.nanoTime();
        final Properties props = BrokerSettings.shared();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", dataDir.resolve("logs").toString());
        props.put("default.replication.factor", "1");
        props.put("offsets.topic.replication.factor", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        if (security != null) {
            props.putAll(security.brokerSettings(brokerPort, controllerPort));
        }
        if (!Files.exists(dataDir.resolve("logs").resolve("meta.properties"))) {
            format(dataDir, props, security);
        }
        final KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        server.startup();
        final String bootstrap = "127.0.0.1:" + brokerPort;
        log.info(
                "embedded Kafka up at {} in {} ms (data in {})",
                bootstrap,
                (System.nanoTime() - started) / 1_000_000,
                dataDir);
        return new EmbeddedKafka(server, bootstrap, dataDir, deleteOnClose);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
        if (deleteOnClose) {
            Directories.deleteRecursively(dataDir);
        }
    }

    private static void format(final Path dataDir, final Properties props, final BrokerSecurity security) {
        try {
            Files.createDirectories(dataDir);
            final Path config = dataDir.resolve("server.properties");
            if (security != null) {
                // it holds the admin's password and the key store's: owner-only
                LocalSecrets.write(config, props, "ParamHub embedded Kafka");
            } else {
                try (OutputStream out = Files.newOutputStream(config)) {
                    props.store(out, "ParamHub embedded Kafka");
                }
            }
            final ByteArrayOutputStream output = new ByteArrayOutputStream();
            final List<String> args = new ArrayList<>(
                    List.of("format", "--standalone", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
            if (security != null) {
                args.addAll(List.of("--add-scram", security.addScramArgument()));
            }
            final int code = StorageTool.execute(
                    args.toArray(String[]::new), new PrintStream(output, true, StandardCharsets.UTF_8));
            if (code != 0) {
                throw new IllegalStateException("could not format Kafka storage in " + dataDir + ": "
                        + output.toString(StandardCharsets.UTF_8));
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("could not prepare Kafka storage in " + dataDir, e);
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (final IOException e) {
            throw new UncheckedIOException("no free local port", e);
        }
    }
}
