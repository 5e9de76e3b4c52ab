package io.paramhub.topology.aggregator;

import io.paramhub.avro.ModelShard;
import io.paramhub.avro.TensorShape;
import io.paramhub.topology.jobs.ModelLayouts;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each version the aggregator publishes on {@code model} says besides its values, so that a consumer need
 * not read {@code jobs}: the job's model kind, the tensor layout of its whole parameter vector (worked out once
 * per shard) and whether it is the job's final version ({@link HotShard#finished}).
 */
final class ModelDescriptions {

    private final Map<String, List<TensorShape>> layouts = new HashMap<>();

    /** {@code model}, a version of {@code hot}, with its job's model kind, its layout and the final mark. */
    ModelShard describe(final HotShard hot, final ModelShard model) {
        model.setModel(hot.spec().getModel());
        model.setTensors(layouts.computeIfAbsent(hot.key(), key -> ModelLayouts.of(hot.spec())));
        model.setFinalVersion(hot.finished());
        return model;
    }

    /** Shard {@code key}'s job was deleted or submitted again: its layout is worked out again. */
    void forget(final String key) {
        layouts.remove(key);
    }
}
