package io.paramhub.ml;

/**
 * The content of an IDX file of any type and shape: its {@code type} code ({@link IdxReader#UNSIGNED_BYTE} ...), its
 * dimensions (the first is the count of items, the others the shape of one) and every value, row-major, either as
 * a float in {@code values} (unsigned bytes divided by 255 when read as pixels, see {@link IdxReader#read}) or, for
 * unsigned-byte pixels read by {@link IdxReader#readFeatures}, as the bytes themselves in {@code codes}, which
 * stand for {@code (b & 0xFF) / 255f}; the other of the two is null.
 */
public record IdxArray(int type, int[] dimensions, float[] values, byte[] codes) {

    /** Checks that there is a dimension, that one of values and codes is given and that it fills the dimensions. */
    public IdxArray {
        dimensions = dimensions.clone();
        if (dimensions.length == 0) {
            throw new IllegalArgumentException("an IDX array has at least one dimension");
        }
        if ((values == null) == (codes == null)) {
            throw new IllegalArgumentException("an IDX array holds either values or codes");
        }
        long total = 1;
        for (final int dimension : dimensions) {
            total *= dimension;
        }
        final int length = values != null ? values.length : codes.length;
        if (total != length) {
            throw new IllegalArgumentException("dimensions hold " + total + " values, got " + length);
        }
    }

    /** Values held as floats. */
    public IdxArray(final int type, final int[] dimensions, final float[] values) {
        this(type, dimensions, values, null);
    }

    /** Unsigned-byte pixels held as their bytes, standing for {@link IdxReader#pixelLevels}. */
    static IdxArray ofCodes(final int[] dimensions, final byte[] codes) {
        return new IdxArray(IdxReader.UNSIGNED_BYTE, dimensions, null, codes);
    }

    /**
     * Every value as a float: the array itself when held as floats, else a new array of each code's pixel level
     * (four bytes a value; prefer {@link #dataset}).
     */
    @Override
    public float[] values() {
        if (values != null) {
            return values;
        }
        final float[] levels = IdxReader.pixelLevels();
        final float[] floats = new float[codes.length];
        for (int i = 0; i < floats.length; i++) {
            floats[i] = levels[codes[i] & 0xFF];
        }
        return floats;
    }

    /**
     * The items as the features of a data set named {@code name} with targets {@code y}, in the storage they are
     * held in: byte codes stay codes ({@link Dataset#ofCodes}). Wraps the arrays without copying them.
     *
     * @throws IllegalArgumentException as the {@link Dataset} does
     */
    public Dataset dataset(final String name, final float[] y, final int classes) {
        return codes != null
                ? Dataset.ofCodes(name, width(), codes, IdxReader.pixelLevels(), y, classes)
                : new Dataset(name, width(), values, y, classes);
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
