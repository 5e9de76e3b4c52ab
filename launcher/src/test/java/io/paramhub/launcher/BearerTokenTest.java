package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BearerTokenTest {

    @Test
    void shouldAcceptOnlyTheSameTokenWhenOneIsRequired() {
        // given
        final BearerToken token = BearerToken.of("s3cret");

        // when / then
        assertThat(token.required()).isTrue();
        assertThat(token.accepts("Bearer s3cret")).isTrue();
        assertThat(token.accepts("bearer s3cret")).isTrue();
        assertThat(token.accepts("Bearer s3cre")).isFalse();
        assertThat(token.accepts("Bearer s3cret2")).isFalse();
        assertThat(token.accepts("Basic s3cret")).isFalse();
        assertThat(token.accepts("s3cret")).isFalse();
        assertThat(token.accepts(null)).isFalse();
        assertThat(token.authorization()).isEqualTo("Bearer s3cret");
        assertThat(token.toString()).doesNotContain("s3cret");
    }

    @Test
    void shouldAcceptAnythingWhenNoTokenIsRequired() {
        // when
        final BearerToken none = BearerToken.of("  ");

        // then
        assertThat(none).isSameAs(BearerToken.NONE);
        assertThat(none.required()).isFalse();
        assertThat(none.accepts(null)).isTrue();
        assertThat(none.authorization()).isNull();
    }
}
