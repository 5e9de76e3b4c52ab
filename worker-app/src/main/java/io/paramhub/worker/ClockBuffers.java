package io.paramhub.worker;

import io.paramhub.ml.ShardLayout;
import io.paramhub.schemas.FloatPacking;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A worker's arrays reused from clock to clock instead of allocated afresh: the assembled model, the
 * gradient sum, its float32 rounding and one shard's packed bytes. An MLP clock otherwise allocated and
 * zeroed about a dozen arrays of about 1 MB each (the gradient sum alone is a 1.9 MB humongous object to G1),
 * on the two cores the broker and the aggregator share. Each array is filled before it is read: the
 * model by every shard of the view, the gradient by {@link #zeroedGradient}, the wire by
 * {@link #float32Of}, the packed bytes by {@link #pack}.
 */
final class ClockBuffers {

    private final float[] params;
    private final double[] gradient;
    private final float[] float32;
    private final ByteBuffer packed;

    /** Buffers for a model cut into shards as {@code layout} says: the packed bytes fit its largest shard. */
    ClockBuffers(final ShardLayout layout) {
        this.params = new float[layout.parameters()];
        this.gradient = new double[layout.parameters()];
        this.float32 = new float[layout.parameters()];
        int largest = 0;
        for (int shard = 0; shard < layout.shards(); shard++) {
            largest = Math.max(largest, layout.length(shard));
        }
        this.packed = ByteBuffer.allocate(largest * Float.BYTES);
    }

    /** The array the model is assembled into. */
    float[] params() {
        return params;
    }

    /** The gradient sum, every value 0. */
    double[] zeroedGradient() {
        Arrays.fill(gradient, 0);
        return gradient;
    }

    /** {@code gradient} rounded to float32, in the reused array. */
    float[] float32Of(final double[] gradient) {
        for (int i = 0; i < gradient.length; i++) {
            float32[i] = (float) gradient[i];
        }
        return float32;
    }

    /**
     * {@code values[first, first + length)} packed as float32 into the reused buffer: valid until the next
     * call, so the record holding it must be serialized first (a producer's {@code send} serializes at once).
     */
    ByteBuffer pack(final float[] values, final int first, final int length) {
        return FloatPacking.packInto(values, first, length, packed);
    }
}
