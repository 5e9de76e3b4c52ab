package io.paramhub.cli;

import io.paramhub.embedded.BrokerProcesses;
import io.paramhub.embedded.EmbeddedKafka;
import io.paramhub.embedded.EmbeddedRegistry;
import io.paramhub.embedded.secure.AclScope;
import io.paramhub.embedded.secure.LocalSecrets;
import io.paramhub.embedded.secure.Role;
import io.paramhub.embedded.secure.SecureRoles;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.topology.TopicCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code paramhub up}: a broker in this JVM, or with {@code --brokers 3} a three-broker cluster of child JVMs, and a
 * registry, for the user's own tools, until interrupted.
 */
@Command(
        name = "up",
        mixinStandardHelpOptions = true,
        description = "Starts a Kafka broker (KRaft, in this JVM) and a schema registry, prints their addresses "
                + "and runs until interrupted (Ctrl-C). Data is kept in --data-dir, so topics and schema ids survive a restart. "
                + "With --brokers 3: three brokers, each in its own process so that one can be killed.")
final class UpCommand implements Callable<Integer> {

    /** The variable whose words are added to each broker JVM's options, e.g. a collector or JIT settings. */
    static final String BROKER_JAVA_OPTS = "PARAMHUB_BROKER_JAVA_OPTS";

    /** The controller port of the single broker when {@code --controller-port} is not given. */
    private static final int SINGLE_CONTROLLER_PORT = 9093;

    @Spec
    private CommandSpec command;

    @Option(
            names = "--data-dir",
            defaultValue = ".paramhub/kafka",
            description = "Where Kafka keeps its logs (default: ${DEFAULT-VALUE}); with --brokers N, broker i in "
                    + "<data-dir>/broker-i.")
    private Path dataDir;

    @Option(
            names = "--port",
            defaultValue = "9092",
            description = "Kafka client port (default: ${DEFAULT-VALUE}); with --brokers N, the first of N "
                    + "consecutive ones.")
    private int port;

    @Option(
            names = "--controller-port",
            description = "KRaft controller port (default: " + SINGLE_CONTROLLER_PORT + "; with --brokers N, the "
                    + "first of N consecutive ones, default --port + N); keep it the same across restarts.")
    private Integer controllerPort;

    @Option(
            names = "--registry-port",
            defaultValue = "8081",
            description = "Schema registry port (default: ${DEFAULT-VALUE}).")
    private int registryPort;

    @Option(
            names = "--brokers",
            defaultValue = "1",
            description = "1: one broker in this JVM; 3: three brokers, each also a KRaft controller, each in a "
                    + "child JVM, topics replicated 3 times with min.insync.replicas 2, so that the cluster "
                    + "serves on when one is killed (default: ${DEFAULT-VALUE}).")
    private int brokers;

    @Option(
            names = "--broker-heap",
            defaultValue = "512m",
            description = "With --brokers 3: each broker JVM's maximum heap, as java's -Xmx takes it; more options of "
                    + "the brokers' java command come from " + BROKER_JAVA_OPTS + " (default: ${DEFAULT-VALUE}).")
    private String brokerHeap;

    @Option(
            names = "--secure",
            defaultValue = "false",
            description = "Secure both: the broker's client port takes SASL_SSL with SCRAM-SHA-512 only and allows "
                    + "only ACLs, the registry serves HTTPS with basic auth. Certificates and random passwords are "
                    + "made in <data-dir>/secure on the first start and reused. ParamHub's topics are created, and "
                    + "one user per role (aggregator, orchestrator, worker, submitter, reader) gets only its role's "
                    + "ACLs: its settings go to <data-dir>/secure/<role>.properties, whose paths are printed. "
                    + "<data-dir>/secure/client.properties (printed) logs in as admin, a super user: for setting up "
                    + "and tools, not for the apps (default: ${DEFAULT-VALUE}). One broker only.")
    private boolean secure;

    @Option(
            names = "--data-topics",
            split = ",",
            defaultValue = "data.",
            description = "With --secure: prefixes of the users' data topics, which the worker role may read "
                    + "(a topic: job's examples); comma-separated (default: ${DEFAULT-VALUE}).")
    private List<String> dataTopics;

    @Override
    public Integer call() throws InterruptedException, IOException {
        if (brokers == 1) {
            return oneBroker();
        }
        if (brokers != 3) {
            throw new ParameterException(command.commandLine(), "--brokers must be 1 or 3, not " + brokers);
        }
        if (secure) {
            throw new ParameterException(
                    command.commandLine(),
                    "--secure takes one broker: paramhub up does not secure a multi-broker cluster yet");
        }
        if (!brokerHeap.matches("\\d+[kKmMgG]?")) {
            throw new ParameterException(
                    command.commandLine(), "--broker-heap must be a size such as 512m or 1g, not " + brokerHeap);
        }
        return brokerProcesses();
    }

