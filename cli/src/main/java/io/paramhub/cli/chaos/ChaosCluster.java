package io.paramhub.cli.chaos;

import io.paramhub.aggregator.AggregatorApp;
import io.paramhub.embedded.BrokerProcesses;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.orchestrator.OrchestratorApp;
import io.paramhub.registry.SchemaRegistryApp;
import io.paramhub.worker.WorkerApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The processes of a chaos run on this machine: three brokers (each a KRaft voter; replication 3,
 * {@code min.insync.replicas} 2), a schema registry, two aggregators, an orchestrator with its levers off (so that
 * it never changes a BSP job's shares) and one process per worker of each job. Starts, kills, freezes and restarts
 * them by name; {@link #close()} kills every one, whatever happened.
 */
final class ChaosCluster implements AutoCloseable {

    /** Heap of each app JVM; thirteen JVMs share two cores and the machine's memory. */
    static final String APP_HEAP = "256m";

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path dir;
    private final ChaosTopology topology;
    private final BrokerProcesses brokers;
    private final int registryPort;
    private final List<AppJvm> apps = new ArrayList<>();
    private AppJvm registry;
    private final List<AppJvm> aggregators = new ArrayList<>();
    private AppJvm orchestrator;
    private final List<AppJvm> workers = new ArrayList<>();
    /** The HTTP port of each Streams app, whose {@code /health/ready} says when a restarted one has healed. */
    private final Map<String, Integer> httpPorts = new HashMap<>();

    private ChaosCluster(
            final Path dir, final ChaosTopology topology, final BrokerProcesses brokers, final int registryPort) {
        this.dir = dir;
        this.topology = topology;
        this.brokers = brokers;
        this.registryPort = registryPort;
    }

    /**
     * Starts the brokers on {@code firstPort} and the ports after it (controllers after those), the registry and
     * the Streams apps, in {@code dir}; worker processes come with {@link #startWorkers}. Stops what it started
     * when a part does not come up.
     */
    static ChaosCluster start(
            final Path dir, final ChaosTopology topology, final int firstPort, final Consumer<String> out) {
        final BrokerProcesses brokers = BrokerProcesses.start(
                dir.resolve("kafka"),
                topology.brokers(),
                firstPort,
                firstPort + topology.brokers(),
                APP_HEAP,
                List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                out);
        final ChaosCluster cluster = new ChaosCluster(dir, topology, brokers, freePort());
        try {
            cluster.startApps();
            return cluster;
        } catch (final RuntimeException | InterruptedException e) {
            cluster.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("the chaos cluster did not come up: " + e.getMessage(), e);
        }
    }

    String bootstrapServers() {
        return brokers.bootstrapServers();
    }

    String registryUrl() {
        return "http://127.0.0.1:" + registryPort;
    }

    Path dir() {
        return dir;
    }

    BrokerProcesses brokers() {
        return brokers;
    }

    private void startApps() throws InterruptedException {
        registry = app(
                "registry",
                SchemaRegistryApp.class.getName(),
                false,
                List.of("--bootstrap-servers", bootstrapServers(), "--http-port", Integer.toString(registryPort)));
        registry.start();
        awaitRegistry();
        for (int i = 0; i < topology.aggregators(); i++) {
            final AppJvm aggregator = app(
                    "aggregator-" + i,
                    AggregatorApp.class.getName(),
                    false,
                    List.of(
                            "--bootstrap-servers",
                            bootstrapServers(),
                            "--registry-url",
                            registryUrl(),
                            "--state-dir",
                            stateDir("aggregator-" + i),
                            "--http-port",
                            httpPort("aggregator-" + i),
                            // a dead instance's partitions move to the other after 6 s, not Kafka's default 45 s
                            "-Dsession.timeout.ms=6000"));
            aggregators.add(aggregator);
            aggregator.start();
        }
        orchestrator = app(
                "orchestrator",
                OrchestratorApp.class.getName(),
                false,
                List.of(
                        "--bootstrap-servers",
                        bootstrapServers(),
                        "--registry-url",
                        registryUrl(),
                        "--state-dir",
                        stateDir("orchestrator"),
                        "--http-port",
                        httpPort("orchestrator"),
                        "--no-load-lever",
                        "--no-resource-lever",
                        "-Dsession.timeout.ms=6000"));
        orchestrator.start();
        for (final String app : httpPorts.keySet()) {
            awaitReady(app, Duration.ofMinutes(3));
        }
    }

    /**
     * Waits until the Streams app {@code name} answers 200 on {@code /health/ready} (running, its stores restored):
     * a restarted app has healed only then, so that the next fault does not meet it half started.
     */
    void awaitReady(final String name, final Duration timeout) throws InterruptedException {
        final AppJvm app = app(name);
        final URI ready = URI.create("http://127.0.0.1:" + httpPorts.get(name) + OpsEndpoints.READY);
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!app.isAlive()) {
                throw new IllegalStateException(name + " exited while starting; its output: " + app.log());
            }
            if (answersOk(ready)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(name + " was not ready within " + timeout + "; its output: " + app.log());
    }

    /** Whether {@code name} is a Streams app with a readiness endpoint. */
    boolean hasReadiness(final String name) {
        return httpPorts.containsKey(name);
    }

    /**
     * Starts one process per worker of each job, named as {@link ChaosJob#workerName} says, each slowed to its job's
     * cost per example and its own {@code --slowdown}, and waiting for a model version up to its job's session
     * timeout and two minutes.
     */
    void startWorkers(final List<ChaosJob> jobs) {
        for (final ChaosJob job : jobs) {
            final long modelTimeoutSeconds = (job.spec().getSessionTimeoutMs() + 120_000) / 1000;
            for (int i = 0; i < job.workers(); i++) {
                final AppJvm worker = app(
                        job.workerName(i),
                        WorkerApp.class.getName(),
                        true,
                        List.of(
                                "--bootstrap-servers", bootstrapServers(),
                                "--registry-url", registryUrl(),
                                "--job", job.name(),
                                "--index", Integer.toString(i),
                                "--workers", Integer.toString(job.workers()),
                                "--model-timeout", Long.toString(modelTimeoutSeconds),
                                "--sample-cost-us", Long.toString(job.sampleCostMicros()),
                                "--slowdown", Double.toString(job.slowdowns().get(i)),
                                "--http-port", "-1"));
                workers.add(worker);
                worker.start();
            }
        }
    }

    /** The app a fault names ({@link ChaosTopology#targetName}); brokers are not apps: see {@link #brokers()}. */
    AppJvm app(final String name) {
        return apps.stream()
                .filter(app -> app.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no app " + name));
    }

    List<AppJvm> workers() {
        return List.copyOf(workers);
    }

    /** Every app, workers included, brokers not. */
    List<AppJvm> apps() {
        return List.copyOf(apps);
    }

    /** Waits until the registry answers {@code GET /subjects}, up to two minutes. */
    void awaitRegistry() throws InterruptedException {
        final long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            if (registry.isAlive() && answersOk(URI.create(registryUrl() + "/subjects"))) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the registry did not answer on " + registryUrl() + " within 2 minutes; "
                + "its output: " + registry.log());
    }

    private static boolean answersOk(final URI uri) throws InterruptedException {
        try {
            return HTTP.send(
                                    HttpRequest.newBuilder(uri)
                                            .timeout(Duration.ofSeconds(5))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode()
                    == 200;
        } catch (final IOException e) {
            return false;
        }
    }

    /** Kills every process it started (SIGKILL): apps first, then the brokers. */
    @Override
    public void close() {
        apps.forEach(AppJvm::close);
        try {
            for (final BrokerProcesses.Node node : brokers.nodes()) {
                brokers.kill(node.id());
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            brokers.close();
        }
    }

    private AppJvm app(final String name, final String mainClass, final boolean finishes, final List<String> args) {
        // a worker's name has its job's as a directory: chaos-ssp/worker-1.log
        final Path log = dir.resolve(name + ".log");
        try {
            Files.createDirectories(log.getParent());
        } catch (final IOException e) {
            throw new UncheckedIOException("could not make " + log.getParent(), e);
        }
        final AppJvm app = AppJvm.of(name, mainClass, APP_HEAP, log, finishes, args);
        apps.add(app);
        return app;
    }

    private String httpPort(final String app) {
        final int port = freePort();
        httpPorts.put(app, port);
        return Integer.toString(port);
    }

    private String stateDir(final String app) {
        return dir.resolve("state").resolve(app).toAbsolutePath().toString();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (final IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    static Path createDir(final Path parent) {
        try {
            return Files.createDirectories(parent.resolve("run-" + System.currentTimeMillis()));
        } catch (final IOException e) {
            throw new UncheckedIOException("could not make a run directory in " + parent, e);
        }
    }
}
