package io.paramhub.ml;

/**
 * Rounds a worker's gradients to bfloat16 (8 exponent bits, 8 significant bits: half a float32's bytes)
 * with error feedback: each clock ships round(gradient + carried), where carried is what rounding
 * dropped the clock before, so no part of a gradient is lost, only delayed. The rounding is to nearest,
 * ties to even, in float32 arithmetic, so the same gradients always give the same bits.
 */
public final class Bfloat16ErrorFeedback implements GradientRounding {

    private final float[] carried;

    /** A worker's rounding for gradients of {@code length} values, nothing carried yet. */
    public Bfloat16ErrorFeedback(final int length) {
        this.carried = new float[length];
    }

    /** The bfloat16 values (as float32, exactly representable in bfloat16) to ship for {@code values}. */
    @Override
    public float[] round(final float[] values) {
        if (values.length != carried.length) {
            throw new IllegalArgumentException("expected " + carried.length + " values, got " + values.length);
        }
        final float[] rounded = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            final float wanted = values[i] + carried[i];
            final float shipped = toBfloat16(wanted);
            rounded[i] = shipped;
            carried[i] = wanted - shipped;
        }
        return rounded;
    }

    /**
     * {@code value} rounded to the nearest bfloat16, ties to even, without a branch (so that C2 vectorizes
     * the loop): infinities stay, a float32 beyond bfloat16's largest finite value rounds to infinity as
     * IEEE rounding does, and a NaN stays NaN or becomes infinity, non-finite either way (the aggregator
     * refuses both).
     */
    static float toBfloat16(final float value) {
        final int bits = Float.floatToRawIntBits(value);
        final int tieToEven = 0x7FFF + ((bits >>> 16) & 1);
        return Float.intBitsToFloat((bits + tieToEven) & 0xFFFF0000);
    }
}
