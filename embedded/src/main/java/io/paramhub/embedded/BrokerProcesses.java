package io.paramhub.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A local KRaft cluster of N nodes, each a broker and a voter of the controller quorum, each in a child JVM of
 * its own (the same java and class path, main class {@link KafkaNode}) so that one can be killed: a quorum of 3
 * survives the loss of one. Topics get replication factor min(3, N) and {@code min.insync.replicas} 2 from the
 * brokers' defaults, the offsets and transaction topics too, so that ParamHub's topics, the Streams apps'
 * internal topics and the registry's {@code _schemas} are all replicated without being told. Node i (from 1)
 * keeps its data in {@code DATA_DIR/broker-i}, serves clients on {@code firstPort + i - 1} and the quorum on
 * {@code firstControllerPort + i - 1}; its output goes to {@code broker-i/node.log}.
 */
public final class BrokerProcesses implements AutoCloseable {

    /** How long the nodes may take to start and register (three JVMs starting at once on two cores: ~10 s). */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    /** How long a node may take for its controlled shutdown before it is killed. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private static final String HOST = "127.0.0.1";

    /** One node: its id, client port, controller port, directory and process. */
    public record Node(int id, int port, int controllerPort, Path dir, Process process) {

        public long pid() {
            return process.pid();
        }

        /** The node's standard output and error. */
        public Path log() {
            return dir.resolve("node.log");
        }
    }

    private final List<Node> nodes;
    private final Launch launch;
    /** The processes {@link #kill} ended: their exits are no news. */
    private final Set<Long> killed = ConcurrentHashMap.newKeySet();

    private volatile boolean closing;

    /** What a node's JVM is started with, kept to start a killed node again. */
    private record Launch(String clusterId, String heap, List<String> jvmOptions, Consumer<String> onExit) {}

    private BrokerProcesses(final List<Node> nodes, final Launch launch) {
        this.nodes = nodes;
        this.launch = launch;
    }

    /**
     * Starts {@code count} nodes with {@code heap} each ({@code -Xmx}) and {@code jvmOptions} (more options of their
     * {@code java} command), waits until all are registered and the
     * offsets and transaction topics exist; {@code onExit} hears of a node that exits before {@link #close()}.
     * Fails, stopping what it started, when a port is taken or a node does not come up.
     */
    public static BrokerProcesses start(
            final Path dataDir,
            final int count,
            final int firstPort,
            final int firstControllerPort,
            final String heap,
            final List<String> jvmOptions,
            final Consumer<String> onExit) {
        checkFree(ports(count, firstPort, firstControllerPort));
        final String clusterId = clusterId(dataDir);
        final String voters = IntStream.rangeClosed(1, count)
                .mapToObj(id -> id + "@" + HOST + ":" + (firstControllerPort + id - 1))
                .collect(Collectors.joining(","));
        final List<Node> started = new ArrayList<>();
        final BrokerProcesses cluster =
                new BrokerProcesses(started, new Launch(clusterId, heap, List.copyOf(jvmOptions), onExit));
        try {
            for (int id = 1; id <= count; id++) {
                final Path dir = dataDir.resolve("broker-" + id);
                final int port = firstPort + id - 1;
                final int controllerPort = firstControllerPort + id - 1;
                final Path config = writeConfig(dir, settings(id, count, port, controllerPort, voters, dir));
                started.add(new Node(id, port, controllerPort, dir, launch(config, clusterId, heap, jvmOptions, dir)));
            }
            for (final Node node : started) {
                node.process().onExit().thenAccept(process -> cluster.reportExit(node, onExit));
            }
            cluster.awaitReady();
            try (InternalTopicsWarmup warmup = InternalTopicsWarmup.start(cluster.bootstrapServers())) {
                warmup.await(START_TIMEOUT.toSeconds());
            }
            return cluster;
        } catch (final RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Kills node {@code id} (SIGKILL, no controlled shutdown) and waits until its process is gone; its exit is not
     * reported as a surprise.
     */
    public synchronized void kill(final int id) throws InterruptedException {
        final Node node = node(id);
        killed.add(node.pid());
        node.process().destroyForcibly();
        node.process().waitFor();
    }

    /** Starts node {@code id} again, with its settings and data, once its process is gone. */
    public synchronized void restart(final int id) {
        final Node node = node(id);
        if (node.process().isAlive()) {
            throw new IllegalStateException("broker " + id + " is still running (pid " + node.pid() + ")");
        }
        final Process process = launch(
                node.dir().resolve("server.properties").toAbsolutePath(),
                launch.clusterId(),
                launch.heap(),
                launch.jvmOptions(),
                node.dir());
        final Node restarted = new Node(id, node.port(), node.controllerPort(), node.dir(), process);
        nodes.set(nodes.indexOf(node), restarted);
        process.onExit().thenAccept(exited -> reportExit(restarted, launch.onExit()));
    }

    private Node node(final int id) {
        return nodes.stream()
                .filter(node -> node.id() == id)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no broker " + id));
    }

    /** The nodes' client addresses, comma-separated. */
    public String bootstrapServers() {
        return nodes.stream().map(node -> HOST + ":" + node.port()).collect(Collectors.joining(","));
    }

    public synchronized List<Node> nodes() {
        return List.copyOf(nodes);
    }

    /** Stops every node still running (a controlled shutdown; killed after 30 s). */
    @Override
    public void close() {
        closing = true;
        nodes.forEach(node -> node.process().destroy());
        for (final Node node : nodes) {
            try {
                if (!node.process().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    node.process().destroyForcibly();
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                node.process().destroyForcibly();
            }
        }
    }

    /** The client ports, then the controller ports, each with what it is for. */
    static Map<Integer, String> ports(final int count, final int firstPort, final int firstControllerPort) {
        final Map<Integer, String> ports = new LinkedHashMap<>();
        for (int id = 1; id <= count; id++) {
            ports.put(firstPort + id - 1, "client port of broker " + id);
        }
        for (int id = 1; id <= count; id++) {
            final String purpose = "controller port of broker " + id;
            final String clash = ports.putIfAbsent(firstControllerPort + id - 1, purpose);
            if (clash != null) {
                throw new IllegalArgumentException("port " + (firstControllerPort + id - 1) + " would be both the "
                        + clash + " and the " + purpose + ": the client ports are --port and the " + (count - 1)
                        + " after it, the controller ports --controller-port and the " + (count - 1) + " after it");
            }
        }
        return ports;
    }

    /** The settings of node {@code id} of {@code count}. */
    static Properties settings(
            final int id,
            final int count,
            final int port,
            final int controllerPort,
            final String voters,
            final Path dir) {
        final String replicas = Integer.toString(Math.min(3, count));
        final String minInSync = Integer.toString(Math.min(2, count));
        final Properties props = BrokerSettings.shared();
        props.put("process.roles", "broker,controller");
        props.put("node.id", Integer.toString(id));
        props.put("controller.quorum.voters", voters);
        props.put("listeners", "PLAINTEXT://" + HOST + ":" + port + ",CONTROLLER://" + HOST + ":" + controllerPort);
        props.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("log.dirs", dir.resolve("logs").toAbsolutePath().toString());
        props.put("default.replication.factor", replicas);
        props.put("min.insync.replicas", minInSync);
        props.put("offsets.topic.replication.factor", replicas);
        props.put("transaction.state.log.replication.factor", replicas);
        props.put("transaction.state.log.min.isr", minInSync);
        props.put("share.coordinator.state.topic.replication.factor", replicas);
        props.put("share.coordinator.state.topic.min.isr", minInSync);
        // a killed broker is fenced, and its partitions led by the others, 3 s after it went silent (default 9 s)
        props.put("broker.heartbeat.interval.ms", "500");
        props.put("broker.session.timeout.ms", "3000");
        return props;
    }

    private void reportExit(final Node node, final Consumer<String> onExit) {
        if (closing || killed.contains(node.pid())) {
            return;
        }
        final long running =
                nodes.stream().filter(other -> other.process().isAlive()).count();
        onExit.accept("Broker " + node.id() + " (pid " + node.pid() + ", port " + node.port() + ") exited with code "
                + node.process().exitValue() + "; " + running + " of " + nodes.size()
                + " brokers still serving (its output: " + node.log() + ")");
    }

    private void awaitReady() {
        final long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000))) {
            while (true) {
                for (final Node node : nodes) {
                    if (!node.process().isAlive()) {
                        throw new IllegalStateException("broker " + node.id() + " exited with code "
                                + node.process().exitValue() + " while starting; its output: " + node.log());
                    }
                }
                if (registered(admin) == nodes.size()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the " + nodes.size() + " brokers did not all register within "
                            + START_TIMEOUT.toSeconds() + " s; their output: "
                            + nodes.get(0).dir().getParent()
                            + "/broker-*/node.log");
                }
                Thread.sleep(200);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the brokers started", e);
        }
    }

