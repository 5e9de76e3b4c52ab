package io.paramhub.cli;

import io.paramhub.embedded.EmbeddedKafka;
import io.paramhub.embedded.EmbeddedRegistry;
import io.paramhub.embedded.secure.LocalSecrets;
import io.paramhub.registry.SchemaRegistryServer;
import java.io.IOException;
import java.nio.file.Files;
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

    @Option(
            names = "--secure",
            defaultValue = "false",
            description = "Secure both: the broker's client port takes SASL_SSL with SCRAM-SHA-512 only and allows "
                    + "only ACLs (super user admin), the registry serves HTTPS with basic auth. Certificates and "
                    + "random passwords are made in <data-dir>/secure on the first start and reused; the client "
                    + "settings are written to <data-dir>/secure/client.properties and printed (default: "
                    + "${DEFAULT-VALUE}).")
    private boolean secure;

    @Override
    public Integer call() throws InterruptedException, IOException {
        final LocalSecrets secrets = secure ? LocalSecrets.loadOrCreate(dataDir.resolve("secure")) : null;
        final EmbeddedKafka kafka =
                EmbeddedKafka.start(dataDir, port, controllerPort, false, secure ? secrets.broker() : null);
        final SchemaRegistryServer registry = EmbeddedRegistry.start(kafka, secrets, registryPort);
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
        if (secure) {
            final Path file = dataDir.resolve("secure").resolve(LocalSecrets.CLIENT_SETTINGS);
            LocalSecrets.write(
                    file,
                    secrets.clientSettings(kafka.bootstrapServers(), registry.url()),
                    "paramhub up --secure: client settings");
            System.out.println("Client settings (give them as --config " + file + "):");
            System.out.print(Files.readString(file));
        }
        System.out.println("Press Ctrl-C to stop.");
        stopped.await();
        return 0;
    }
}
