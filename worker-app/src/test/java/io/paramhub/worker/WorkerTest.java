package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.Dataset;
import io.paramhub.ml.LinearRegression;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.jobs.JobSpecs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Drives a {@link Worker} through an {@link InMemoryTransport}: no broker, the worker's own clock loop. */
class WorkerTest {

    private static final String DATASET = "linear:n=512,d=16,noise=0.1,seed=5";
    private static final LinearRegression MODEL = new LinearRegression(16);
    /** 512 samples in batches of 128: four clocks an epoch. */
    private static final int CLOCKS = 4;

    private final Dataset train = DataSources.load(DATASET).train();
    private final float[] params = MODEL.initialParameters(11);

    private static JobSpec job(final int workers) {
        return JobSpecs.forModel(MODEL, 2)
                .setJob("unit")
                .setDataset(DATASET)
                .setSyncMode(SyncMode.BSP)
                .setOptimizer(OptimizerKind.SGD)
                .setLearningRate(0.01)
                .setGlobalBatch(128)
                .setExpectedWorkers(workers)
                .setEpochs(1)
                .setSeed(3)
                .setCreatedAt(Instant.now())
                .build();
    }

    /** Version 0 of every shard of {@code spec}'s model, {@code shares} and {@code planEpoch} on shard 0. */
    private List<ModelShard> versionZero(final JobSpec spec, final Map<String, Double> shares, final long planEpoch) {
        final ShardLayout layout = JobSpecs.layout(spec);
        final List<ModelShard> shards = new ArrayList<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            shards.add(ModelShard.newBuilder()
                    .setJob(spec.getJob())
                    .setShard(shard)
                    .setShards(layout.shards())
                    .setFirstParameter(layout.first(shard))
                    .setVersion(0)
                    .setMinClock(0)
                    .setShares(shard == 0 ? shares : Map.of())
                    .setPlanEpoch(shard == 0 ? planEpoch : -1)
                    .setValues(FloatPacking.pack(layout.slice(params, shard)))
                    .setUpdatedAt(Instant.now())
                    .build());
        }
        return shards;
    }

    private static Worker worker(final JobSpec spec, final int index, final InMemoryTransport transport) {
        final WorkerSettings settings = new WorkerSettings(
                spec.getJob(),
                index,
                spec.getExpectedWorkers(),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                ComputeEmulation.NONE,
                1);
        return new Worker(settings, () -> transport, job -> DataSources.load(job.getDataset()), IterationListener.NONE);
    }

    /** The gradient the model gives on {@code samples} of clock {@code clock}, rounded to float32. */
    private float[] reference(final JobSpec spec, final int[] samples, final long clock) {
        final double[] sum = new double[MODEL.parameterCount()];
        MODEL.accumulateGradient(params, train, samples, sum, spec.getSeed(), clock);
        final float[] rounded = new float[sum.length];
        for (int i = 0; i < sum.length; i++) {
            rounded[i] = (float) sum[i];
        }
        return rounded;
    }

    /** The full gradient a worker published for {@code clock}, its shards put back together. */
    private static float[] published(final JobSpec spec, final List<GradientShard> gradients, final long clock) {
        final ShardLayout layout = JobSpecs.layout(spec);
        final float[] full = new float[layout.parameters()];
        gradients.stream()
                .filter(gradient -> gradient.getClock() == clock)
                .forEach(
                        gradient -> layout.place(full, gradient.getShard(), FloatPacking.unpack(gradient.getValues())));
        return full;
    }

    @Test
    void shouldPublishOneGradientPerShardPerClockOnlyOnceTheModelReachedItWhenBsp() {
        // given one worker, whose gradients alone make each next version
        final JobSpec spec = job(1);
        final InMemoryTransport transport =
                new InMemoryTransport(spec, versionZero(spec, Map.of(), -1), Set.of("worker-000"));

        // when
        worker(spec, 0, transport).run();

        // then every clock sent every shard once, each after a model with minClock >= its clock was there
        final List<GradientShard> gradients = transport.gradients();
        final int shards = spec.getShards();
        assertThat(gradients).hasSize(CLOCKS * shards);
        for (int i = 0; i < gradients.size(); i++) {
            assertThat(gradients.get(i).getClock()).isEqualTo(i / shards);
            assertThat(gradients.get(i).getShard()).isEqualTo(i % shards);
            assertThat(gradients.get(i).getBaseVersion()).isEqualTo(i / shards);
            assertThat(transport.minClockAtGradient().get(i))
                    .isGreaterThanOrEqualTo(gradients.get(i).getClock());
        }
        assertThat(transport.telemetry())
                .extracting(IterationTelemetry::getClock)
                .containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void shouldNotStartTheNextClockWhenTheBarrierHasNotPassed() {
        // given two workers, but only worker 0 runs: version 1 never comes
        final JobSpec spec = job(2);
        final InMemoryTransport transport =
                new InMemoryTransport(spec, versionZero(spec, Map.of(), -1), Set.of("worker-000", "worker-001"));

        // when / then it gives up waiting, having sent clock 0 alone
        assertThatThrownBy(() -> worker(spec, 0, transport).run())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("to reach clock 1 (to start clock 1)");
        assertThat(transport.gradients()).extracting(GradientShard::getClock).containsOnly(0L);
        assertThat(transport.gradients()).hasSize(spec.getShards());
    }

    @Test
    void shouldPublishTheGradientOfItsRoundRobinShareWhenNoPlanIsInForce() {
        // given worker 1 of 2, its peer's gradients stood in for
        final JobSpec spec = job(2);
        final InMemoryTransport transport =
                new InMemoryTransport(spec, versionZero(spec, Map.of(), -1), Set.of("worker-001"));

        // when
        worker(spec, 1, transport).run();

        // then each clock's gradient is the model's on every second sample of the batch, from the second
        final BatchPlan batches = new BatchPlan(train.size(), spec.getGlobalBatch(), spec.getSeed());
        for (long clock = 0; clock < CLOCKS; clock++) {
            final int[] share = BatchPlan.roundRobinShare(batches.batch(clock), 1, 2);
            assertThat(published(spec, transport.gradients(), clock))
                    .as("clock %d", clock)
                    .containsExactly(reference(spec, share, clock));
            assertThat(transport.telemetry().get((int) clock).getSamples()).isEqualTo(share.length);
        }
    }

    @Test
    void shouldCutItsBatchShareByThePlanInShardZeroWhenBsp() {
        // given a plan (epoch 7) that gives worker 1 three quarters of each batch
        final JobSpec spec = job(2);
        final Map<String, Double> shares = Map.of("worker-000", 0.25, "worker-001", 0.75);
        final InMemoryTransport transport =
                new InMemoryTransport(spec, versionZero(spec, shares, 7), Set.of("worker-001"));

        // when
        worker(spec, 1, transport).run();

        // then it computed on the plan's contiguous share and said so
        final BatchPlan batches = new BatchPlan(train.size(), spec.getGlobalBatch(), spec.getSeed());
        final int[] share = BatchPlan.contiguousShare(batches.batch(0), new double[] {0.25, 0.75}, 1);
        final IterationTelemetry first = transport.telemetry().get(0);
        assertThat(first.getSamples()).isEqualTo(share.length).isEqualTo(96);
        assertThat(first.getBatchShare()).isEqualTo(0.75);
        assertThat(first.getCommandEpoch()).isEqualTo(7);
        assertThat(published(spec, transport.gradients(), 0)).containsExactly(reference(spec, share, 0));
    }

    @Test
    void shouldAnnounceJoinedThenLeftWhenItRunsAJob() {
        // given
        final JobSpec spec = job(1);
        final InMemoryTransport transport =
                new InMemoryTransport(spec, versionZero(spec, Map.of(), -1), Set.of("worker-000"));

        // when
        worker(spec, 0, transport).run();

        // then
        final List<WorkerStatus> announcements = transport.announcements();
        assertThat(announcements.get(0).getState()).isEqualTo(WorkerState.JOINED);
        assertThat(announcements.get(0).getClock()).isZero();
        final WorkerStatus last = announcements.get(announcements.size() - 1);
        assertThat(last.getState()).isEqualTo(WorkerState.LEFT);
        assertThat(last.getClock()).isEqualTo(CLOCKS);
        assertThat(announcements).allMatch(status -> status.getWorker().equals("worker-000"));
    }

    @Test
    void shouldFailWithItsOwnErrorWhenTheClocksItsLeavingCompletesCannotBeSent() {
        // given: a host's sum of workers 0 and 1, and worker 0's part of clock 0 handed in through a transport that can
        // send nothing; worker 1 (this one) joins the sum, then fails reading the model, so its leaving completes clock
        // 0
        final JobSpec spec = job(2);
        final Set<String> both = Set.of("worker-000", "worker-001");
        final HostSum hostSum = new HostSum(List.of(0, 1));
        hostSum.join(0, 0);
        final InMemoryTransport gone = new InMemoryTransport(spec, versionZero(spec, Map.of(), -1), both)
                .failingSends(new IllegalStateException("broker gone"));
        final GradientPublisher first = new GradientPublisher(
                JobContext.prepare(spec, 0, job -> DataSources.load(job.getDataset())), "worker-000", 0, gone, hostSum);
        final HostSum.Part part = new HostSum.Part(
                0, 0, "worker-000", new float[MODEL.parameterCount()], 64, 0.5, new long[] {0, 0}, first);
        final InMemoryTransport transport = new InMemoryTransport(spec, versionZero(spec, Map.of(), -1), both)
                .summingOn(hostSum)
                .beforeModelPoll(() -> {
                    assertThat(hostSum.add(part))
                            .as("clock 0 still waits for worker 1")
                            .isEmpty();
                    throw new IllegalStateException("model read failed");
                });

        // when / then: the worker's own failure, with the failed send of the completed clock added to it
        assertThatThrownBy(() -> worker(spec, 1, transport).run())
                .hasMessage("model read failed")
                .satisfies(failure -> assertThat(failure.getSuppressed())
                        .singleElement()
                        .satisfies(suppressed -> assertThat(suppressed).hasMessage("broker gone")));
    }
}
