package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paramhub up --brokers 3} as a user starts it, a process whose three brokers are processes of their own;
 * {@code paramhub demo} trains against it while the broker leading the controller quorum is killed (SIGKILL), and
 * still trains the model the run computed without Kafka, bit for bit; every topic has 3 replicas and
 * {@code min.insync.replicas} 2; stopping {@code up} stops the brokers left.
 */
@Tag("integration")
class UpThreeBrokersIT {

    private static final Pattern BOOTSTRAP = Pattern.compile("Kafka bootstrap servers: (\\S+)");
    private static final Pattern REGISTRY = Pattern.compile("Schema registry URL: +(\\S+)");
    private static final Pattern BROKER = Pattern.compile("Broker (\\d+): pid (\\d+), port (\\d+)");
    private static final String JOB = "up-three-brokers";
    private static final int EPOCHS = 3;
    private static final long KILL_AT_VERSION = 30;
    /**
     * The JVM options of `up` and its brokers here: four JVMs start at once on two cores, and C1 alone with the serial
     * collector brings them up sooner; what is tested (a broker lost, the model exact) does not depend on the JIT.
     */
    private static final String[] QUICK_JVM = {"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"};

    @Test
    void shouldTrainTheSameModelBitForBitWhenTheQuorumLeaderIsKilledMidRun(@TempDir final Path dir) throws Exception {
        // given
        final int base = freePortRange(7);
        final Path output = dir.resolve("up.out");
        final Process up = startUp(dir, base, output);
        final Map<Integer, Long> pids = new HashMap<>();
        try {
            await().alias("up printed its addresses and brokers")
                    .atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !up.isAlive() || Files.readString(output).contains("Press Ctrl-C to stop."));
            final String printed = Files.readString(output);
            assertThat(up.isAlive()).as(printed).isTrue();
            final List<String> lines = printed.lines().toList();
            assertThat(lines.get(0)).startsWith("Kafka bootstrap servers: ");
            assertThat(lines.get(1)).startsWith("Schema registry URL: ");
            final String bootstrap = find(BOOTSTRAP, printed);
            final String registry = find(REGISTRY, printed);
            final Matcher brokers = BROKER.matcher(printed);
            while (brokers.find()) {
                pids.put(Integer.parseInt(brokers.group(1)), Long.parseLong(brokers.group(2)));
            }
            assertThat(bootstrap)
                    .isEqualTo("127.0.0.1:" + base + ",127.0.0.1:" + (base + 1) + ",127.0.0.1:" + (base + 2));
            assertThat(pids).hasSize(3);
            final TopicCatalog topics =
                    TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry));
            final Path report = dir.resolve("report.json");

            try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                // when
                final CompletableFuture<CliRun> demo = startDemo(bootstrap, registry, report);
                await().alias("the model reached version " + KILL_AT_VERSION)
                        .atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> demo.isDone() || lastVersion(admin, bootstrap, topics) >= KILL_AT_VERSION);
                assertThat(demo)
                        .as("the demo still runs at version " + KILL_AT_VERSION)
                        .isNotDone();
                final int leader =
                        admin.describeMetadataQuorum().quorumInfo().get().leaderId();
                ProcessHandle.of(pids.get(leader)).orElseThrow().destroyForcibly();
                final long killedAt = lastVersion(admin, bootstrap, topics);
                final CliRun outcome = demo.get(150, TimeUnit.SECONDS);

                // then
                assertThat(outcome.code()).as(outcome.err()).isZero();
                final JsonNode json = new ObjectMapper().readTree(report.toFile());
                final long iterations = json.get("iterations").asLong();
                assertThat(killedAt)
                        .as("the broker was killed before training ended")
                        .isLessThan(iterations);
                assertThat(Files.readString(output)).contains("Broker " + leader + " (pid " + pids.get(leader));
                // noise of the linear problem is 0.1: the test RMSE comes down close to it
                assertThat(json.get("final_test_rmse").asDouble()).isLessThan(0.12);
                assertThat(json.get("dead_letters").asLong()).isZero();
                final JobSpec spec = TopicContents.values(bootstrap, topics.jobs()).stream()
                        .filter(job -> JOB.equals(job.getJob()))
                        .reduce((first, second) -> second)
                        .orElseThrow();
                assertThat(finalModel(bootstrap, topics, spec, iterations))
                        .containsExactly(LinearJobs.bspReference(spec, LinearJobs.problem()));
                assertReplicatedThreeTimes(admin, topics);
            }
        } finally {
            up.destroy();
            final boolean stopped = up.waitFor(60, TimeUnit.SECONDS);
            final List<Long> left = pids.values().stream()
                    .filter(pid ->
                            ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                    .toList();
            up.destroyForcibly();
            left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            assertThat(stopped).as("up stopped on SIGTERM").isTrue();
            assertThat(left).as("brokers still running once up stopped").isEmpty();
        }
    }

    /** {@code paramhub demo} of the linear job in this JVM, on another thread. */
    private static CompletableFuture<CliRun> startDemo(
            final String bootstrap, final String registry, final Path report) {
        return CompletableFuture.supplyAsync(() -> CliRun.of(
                "demo",
                "--bootstrap-servers",
                bootstrap,
                "--registry-url",
                registry,
                "--model",
                "linear",
                "--dataset",
                LinearJobs.DATASET,
                "--workers",
                "2",
                "--shards",
                "2",
                "--epochs",
                Integer.toString(EPOCHS),
                "--lr",
                "0.05",
                "--seed",
                "3",
                // paced, so that the run lasts past the kill: 64 samples a worker an iteration, 32 ms
                "--sample-cost-us",
                "500",
                // a worker is silent while the leader of its membership partition moves: far under this
                "--session-timeout-ms",
                "60000",
                "--job",
                JOB,
                "--report",
                report.toString()));
    }

    /** {@code paramhub up --brokers 3} with small heaps, in a JVM of its own on the cli module's class path. */
    private static Process startUp(final Path dir, final int base, final Path output) throws IOException {
        final Path target = Path.of("..", "cli", "target");
        final Path jar;
        try (Stream<Path> files = Files.list(target)) {
            jar = files.filter(file -> file.getFileName().toString().matches("paramhub-cli-.*\\.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no cli jar in " + target + ": run mvn package"));
        }
        final String classPath =
                jar + ":" + Files.readString(target.resolve("classpath.txt")).strip();
        final List<String> command = List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                QUICK_JVM[0],
                QUICK_JVM[1],
                "-cp",
                classPath,
                "io.paramhub.cli.ParamHubCli",
                "up",
                "--brokers",
                "3",
                "--data-dir",
                dir.resolve("kafka").toString(),
                "--port",
                Integer.toString(base),
                "--controller-port",
                Integer.toString(base + 3),
                "--registry-port",
                Integer.toString(base + 6),
                "--broker-heap",
                "256m");
        final ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("PARAMHUB_BROKER_JAVA_OPTS", String.join(" ", QUICK_JVM));
        return builder.start();
    }

    /** The highest model version of the job on the topic, -1 before the first (or before the topic exists). */
    private static long lastVersion(final Admin admin, final String bootstrap, final TopicCatalog topics)
            throws Exception {
        if (!admin.listTopics().names().get().contains(topics.model().name())) {
            return -1;
        }
        return TopicContents.values(bootstrap, topics.model()).stream()
                .filter(shard -> JOB.equals(shard.getJob()))
                .mapToLong(ModelShard::getVersion)
                .max()
                .orElse(-1);
    }

    /** Every shard's version {@code version}, put together. */
    private static float[] finalModel(
            final String bootstrap, final TopicCatalog topics, final JobSpec spec, final long version) {
        final ShardLayout layout = JobSpecs.layout(spec);
        final float[] model = new float[layout.parameters()];
        final List<ModelShard> last = TopicContents.values(bootstrap, topics.model()).stream()
                // the last version comes twice: once more with the job's end marked (finalVersion)
                .filter(shard ->
                        JOB.equals(shard.getJob()) && shard.getVersion() == version && !shard.getFinalVersion())
                .toList();
        assertThat(last).as("shards at version " + version).hasSize(layout.shards());
        last.forEach(shard -> layout.place(model, shard.getShard(), FloatPacking.unpack(shard.getValues())));
        return model;
    }

    /** ParamHub's topics, the aggregator's changelogs, the offsets, transaction and schema topics. */
    private static void assertReplicatedThreeTimes(final Admin admin, final TopicCatalog topics) throws Exception {
        final List<String> names = new ArrayList<>(List.of(
                topics.gradients().name(),
                topics.model().name(),
                topics.jobs().name(),
                "__consumer_offsets",
                "__transaction_state",
                "_schemas"));
        admin.listTopics().names().get().stream()
                .filter(name -> name.startsWith("paramhub-aggregator-") && name.endsWith("-changelog"))
                .forEach(names::add);
        final Map<String, TopicDescription> descriptions =
                admin.describeTopics(names).allTopicNames().get();
        final List<ConfigResource> resources = names.stream()
                .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name))
                .toList();
        final Map<ConfigResource, Config> configs =
                admin.describeConfigs(resources).all().get();
        for (final String name : names) {
            descriptions
                    .get(name)
                    .partitions()
                    .forEach(partition ->
                            assertThat(partition.replicas()).as(name).hasSize(3));
            assertThat(configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name))
                            .get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG)
                            .value())
                    .as(name)
                    .isEqualTo("2");
        }
    }

    private static String find(final Pattern pattern, final String text) {
        final Matcher matcher = pattern.matcher(text);
        assertThat(matcher.find()).as(pattern + " in " + text).isTrue();
        return matcher.group(1);
    }

    /** The first of {@code count} consecutive ports free now. */
    private static int freePortRange(final int count) {
        while (true) {
            final int base = ThreadLocalRandom.current().nextInt(20_000, 40_000);
            if (Stream.iterate(base, port -> port + 1).limit(count).allMatch(UpThreeBrokersIT::free)) {
                return base;
            }
        }
    }

    private static boolean free(final int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort() == port;
        } catch (final IOException e) {
            return false;
        }
    }
}
