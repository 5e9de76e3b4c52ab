package io.paramhub.ml;

/**
 * The content of an IDX image file: {@code count} images of {@code rows x cols} pixels, row-major,
 * scaled to {@code [0, 1]}.
 */
public record IdxImages(int count, int rows, int cols, float[] pixels) {

    /** Checks that the pixel array holds {@code count · rows · cols} values. */
    public IdxImages {
        if ((long) count * rows * cols != pixels.length) {
            throw new IllegalArgumentException(count + " images of " + rows + "x" + cols + " need "
                    + (long) count * rows * cols + " pixels, got " + pixels.length);
        }
    }

    /** The number of pixels per image. */
    public int features() {
        return rows * cols;
    }
}
