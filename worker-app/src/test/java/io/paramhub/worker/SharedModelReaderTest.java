package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.ModelShard;
import io.paramhub.schemas.FloatPacking;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SharedModelReaderTest {

    private static final TopicPartition P0 = new TopicPartition("model", 0);
    private static final TopicPartition P1 = new TopicPartition("model", 1);

    @Test
    void shouldHandEverySubscriberTheRecordsFromWhereItStartedWithOnePollForAll() {
        // given: two versions of two shards on two partitions, two workers subscribed at the start
        final ListSource source = new ListSource(Map.of(P0, 0L, P1, 0L));
        source.append(P0, shard(0, 1));
        source.append(P1, shard(1, 1));
        final SharedModelReader reader = new SharedModelReader(source, () -> {});
        final ModelFeed first = reader.subscribe(Map.of(P0, 0L, P1, 0L));
        final ModelFeed second = reader.subscribe(Map.of(P0, 0L, P1, 0L));

        // when: the first polls, then the second
        final List<String> firstSaw = new ArrayList<>();
        final List<String> secondSaw = new ArrayList<>();
        first.poll(Duration.ofMillis(100), record -> firstSaw.add(name(record)));
        second.poll(Duration.ofMillis(100), record -> secondSaw.add(name(record)));

        // then: both saw both records, fetched once
        assertThat(firstSaw).containsExactly("0@1", "1@1");
        assertThat(secondSaw).containsExactly("0@1", "1@1");
        assertThat(source.polls).isEqualTo(1);
        assertThat(second.positions()).isEqualTo(Map.of(P0, 1L, P1, 1L));
    }

    @Test
    void shouldRewindForALateSubscriberWithoutHandingTheOthersARecordTwice() {
        // given: a worker that has read three versions of shard 0
        final ListSource source = new ListSource(Map.of(P0, 0L));
        source.append(P0, shard(0, 1));
        source.append(P0, shard(0, 2));
        source.append(P0, shard(0, 3));
        final SharedModelReader reader = new SharedModelReader(source, () -> {});
        final ModelFeed early = reader.subscribe(Map.of(P0, 0L));
        final List<String> earlySaw = new ArrayList<>();
        early.poll(Duration.ofMillis(100), record -> earlySaw.add(name(record)));

        // when: a worker subscribes at offset 1, and a fourth version comes
        final ModelFeed late = reader.subscribe(Map.of(P0, 1L));
        source.append(P0, shard(0, 4));
        final List<String> lateSaw = new ArrayList<>();
        late.poll(Duration.ofMillis(100), record -> lateSaw.add(name(record)));
        early.poll(Duration.ofMillis(100), record -> earlySaw.add(name(record)));

        // then: each saw each record once, from where it started
        assertThat(lateSaw).containsExactly("0@2", "0@3", "0@4");
        assertThat(earlySaw).containsExactly("0@1", "0@2", "0@3", "0@4");
    }

    @Test
    void shouldWakeAWaitingWorkerWhenAnotherWorkersPollBringsItsRecord() throws Exception {
        // given: a source whose poll blocks until a record is appended, and two subscribers
        final ListSource source = new ListSource(Map.of(P0, 0L));
        final SharedModelReader reader = new SharedModelReader(source, () -> {});
        final ModelFeed poller = reader.subscribe(Map.of(P0, 0L));
        final ModelFeed waiter = reader.subscribe(Map.of(P0, 0L));
        final ModelShard version = shard(0, 1);
        final ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            final Future<List<String>> polled = threads.submit(() -> collect(poller, Duration.ofSeconds(10)));
            source.pollStarted.await(5, TimeUnit.SECONDS);
            final Future<List<String>> waited = threads.submit(() -> collect(waiter, Duration.ofSeconds(10)));

            // when: a version arrives while the first worker polls and the second waits
            Thread.sleep(50);
            source.append(P0, version);

            // then: both have it, from the single poll in progress
            assertThat(polled.get(5, TimeUnit.SECONDS)).containsExactly("0@1");
            assertThat(waited.get(5, TimeUnit.SECONDS)).containsExactly("0@1");
            assertThat(source.polls).isEqualTo(1);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void shouldKeepTombstonesPerSubscriberAndCloseTheSourceAfterTheLastSubscriber() {
        // given: a shard's record and then its tombstone (the job was deleted)
        final ListSource source = new ListSource(Map.of(P0, 0L));
        source.append(P0, shard(0, 1));
        source.appendTombstone(P0, "job/0");
        final AtomicBoolean unused = new AtomicBoolean();
        final SharedModelReader reader = new SharedModelReader(source, () -> unused.set(true));
        final ModelFeed first = reader.subscribe(Map.of(P0, 0L));
        final ModelFeed second = reader.subscribe(Map.of(P0, 0L));

        // when
        first.poll(Duration.ofMillis(100), record -> {});
        first.close();

        // then: the first knows of the deletion; the second will when it reads; the source stays open for it
        assertThat(first.deleted("job")).isTrue();
        assertThat(second.deleted("job")).isFalse();
        assertThat(source.closed).isFalse();
        second.poll(Duration.ofMillis(100), record -> {});
        assertThat(second.deleted("job")).isTrue();
        second.close();
        assertThat(source.closed).isTrue();
        assertThat(unused).isTrue();
        assertThat(reader.subscribe(Map.of(P0, 0L))).isNull();
    }

    @Test
    void shouldRefuseASubscriberThatDoesNotSayWhereToStartOnEveryPartition() {
        // given
        final SharedModelReader reader = new SharedModelReader(new ListSource(Map.of(P0, 0L, P1, 0L)), () -> {});

        // when / then
        assertThatThrownBy(() -> reader.subscribe(Map.of(P0, 0L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot start at");
    }

    private static List<String> collect(final ModelFeed feed, final Duration timeout) {
        final List<String> saw = new ArrayList<>();
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (saw.isEmpty() && System.nanoTime() < deadline) {
            feed.poll(timeout, record -> saw.add(name(record)));
        }
        return saw;
    }

    private static String name(final ModelShard shard) {
        return shard.getShard() + "@" + shard.getVersion();
    }

    private static ModelShard shard(final int shard, final long version) {
        return ModelShard.newBuilder()
                .setJob("job")
                .setShard(shard)
                .setShards(2)
                .setFirstParameter(shard)
                .setVersion(version)
                .setMinClock(version)
                .setValues(FloatPacking.pack(new float[] {version}))
                .setUpdatedAt(Instant.EPOCH)
                .build();
    }

    /** Records appended by the test, handed out from each partition's position; a poll waits for one. */
    private static final class ListSource implements SharedModelReader.Source {

        private final Map<TopicPartition, List<ConsumerRecord<String, ModelShard>>> logs = new HashMap<>();
        private final Map<TopicPartition, Long> positions;
        private final CountDownLatch pollStarted = new CountDownLatch(1);
        private volatile int polls;
        private volatile boolean closed;

        ListSource(final Map<TopicPartition, Long> positions) {
            this.positions = new HashMap<>(positions);
            positions.keySet().forEach(partition -> logs.put(partition, new ArrayList<>()));
        }

        synchronized void append(final TopicPartition partition, final ModelShard shard) {
            add(partition, "job/" + shard.getShard(), shard);
        }

        synchronized void appendTombstone(final TopicPartition partition, final String key) {
            add(partition, key, null);
        }

        private void add(final TopicPartition partition, final String key, final ModelShard value) {
            final List<ConsumerRecord<String, ModelShard>> log = logs.get(partition);
            log.add(new ConsumerRecord<>(partition.topic(), partition.partition(), log.size(), key, value));
            notifyAll();
        }

        @Override
        public synchronized void poll(final Duration timeout, final Consumer<ConsumerRecord<String, ModelShard>> sink) {
            polls++;
            pollStarted.countDown();
            final long deadline = System.nanoTime() + timeout.toNanos();
            while (!available() && System.nanoTime() < deadline) {
                try {
                    wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            positions.forEach((partition, position) -> {
                final List<ConsumerRecord<String, ModelShard>> log = logs.get(partition);
                for (long offset = position; offset < log.size(); offset++) {
                    sink.accept(log.get((int) offset));
                }
                positions.put(partition, (long) log.size());
            });
        }

        private boolean available() {
            return positions.entrySet().stream()
                    .anyMatch(entry -> logs.get(entry.getKey()).size() > entry.getValue());
        }

        @Override
        public synchronized Map<TopicPartition, Long> positions() {
            return Map.copyOf(positions);
        }

        @Override
        public synchronized void seek(final TopicPartition partition, final long offset) {
            positions.put(partition, offset);
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
