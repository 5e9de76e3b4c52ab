package io.paramhub.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.ServerTelemetry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FirstPlacementTest {

    @Test
    void shouldReadWhatItWrites() {
        // when
        final FirstPlacement first = FirstPlacement.parse("4:0, 1:1,7:1", 2);

        // then
        assertThat(first.owners()).containsExactly(Map.entry(1, 1), Map.entry(4, 0), Map.entry(7, 1));
        assertThat(first).hasToString("1:1,4:0,7:1");
        assertThat(FirstPlacement.parse(first.toString(), 2)).isEqualTo(first);
        assertThat(first.given()).isTrue();
        assertThat(FirstPlacement.NONE.given()).isFalse();
    }

    @Test
    void shouldRefuseAnIndexBeyondTheAggregatorsAndWhatIsNoPlacement() {
        assertThatThrownBy(() -> FirstPlacement.parse("1:2", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FirstPlacement.parse("1", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FirstPlacement.parse("1:0,1:1", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FirstPlacement.parse("a:0", 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldGiveTheFirstOwnerOfEachPartitionOfARun() {
        // given partition 3 ran on instance "b" and then moved to "a"; partition 5 stayed on "a"
        final List<ServerTelemetry> rounds =
                List.of(round("b", 3, 0), round("a", 5, 0), round("b", 3, 1), round("a", 5, 1), round("a", 3, 2));

        // when
        final FirstPlacement first = FirstPlacement.of(ServerRounds.of(rounds, List.of()), List.of("a", "b"));

        // then
        assertThat(first).hasToString("3:1,5:0");
    }

    private static ServerTelemetry round(final String instance, final int partition, final long version) {
        return ServerTelemetry.newBuilder()
                .setInstance(instance)
                .setJob("job")
                .setShard(partition)
                .setPartition(partition)
                .setVersion(version)
                .setBusyMs(1)
                .setRoundMs(1)
                .setTimestamp(Instant.ofEpochMilli(100 * version))
                .build();
    }
}
