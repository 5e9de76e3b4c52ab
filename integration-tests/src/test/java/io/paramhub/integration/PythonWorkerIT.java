package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.client.ModelView;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Python workers (clients/python, run by Debian's python3) training an external model through a real broker,
 * registry and aggregator: softmax regression of 7 classes on 40 features (287 parameters in 3 shards), 600
 * generated samples, batch 40, 2 epochs of 15 clocks, BSP, SGD. Each worker computes its gradient sums in NumPy
 * (src/test/python/softmax_worker.py).
 */
@Tag("integration")
class PythonWorkerIT extends PythonClusterTestBase {

    private static final int EPOCHS = 2;

    @Test
    void shouldTrainAsTheNumpyReferenceWhenTwoPythonWorkersTrainAnExternalModelUnderBsp() throws Exception {
        // given
        final JobSpec spec = PythonJobs.softmax("python-bsp", 2, EPOCHS, 10_000);
        final Path initial = writeInitial(spec);
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);

        // when
        final Process first = startWorker(spec, 0, 2);
        final Process second = startWorker(spec, 1, 2);

        // then: both train to the end and read the same final model
        assertExitsCleanly(first, 0);
        assertExitsCleanly(second, 1);
        final float[] model = finalView(spec).assemble(PythonJobs.PARAMETERS);
        assertThat(readFloats(dir.resolve("final-0.f32"))).containsExactly(model);
        assertThat(readFloats(dir.resolve("final-1.f32"))).containsExactly(model);
        // and it is the single-process NumPy run's, clock by clock the same gradients summed in the same order
        final float[] reference = reference(initial, EPOCHS, 2);
        for (int i = 0; i < PythonJobs.PARAMETERS; i++) {
            assertThat((double) model[i])
                    .as("parameter %d", i)
                    .isCloseTo(reference[i], within(1e-6 * Math.abs(reference[i])));
        }
        assertThat(model).isNotEqualTo(readFloats(initial));
        // every gradient lay in the partition Java's partitioner gives its key, and none was refused
        assertGradientsOnJavasPartitions(spec);
        assertThat(deadLettersOf(spec)).isEmpty();
        // each worker reported each clock, half the batch each
        final List<IterationTelemetry> telemetry = telemetryOf(spec);
        assertThat(telemetry).hasSize((int) (2 * PythonJobs.clocks(spec)));
        assertThat(telemetry).allSatisfy(t -> assertThat(t.getSamples()).isEqualTo(PythonJobs.GLOBAL_BATCH / 2));
        // both left finished, so every shard's newest record marks the job's final version
        await().alias("every shard's newest record of " + spec.getJob() + " marked final")
                .atMost(TIMEOUT)
                .until(() -> finalMarks(spec) == spec.getShards());
    }

    /** How many shards of {@code spec}'s job have the final-version mark on their newest record. */
    private static long finalMarks(final JobSpec spec) {
        final Map<Integer, ModelShard> newest = new HashMap<>();
        TopicContents.values(kafka.bootstrapServers(), topics.model()).stream()
                .filter(shard -> shard != null && shard.getJob().equals(spec.getJob()))
                .forEach(shard -> newest.put(shard.getShard(), shard));
        return newest.values().stream().filter(ModelShard::getFinalVersion).count();
    }

    @Test
    void shouldFinishWithoutAWorkerKilledMidRunOnceItsSessionTimesOut() throws Exception {
        // given: a 2 s session timeout
        final JobSpec spec = PythonJobs.softmax("python-sigkill", 2, EPOCHS, 2_000);
        writeInitial(spec);
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        final Process survivor = startWorker(spec, 0, 2);

        // when: the second SIGKILLs itself once its clock 3 is published (a kill from here, after reading its log,
        // would land a varying number of clocks later)
        final Process victim = startWorker(spec, 1, 2, "--kill-after-clock", "3");

        // then: it died by the signal, and the other trained to the last clock without it
        assertThat(PythonProcesses.awaitExit(victim, TIMEOUT.toSeconds())).isEqualTo(128 + 9);
        assertThat(Files.readString(log(1))).endsWith("published clock 3\n");
        final long killedAt = System.nanoTime();
        assertExitsCleanly(survivor, 0);
        assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(30));
        final ModelView view = finalView(spec);
        assertThat(view.minClock()).isEqualTo(PythonJobs.clocks(spec));
        assertThat(view.appliedClocks("worker-000")).isEqualTo(PythonJobs.clocks(spec));
        assertThat(view.appliedClocks("worker-001")).isEqualTo(4L);
        assertThat(Files.readString(log(0))).contains("published clock " + (PythonJobs.clocks(spec) - 1) + "\n");
    }

    private static void assertGradientsOnJavasPartitions(final JobSpec spec) {
        final List<ConsumerRecord<String, byte[]>> gradients = TopicContents.readAll(
                        kafka.bootstrapServers(),
                        topics.gradients().name(),
                        new StringDeserializer(),
                        new ByteArrayDeserializer())
                .stream()
                .filter(record -> record.key().startsWith(spec.getJob() + "/"))
                .toList();
        final int partitions = TopicSetup.defaults().shardPartitions();
        assertThat(gradients).hasSize((int) (2 * PythonJobs.clocks(spec) * spec.getShards()));
        final Map<String, Integer> wrong = gradients.stream()
                .filter(record -> record.partition()
                        != Utils.toPositive(Utils.murmur2(record.key().getBytes(StandardCharsets.UTF_8))) % partitions)
                .collect(Collectors.toMap(ConsumerRecord::key, ConsumerRecord::partition, (a, b) -> a));
        assertThat(wrong).isEmpty();
    }
}
