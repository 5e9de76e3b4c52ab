package io.paramhub.worker;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.ml.TopicSpec;
import io.paramhub.topology.jobs.StagePlan;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A {@link WorkerTransport} in memory, with a stand-in for the aggregator: it hands out the job and the model
 * versions it holds, records what the worker publishes, and once every one of {@code contributors} has sent
 * its gradient of clock c for a shard, publishes that shard again as version c + 1 with minClock c + 1 (same
 * values, same plan). A new version is released to the worker's feed only after {@link #POLLS_BEFORE_RELEASE}
 * polls, so that a worker which did not wait for it would be caught computing on an older one.
 */
final class InMemoryTransport implements WorkerTransport {

    /** Polls of the feed before a new version becomes visible. */
    static final int POLLS_BEFORE_RELEASE = 3;

    private final JobSpec spec;
    private final Set<String> contributors;
    private final Map<Integer, ModelShard> initial = new HashMap<>();
    private final List<ModelShard> released = new ArrayList<>();
    private final List<ModelShard> pending = new ArrayList<>();
    private final Map<List<Long>, Integer> received = new HashMap<>();
    private final List<GradientShard> gradients = new ArrayList<>();
    private final List<Long> minClockAtGradient = new ArrayList<>();
    private final List<IterationTelemetry> telemetry = new ArrayList<>();
    private final List<WorkerStatus> announcements = new ArrayList<>();
    private int pollsSincePending;
    private HostSum hostSum;
    private RuntimeException sendFailure;
    private Runnable beforeModelPoll = () -> {};

    /** A transport serving {@code spec}, starting from {@code model} (version 0 of every shard). */
    InMemoryTransport(final JobSpec spec, final List<ModelShard> model, final Set<String> contributors) {
        this.spec = spec;
        this.contributors = contributors;
        for (final ModelShard shard : model) {
            initial.put(shard.getShard(), shard);
            released.add(shard);
        }
    }

    /** The same transport declaring {@code sum} its workers' host's sum. */
    InMemoryTransport summingOn(final HostSum sum) {
        this.hostSum = sum;
        return this;
    }

    /** The same transport refusing every gradient with {@code failure}, as a producer whose broker is gone. */
    InMemoryTransport failingSends(final RuntimeException failure) {
        this.sendFailure = failure;
        return this;
    }

    /** The same transport running {@code hook} before each poll of the model the worker trains on. */
    InMemoryTransport beforeModelPoll(final Runnable hook) {
        this.beforeModelPoll = hook;
        return this;
    }

    @Override
    public HostSum hostSum(final String job) {
        return hostSum;
    }

    @Override
    public JobSpec awaitJob(final String job, final Duration timeout) {
        if (!spec.getJob().equals(job)) {
            throw new IllegalStateException("no job " + job);
        }
        return spec;
    }

    @Override
    public ModelFeed readCommittedModel(final Collection<String> shardKeys) {
        return new Feed(() -> {});
    }

    @Override
    public ModelFeed readModel(
            final Collection<String> shardKeys,
            final Map<TopicPartition, Long> from,
            final boolean wholeVersions,
            final int versionBytes) {
        return new Feed(beforeModelPoll);
    }

    @Override
    public ActivationExchange exchange(
            final JobSpec job, final StagePlan plan, final int workerIndex, final String workerId) {
        throw new UnsupportedOperationException("no pipeline stages in memory");
    }

    @Override
    public synchronized void publishGradient(final GradientShard sent) {
        if (sendFailure != null) {
            throw sendFailure;
        }
        // as Kafka's serializer does at once: the worker reuses the values' buffer for its next shard
        final ByteBuffer values = sent.getValues().duplicate();
        final byte[] copy = new byte[values.remaining()];
        values.get(copy);
        final GradientShard gradient =
                GradientShard.newBuilder(sent).setValues(ByteBuffer.wrap(copy)).build();
        gradients.add(gradient);
        minClockAtGradient.add(releasedMinClock());
        final List<Long> slot = List.of((long) gradient.getShard(), gradient.getClock());
        final int count = received.merge(slot, 1, Integer::sum);
        if (count == contributors.size()) {
            final long next = gradient.getClock() + 1;
            final Map<String, Long> clocks = new HashMap<>();
            contributors.forEach(worker -> clocks.put(worker, next));
            pending.add(ModelShard.newBuilder(initial.get(gradient.getShard()))
                    .setVersion(next)
                    .setMinClock(next)
                    .setClocks(clocks)
                    .build());
        }
    }

    @Override
    public synchronized void publishTelemetry(final IterationTelemetry record) {
        telemetry.add(record);
    }

    @Override
    public synchronized void announce(final WorkerStatus status) {
        announcements.add(status);
    }

    @Override
    public void flush() {}

    @Override
    public void failIfSendFailed() {}

    @Override
    public void useTransactions(final String transactionalId) {
        throw new UnsupportedOperationException("the in-memory transport has no transactions");
    }

    @Override
    public void beginClock() {}

    @Override
    public void endClock(final Map<TopicPartition, OffsetAndMetadata> offsets, final ConsumerGroupMetadata group) {}

    @Override
    public synchronized void setAside(final String key, final DeadLetter letter) {
        throw new UnsupportedOperationException("the in-memory transport reads no examples to set aside");
    }

    @Override
    public ExampleFeed examples(final JobSpec job, final TopicSpec topic, final int workerIndex, final String group) {
        throw new UnsupportedOperationException("the in-memory transport reads no topic of examples");
    }

    @Override
    public void close() {}

    synchronized List<GradientShard> gradients() {
        return List.copyOf(gradients);
    }

    /** For each gradient published, in order: the smallest minClock of the newest versions the worker could see. */
    synchronized List<Long> minClockAtGradient() {
        return List.copyOf(minClockAtGradient);
    }

    synchronized List<IterationTelemetry> telemetry() {
        return List.copyOf(telemetry);
    }

    synchronized List<WorkerStatus> announcements() {
        return List.copyOf(announcements);
    }

    private long releasedMinClock() {
        final Map<Integer, Long> newest = new HashMap<>();
        for (final ModelShard shard : released) {
            newest.merge(shard.getShard(), shard.getMinClock(), Math::max);
        }
        return newest.values().stream().mapToLong(Long::longValue).min().orElse(-1);
    }

    private synchronized List<ModelShard> releasedFrom(final int position) {
        if (!pending.isEmpty() && ++pollsSincePending >= POLLS_BEFORE_RELEASE) {
            released.addAll(pending);
            pending.clear();
            pollsSincePending = 0;
        }
        return List.copyOf(released.subList(position, released.size()));
    }

    /** One reader of the released versions, from the first. */
    private final class Feed implements ModelFeed {

        private final Runnable beforePoll;
        private int position;

        Feed(final Runnable beforePoll) {
            this.beforePoll = beforePoll;
        }

        @Override
        public void poll(final Duration timeout, final Consumer<ModelShard> sink) {
            beforePoll.run();
            final List<ModelShard> records = releasedFrom(position);
            position += records.size();
            records.forEach(sink);
            if (records.isEmpty() && !timeout.isZero()) {
                try {
                    Thread.sleep(1);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void catchUp(final Duration timeout, final Consumer<ModelShard> sink) {
            poll(Duration.ZERO, sink);
        }

        @Override
        public Map<TopicPartition, Long> positions() {
            return Map.of();
        }

        @Override
        public void close() {}
    }
}
