package io.paramhub.bench.roundcost;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LogGrowthTest {

    @Test
    void shouldSumEachReplicasGrowthPerTopicWhenLogsOnlyGrow() {
        // given: gradients with two partitions, model with one, membership that does not change
        final LogGrowth growth = new LogGrowth();
        growth.offer(List.of(
                size("gradients", 0, 100), size("gradients", 1, 50), size("model", 0, 10), size("membership", 0, 7)));
        growth.offer(List.of(
                size("gradients", 0, 400), size("gradients", 1, 250), size("model", 0, 30), size("membership", 0, 7)));

        // when
        growth.offer(List.of(
                size("gradients", 0, 1_100),
                size("gradients", 1, 550),
                size("model", 0, 60),
                size("membership", 0, 7)));

        // then: gradients grew 1000 + 500, model 50; membership wrote nothing and is not listed
        assertThat(growth.topics())
                .containsExactly(
                        new TopicBytes("gradients", 1_500, 150, 1_650, false),
                        new TopicBytes("model", 50, 10, 60, false));
    }

    @Test
    void shouldCountAReplicaCreatedDuringTheRunFromZero() {
        // given: no changelog before the run
        final LogGrowth growth = new LogGrowth();
        growth.offer(List.of(size("gradients", 0, 100)));

        // when: the aggregator creates its changelog, which grows
        growth.offer(List.of(size("gradients", 0, 100), size("store-changelog", 0, 300)));
        growth.offer(List.of(size("gradients", 0, 100), size("store-changelog", 0, 900)));

        // then
        assertThat(growth.topics()).containsExactly(new TopicBytes("store-changelog", 900, 0, 900, false));
    }

    @Test
    void shouldMarkATopicALowerBoundWhenOneOfItsReplicasShrank() {
        // given: a compacted model partition that the cleaner shrinks between the second and third samples
        final LogGrowth growth = new LogGrowth();
        growth.offer(List.of(size("model", 0, 0), size("model", 1, 0)));
        growth.offer(List.of(size("model", 0, 600), size("model", 1, 600)));

        // when
        growth.offer(List.of(size("model", 0, 200), size("model", 1, 700)));
        growth.offer(List.of(size("model", 0, 500), size("model", 1, 800)));

        // then: 600 + 300 on partition 0 (what it got between the shrinking samples is lost), 800 on partition 1
        assertThat(growth.topics()).containsExactly(new TopicBytes("model", 1_700, 0, 1_300, true));
    }

    @Test
    void shouldListTopicsMostBytesFirstAndGiveBytesPerRound() {
        // given
        final LogGrowth growth = new LogGrowth();
        growth.offer(List.of(size("a", 0, 0), size("b", 0, 0), size("c", 0, 0)));

        // when
        growth.offer(List.of(size("a", 0, 10), size("b", 0, 300), size("c", 0, 300)));

        // then
        final List<TopicBytes> topics = growth.topics();
        assertThat(topics).extracting(TopicBytes::topic).containsExactly("b", "c", "a");
        assertThat(topics.get(0).perRound(4)).isEqualTo(75.0);
        assertThat(topics.get(0).perRound(0)).isZero();
    }

    @Test
    void shouldKeepReplicasOfOneTopicOnSeveralBrokersApart() {
        // given: partition 0 of a topic replicated on brokers 1 and 2
        final LogGrowth growth = new LogGrowth();
        growth.offer(List.of(new ReplicaSize("t", 0, 1, "/d", 0), new ReplicaSize("t", 0, 2, "/d", 0)));

        // when
        growth.offer(List.of(new ReplicaSize("t", 0, 1, "/d", 40), new ReplicaSize("t", 0, 2, "/d", 40)));

        // then: every replica's bytes count
        assertThat(growth.topics()).containsExactly(new TopicBytes("t", 80, 0, 80, false));
    }

    private static ReplicaSize size(final String topic, final int partition, final long bytes) {
        return new ReplicaSize(topic, partition, 1, "/var/kafka", bytes);
    }
}
