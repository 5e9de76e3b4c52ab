package io.paramhub.ml;

import java.util.List;

/**
 * One named tensor of a model's flat parameter vector, as a PyTorch {@code state_dict} names it (such as
 * {@code layers.0.weight}): its values lie row-major (C order) in the vector right after the tensor before it.
 *
 * @param name  the tensor's name
 * @param shape its dimensions, outermost first; an empty shape is one scalar
 */
public record NamedTensor(String name, List<Integer> shape) {

    /** A tensor of the given name and dimensions. */
    public NamedTensor {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a tensor needs a name");
        }
        shape = List.copyOf(shape);
        if (shape.stream().anyMatch(dimension -> dimension < 1)) {
            throw new IllegalArgumentException("tensor " + name + " has a dimension below 1: " + shape);
        }
    }

    /** A tensor of the given name and dimensions. */
    public static NamedTensor of(final String name, final Integer... shape) {
        return new NamedTensor(name, List.of(shape));
    }

    /** The number of values: the product of the dimensions. */
    public long size() {
        long size = 1;
        for (final int dimension : shape) {
            size *= dimension;
        }
        return size;
    }
}
