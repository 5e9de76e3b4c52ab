package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class BoundedThreadReplacementTest {

    private static final RuntimeException FAILURE = new RuntimeException("boom");

    @Test
    void shouldReplaceTheThreadUpToTheLimitThenShutDownWhenFailuresComeWithinTheWindow() {
        // given
        final AtomicLong now = new AtomicLong();
        final BoundedThreadReplacement handler = new BoundedThreadReplacement(3, Duration.ofMinutes(5), now::get);

        // when
        final StreamThreadExceptionResponse first = handler.handle(FAILURE);
        now.addAndGet(Duration.ofMinutes(1).toNanos());
        final StreamThreadExceptionResponse second = handler.handle(FAILURE);
        now.addAndGet(Duration.ofMinutes(1).toNanos());
        final StreamThreadExceptionResponse third = handler.handle(FAILURE);
        now.addAndGet(Duration.ofMinutes(1).toNanos());
        final StreamThreadExceptionResponse fourth = handler.handle(FAILURE);

        // then
        assertThat(first).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(second).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(third).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(fourth).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }

    @Test
    void shouldKeepReplacingWhenOldFailuresHaveLeftTheWindow() {
        // given
        final AtomicLong now = new AtomicLong();
        final BoundedThreadReplacement handler = new BoundedThreadReplacement(2, Duration.ofMinutes(5), now::get);
        handler.handle(FAILURE);
        handler.handle(FAILURE);

        // when
        now.addAndGet(Duration.ofMinutes(6).toNanos());
        final StreamThreadExceptionResponse later = handler.handle(FAILURE);

        // then
        assertThat(later).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }
}