    private static int registered(final Admin admin) throws InterruptedException {
        try {
            return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
        } catch (final ExecutionException | TimeoutException e) {
            return 0;
        }
    }

    private static Process launch(
            final Path config,
            final String clusterId,
            final String heap,
            final List<String> jvmOptions,
            final Path dir) {
        final List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-cp", System.getProperty("java.class.path"), KafkaNode.class.getName(), config.toString(), clusterId));
        try {
            return new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve("node.log").toFile()))
                    .start();
        } catch (final IOException e) {
            throw new UncheckedIOException("could not start a broker with " + command, e);
        }
    }

    private static Path writeConfig(final Path dir, final Properties props) {
        try {
            Files.createDirectories(dir);
            final Path config = dir.resolve("server.properties");
            try (OutputStream out = Files.newOutputStream(config)) {
                props.store(out, "ParamHub local cluster node, written by paramhub up --brokers on each start");
            }
            return config.toAbsolutePath();
        } catch (final IOException e) {
            throw new UncheckedIOException("could not write the broker settings in " + dir, e);
        }
    }

    /** The cluster's id, made on the first start and kept in {@code DATA_DIR/cluster.id}. */
    private static String clusterId(final Path dataDir) {
        final Path file = dataDir.resolve("cluster.id");
        try {
            if (Files.exists(file)) {
                return Files.readString(file).strip();
            }
            Files.createDirectories(dataDir);
            final String id = Uuid.randomUuid().toString();
            Files.writeString(file, id + "\n");
            return id;
        } catch (final IOException e) {
            throw new UncheckedIOException("could not read or write " + file, e);
        }
    }

    private static void checkFree(final Map<Integer, String> ports) {
        for (final Map.Entry<Integer, String> port : ports.entrySet()) {
            try (ServerSocket socket = new ServerSocket(port.getKey(), 1, InetAddress.getByName(HOST))) {
                socket.getLocalPort();
            } catch (final IOException e) {
                throw new IllegalStateException("port " + port.getKey() + " (" + port.getValue()
                        + ") is in use: choose other ports with --port and --controller-port");
            }
        }
    }
}
