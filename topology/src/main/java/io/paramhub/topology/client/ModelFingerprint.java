package io.paramhub.topology.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A model's fingerprint: the SHA-256 of its parameters as the {@code model} topic packs them (little-endian float32,
 * shard after shard), so that two runs can be told to have trained the same model bit for bit from a report line.
 */
public final class ModelFingerprint {

    private ModelFingerprint() {}

    /** The lower-case hex SHA-256 of {@code parameters}, packed little-endian float32. */
    public static String sha256(final float[] parameters) {
        final ByteBuffer packed =
                ByteBuffer.allocate(parameters.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        packed.asFloatBuffer().put(parameters);
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(packed.array()));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
