package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.client.ModelView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Python workers that sum their gradients on their host (protocol 2, {@code --host-group}) through a real broker,
 * registry and aggregator, on {@link PythonJobs}'s softmax job: one record a shard and clock for the host, counted
 * for each of its workers, the model the NumPy reference computes, and a host that loses a worker still finishes.
 */
@Tag("integration")
class PythonHostSumIT extends PythonClusterTestBase {

    private static final int EPOCHS = 2;

    @Test
    void shouldTrainAsTheNumpyReferenceWhenTwoWorkersOfAHostSendOneSumBesideAThirdWorker() throws Exception {
        // given: three workers, 000 and 001 on one host, 002 on its own
        final JobSpec spec = PythonJobs.softmax("python-host-sum", 3, EPOCHS, 10_000);
        final Path initial = writeInitial(spec);
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);

        // when
        final List<Process> workers = List.of(
                startWorker(spec, 0, 3, "--host-group", "0,1"),
                startWorker(spec, 1, 3, "--host-group", "0,1"),
                startWorker(spec, 2, 3));

        // then: all train to the end, worker-001 on the model its leader shares, and the model is the reference's,
        // which rounds the host's sum to float32
        for (int index = 0; index < workers.size(); index++) {
            assertExitsCleanly(workers.get(index), index);
        }
        assertThat(Files.readString(log(1)))
                .contains("worker-001 takes the model from its host group's leader")
                .doesNotContain("reads the model itself");
        final float[] model = finalView(spec).assemble(PythonJobs.PARAMETERS);
        final float[] reference = reference(initial, EPOCHS, 3, "--host-group", "0,1");
        for (int i = 0; i < PythonJobs.PARAMETERS; i++) {
            assertThat((double) model[i])
                    .as("parameter %d", i)
                    .isCloseTo(reference[i], within(1e-6 * Math.abs(reference[i])));
        }
        assertThat(model).isNotEqualTo(readFloats(initial));
        // each clock and shard has two gradients: the host's sum, sent by worker-000, and worker-002's own
        final Map<String, Long> senders = gradientsOf(spec).stream()
                .collect(Collectors.groupingBy(
                        gradient -> gradient.getWorker() + " " + gradient.getContributors(), Collectors.counting()));
        final long records = PythonJobs.clocks(spec) * spec.getShards();
        assertThat(senders)
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of("worker-000 [worker-000, worker-001]", records, "worker-002 []", records));
        assertThat(deadLettersOf(spec)).isEmpty();
        // every worker still reports its own clocks and its own samples (14, 13, 13 of 40)
        final Map<String, List<IterationTelemetry>> telemetry =
                telemetryOf(spec).stream().collect(Collectors.groupingBy(IterationTelemetry::getWorker));
        assertThat(telemetry).hasSize(3);
        assertThat(telemetry.get("worker-001"))
                .hasSize((int) PythonJobs.clocks(spec))
                .allSatisfy(t -> assertThat(t.getSamples()).isEqualTo(13));
    }

    @Test
    void shouldFinishWhenAWorkerOfTheHostIsKilledMidRun() throws Exception {
        // given: two workers on one host, a 2 s session timeout
        final JobSpec spec = PythonJobs.softmax("python-host-sigkill", 2, EPOCHS, 2_000);
        writeInitial(spec);
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        final Process leader = startWorker(spec, 0, 2, "--host-group", "0,1");

        // when: the other SIGKILLs itself once its clock 3 is handed over and included
        final Process victim = startWorker(spec, 1, 2, "--host-group", "0,1", "--kill-after-clock", "3");

        // then: the host's first worker goes on without it and trains to the last clock
        assertThat(PythonProcesses.awaitExit(victim, TIMEOUT.toSeconds())).isEqualTo(128 + 9);
        assertExitsCleanly(leader, 0);
        final ModelView view = finalView(spec);
        assertThat(view.minClock()).isEqualTo(PythonJobs.clocks(spec));
        assertThat(view.appliedClocks("worker-000")).isEqualTo(PythonJobs.clocks(spec));
        assertThat(view.appliedClocks("worker-001")).isEqualTo(4L);
        assertThat(deadLettersOf(spec)).isEmpty();
    }

    @Test
    void shouldFinishWhenTheWorkerThatSendsTheHostsSumIsKilledMidRun() throws Exception {
        // given: two workers on one host, a 2 s session timeout
        final JobSpec spec = PythonJobs.softmax("python-host-leader-sigkill", 2, EPOCHS, 2_000);
        writeInitial(spec);
        JobSubmitter.submit(topics.jobs(), connection.client(), spec);
        final Process member = startWorker(spec, 1, 2, "--host-group", "0,1");

        // when: the host's first worker, which publishes the sums, SIGKILLs itself after its clock 3
        final Process leader = startWorker(spec, 0, 2, "--host-group", "0,1", "--kill-after-clock", "3");

        // then: the other reads the model and publishes its own gradients from then on, and trains to the last clock
        assertThat(PythonProcesses.awaitExit(leader, TIMEOUT.toSeconds())).isEqualTo(128 + 9);
        assertExitsCleanly(member, 1);
        assertThat(Files.readString(log(1))).contains("worker-001 reads the model itself from clock");
        final ModelView view = finalView(spec);
        assertThat(view.minClock()).isEqualTo(PythonJobs.clocks(spec));
        assertThat(view.appliedClocks("worker-001")).isEqualTo(PythonJobs.clocks(spec));
        assertThat(view.appliedClocks("worker-000")).isEqualTo(4L);
        assertThat(gradientsOf(spec))
                .filteredOn(gradient -> gradient.getWorker().equals("worker-001"))
                .isNotEmpty()
                .allSatisfy(gradient -> assertThat(gradient.getContributors()).isEmpty());
    }

    private static List<GradientShard> gradientsOf(final JobSpec spec) {
        return TopicContents.values(kafka.bootstrapServers(), topics.gradients()).stream()
                .filter(gradient -> gradient != null && gradient.getJob().equals(spec.getJob()))
                .toList();
    }
}
