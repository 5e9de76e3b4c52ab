package io.paramhub.schemas;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Packs parameter and gradient vectors into the Avro {@code bytes} fields of {@code gradients} and
 * {@code model}: little-endian IEEE-754 float32, four bytes a value, no header; or, for gradients whose
 * {@code encoding} is {@code BFLOAT16}, the upper two bytes of each float32, little-endian; or, for a host's sum
 * whose {@code encoding} is {@code FLOAT64}, little-endian IEEE-754 float64, eight bytes a value.
 */
public final class FloatPacking {

    private FloatPacking() {}

    /** Packs {@code values} into a new buffer positioned at 0. */
    public static ByteBuffer pack(final float[] values) {
        return packInto(values, 0, values.length, ByteBuffer.allocate(values.length * Float.BYTES));
    }

    /** Packs {@code values}, each rounded to float32. */
    public static ByteBuffer pack(final double[] values) {
        final float[] rounded = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            rounded[i] = (float) values[i];
        }
        return pack(rounded);
    }

    /** Unpacks the remaining bytes of {@code packed} without moving its position. */
    public static float[] unpack(final ByteBuffer packed) {
        final float[] values = new float[Math.max(0, count(packed))];
        unpackInto(packed, values, 0);
        return values;
    }

    /**
     * Packs {@code values[from, from + length)} into {@code target} from its start, for a caller that reuses
     * one buffer from record to record; returns {@code target} positioned at 0 with the packed bytes remaining.
     */
    public static ByteBuffer packInto(final float[] values, final int from, final int length, final ByteBuffer target) {
        if (target.capacity() < length * Float.BYTES) {
            throw new IllegalArgumentException(
                    "buffer of " + target.capacity() + " bytes cannot hold " + length + " float32 values");
        }
        target.clear().order(ByteOrder.LITTLE_ENDIAN);
        target.asFloatBuffer().put(values, from, length);
        return target.limit(length * Float.BYTES);
    }

    /**
     * Unpacks the remaining bytes of {@code packed} into {@code target} from index {@code offset}, without
     * moving its position; returns the number of values.
     */
    public static int unpackInto(final ByteBuffer packed, final float[] target, final int offset) {
        final ByteBuffer view = packed.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (view.remaining() % Float.BYTES != 0) {
            throw new IllegalArgumentException(
                    "packed float32 vector has " + view.remaining() + " bytes, not a multiple of 4");
        }
        final int count = view.remaining() / Float.BYTES;
        view.asFloatBuffer().get(target, offset, count);
        return count;
    }

    /** Number of float32 values in {@code packed}, or -1 when its length is not a multiple of 4. */
    public static int count(final ByteBuffer packed) {
        final int bytes = packed.remaining();
        return bytes % Float.BYTES == 0 ? bytes / Float.BYTES : -1;
    }

    /**
     * Packs {@code values} as bfloat16: the upper 16 bits of each float32. Values that are not bfloat16
     * already lose their lower 16 bits; round them first (the worker's error feedback does).
     */
    public static ByteBuffer packBfloat16(final float[] values) {
        // the upper halves first, then one bulk copy: a loop C2 vectorizes instead of a put per value
        final short[] halves = new short[values.length];
        for (int i = 0; i < values.length; i++) {
            halves[i] = (short) (Float.floatToRawIntBits(values[i]) >>> 16);
        }
        final ByteBuffer buffer =
                ByteBuffer.allocate(values.length * Short.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asShortBuffer().put(halves);
        return buffer;
    }

    /** Unpacks bfloat16 values to float32, exactly, without moving the position of {@code packed}. */
    public static float[] unpackBfloat16(final ByteBuffer packed) {
        final ByteBuffer view = packed.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (view.remaining() % Short.BYTES != 0) {
            throw new IllegalArgumentException(
                    "packed bfloat16 vector has " + view.remaining() + " bytes, not a multiple of 2");
        }
        final short[] halves = new short[view.remaining() / Short.BYTES];
        view.asShortBuffer().get(halves);
        final float[] values = new float[halves.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = Float.intBitsToFloat((halves[i] & 0xFFFF) << 16);
        }
        return values;
    }

    /** Number of bfloat16 values in {@code packed}, or -1 when its length is odd. */
    public static int countBfloat16(final ByteBuffer packed) {
        final int bytes = packed.remaining();
        return bytes % Short.BYTES == 0 ? bytes / Short.BYTES : -1;
    }

    /** Packs {@code values[from, from + length)} as float64 into a new buffer positioned at 0. */
    public static ByteBuffer packFloat64(final double[] values, final int from, final int length) {
        final ByteBuffer buffer = ByteBuffer.allocate(length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asDoubleBuffer().put(values, from, length);
        return buffer;
    }

    /** Unpacks float64 values, without moving the position of {@code packed}. */
    public static double[] unpackFloat64(final ByteBuffer packed) {
        final ByteBuffer view = packed.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (view.remaining() % Double.BYTES != 0) {
            throw new IllegalArgumentException(
                    "packed float64 vector has " + view.remaining() + " bytes, not a multiple of 8");
        }
        final double[] values = new double[view.remaining() / Double.BYTES];
        view.asDoubleBuffer().get(values);
        return values;
    }

    /** Number of float64 values in {@code packed}, or -1 when its length is not a multiple of 8. */
    public static int countFloat64(final ByteBuffer packed) {
        final int bytes = packed.remaining();
        return bytes % Double.BYTES == 0 ? bytes / Double.BYTES : -1;
    }
}
