package io.paramhub.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.local.registry.SchemaRegistryServer;
import io.paramhub.local.testing.KafkaTestCluster;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Evaluation;
import io.paramhub.ml.LinearProblem;
import io.paramhub.ml.LinearRegression;
import io.paramhub.ml.ReferenceTrainer;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BSP training through a real in-process KRaft broker, compared with the same run computed without Kafka. */
@Tag("integration")
class BspTrainingIT {

    static final String DATASET = "linear:n=4096,d=16,noise=0.1,seed=7";

    private static KafkaTestCluster kafka;
    private static SchemaRegistryServer registry;

    @BeforeAll
    static void startCluster() {
        kafka = KafkaTestCluster.start();
        registry = SchemaRegistryServer.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    }

    @AfterAll
    static void stopCluster() {
        registry.close();
        kafka.close();
    }

    @Test
    void shouldReachTheClosedFormOptimumAndMatchTheInProcessRunBitForBit(@TempDir final Path stateDir)
        throws InterruptedException {
        // given
        final LinearProblem problem = DataSources.linearProblem(DATASET);
        final TrainTest data = problem.data();
        final JobSpec spec = linearJob("bsp-linear", 3, 4, 10);
        final BatchPlan plan = new BatchPlan(data.train().size(), spec.getGlobalBatch(), spec.getSeed());
        final long iterations = (long) plan.iterationsPerEpoch() * spec.getEpochs();

        // when
        final TrainingRun.Result result = new TrainingRun(kafka.bootstrapServers(), registry.url(),
            TopicCatalog.DEFAULT_PREFIX, stateDir).run(spec, data, RunListener.NONE);

        // then
        final float[] reference = ReferenceTrainer.trainSharded(new LinearRegression(16), data.train(), plan,
            JobSpecs.optimizer(spec), JobSpecs.layout(spec), 3, iterations, spec.getSeed());
        assertThat(result.epochs()).hasSize(spec.getEpochs());
        assertThat(result.last().version()).isEqualTo(iterations);
        assertThat(result.finalParameters()).containsExactly(reference);
        final double rmse = Evaluation.rmse(new LinearRegression(16), result.finalParameters(), data.train());
        assertThat(rmse).isLessThanOrEqualTo(problem.optimalRmse() * 1.01);
        assertThat(result.deadLetters()).isZero();
    }

    @Test
    void shouldComputeTheSameModelBitForBitWithTwoAggregatorInstances(@TempDir final Path stateDir)
        throws InterruptedException {
        // given
        final LinearProblem problem = DataSources.linearProblem(DATASET);
        final TrainTest data = problem.data();
        final JobSpec spec = linearJob("bsp-linear-two-aggregators", 3, 4, 4);
        final BatchPlan plan = new BatchPlan(data.train().size(), spec.getGlobalBatch(), spec.getSeed());

        // when
        final TrainingRun.Result result = new TrainingRun(kafka.bootstrapServers(), registry.url(),
            TopicCatalog.DEFAULT_PREFIX, stateDir).withAggregators(2).run(spec, data, RunListener.NONE);

        // then
        final float[] reference = ReferenceTrainer.trainSharded(new LinearRegression(16), data.train(), plan,
            JobSpecs.optimizer(spec), JobSpecs.layout(spec), 3, (long) plan.iterationsPerEpoch() * spec.getEpochs(),
            spec.getSeed());
        assertThat(result.finalParameters()).containsExactly(reference);
    }

    static JobSpec linearJob(final String name, final int workers, final int shards, final int epochs) {
        return JobSpec.newBuilder()
            .setJob(name)
            .setModel("linear")
            .setDataset(DATASET)
            .setInputs(16)
            .setOutputs(1)
            .setParameters(17)
            .setShards(shards)
            .setSyncMode(SyncMode.BSP)
            .setStaleness(0)
            .setOptimizer(OptimizerKind.SGD)
            .setLearningRate(0.01)
            .setMomentum(0.9)
            .setGlobalBatch(128)
            .setExpectedWorkers(workers)
            .setEpochs(epochs)
            .setSeed(3)
            .setCreatedAt(Instant.now())
            .build();
    }
}
