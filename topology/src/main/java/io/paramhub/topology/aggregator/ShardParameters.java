package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ShardState;
import io.paramhub.ml.LearningRateSchedule;
import io.paramhub.ml.Optimizer;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.jobs.ExternalModels;
import io.paramhub.topology.jobs.JobSpecs;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One shard's parameters and optimizer slots as float arrays, updated in place by the job's optimizer one
 * step (one version) at a time. Mutable; owned by one {@link HotShard}.
 */
final class ShardParameters {

    private final Optimizer optimizer;
    private final LearningRateSchedule schedule;
    private final float[] params;
    private final float[][] slots;
    private long version;

    private ShardParameters(final JobSpec spec, final float[] params, final float[][] slots, final long version) {
        this.optimizer = JobSpecs.optimizer(spec);
        this.schedule = JobSpecs.schedule(spec);
        this.params = params;
        this.slots = slots;
        this.version = version;
    }

    /**
     * Version 0 of {@code shard}, with zero optimizer state: a built-in model's seeded initial parameters, or an
     * external model's slice of the submitter's ({@link ExternalModels#forShard}).
     */
    static ShardParameters initial(final JobSpec spec, final int shard) {
        final float[] params = ExternalModels.isExternal(spec)
                ? ExternalModels.initialShard(spec, shard)
                : JobSpecs.layout(spec).slice(JobSpecs.model(spec).initialParameters(spec.getSeed()), shard);
        return new ShardParameters(
                spec, params, new float[JobSpecs.optimizer(spec).stateSlots()][params.length], 0);
    }

    /** The parameters and optimizer slots {@code snapshot} holds, at its version. */
    static ShardParameters of(final JobSpec spec, final ShardState snapshot) {
        final float[][] slots = new float[snapshot.getOptimizerState().size()][];
        for (int k = 0; k < slots.length; k++) {
            slots[k] = FloatPacking.unpack(snapshot.getOptimizerState().get(k));
        }
        return new ShardParameters(spec, FloatPacking.unpack(snapshot.getParams()), slots, snapshot.getVersion());
    }

    long version() {
        return version;
    }

    /**
     * One optimizer step with {@code meanGradient}, the mean over every sample of its clock, at the
     * job's schedule for {@code clock}; the version goes up by one.
     */
    void step(final float[] meanGradient, final long clock) {
        optimizer.step(params, meanGradient, slots, version + 1, schedule.factor(clock));
        version++;
    }

    ByteBuffer packedParams() {
        return FloatPacking.pack(params);
    }

    List<ByteBuffer> packedSlots() {
        final List<ByteBuffer> packed = new ArrayList<>(slots.length);
        for (final float[] slot : slots) {
            packed.add(FloatPacking.pack(slot));
        }
        return packed;
    }
}
