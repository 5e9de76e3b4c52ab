package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.SyncMode;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tests what an orchestrator's plan may hold: shares, threads, speeds and workers. */
class PlanChecksTest {

    private static final JobSpec SPEC = JobSpec.newBuilder()
            .setJob("j")
            .setModel("linear")
            .setDataset("linear:n=64,d=3")
            .setInputs(3)
            .setOutputs(1)
            .setParameters(4)
            .setShards(2)
            .setSyncMode(SyncMode.BSP)
            .setStaleness(0)
            .setOptimizer(OptimizerKind.SGD)
            .setLearningRate(0.5)
            .setMomentum(0.0)
            .setGlobalBatch(8)
            .setExpectedWorkers(2)
            .setEpochs(1)
            .setSeed(7)
            .setCreatedAt(Instant.EPOCH)
            .build();
    private static final Map<String, Double> SPEEDS = Map.of("worker-000", 1.0, "worker-001", 2.0);

    @Test
    void shouldPassTheOrchestratorsCommand() {
        assertThat(PlanChecks.problems(command("worker-001", 0.6, 3, 2, SPEEDS), SPEC))
                .isEmpty();
    }

    @Test
    void shouldNameEachProblemOfAForgedCommand() {
        // when
        final var problems = PlanChecks.problems(
                command("worker-005", Double.POSITIVE_INFINITY, PlanChecks.MAX_THREADS + 1, -1, Map.of()), SPEC);

        // then
        assertThat(problems)
                .hasSize(5)
                .anySatisfy(p -> assertThat(p).contains("'worker-005' is not one of the job's 2"))
                .anySatisfy(p -> assertThat(p).contains("batch share Infinity"))
                .anySatisfy(p -> assertThat(p).contains("threads 65"))
                .anySatisfy(p -> assertThat(p).contains("epoch -1"))
                .anySatisfy(p -> assertThat(p).contains("speeds are empty"));
    }

    @Test
    void shouldRefuseSpeedsOfStrangersOrNotFinite() {
        assertThat(PlanChecks.problems(
                        command("worker-000", 0.5, 1, 0, Map.of("worker-000", Double.NaN, "worker-009", 1.0)), SPEC))
                .hasSize(2);
    }

    @Test
    void shouldCheckThatAWholePlansSharesSumToOneWithinTheTolerance() {
        assertThat(PlanChecks.sharesProblem(Map.of())).isNull();
        assertThat(PlanChecks.sharesProblem(Map.of("a", 0.1, "b", 0.2, "c", 0.7)))
                .isNull();
        assertThat(PlanChecks.sharesProblem(Map.of("a", 0.5, "b", 0.5 + 1e-8))).contains("sum to");
        assertThat(PlanChecks.sharesProblem(Map.of("a", -0.5, "b", 1.5))).contains("not a number in [0, 1]");
        assertThat(PlanChecks.threadsProblem(Map.of("a", 0))).contains("threads 0");
        assertThat(PlanChecks.threadsProblem(Map.of("a", PlanChecks.MAX_THREADS)))
                .isNull();
    }

    private static ResourceCommand command(
            final String worker,
            final double share,
            final int threads,
            final long epoch,
            final Map<String, Double> speeds) {
        return ResourceCommand.newBuilder()
                .setJob("j")
                .setWorker(worker)
                .setEpoch(epoch)
                .setThreads(threads)
                .setBatchShare(share)
                .setReason("test")
                .setSpeeds(speeds)
                .setIssuedAt(Instant.EPOCH)
                .build();
    }
}
