package io.paramhub.local;

import io.paramhub.registry.SchemaRegistryServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code paramhub up}: the embedded broker and registry alone, for the user's own tools, until interrupted. */
@Command(
        name = "up",
        mixinStandardHelpOptions = true,
        description =
                "Starts a Kafka broker (KRaft, in this JVM) and a schema registry, prints their addresses "
                        + "and runs until interrupted (Ctrl-C). Data is kept in --data-dir, so topics and schema ids survive a restart.")
final class UpCommand implements Callable<Integer> {

    @Option(
            names = "--data-dir",
            defaultValue = ".paramhub/kafka",
            description = "Where Kafka keeps its logs (default: ${DEFAULT-VALUE}).")
    private Path dataDir;

    @Option(names = "--port", defaultValue = "9092", description = "Kafka client port (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(
            names = "--controller-port",
            defaultValue = "9093",
            description = "KRaft controller port (default: ${DEFAULT-VALUE}); keep it the same across restarts.")
    private int controllerPort;

    @Option(
            names = "--registry-port",
            defaultValue = "8081",
            description = "Schema registry port (default: ${DEFAULT-VALUE}).")
    private int registryPort;

    @Override
    public Integer call() throws InterruptedException {
        final EmbeddedKafka kafka = EmbeddedKafka.start(dataDir, port, controllerPort, false);
        final SchemaRegistryServer registry =
                SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", registryPort);
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            registry.close();
                            kafka.close();
                            stopped.countDown();
                        },
                        "paramhub-up-shutdown"));
        System.out.println("Kafka bootstrap servers: " + kafka.bootstrapServers());
        System.out.println("Schema registry URL:     " + registry.url());
        System.out.println("Press Ctrl-C to stop.");
        stopped.await();
        return 0;
    }
}
