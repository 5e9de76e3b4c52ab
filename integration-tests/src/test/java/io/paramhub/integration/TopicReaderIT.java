package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.PartitionLeaders;
import io.paramhub.topology.Topic;
import io.paramhub.topology.client.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Topics as they change: a reader joining a topic that is written to without pause (a worker rejoining
 * mid-training) still catches up; a topic just created is served by its leaders before anyone produces to it.
 */
@Tag("integration")
class TopicReaderIT extends ClusterTestBase {

    private static final String TOPIC = "reader-catch-up";
    private static final int WRITTEN_BEFORE = 200;

    @Test
    void shouldCatchUpWithATopicThatKeepsGrowing() throws Exception {
        // given: a topic with records on it, and a producer that keeps appending every millisecond
        kafka.createTopic(TOPIC, 2);
        final Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        final AtomicBoolean stop = new AtomicBoolean();
        final CompletableFuture<Void> appending;
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(client, new StringSerializer(), new StringSerializer())) {
            for (int index = 0; index < WRITTEN_BEFORE; index++) {
                producer.send(new ProducerRecord<>(TOPIC, "before-" + index, "x"));
            }
            producer.flush();
            appending = CompletableFuture.runAsync(() -> {
                for (int index = 0; !stop.get(); index++) {
                    producer.send(new ProducerRecord<>(TOPIC, "after-" + index, "x"));
                    producer.flush();
                    sleepQuietly(1);
                }
            });
            final Topic<String, String> topic = new Topic<>(TOPIC, Serdes.String(), Serdes.String());

            // when
            final List<ConsumerRecord<String, String>> read = new ArrayList<>();
            try (TopicReader<String, String> reader = new TopicReader<>(topic, client)) {
                reader.catchUp(Duration.ofSeconds(20), read::add);
            } finally {
                stop.set(true);
                appending.get(10, TimeUnit.SECONDS);
            }

            // then: it returned, while records were still coming, with everything written before it started
            assertThat(read).extracting(ConsumerRecord::key).contains("before-0", "before-" + (WRITTEN_BEFORE - 1));
        }
    }

    @Test
    void shouldReturnOnceANewTopicIsServedAndNameATopicThatNeverIs() throws Exception {
        final Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (Admin admin = Admin.create(client)) {
            // given: a topic of 3 partitions, just created
            admin.createTopics(List.of(new NewTopic("leaders-new", 3, (short) 1)))
                    .all()
                    .get(10, TimeUnit.SECONDS);

            // when
            PartitionLeaders.awaitServing(admin, List.of("leaders-new"), Duration.ofSeconds(10));

            // then: every partition's leader answers for it; a topic nobody creates fails with its name in time
            final Map<TopicPartition, OffsetSpec> ends = Map.of(
                    new TopicPartition("leaders-new", 0), OffsetSpec.latest(),
                    new TopicPartition("leaders-new", 1), OffsetSpec.latest(),
                    new TopicPartition("leaders-new", 2), OffsetSpec.latest());
            assertThat(admin.listOffsets(ends).all().get(1, TimeUnit.SECONDS).values())
                    .extracting(ListOffsetsResultInfo::offset)
                    .containsExactly(0L, 0L, 0L);
            final long start = System.nanoTime();
            assertThatThrownBy(() -> PartitionLeaders.awaitServing(admin, List.of("never-made"), Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("[never-made]")
                    .hasMessageContaining("no serving leader");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }
    }

    private static void sleepQuietly(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
