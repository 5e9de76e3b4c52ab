package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.GradientEncoding;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.LinearRegression;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BSP training through a real in-process KRaft broker, compared with the same run computed without Kafka. */
@Tag("integration")
class BspTrainingIT extends ClusterTestBase {

    @Test
    void shouldReachTheClosedFormOptimumAndMatchTheInProcessRunBitForBit(@TempDir final Path stateDir)
            throws InterruptedException {
        // given
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec spec = LinearJobs.job("bsp-linear", 3, 4, 10);

        // when
        final TrainingRun.Result result = new TrainingRun(
                        kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                .run(spec, problem.data(), RunListener.NONE);

        // then
        assertThat(result.epochs()).hasSize(spec.getEpochs());
        assertThat(result.last().version()).isEqualTo(result.job().iterations());
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
        final double rmse = Evaluation.rmse(
                new LinearRegression(16),
                result.finalParameters(),
                problem.data().train());
        assertThat(rmse).isLessThanOrEqualTo(problem.optimalRmse() * 1.01);
        assertThat(result.deadLetters()).isZero();
        // the three workers of one process sent their host's sum, one float64 record a shard a clock
        final List<GradientShard> gradients = TopicContents.values(
                        kafka.bootstrapServers(),
                        TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX, SerdeFactory.forRegistry(registry.url()))
                                .gradients())
                .stream()
                .filter(gradient -> gradient.getJob().equals(spec.getJob()))
                .toList();
        assertThat(gradients).hasSize((int) result.job().iterations() * spec.getShards());
        assertThat(gradients).allSatisfy(gradient -> {
            assertThat(gradient.getEncoding()).isEqualTo(GradientEncoding.FLOAT64);
            assertThat(gradient.getContributors()).containsExactly("worker-000", "worker-001", "worker-002");
        });
    }

    @Test
    void shouldComputeTheSameModelBitForBitWithTwoAggregatorInstances(@TempDir final Path stateDir)
            throws InterruptedException {
        // given
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec spec = LinearJobs.job("bsp-linear-two-aggregators", 3, 4, 4);

        // when
        final TrainingRun.Result result = new TrainingRun(
                        kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                .withAggregators(2)
                .run(spec, problem.data(), RunListener.NONE);

        // then
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
    }

    @Test
    void shouldMatchTheInProcessRunBitForBitWhenGradientsTravelAsBfloat16(@TempDir final Path stateDir)
            throws InterruptedException {
        // given
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec exact = LinearJobs.job("bsp-linear-bfloat16", 3, 4, 10);
        final JobSpec spec = JobSpec.newBuilder(exact)
                .setGradientEncoding(GradientEncoding.BFLOAT16)
                .build();

        // when
        final TrainingRun.Result result = new TrainingRun(
                        kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                .run(spec, problem.data(), RunListener.NONE);

        // then the workers' rounding and error feedback are what the in-process run does, bit for bit
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
        // and the rounding did happen: not the float32 run's bits, but as close to the optimum
        assertThat(result.finalParameters()).isNotEqualTo(LinearJobs.bspReference(exact, problem));
        final double rmse = Evaluation.rmse(
                new LinearRegression(16),
                result.finalParameters(),
                problem.data().train());
        assertThat(rmse).isLessThanOrEqualTo(problem.optimalRmse() * 1.01);
        assertThat(result.deadLetters()).isZero();
    }

    @Test
    void shouldMatchTheInProcessPipelinedRunBitForBit(@TempDir final Path stateDir) throws InterruptedException {
        // given: clock c computed on version c - 1, so a worker computes the next clock while this one's
        // round trip is in flight
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec plain = LinearJobs.job("bsp-linear-pipelined", 3, 4, 10);
        final JobSpec spec = JobSpec.newBuilder(plain).setPipelineDepth(1).build();

        // when
        final TrainingRun.Result result = new TrainingRun(
                        kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                .run(spec, problem.data(), RunListener.NONE);

        // then every worker computed each clock on exactly the pinned version: the in-process pipelined run's bits
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
        assertThat(result.finalParameters()).isNotEqualTo(LinearJobs.bspReference(plain, problem));
        final double rmse = Evaluation.rmse(
                new LinearRegression(16),
                result.finalParameters(),
                problem.data().train());
        assertThat(rmse).isLessThanOrEqualTo(problem.optimalRmse() * 1.01);
        assertThat(result.deadLetters()).isZero();
        assertThat(result.stalenessMax()).isEqualTo(1.0);
    }
}
