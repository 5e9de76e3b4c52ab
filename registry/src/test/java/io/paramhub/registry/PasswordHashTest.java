package io.paramhub.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PasswordHashTest {

    private static final int FAST = PasswordHash.MIN_ITERATIONS;

    @Test
    void shouldMatchOnlyItsOwnPasswordWhenHashed() {
        // given
        final PasswordHash hash = PasswordHash.of("correct horse".toCharArray(), FAST);

        // when / then
        assertThat(hash.matches("correct horse".toCharArray())).isTrue();
        assertThat(hash.matches("correct horsf".toCharArray())).isFalse();
        assertThat(hash.matches("correct horse ".toCharArray())).isFalse();
        assertThat(hash.matches(new char[0])).isFalse();
    }

    @Test
    void shouldMatchSamePasswordWhenEncodedAndParsedAgain() {
        // given
        final String encoded = PasswordHash.of("wonder".toCharArray(), FAST).encoded();

        // when
        final PasswordHash parsed = PasswordHash.parse(encoded);

        // then
        assertThat(encoded).matches("PBKDF2-SHA256:10000:[A-Za-z0-9+/=]{24}:[A-Za-z0-9+/=]{44}");
        assertThat(parsed.matches("wonder".toCharArray())).isTrue();
        assertThat(parsed.matches("Wonder".toCharArray())).isFalse();
        assertThat(parsed.encoded()).isEqualTo(encoded);
    }

    @Test
    void shouldUseFreshSaltWhenSamePasswordIsHashedTwice() {
        // when
        final String first = PasswordHash.of("wonder".toCharArray(), FAST).encoded();
        final String second = PasswordHash.of("wonder".toCharArray(), FAST).encoded();

        // then
        assertThat(first).isNotEqualTo(second);
    }

    @Test
    void shouldUseOwaspIterationsWhenNoneAreGiven() {
        // when
        final String encoded = PasswordHash.of("wonder".toCharArray()).encoded();

        // then
        assertThat(encoded).startsWith("PBKDF2-SHA256:600000:");
    }

    @Test
    void shouldRefuseHashWhenMalformedOrCheap() {
        // when / then
        assertThatThrownBy(() -> PasswordHash.parse("wonder")).hasMessageContaining("PBKDF2-SHA256:");
        assertThatThrownBy(() -> PasswordHash.parse("PBKDF2-SHA256:10000:c2FsdHNhbHQ="))
                .hasMessageContaining("ITERATIONS:SALT:HASH");
        assertThatThrownBy(() -> PasswordHash.parse("PBKDF2-SHA256:many:c2FsdHNhbHQ=:aGFzaGhhc2hoYXNoaGFzaA=="))
                .hasMessageContaining("a number and two base64 strings");
        assertThatThrownBy(() -> PasswordHash.parse("PBKDF2-SHA256:9999:c2FsdHNhbHQ=:aGFzaGhhc2hoYXNoaGFzaA=="))
                .hasMessageContaining("9999 iterations");
        assertThatThrownBy(() -> PasswordHash.of("wonder".toCharArray(), 9_999)).hasMessageContaining("at least 10000");
    }

    @Test
    void shouldNotShowTheHashWhenPrinted() {
        // given
        final PasswordHash hash = PasswordHash.of("wonder".toCharArray(), FAST);

        // when / then
        assertThat(hash.toString()).isEqualTo("PBKDF2-SHA256:10000:...");
    }
}
