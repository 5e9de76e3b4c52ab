package io.paramhub.topology.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DeadLettersTest {

    @Test
    void shouldCutTheOriginalBytesAndKeepTheirLengthAndHashWhenTheValueIsLarge() throws Exception {
        // given
        final byte[] value = new byte[1024 * 1024];
        new Random(7).nextBytes(value);

        // when
        final DeadLetter letter =
                DeadLetters.of("paramhub.gradients", 3, 42, DeadLetterReason.MALFORMED, "garbage", value, 1_000L);

        // then
        assertThat(bytes(letter.getOriginalBytes())).isEqualTo(Arrays.copyOf(value, DeadLetters.MAX_ORIGINAL_BYTES));
        assertThat(letter.getOriginalLength()).isEqualTo(value.length);
        assertThat(bytes(letter.getOriginalSha256()))
                .isEqualTo(MessageDigest.getInstance("SHA-256").digest(value));
        assertThat(letter.getSourceTopic()).isEqualTo("paramhub.gradients");
        assertThat(letter.getPartition()).isEqualTo(3);
        assertThat(letter.getOffset()).isEqualTo(42);
        assertThat(letter.getTimestamp().toEpochMilli()).isEqualTo(1_000L);
    }

    @Test
    void shouldKeepTheWholeValueWhenItIsWithinTheLimit() {
        // given
        final byte[] value = {1, 2, 3};

        // when
        final DeadLetter letter = DeadLetters.of("t", 0, 0, DeadLetterReason.OTHER, "e", value, 0L);

        // then
        assertThat(bytes(letter.getOriginalBytes())).containsExactly(1, 2, 3);
        assertThat(letter.getOriginalLength()).isEqualTo(3);
    }

    @Test
    void shouldReadTheBufferFromItsPositionWithoutMovingItWhenGivenABuffer() {
        // given
        final ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 1, 2});
        buffer.position(1);

        // when
        final DeadLetter letter = DeadLetters.of("t", 0, 0, DeadLetterReason.OTHER, "e", buffer, 0L);

        // then
        assertThat(bytes(letter.getOriginalBytes())).containsExactly(1, 2);
        assertThat(letter.getOriginalLength()).isEqualTo(2);
        assertThat(buffer.position()).isEqualTo(1);
    }

    @Test
    void shouldRecordNoLengthOrHashWhenThereIsNoValue() {
        // when
        final DeadLetter letter = DeadLetters.of("t", 0, 0, DeadLetterReason.OTHER, "e", (byte[]) null, -5L);

        // then
        assertThat(letter.getOriginalBytes()).isNull();
        assertThat(letter.getOriginalLength()).isEqualTo(-1);
        assertThat(letter.getOriginalSha256()).isNull();
        assertThat(letter.getTimestamp().toEpochMilli()).isZero();
    }

    @Test
    void shouldCutTheErrorTextWhenItIsLong() {
        // given
        final String error = "x".repeat(DeadLetters.MAX_ERROR_CHARS + 10);

        // when
        final DeadLetter letter = DeadLetters.of("t", 0, 0, DeadLetterReason.OTHER, error, new byte[0], 0L);

        // then
        assertThat(letter.getError())
                .startsWith("x".repeat(DeadLetters.MAX_ERROR_CHARS))
                .endsWith("(10 more characters)")
                .hasSizeLessThan(DeadLetters.MAX_ERROR_CHARS + 40);
    }

    private static byte[] bytes(final ByteBuffer buffer) {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
