package io.paramhub.topology.errors;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;

/**
 * Builds every {@link DeadLetter} ParamHub writes to {@code dead-letters}, of bounded size whatever it sets aside:
 * the original value cut to its first {@link #MAX_ORIGINAL_BYTES} bytes, with the whole value's length and
 * SHA-256, and the error text cut to {@link #MAX_ERROR_CHARS} characters. A dead letter then always fits in a
 * record, so setting aside a record too large for Kafka cannot itself fail. Reads and writes no topic.
 */
public final class DeadLetters {

    /** The most bytes of the original value a dead letter keeps: 64 KiB. */
    public static final int MAX_ORIGINAL_BYTES = 64 * 1024;

    /** The most characters of error text a dead letter keeps. */
    public static final int MAX_ERROR_CHARS = 8 * 1024;

    private DeadLetters() {}

    /**
     * The dead letter of the record at {@code offset} of {@code sourceTopic}'s {@code partition}, appended at
     * {@code timestamp} (ms; negative counts as 0), set aside for {@code reason} with {@code error}; {@code original}
     * is its value (null when none), of which it keeps the first {@link #MAX_ORIGINAL_BYTES}.
     */
    public static DeadLetter of(
            final String sourceTopic,
            final int partition,
            final long offset,
            final DeadLetterReason reason,
            final String error,
            final byte[] original,
            final long timestamp) {
        return of(
                sourceTopic,
                partition,
                offset,
                reason,
                error,
                original == null ? null : ByteBuffer.wrap(original),
                timestamp);
    }

    /** As {@link #of(String, int, long, DeadLetterReason, String, byte[], long)}, the value in a buffer (not moved). */
    public static DeadLetter of(
            final String sourceTopic,
            final int partition,
            final long offset,
            final DeadLetterReason reason,
            final String error,
            final ByteBuffer original,
            final long timestamp) {
        final ByteBuffer whole = original == null ? null : original.duplicate();
        return DeadLetter.newBuilder()
                .setSourceTopic(sourceTopic == null ? "" : cut(sourceTopic, MAX_ERROR_CHARS))
                .setPartition(partition)
                .setOffset(offset)
                .setReason(reason)
                .setError(error == null ? "" : cut(error, MAX_ERROR_CHARS))
                .setOriginalBytes(whole == null ? null : head(whole))
                .setOriginalLength(whole == null ? -1 : whole.remaining())
                .setOriginalSha256(whole == null ? null : ByteBuffer.wrap(sha256(whole)))
                .setTimestamp(Instant.ofEpochMilli(Math.max(0, timestamp)))
                .build();
    }

    /** The first {@link #MAX_ORIGINAL_BYTES} of {@code whole}'s remaining bytes, as a buffer of their own. */
    private static ByteBuffer head(final ByteBuffer whole) {
        final ByteBuffer head = whole.duplicate();
        head.limit(head.position() + Math.min(head.remaining(), MAX_ORIGINAL_BYTES));
        final byte[] bytes = new byte[head.remaining()];
        head.get(bytes);
        return ByteBuffer.wrap(bytes);
    }

    private static byte[] sha256(final ByteBuffer whole) {
        try {
            final MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(whole.duplicate());
            return digest.digest();
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** {@code text}, or its first {@code max} characters and a note of how many more there were. */
    static String cut(final String text, final int max) {
        if (text.length() <= max) {
            return text;
        }
        return text.substring(0, max) + "… (" + (text.length() - max) + " more characters)";
    }
}
