package io.paramhub.cli.model;

import io.paramhub.avro.TensorShape;
import java.util.List;

/**
 * One version of a job's model, assembled from its shards on the {@code model} topic: the whole flat parameter
 * vector and its named tensors, each row-major right after the one before.
 *
 * @param job          the job
 * @param version      the version every shard was read at
 * @param model        the model kind ({@code JobSpec.model})
 * @param finalVersion whether every shard's record marks it the job's final version
 * @param tensors      the layout of {@code parameters}
 * @param parameters   the flat vector; the tensors' sizes add up to its length
 */
public record ExportedModel(
        String job, long version, String model, boolean finalVersion, List<TensorShape> tensors, float[] parameters) {

    /** A model whose tensors must cover {@code parameters} exactly. */
    public ExportedModel {
        tensors = List.copyOf(tensors);
        long total = 0;
        for (final TensorShape tensor : tensors) {
            total += size(tensor);
        }
        if (total != parameters.length) {
            throw new IllegalArgumentException("the tensors of job " + job + " hold " + total
                    + " values but its model has " + parameters.length + " parameters");
        }
    }

    /** The number of values of {@code tensor}: the product of its dimensions (1 for a scalar). */
    public static long size(final TensorShape tensor) {
        long size = 1;
        for (final int dimension : tensor.getShape()) {
            size *= dimension;
        }
        return size;
    }
}
