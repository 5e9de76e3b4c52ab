package io.paramhub.topology.jobs;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.TensorShape;
import java.util.List;

/**
 * The layout of a job's whole parameter vector as {@code model} records carry it: its named tensors in order,
 * each row-major right after the one before. An external model's comes with its spec ({@code tensors}); a
 * built-in model's from paramhub-ml ({@link io.paramhub.ml.Model#tensors()}). Reads and writes no topic.
 */
public final class ModelLayouts {

    private ModelLayouts() {}

    /** The named tensors of {@code spec}'s parameter vector; their sizes add up to its {@code parameters}. */
    public static List<TensorShape> of(final JobSpec spec) {
        if (ExternalModels.isExternal(spec)) {
            return List.copyOf(spec.getTensors());
        }
        return JobSpecs.model(spec).tensors().stream()
                .map(tensor -> new TensorShape(tensor.name(), tensor.shape()))
                .toList();
    }
}
