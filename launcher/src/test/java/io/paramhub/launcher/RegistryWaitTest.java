package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RegistryWaitTest {

    @Test
    void shouldCallAgainWithGrowingPausesUntilTheRegistryAnswers() throws InterruptedException {
        // given: a registry unreachable for three calls, then answering
        final AtomicInteger calls = new AtomicInteger();
        final List<Duration> pauses = new ArrayList<>();

        // when
        final int answer = RegistryWait.untilAnswered(
                "registering",
                () -> {
                    if (calls.incrementAndGet() <= 3) {
                        throw new SchemaRegistryException(
                                "No schema registry reachable",
                                SchemaRegistryException.NO_RESPONSE,
                                SchemaRegistryException.NO_RESPONSE);
                    }
                    return 42;
                },
                pauses::add);

        // then
        assertThat(answer).isEqualTo(42);
        assertThat(calls).hasValue(4);
        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    }

    @Test
    void shouldGiveUpAtOnceWhenTheRegistryRefuses() {
        // given: a registry that answers, and refuses the schema
        final AtomicInteger calls = new AtomicInteger();

        // when / then
        assertThatThrownBy(() -> RegistryWait.untilAnswered(
                        "registering",
                        () -> {
                            calls.incrementAndGet();
                            throw new SchemaRegistryException(
                                    "incompatible", 409, SchemaRegistryException.INCOMPATIBLE_SCHEMA);
                        },
                        pause -> {}))
                .isInstanceOf(SchemaRegistryException.class)
                .hasMessage("incompatible");
        assertThat(calls).hasValue(1);
    }
}
