package io.paramhub.topology.aggregator;

import static io.paramhub.topology.aggregator.AggregatorTestBed.gradient;
import static io.paramhub.topology.aggregator.AggregatorTestBed.linearJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.AppliedClock;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.OffsetRange;
import io.paramhub.avro.ShardMembers;
import io.paramhub.avro.ShardState;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.schemas.registry.SchemaRegistryClients;
import io.paramhub.topology.SerdeFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a shard task gets back when it starts on stored state: its shards from the stores, and the
 * gradients it had buffered (held in memory only) by reading {@code gradients} again, here handed to
 * {@link ShardEngine#restoreGradient} as {@link GradientRestore} would. A second engine over the same
 * stores plays the task after the restart.
 */
class ShardEngineRestoreTest {

    private static final String JOB = "job-r";
    private static final String KEY = JOB + "/0";
    /** After the job's creation ({@link AggregatorTestBed#linearJob}: 1,700,000,000,000 ms). */
    private static final long T0 = 1_800_000_000_000L;

    private final String scope = "restore-test-" + UUID.randomUUID();
    private final SerdeFactory serdes = SerdeFactory.forRegistry("mock://" + scope);
    private final MockProcessorContext<String, Object> context = new MockProcessorContext<>();
    private final KeyValueStore<String, JobSpec> jobs = store(AggregatorTopology.SHARD_JOB_STORE, JobSpec.class);
    private final KeyValueStore<String, ShardState> states =
            store(AggregatorTopology.SHARD_STATE_STORE, ShardState.class);
    private final KeyValueStore<String, ShardMembers> members =
            store(AggregatorTopology.SHARD_MEMBER_STORE, ShardMembers.class);
    private final KeyValueStore<String, ShardState> snapshots =
            store(AggregatorTopology.SHARD_SNAPSHOT_STORE, ShardState.class);
    private final KeyValueStore<String, ModelShard> models =
            store(AggregatorTopology.SHARD_MODEL_STORE, ModelShard.class);

    @AfterEach
    void dropRegistry() {
        SchemaRegistryClients.dropScope(scope);
    }

    @Test
    void shouldBufferAgainAGradientReadBeforeTheTaskStoppedAndApplyItsClockWithIt() {
        // given: a two-worker BSP shard; worker-000's gradient for clock 0, read at offset 10, is buffered
        final ShardEngine before = startedEngine();
        final float[] initial = FloatPacking.unpack(versionZero().getValues());
        final GradientShard first = gradient(JOB, 0, "worker-000", 0, 4, 2f, 4f);
        assertThat(before.gradient(KEY, first, 10, T0 + 1).published()).isEmpty();

        // when: the task starts again on the stores and reads its partition from where they say
        final ShardEngine after = engine();
        final long from = after.load();
        after.continueAt(11);
        final boolean buffered = after.restoreGradient(KEY, first, 10, T0 + 1);
        final List<ModelShard> published = after.gradient(KEY, gradient(JOB, 0, "worker-001", 0, 4, 6f, 8f), 11, T0 + 2)
                .published();

        // then: version 1 is one SGD step (lr 0.5) on both workers' sums over the batch of 8
        assertThat(from).isEqualTo(10);
        assertThat(buffered).isTrue();
        assertThat(published).hasSize(1);
        assertThat(published.get(0).getVersion()).isEqualTo(1);
        assertThat(FloatPacking.unpack(published.get(0).getValues()))
                .containsExactly(initial[0] - 0.5f * (8f / 8), initial[1] - 0.5f * (12f / 8));
    }

    @Test
    void shouldNotBufferAgainWhatWasAppliedRefusedOrAlreadyBuffered() {
        // given: clock 0 applied (offsets 10 and 11), worker-000's clock 1 buffered (offset 12)
        final ShardEngine before = startedEngine();
        before.gradient(KEY, gradient(JOB, 0, "worker-000", 0, 4, 2f, 4f), 10, T0 + 1);
        assertThat(before.gradient(KEY, gradient(JOB, 0, "worker-001", 0, 4, 6f, 8f), 11, T0 + 2)
                        .published())
                .hasSize(1);
        final GradientShard clock1 = GradientShard.newBuilder(gradient(JOB, 0, "worker-000", 1, 4, 1f, 1f))
                .setBaseVersion(1)
                .build();
        before.gradient(KEY, clock1, 12, T0 + 3);

        // when
        final ShardEngine after = engine();
        final long from = after.load();

        // then: the read starts at the buffered gradient; only it is buffered again
        assertThat(from).isEqualTo(12);
        assertThat(after.restoreGradient(KEY, gradient(JOB, 0, "worker-000", 0, 4, 2f, 4f), 10, T0 + 1))
                .as("below the shard's restore point, and applied")
                .isFalse();
        assertThat(after.restoreGradient(KEY, gradient(JOB, 0, "worker-001", 0, 4, 6f, 8f), 13, T0 + 4))
                .as("a late copy of an applied clock")
                .isFalse();
        assertThat(after.restoreGradient(KEY, clock1, 12, T0 + 3)).isTrue();
        assertThat(after.restoreGradient(KEY, clock1, 14, T0 + 5))
                .as("a copy of a buffered one")
                .isFalse();
        assertThat(after.restoreGradient(
                        KEY,
                        GradientShard.newBuilder(clock1).setWorker("worker-001").build(),
                        15,
                        1_600_000_000_000L))
                .as("stamped before the job was created")
                .isFalse();
        // worker-001's clock 1 completes it: worker-000's restored gradient is counted, once
        final GradientShard other = GradientShard.newBuilder(gradient(JOB, 0, "worker-001", 1, 4, 3f, 3f))
                .setBaseVersion(1)
                .build();
        after.continueAt(16);
        final List<ModelShard> published =
                after.gradient(KEY, other, 16, T0 + 6).published();
        assertThat(published).extracting(ModelShard::getVersion).containsExactly(2L);
    }

    @Test
    void shouldBufferAgainAHostsSumReadBeforeTheTaskStoppedAndStillCountEachContributorOnce() {
        // given: three workers; the sum of workers 000 and 001 for clock 0, read at offset 10, is buffered
        final ShardEngine before = startedEngine(engine(), linearJob(JOB, 3));
        final float[] initial = FloatPacking.unpack(versionZero().getValues());
        final GradientShard sum = GradientShard.newBuilder(gradient(JOB, 0, "worker-000", 0, 4, 2f, 4f))
                .setContributors(List.of("worker-000", "worker-001"))
                .build();
        assertThat(before.gradient(KEY, sum, 10, T0 + 1).published()).isEmpty();

        // when: the task starts again, reads the sum again, then worker-001's own copy and worker-002's gradient
        final ShardEngine after = engine();
        after.load();
        after.continueAt(11);
        final boolean buffered = after.restoreGradient(KEY, sum, 10, T0 + 1);
        final ShardEngine.Outcome copy = after.gradient(KEY, gradient(JOB, 0, "worker-001", 0, 2, 1f, 1f), 11, T0 + 2);
        final List<ModelShard> published = after.gradient(KEY, gradient(JOB, 0, "worker-002", 0, 4, 6f, 8f), 12, T0 + 3)
                .published();

        // then: the copy is a duplicate, and version 1 is one SGD step (lr 0.5) on the sum and worker-002's over 8
        assertThat(buffered).isTrue();
        assertThat(copy.rejection()).map(Rejection::reason).contains(DeadLetterReason.DUPLICATE);
        assertThat(published).extracting(ModelShard::getVersion).containsExactly(1L);
        assertThat(published.get(0).getClocks()).containsEntry("worker-001", 1L);
        assertThat(FloatPacking.unpack(published.get(0).getValues()))
                .containsExactly(initial[0] - 0.5f * (8f / 8), initial[1] - 0.5f * (12f / 8));
    }

    /** Version 0 of the shard, from an engine over stores of its own. */
    private ModelShard versionZero() {
        final ShardEngine fresh = new ShardEngine(
                store("jobs-0", JobSpec.class),
                store("states-0", ShardState.class),
                store("members-0", ShardMembers.class),
                store("snapshots-0", ShardState.class),
                store("models-0", ModelShard.class),
                1,
                AggregatorMetrics.unregistered());
        return fresh.startJob(KEY, linearJob(JOB, 2), T0).get(0);
    }

    @Test
    void shouldRebuildParametersAndMomentumFromTheSnapshotByApplyingTheClocksSinceItAgain() {
        // given: momentum SGD, a snapshot every 50 clocks (so only version 0's); clocks 0 to 2 applied
        // (offsets 10 to 15) and worker-000's clock 3 buffered (offset 16); an engine that never stops beside it
        final JobSpec spec =
                JobSpec.newBuilder(linearJob(JOB, 2)).setMomentum(0.9).build();
        final ShardEngine before = startedEngine(engine(50), spec);
        final ShardEngine neverStopped = startedEngine(
                new ShardEngine(
                        store("jobs-1", JobSpec.class),
                        store("states-1", ShardState.class),
                        store("members-1", ShardMembers.class),
                        store("snapshots-1", ShardState.class),
                        store("models-1", ModelShard.class),
                        50,
                        AggregatorMetrics.unregistered()),
                spec);
        final List<GradientShard> read = new ArrayList<>();
        for (int clock = 0; clock <= 3; clock++) {
            for (final String worker : List.of("worker-000", "worker-001")) {
                if (clock < 3 || worker.equals("worker-000")) {
                    read.add(gradient(JOB, 0, worker, clock, 4, clock + 1f, worker.endsWith("0") ? -2f : 3f));
                }
            }
        }
        for (int i = 0; i < read.size(); i++) {
            before.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
            neverStopped.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
        }
        assertThat(states.get(KEY).getParams().remaining())
                .as("a round stores no parameters")
                .isZero();
        assertThat(states.get(KEY).getReplay())
                .extracting(AppliedClock::getClock)
                .containsExactly(0L, 1L, 2L);

        // when: the task starts again on the stores and reads its partition from where they say
        final ShardEngine after = engine(50);
        final long from = after.load();
        after.continueAt(10 + read.size());
        for (int i = 0; i < read.size(); i++) {
            after.restoreGradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
        }
        after.finishRestore();

        // then: it reads from the first gradient applied since the snapshot, and clock 3 gives, bit for bit,
        // the version the engine that never stopped gives
        assertThat(from).isEqualTo(10);
        final GradientShard last = gradient(JOB, 0, "worker-001", 3, 4, 4f, 3f);
        final List<ModelShard> restarted = after.gradient(KEY, last, 17, T0 + 9).published();
        final List<ModelShard> reference =
                neverStopped.gradient(KEY, last, 17, T0 + 9).published();
        assertThat(restarted).extracting(ModelShard::getVersion).containsExactly(4L);
        assertThat(FloatPacking.unpack(restarted.get(0).getValues()))
                .containsExactly(FloatPacking.unpack(reference.get(0).getValues()));
    }

    @Test
    void shouldKeepTheClocksAppliedAgainSoThatASecondRestoreBeforeTheNextSnapshotRebuildsTheShardToo() {
        // given: clocks 0 and 1 applied (offsets 10 to 13), a restore, then clock 2 applied on the restored
        // engine (offsets 14, 15), all before the next snapshot; an engine that never stops beside it
        final JobSpec spec =
                JobSpec.newBuilder(linearJob(JOB, 2)).setMomentum(0.9).build();
        final ShardEngine first = startedEngine(engine(50), spec);
        final ShardEngine neverStopped = startedEngine(
                new ShardEngine(
                        store("jobs-2", JobSpec.class),
                        store("states-2", ShardState.class),
                        store("members-2", ShardMembers.class),
                        store("snapshots-2", ShardState.class),
                        store("models-2", ModelShard.class),
                        50,
                        AggregatorMetrics.unregistered()),
                spec);
        final List<GradientShard> read = new ArrayList<>();
        for (int clock = 0; clock <= 3; clock++) {
            for (final String worker : List.of("worker-000", "worker-001")) {
                read.add(gradient(JOB, 0, worker, clock, 4, clock + 1f, worker.endsWith("0") ? -2f : 3f));
            }
        }
        for (int i = 0; i < 4; i++) {
            first.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
            neverStopped.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
        }
        final ShardEngine second = engine(50);
        second.load();
        second.continueAt(14);
        for (int i = 0; i < 4; i++) {
            second.restoreGradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
        }
        second.finishRestore();
        for (int i = 4; i < 6; i++) {
            second.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
            neverStopped.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
        }

        // when: the task moves again and restores from the same snapshot
        final ShardEngine third = engine(50);
        final long from = third.load();
        third.continueAt(16);
        for (int i = 0; i < 6; i++) {
            third.restoreGradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
        }
        third.finishRestore();

        // then: it reads from the snapshot's first clock, applies clocks 0 to 2 again, and clock 3 gives the
        // version and the bits of the engine that never stopped
        assertThat(from).isEqualTo(10);
        assertThat(states.get(KEY).getReplay())
                .extracting(AppliedClock::getClock)
                .containsExactly(0L, 1L, 2L);
        for (int i = 6; i < 8; i++) {
            final List<ModelShard> restarted =
                    third.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i).published();
            final List<ModelShard> reference =
                    neverStopped.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i).published();
            if (i == 7) {
                assertThat(restarted).extracting(ModelShard::getVersion).containsExactly(4L);
                assertThat(FloatPacking.unpack(restarted.get(0).getValues()))
                        .containsExactly(FloatPacking.unpack(reference.get(0).getValues()));
            }
        }
    }

    @Test
    void shouldSetAsideAShardWhoseReplayIsGoneAndServeTheTasksOtherShards() {
        // given: clock 0 of shard 0 applied at offsets 10 and 11 after the version-0 snapshot; shard 1 of
        // another job in the same task
        final String otherKey = "job-other/1";
        final ShardEngine before = startedEngine(engine(50), linearJob(JOB, 2));
        before.startJob(otherKey, linearJob("job-other", 1), T0);
        before.gradient(KEY, gradient(JOB, 0, "worker-000", 0, 4, 2f, 4f), 10, T0 + 1);
        before.gradient(KEY, gradient(JOB, 0, "worker-001", 0, 4, 6f, 8f), 11, T0 + 2);

        // when: offset 10 is no longer there to be read again
        final AggregatorMetrics metrics = AggregatorMetrics.unregistered();
        final ShardEngine after = engine(50);
        after.load();
        after.restoreGradient(KEY, gradient(JOB, 0, "worker-001", 0, 4, 6f, 8f), 11, T0 + 2);
        final List<HotShard> stuck = after.finishRestore();
        final StuckShards stuckShards = new StuckShards(metrics);
        stuck.forEach(stuckShards::add);

        // then: shard 0 is set aside, saying why, its stored state kept; the other job's shard is served
        assertThat(stuck).extracting(HotShard::key).containsExactly(KEY);
        assertThat(states.get(KEY)).isNotNull();
        assertThat(metrics.stuckShards()).isEqualTo(1);
        assertThat(stuckShards.refusal(KEY)).hasValueSatisfying(rejection -> {
            assertThat(rejection.reason()).isEqualTo(DeadLetterReason.OTHER);
            assertThat(rejection.message()).contains("shard " + KEY + " cannot be rebuilt", "[10, 11]");
        });
        assertThat(stuckShards.refusal(otherKey)).isEmpty();
        assertThat(after.gradient(otherKey, gradient("job-other", 1, "worker-000", 0, 4, 1f, 1f), 13, T0 + 4)
                        .published())
                .extracting(ModelShard::getVersion)
                .containsExactly(1L);
        // the same job read again is passed over; a resubmitted one frees the shard
        assertThat(stuckShards.passOver(KEY, linearJob(JOB, 2))).isTrue();
        final JobSpec resubmitted = JobSpec.newBuilder(linearJob(JOB, 2))
                .setCreatedAt(Instant.ofEpochMilli(T0 + 5))
                .build();
        assertThat(stuckShards.passOver(KEY, resubmitted)).isFalse();
        assertThat(stuckShards.refusal(KEY)).isEmpty();
        assertThat(metrics.stuckShards()).isZero();
        assertThat(after.startJob(KEY, resubmitted, T0 + 5))
                .extracting(ModelShard::getVersion)
                .containsExactly(0L);
    }

    @Test
    void shouldSnapshotAShardStoredInFullBeforeSnapshotsExistedBeforeStoringItsProgress() {
        // given: the store as an aggregator before snapshots left it: the full state, parameters inline
        startedEngine(engine(50), linearJob(JOB, 2));
        final ShardState full = snapshots.get(KEY);
        states.put(KEY, full);
        snapshots.delete(KEY);
        assertThat(full.getSnapshotVersion()).isEqualTo(-1);
        assertThat(full.getParams().remaining()).isPositive();

        // when: the new engine stores the shard's progress (a first gradient that completes no clock)
        final ShardEngine upgraded = engine(50);
        upgraded.load();
        upgraded.gradient(KEY, gradient(JOB, 0, "worker-000", 0, 4, 2f, 4f), 10, T0 + 1);

        // then: the progress names a snapshot that exists, and a restart on it applies clock 0 as before
        assertThat(states.get(KEY).getSnapshotVersion()).isZero();
        assertThat(snapshots.get(KEY).getParams()).isEqualTo(full.getParams());
        final ShardEngine restarted = engine(50);
        restarted.load();
        restarted.continueAt(11);
        restarted.restoreGradient(KEY, gradient(JOB, 0, "worker-000", 0, 4, 2f, 4f), 10, T0 + 1);
        restarted.finishRestore();
        final float[] initial = FloatPacking.unpack(full.getParams());
        assertThat(FloatPacking.unpack(restarted
                        .gradient(KEY, gradient(JOB, 0, "worker-001", 0, 4, 6f, 8f), 11, T0 + 2)
                        .published()
                        .get(0)
                        .getValues()))
                .containsExactly(initial[0] - 0.5f * (8f / 8), initial[1] - 0.5f * (12f / 8));
    }

    @Test
    void shouldRestoreTheLineageFromTheNewestModelRecordAndMergeAGradientReadAgainOnce() {
        // given: a topic-mode job, a snapshot every 50 clocks; clock 0 applied (offsets 10, 11), worker-000's
        // clock 1 held (offset 12), and worker-001's clock 1 refused for taking offsets 3 to 5 again (offset 13)
        final JobSpec spec = JobSpec.newBuilder(linearJob(JOB, 2))
                .setDataset("topic:readings,features=x,label=y,task=regression")
                .build();
        final ShardEngine before = startedEngine(engine(50), spec);
        final List<GradientShard> read = List.of(
                examples(gradient(JOB, 0, "worker-000", 0, 4, 2f, 4f), range(0, 0, 5)),
                examples(gradient(JOB, 0, "worker-001", 0, 4, 6f, 8f), range(1, 0, 4)),
                examples(at(gradient(JOB, 0, "worker-000", 1, 4, 1f, 1f), 1), range(0, 5, 9)),
                examples(at(gradient(JOB, 0, "worker-001", 1, 4, 1f, 1f), 1), range(0, 3, 6)));
        ModelShard newest = null;
        for (int i = 0; i < read.size(); i++) {
            final ShardEngine.Outcome outcome = before.gradient(KEY, read.get(i), 10 + i, T0 + 1 + i);
            newest =
                    outcome.published().isEmpty() ? newest : outcome.published().get(0);
            assertThat(outcome.rejection().isPresent()).isEqualTo(i == 3);
        }
        assertThat(newest.getVersion()).isEqualTo(1);

        // when: the task starts again, takes the lineage from version 1's model record, and reads its partition
        final LineageHistory history = new LineageHistory();
        final ShardEngine after = new ShardEngine(
                jobs, states, members, snapshots, models, 50, AggregatorMetrics.unregistered(), history);
        after.load();
        assertThat(after.lineageKeys()).containsExactly(KEY);
        after.restoreLineage(KEY, newest);
        after.continueAt(14);
        final List<Boolean> heldAgain = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            heldAgain.add(after.restoreGradient(KEY, read.get(i), 10 + i, T0 + 1 + i));
        }
        after.finishRestore();

        // then: clock 0 is applied again without its examples counting twice, worker-000's clock 1 is held again,
        // the refused gradient is not; worker-001 cannot take examples of version 1 again, and its own clock 1
        // completes version 2 with every example once
        assertThat(heldAgain).containsExactly(false, false, true, false);
        assertThat(after.gradient(
                                KEY,
                                examples(at(gradient(JOB, 0, "worker-001", 1, 4, 1f, 1f), 1), range(1, 2, 5)),
                                14,
                                T0 + 6)
                        .rejection())
                .hasValueSatisfying(rejection -> assertThat(rejection.message()).contains("[2, 4) of partition 1"));
        final List<ModelShard> published = after.gradient(
                        KEY, examples(at(gradient(JOB, 0, "worker-001", 1, 4, 1f, 1f), 1), range(1, 4, 8)), 15, T0 + 7)
                .published();
        assertThat(published).extracting(ModelShard::getVersion).containsExactly(2L);
        assertThat(published.get(0).getExamples()).containsExactly(range(0, 0, 9), range(1, 0, 8));
        assertThat(history.at(JOB, 1))
                .isEqualTo(new LineageHistory.Lookup.Found(1, ExampleLineage.of(newest.getExamples())));
        assertThat(history.at(JOB, 0)).isEqualTo(new LineageHistory.Lookup.NotKept(1, 2));
    }

    private static GradientShard examples(final GradientShard gradient, final OffsetRange... ranges) {
        return GradientShard.newBuilder(gradient).setExamples(List.of(ranges)).build();
    }

    private static OffsetRange range(final int partition, final long start, final long end) {
        return new OffsetRange(partition, start, end);
    }

    private static GradientShard at(final GradientShard gradient, final long baseVersion) {
        return GradientShard.newBuilder(gradient).setBaseVersion(baseVersion).build();
    }

    /** An engine with the job started and both workers joined. */
    private ShardEngine startedEngine() {
        return startedEngine(engine(), linearJob(JOB, 2));
    }

    private ShardEngine startedEngine(final ShardEngine engine, final JobSpec spec) {
        engine.startJob(KEY, spec, T0);
        for (final String worker : List.of("worker-000", "worker-001")) {
            engine.memberEvent(
                    KEY,
                    WorkerStatus.newBuilder()
                            .setJob(JOB)
                            .setWorker(worker)
                            .setState(WorkerState.JOINED)
                            .setClock(0)
                            .setTimestamp(Instant.ofEpochMilli(T0))
                            .build(),
                    T0);
        }
        return engine;
    }

    /** An engine over the test's stores that stores parameters every clock, as before snapshots. */
    private ShardEngine engine() {
        return engine(1);
    }

    private ShardEngine engine(final int snapshotEveryClocks) {
        return new ShardEngine(
                jobs, states, members, snapshots, models, snapshotEveryClocks, AggregatorMetrics.unregistered());
    }

    private <V extends SpecificRecord> KeyValueStore<String, V> store(final String name, final Class<V> type) {
        final KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(name), Serdes.String(), serdes.valueSerde(type))
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }
}
