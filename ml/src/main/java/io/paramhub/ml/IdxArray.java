package io.paramhub.ml;

/**
 * The content of an IDX file of any type and shape: its {@code type} code ({@link IdxReader#UNSIGNED_BYTE} ...), its
 * dimensions (the first is the count of items, the others the shape of one) and every value, row-major, as a
 * float (unsigned bytes divided by 255 when read as pixels, see {@link IdxReader#read}).
 */
public record IdxArray(int type, int[] dimensions, float[] values) {

    /** Checks that there is a dimension and that the values fill the dimensions. */
    public IdxArray {
        dimensions = dimensions.clone();
        if (dimensions.length == 0) {
            throw new IllegalArgumentException("an IDX array has at least one dimension");
        }
        long total = 1;
        for (final int dimension : dimensions) {
            total *= dimension;
        }
        if (total != values.length) {
            throw new IllegalArgumentException("dimensions hold " + total + " values, got " + values.length);
        }
    }

    /** The number of items: the first dimension. */
    public int count() {
        return dimensions[0];
    }

    /** Values per item: the product of the other dimensions, 1 for a one-dimensional file. */
    public int width() {
        int width = 1;
        for (int d = 1; d < dimensions.length; d++) {
            width *= dimensions[d];
        }
        return width;
    }

    /** The dimensions, a copy. */
    @Override
    public int[] dimensions() {
        return dimensions.clone();
    }

    /** The shape of one item, as {@code 28x28}; {@code 1} for a one-dimensional file. */
    public String itemShape() {
        final StringBuilder shape = new StringBuilder();
        for (int d = 1; d < dimensions.length; d++) {
            shape.append(d > 1 ? "x" : "").append(dimensions[d]);
        }
        return shape.length() == 0 ? "1" : shape.toString();
    }
}