    private int oneBroker() throws InterruptedException, IOException {
        final AclScope scope = secure ? aclScope() : null;
        final LocalSecrets secrets = secure ? LocalSecrets.loadOrCreate(dataDir.resolve("secure")) : null;
        final EmbeddedKafka kafka = EmbeddedKafka.start(
                dataDir,
                port,
                controllerPort != null ? controllerPort : SINGLE_CONTROLLER_PORT,
                false,
                secure ? secrets.broker() : null);
        final SchemaRegistryServer registry = EmbeddedRegistry.start(kafka, secrets, registryPort);
        final CountDownLatch stopped = stopOnShutdown(registry, kafka);
        System.out.println("Kafka bootstrap servers: " + kafka.bootstrapServers());
        System.out.println("Schema registry URL:     " + registry.url());
        if (secure) {
            printRoles(secrets, scope, kafka.bootstrapServers(), registry.url());
        }
        System.out.println("Press Ctrl-C to stop.");
        stopped.await();
        return 0;
    }

    /** Sets up the roles' users, ACLs and topics as the admin, and prints every settings file. */
    private void printRoles(
            final LocalSecrets secrets, final AclScope scope, final String bootstrapServers, final String registryUrl)
            throws IOException {
        final Path dir = dataDir.resolve("secure");
        final Properties admin = secrets.clientSettings(bootstrapServers, registryUrl);
        final Path file = dir.resolve(LocalSecrets.CLIENT_SETTINGS);
        LocalSecrets.write(file, admin, "paramhub up --secure: the admin's client settings (a super user)");
        final Map<Role, Path> roles = SecureRoles.setUp(admin, secrets, scope, dir);
        System.out.println("Admin settings, a super user for setting up and tools (--config " + file + "):");
        System.out.print(Files.readString(file));
        System.out.println("Settings per role, each user holding only its role's ACLs (give one as --config FILE):");
        roles.forEach((role, path) ->
                System.out.printf("  %-12s %s%n               %s%n", role.user(), path, role.description()));
        System.out.println("Data topics the worker role may read (--data-topics): names starting with "
                + String.join(" or ", dataTopics));
    }

    /** The roles' scope on ParamHub's default topics, refusing {@code --data-topics} that cover those. */
    private AclScope aclScope() {
        try {
            return AclScope.defaults(TopicCatalog.DEFAULT_PREFIX, dataTopics);
        } catch (final IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "--data-topics: " + e.getMessage());
        }
    }

    private int brokerProcesses() throws InterruptedException {
        final BrokerProcesses kafka = BrokerProcesses.start(
                dataDir,
                brokers,
                port,
                controllerPort != null ? controllerPort : port + brokers,
                brokerHeap,
                brokerJvmOptions(),
                System.out::println);
        final SchemaRegistryServer registry;
        try {
            registry = EmbeddedRegistry.start(kafka.bootstrapServers(), registryPort);
        } catch (final RuntimeException e) {
            kafka.close();
            throw e;
        }
        final CountDownLatch stopped = stopOnShutdown(registry, kafka);
        System.out.println("Kafka bootstrap servers: " + kafka.bootstrapServers());
        System.out.println("Schema registry URL:     " + registry.url());
        for (final BrokerProcesses.Node node : kafka.nodes()) {
            System.out.println("Broker " + node.id() + ": pid " + node.pid() + ", port " + node.port()
                    + ", controller port " + node.controllerPort() + ", output in " + node.log());
        }
        System.out.println("Topics get replication factor 3 and min.insync.replicas 2: stop one broker with "
                + "`kill PID` (or kill -9 PID) and the cluster serves on with the other two.");
        System.out.println("Press Ctrl-C to stop.");
        stopped.await();
        return 0;
    }

    /** A latch released once a shutdown hook has closed {@code registry}, then {@code kafka}. */
    private static CountDownLatch stopOnShutdown(final SchemaRegistryServer registry, final AutoCloseable kafka) {
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            registry.close();
                            try {
                                kafka.close();
                            } catch (final Exception e) {
                                throw new IllegalStateException("could not stop Kafka", e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "paramhub-up-shutdown"));
        return stopped;
    }

    /** The words of {@value #BROKER_JAVA_OPTS}; none when it is unset or blank. */
    private static List<String> brokerJvmOptions() {
        final String options = System.getenv(BROKER_JAVA_OPTS);
        return options == null || options.isBlank()
                ? List.of()
                : List.of(options.trim().split("\\s+"));
    }
}
