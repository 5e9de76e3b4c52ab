package io.paramhub.topology.aggregator;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ShardState;
import io.paramhub.ml.Optimizer;
import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import io.paramhub.topology.jobs.JobSpecs;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The maths of one shard's state: its initial value, one optimizer step, its published form. */
final class ShardUpdate {

    private ShardUpdate() {
    }

    /** Version 0 of {@code shard}: the job's seeded initial parameters, zero optimizer state. */
    static ShardState initial(final JobSpec spec, final int shard) {
        final ShardLayout layout = JobSpecs.layout(spec);
        final float[] params = layout.slice(JobSpecs.model(spec).initialParameters(spec.getSeed()), shard);
        final List<ByteBuffer> slots = new ArrayList<>();
        for (int k = 0; k < JobSpecs.optimizer(spec).stateSlots(); k++) {
            slots.add(FloatPacking.pack(new float[params.length]));
        }
        return ShardState.newBuilder()
            .setJob(spec.getJob())
            .setShard(shard)
            .setVersion(0)
            .setNextClock(0)
            .setMinClock(0)
            .setParams(FloatPacking.pack(params))
            .setOptimizerState(slots)
            .build();
    }

    /**
     * {@code state} after one optimizer step with {@code meanGradient}, the mean over every sample
     * of the clock, at the learning rate times {@code learningRateFactor} (the job's schedule at that
     * clock); the version goes up by one.
     */
    static ShardState apply(final ShardState state, final Optimizer optimizer, final float[] meanGradient,
                            final double learningRateFactor) {
        final float[] params = FloatPacking.unpack(state.getParams());
        final float[][] slots = new float[state.getOptimizerState().size()][];
        for (int k = 0; k < slots.length; k++) {
            slots[k] = FloatPacking.unpack(state.getOptimizerState().get(k));
        }
        optimizer.step(params, meanGradient, slots, state.getVersion() + 1, learningRateFactor);
        final List<ByteBuffer> packedSlots = new ArrayList<>(slots.length);
        for (final float[] slot : slots) {
            packedSlots.add(FloatPacking.pack(slot));
        }
        return ShardState.newBuilder(state)
            .setVersion(state.getVersion() + 1)
            .setParams(FloatPacking.pack(params))
            .setOptimizerState(packedSlots)
            .build();
    }

    static ModelShard published(final JobSpec spec, final ShardState state, final Instant now) {
        return ModelShard.newBuilder()
            .setJob(state.getJob())
            .setShard(state.getShard())
            .setShards(spec.getShards())
            .setFirstParameter(JobSpecs.layout(spec).first(state.getShard()))
            .setVersion(state.getVersion())
            .setMinClock(state.getMinClock())
            .setClocks(state.getWorkerClocks())
            .setShares(state.getShares())
            .setThreads(state.getThreads())
            .setPlanEpoch(state.getPlanEpoch())
            .setValues(state.getParams())
            .setUpdatedAt(now)
            .build();
    }
}
