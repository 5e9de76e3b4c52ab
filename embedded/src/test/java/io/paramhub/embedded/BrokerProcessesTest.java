package io.paramhub.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The ports and the settings of {@link BrokerProcesses}' nodes, without starting any. */
class BrokerProcessesTest {

    @Test
    void shouldNameEachPortByBrokerWhenRangesAreApart() {
        // when
        final var ports = BrokerProcesses.ports(3, 9092, 9095);

        // then
        assertThat(ports.keySet()).containsExactly(9092, 9093, 9094, 9095, 9096, 9097);
        assertThat(ports)
                .containsEntry(9093, "client port of broker 2")
                .containsEntry(9097, "controller port of broker 3");
    }

    @Test
    void shouldRefusePortsWhenControllerRangeOverlapsClientRange() {
        // when / then
        assertThatThrownBy(() -> BrokerProcesses.ports(3, 9092, 9093))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "port 9093 would be both the client port of broker 2 and the controller port " + "of broker 1");
    }

    @Test
    void shouldReplicateEveryTopicThreeTimesWithMinInSyncTwoWhenThreeNodes() {
        // when
        final Properties settings = BrokerProcesses.settings(
                2, 3, 9093, 9096, "1@127.0.0.1:9095,2@127.0.0.1:9096,3@127.0.0.1:9097", Path.of("broker-2"));

        // then
        assertThat(settings)
                .containsEntry("node.id", "2")
                .containsEntry("process.roles", "broker,controller")
                .containsEntry("controller.quorum.voters", "1@127.0.0.1:9095,2@127.0.0.1:9096,3@127.0.0.1:9097")
                .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:9093")
                .containsEntry("default.replication.factor", "3")
                .containsEntry("min.insync.replicas", "2")
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("transaction.state.log.replication.factor", "3")
                .containsEntry("transaction.state.log.min.isr", "2")
                .containsEntry("group.initial.rebalance.delay.ms", "0");
    }
}
