package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.BspVariant;
import io.paramhub.ml.FashionMnist;
import io.paramhub.ml.Models;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.ReferenceTrainer;
import io.paramhub.ml.ShardLayout;
import io.paramhub.ml.TrainTest;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.topology.jobs.StagePlan;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hybrid data and model parallel training through a real in-process KRaft broker: 2 replicas x 2 pipeline
 * stages, activations and their gradients on {@code activations} and {@code activation-gradients},
 * compared with the same job computed in one process.
 */
@Tag("integration")
class HybridTrainingIT extends ClusterTestBase {

    private static final TrainTest DATA = subset();

    private static TrainTest subset() {
        final TrainTest all = FashionMnist.load();
        return new TrainTest(all.train().head(1024), all.test().head(256));
    }

    /**
     * A BSP job of {@code kind} on the subset (named by the data set it is cut from): 2 replicas x 2 stages,
     * batch 128, 2 micro-batches of 32 each.
     */
    private static JobSpec job(final String name, final String kind, final int shards, final int epochs) {
        return JobSpecs.forModel(Models.forData(kind, DATA.train()), shards)
                .setJob(name)
                .setDataset("fashion-mnist")
                .setSyncMode(SyncMode.BSP)
                .setStaleness(0)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.05)
                .setMomentum(0.9)
                .setGlobalBatch(128)
                .setExpectedWorkers(4)
                .setStages(2)
                .setMicroBatches(2)
                .setEpochs(epochs)
                .setSeed(5)
                .setCreatedAt(Instant.now())
                .build();
    }

    private static long clocks(final JobSpec spec) {
        return (long) new BatchPlan(DATA.train().size(), spec.getGlobalBatch(), spec.getSeed()).iterationsPerEpoch()
                * spec.getEpochs();
    }

    /** The job in one process: replicas x stages as {@link ReferenceTrainer#trainHybrid} computes them. */
    private static float[] hybridReference(final JobSpec spec) {
        return ReferenceTrainer.trainHybrid(
                (PipelineModel) JobSpecs.model(spec),
                DATA.train(),
                new BatchPlan(DATA.train().size(), spec.getGlobalBatch(), spec.getSeed()),
                JobSpecs.optimizer(spec),
                JobSpecs.schedule(spec),
                JobSpecs.layout(spec),
                spec.getExpectedWorkers() / spec.getStages(),
                spec.getStages(),
                spec.getMicroBatches(),
                clocks(spec),
                spec.getSeed(),
                BspVariant.PLAIN,
                Runnable::run,
                (clock, params, loss) -> {});
    }

    /** The same job data-parallel in one process: one whole-model worker per replica. */
    private static float[] dataParallelReference(final JobSpec spec) {
        return ReferenceTrainer.trainSharded(
                JobSpecs.model(spec),
                DATA.train(),
                new BatchPlan(DATA.train().size(), spec.getGlobalBatch(), spec.getSeed()),
                JobSpecs.optimizer(spec),
                JobSpecs.schedule(spec),
                ShardLayout.of(spec.getParameters(), spec.getShards()),
                spec.getExpectedWorkers() / spec.getStages(),
                clocks(spec),
                spec.getSeed());
    }

    private TrainingRun.Result run(final JobSpec spec, final Path stateDir, final RunListener listener)
            throws InterruptedException {
        return new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, stateDir)
                .run(spec, DATA, listener);
    }

    @Test
    void shouldEqualTheSameMlpJobInOneProcessBitForBit(@TempDir final Path stateDir) throws InterruptedException {
        // given an MLP with dropout, cut between its first and second layer
        final JobSpec spec = job("hybrid-mlp", "mlp:32,16,dropout=0.2", 4, 2);
        final Map<String, IterationTelemetry> lastTelemetry = new ConcurrentHashMap<>();

        // when
        final TrainingRun.Result result = run(spec, stateDir, new RunListener() {
            @Override
            public void onIteration(final IterationTelemetry telemetry) {
                lastTelemetry.put(telemetry.getWorker(), telemetry);
            }
        });

        // then the in-process hybrid run's bits, which are the data-parallel run's for an MLP
        assertThat(result.last().version()).isEqualTo(clocks(spec));
        assertThat(result.finalParameters()).containsExactly(hybridReference(spec));
        assertThat(result.finalParameters()).containsExactly(dataParallelReference(spec));
        assertThat(result.deadLetters()).isZero();
        // worker w: replica w / 2, stage w % 2; each holds its stage's parameters alone
        final StagePlan stages = StagePlan.of(spec);
        assertThat(lastTelemetry).hasSize(4);
        lastTelemetry.forEach((worker, telemetry) -> {
            final int index = Integer.parseInt(worker.substring("worker-".length()));
            assertThat(telemetry.getStage()).isEqualTo(index % 2);
            assertThat(telemetry.getParametersHeld())
                    .isEqualTo(stages.stage(index % 2).parameterCount())
                    .isLessThan(spec.getParameters());
            // each clock, 64 samples of 32 values each way (forward from stage 0, back from stage 1)
            assertThat(telemetry.getActivationBytes()).isEqualTo(2L * 64 * 32 * 4);
        });
    }

    @Test
    void shouldEqualTheSameCnnJobInOneProcessBitForBit(@TempDir final Path stateDir) throws InterruptedException {
        // given a small CNN with dropout, its hidden layer's units split between the stages
        final JobSpec spec = job("hybrid-cnn", "cnn:3,4,8,16,1,dropout=0.5", 6, 1);

        // when
        final TrainingRun.Result result = run(spec, stateDir, RunListener.NONE);

        // then the in-process hybrid run's bits, and the data-parallel run's up to float rounding
        final float[] dataParallel = dataParallelReference(spec);
        assertThat(result.finalParameters()).containsExactly(hybridReference(spec));
        double difference = 0;
        double norm = 0;
        for (int i = 0; i < dataParallel.length; i++) {
            difference += Math.pow(result.finalParameters()[i] - dataParallel[i], 2);
            norm += Math.pow(dataParallel[i], 2);
        }
        assertThat(Math.sqrt(difference / norm)).isLessThan(1e-5);
        assertThat(result.deadLetters()).isZero();
    }
}
