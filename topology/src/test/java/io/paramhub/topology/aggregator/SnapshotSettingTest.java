package io.paramhub.topology.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** {@code paramhub.aggregator.snapshot.clocks}: its default, a value, and the values refused. */
class SnapshotSettingTest {

    @Test
    void shouldSnapshotEvery50ClocksUnlessToldOtherwise() {
        assertThat(AggregatorTopology.snapshotEveryClocks(Map.of())).isEqualTo(50);
        assertThat(AggregatorTopology.snapshotEveryClocks(Map.of(AggregatorTopology.SNAPSHOT_CLOCKS_CONFIG, " 7 ")))
                .isEqualTo(7);
    }

    @Test
    void shouldRefuseANumberBelowOneOrNotANumberNamingTheSetting() {
        for (final String value : new String[] {"0", "-3", "many", "2.5"}) {
            assertThatThrownBy(() -> AggregatorTopology.snapshotEveryClocks(
                            Map.of(AggregatorTopology.SNAPSHOT_CLOCKS_CONFIG, value)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(AggregatorTopology.SNAPSHOT_CLOCKS_CONFIG);
        }
    }
}
