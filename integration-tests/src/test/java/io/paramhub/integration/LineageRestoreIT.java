package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.aggregator.http.ModelQueryServer;
import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OffsetRange;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.ShardKeys;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.Topic;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lineage of a topic-mode job across an aggregator restart on a real broker: the gradients (written here as a
 * worker would, with their data-topic ranges) give shard 0 versions that carry the merged ranges; an aggregator
 * started on an empty state directory restores the shard from its changelogs, reads the lineage back from the
 * newest {@code model} record and the held gradient from {@code gradients}, refuses examples trained before the
 * restart as {@code DUPLICATE}, and serves {@code GET /jobs/{job}/lineage} for the versions since.
 */
@Tag("integration")
class LineageRestoreIT extends ClusterTestBase {

    private static final String HOST = "127.0.0.1";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void shouldCarryTheLineageAcrossARestartAndRefuseExamplesTrainedBeforeIt(@TempDir final Path dir) throws Exception {
        // given: a two-worker BSP topic-mode job of one shard; clock 0 applied, worker-000's clock 1 held
        final JobSpec spec = JobSpec.newBuilder(LinearJobs.job("lineage-restore", 2, 1, 1))
                .setDataset("topic:readings,features=x,label=y,task=regression")
                .build();
        final TopicCatalog topics =
                TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()));
        final Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        final String key = ShardKeys.shard(spec.getJob(), 0);
        final Vertx vertx = Vertx.vertx();
        final WebClient http = WebClient.create(vertx);
        final int port = freePort();
        AggregatorRunner aggregator = start(dir.resolve("state-1"), port);
        ModelQueryServer server = ModelQueryServer.start(aggregator.streams(), aggregator.lineage(), HOST, port);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                ClientProperties.producer(client), new StringSerializer(), new ByteArraySerializer())) {
            JobSubmitter.submit(topics.jobs(), client, spec);
            await().atMost(TIMEOUT).until(() -> versions(topics, key).size() == 1);
            for (final String worker : List.of("worker-000", "worker-001")) {
                send(producer, topics.membership(), ShardKeys.worker(spec.getJob(), worker), joined(spec, worker));
            }
            send(producer, topics.gradients(), key, gradient(spec, "worker-000", 0, range(0, 0, 5)));
            send(producer, topics.gradients(), key, gradient(spec, "worker-001", 0, range(1, 0, 4)));
            send(producer, topics.gradients(), key, gradient(spec, "worker-000", 1, range(0, 5, 9)));
            await().atMost(TIMEOUT).until(() -> versions(topics, key).size() == 2);
            final JsonObject before = lineage(http, server, spec, "").bodyAsJsonObject();

            // when: the aggregator stops, another starts with no local state
            server.close();
            aggregator.close();
            aggregator = start(dir.resolve("state-2"), port);
            server = ModelQueryServer.start(aggregator.streams(), aggregator.lineage(), HOST, port);
            send(producer, topics.gradients(), key, gradient(spec, "worker-001", 1, range(1, 2, 6)));
            send(producer, topics.gradients(), key, gradient(spec, "worker-001", 1, range(1, 4, 8)));
            await().atMost(TIMEOUT).until(() -> versions(topics, key).size() == 3);

            // then: version 1 held clock 0's ranges, version 2 both clocks' (the held gradient counted once)
            final List<ModelShard> versions = versions(topics, key);
            assertThat(versions.get(1).getExamples()).containsExactly(range(0, 0, 5), range(1, 0, 4));
            assertThat(versions.get(2).getVersion()).isEqualTo(2);
            assertThat(versions.get(2).getExamples()).containsExactly(range(0, 0, 9), range(1, 0, 8));
            assertThat(before.getLong("version")).isEqualTo(1);
            assertThat(before.getLong("examples")).isEqualTo(9);
            // worker-001's first clock 1 took offsets 2 and 3 of partition 1 again
            final List<DeadLetter> letters = TopicContents.values(kafka.bootstrapServers(), topics.deadLetters());
            assertThat(letters).extracting(DeadLetter::getReason).containsExactly(DeadLetterReason.DUPLICATE);
            assertThat(letters.get(0).getError()).contains("examples [2, 4) of partition 1");
            // the restarted instance serves the versions since its restore
            final HttpResponse<Buffer> latest = lineage(http, server, spec, "");
            final HttpResponse<Buffer> one = lineage(http, server, spec, "?version=1");
            final HttpResponse<Buffer> zero = lineage(http, server, spec, "?version=0");
            assertThat(latest.statusCode()).isEqualTo(200);
            assertThat(latest.bodyAsJsonObject().getLong("version")).isEqualTo(2);
            assertThat(latest.bodyAsJsonObject().getLong("examples")).isEqualTo(17);
            assertThat(one.bodyAsJsonObject()).isEqualTo(before);
            assertThat(zero.statusCode()).isEqualTo(404);
            assertThat(zero.bodyAsJsonObject().getLong("oldestVersion")).isEqualTo(1);
        } finally {
            server.close();
            aggregator.close();
            http.close();
            vertx.close().await();
        }
    }

    /** An aggregator instance that serves HTTP at {@code port}, as {@code application.server} says. */
    private static AggregatorRunner start(final Path stateDir, final int port) {
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, HOST + ":" + port);
        return AggregatorRunner.start(props, TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults());
    }

    /** {@code GET /jobs/{job}/lineage}, retried while the instance is not yet RUNNING (503). */
    private static HttpResponse<Buffer> lineage(
            final WebClient http, final ModelQueryServer server, final JobSpec spec, final String query) {
        return await().atMost(TIMEOUT)
                .until(
                        () -> http.get(server.port(), HOST, "/jobs/" + spec.getJob() + "/lineage" + query)
                                .send()
                                .await(),
                        response -> response.statusCode() != 503);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static OffsetRange range(final int partition, final long start, final long end) {
        return new OffsetRange(partition, start, end);
    }

    private static WorkerStatus joined(final JobSpec spec, final String worker) {
        return WorkerStatus.newBuilder()
                .setJob(spec.getJob())
                .setWorker(worker)
                .setState(WorkerState.JOINED)
                .setClock(0)
                .setTimestamp(Instant.now())
                .build();
    }

    private static GradientShard gradient(
            final JobSpec spec, final String worker, final long clock, final OffsetRange examples) {
        final float[] values = new float[spec.getParameters()];
        values[0] = 1f;
        return GradientShard.newBuilder()
                .setJob(spec.getJob())
                .setShard(0)
                .setWorker(worker)
                .setClock(clock)
                .setBaseVersion(clock)
                .setSampleCount(spec.getGlobalBatch() / 2)
                .setLoss(1.0)
                .setValues(FloatPacking.pack(values))
                .setExamples(List.of(examples))
                .build();
    }

    private static <V> void send(
            final KafkaProducer<String, byte[]> producer, final Topic<String, V> topic, final String key, final V value)
            throws Exception {
        producer.send(new ProducerRecord<>(
                        topic.name(), key, topic.valueSerde().serializer().serialize(topic.name(), value)))
                .get();
    }

    /** Shard 0's committed versions, in offset order. */
    private static List<ModelShard> versions(final TopicCatalog topics, final String key) {
        return TopicContents.readAll(kafka.bootstrapServers(), topics.model()).stream()
                .filter(record -> key.equals(record.key()) && record.value() != null)
                .map(record -> record.value())
                .toList();
    }
}
