package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;

class BoundedThreadReplacementTest {

    private static final RuntimeException FAILURE = new RuntimeException("boom");

    @Test
    void shouldReplaceTheThreadUpToTheLimitThenShutDownWhenFailuresComeWithinTheWindow() {
        // given
        final AtomicLong now = new AtomicLong();
        final BoundedThreadReplacement handler =
                new BoundedThreadReplacement(3, Duration.ofMinutes(5), now::get, pause -> {});

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
        final BoundedThreadReplacement handler =
                new BoundedThreadReplacement(2, Duration.ofMinutes(5), now::get, pause -> {});
        handler.handle(FAILURE);
        handler.handle(FAILURE);

        // when
        now.addAndGet(Duration.ofMinutes(6).toNanos());
        final StreamThreadExceptionResponse later = handler.handle(FAILURE);

        // then
        assertThat(later).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    @Test
    void shouldReplaceTheThreadWithGrowingPausesWithoutShuttingDownWhileTheRegistryIsUnavailable() {
        // given: a registry that cannot be reached, seen through the exception Kafka Streams hands over
        final AtomicLong now = new AtomicLong();
        final List<Duration> pauses = new ArrayList<>();
        final BoundedThreadReplacement handler =
                new BoundedThreadReplacement(2, Duration.ofMinutes(5), now::get, pause -> {
                    pauses.add(pause);
                    now.addAndGet(pause.toNanos());
                });
        final StreamsException outage = new StreamsException(
                "deserialization failed",
                new SchemaRegistryException(
                        "No schema registry reachable",
                        SchemaRegistryException.NO_RESPONSE,
                        SchemaRegistryException.NO_RESPONSE));

        // when: the outage outlasts many more replacements than the failure budget
        final List<StreamThreadExceptionResponse> responses = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            responses.add(handler.handle(outage));
        }
        final StreamThreadExceptionResponse afterwards = handler.handle(FAILURE);

        // then
        assertThat(responses).containsOnly(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(pauses)
                .containsExactly(
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(4),
                        Duration.ofSeconds(8),
                        Duration.ofSeconds(16),
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(30));
        assertThat(afterwards)
                .as("the outage used none of the failure budget")
                .isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
    }

    @Test
    void shouldCountARefusalByTheRegistryAsAFailure() {
        // given: the registry answered, and refused (a schema id it does not know is no outage)
        final AtomicLong now = new AtomicLong();
        final BoundedThreadReplacement handler =
                new BoundedThreadReplacement(1, Duration.ofMinutes(5), now::get, pause -> {});
        final StreamsException refused = new StreamsException(
                "deserialization failed",
                new SchemaRegistryException("Schema not found", 404, SchemaRegistryException.SCHEMA_NOT_FOUND));

        // when
        final StreamThreadExceptionResponse first = handler.handle(refused);
        final StreamThreadExceptionResponse second = handler.handle(refused);

        // then
        assertThat(first).isEqualTo(StreamThreadExceptionResponse.REPLACE_THREAD);
        assertThat(second).isEqualTo(StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
    }
}
