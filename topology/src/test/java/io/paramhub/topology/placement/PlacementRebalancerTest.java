package io.paramhub.topology.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.junit.jupiter.api.Test;

class PlacementRebalancerTest {

    @Test
    void shouldRejoinOnceBeforeTheNextPollWhenAPlacementIsRequested() {
        // given
        final PlacementRebalancer rebalancer = new PlacementRebalancer();
        final RecordingConsumer first = new RecordingConsumer();
        final RecordingConsumer second = new RecordingConsumer();
        final Consumer<byte[], byte[]> one = rebalancer.rebalancing(first);
        final Consumer<byte[], byte[]> two = rebalancer.rebalancing(second);

        // when
        rebalancer.request("placement version 3");
        one.poll(Duration.ZERO);
        one.poll(Duration.ZERO);
        two.poll(Duration.ZERO);

        // then each consumer rejoined once, before its first poll after the request
        assertThat(first.reasons).containsExactly("placement version 3");
        assertThat(second.reasons).containsExactly("placement version 3");
        assertThat(first.polls).isEqualTo(2);
    }

    @Test
    void shouldNeverRejoinWithoutARequest() {
        // given
        final PlacementRebalancer rebalancer = new PlacementRebalancer();
        final RecordingConsumer consumer = new RecordingConsumer();
        final Consumer<byte[], byte[]> wrapped = rebalancer.rebalancing(consumer);

        // when
        for (int poll = 0; poll < 5; poll++) {
            wrapped.poll(Duration.ZERO);
        }

        // then
        assertThat(consumer.reasons).isEmpty();
        assertThat(consumer.polls).isEqualTo(5);
    }

    @Test
    void shouldForgetAClosedConsumer() {
        // given
        final PlacementRebalancer rebalancer = new PlacementRebalancer();
        final RecordingConsumer consumer = new RecordingConsumer();
        final Consumer<byte[], byte[]> wrapped = rebalancer.rebalancing(consumer);

        // when
        wrapped.close();
        rebalancer.request("placement version 1");

        // then
        assertThat(consumer.closed()).isTrue();
        assertThat(consumer.reasons).isEmpty();
    }

    /** Counts polls and the rebalances asked for. */
    private static final class RecordingConsumer extends MockConsumer<byte[], byte[]> {

        private final List<String> reasons = new ArrayList<>();
        private int polls;

        RecordingConsumer() {
            super("earliest");
        }

        @Override
        public void enforceRebalance(final String reason) {
            reasons.add(reason);
        }

        @Override
        public synchronized ConsumerRecords<byte[], byte[]> poll(final Duration timeout) {
            polls++;
            return super.poll(timeout);
        }
    }
}
