package io.paramhub.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.utils.Time;

/**
 * The main class of one node of {@link BrokerProcesses}, in a JVM of its own so that it can be killed alone:
 * {@code KafkaNode SERVER_PROPERTIES CLUSTER_ID} formats the node's {@code log.dirs} for the static quorum its
 * properties name (once: a formatted directory is reused), starts the KRaft node and runs until the JVM is told
 * to stop ({@code kill PID}: a controlled shutdown) or its parent process ends.
 */
public final class KafkaNode {

    private KafkaNode() {}

    public static void main(final String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: KafkaNode SERVER_PROPERTIES CLUSTER_ID");
            System.exit(2);
        }
        final Path config = Path.of(args[0]);
        final Properties props = new Properties();
        try (InputStream in = Files.newInputStream(config)) {
            props.load(in);
        }
        final Path logs = Path.of(props.getProperty("log.dirs"));
        if (!Files.exists(logs.resolve("meta.properties"))) {
            final ByteArrayOutputStream output = new ByteArrayOutputStream();
            // no --standalone: the voters are the static controller.quorum.voters of the properties
            final int code = StorageTool.execute(
                    new String[] {"format", "-t", args[1], "-c", config.toString()},
                    new PrintStream(output, true, StandardCharsets.UTF_8));
            if (code != 0) {
                System.err.println("could not format " + logs + ": " + output.toString(StandardCharsets.UTF_8));
                System.exit(1);
            }
        }
        final KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.shutdown();
                            server.awaitShutdown();
                        },
                        "kafka-node-shutdown"));
        server.startup();
        System.out.println("KafkaNode " + props.getProperty("node.id") + " started");
        // a node left behind by a parent that was killed (it had no time to stop its children) stops too
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
        server.awaitShutdown();
    }
}
