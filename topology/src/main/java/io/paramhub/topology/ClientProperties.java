package io.paramhub.topology;

import io.paramhub.ml.ShardSizing;
import io.paramhub.schemas.registry.RegistryClientSettings;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;

/** Plain producer and consumer settings of ParamHub's clients; given settings win over these defaults. */
public final class ClientProperties {

    /**
     * {@code batch.size} of ParamHub's producers: a shard record (at most {@link ShardSizing#RECORD_BUDGET_BYTES}
     * of values, plus its other fields) fits one batch. The producer recycles buffers of exactly
     * {@code batch.size} and allocates a record larger than that a buffer of its own, zeroed, every time:
     * with Kafka's 16 KiB every gradient and model shard (235 KB for the MLP) was a fresh buffer.
     */
    public static final int BATCH_BYTES = ShardSizing.RECORD_BUDGET_BYTES + 32 * 1024;

    /** {@code fetch.max.wait.ms} of {@link #briefFetchWaits}. */
    public static final int BRIEF_FETCH_WAIT_MS = 10;

    /** A socket buffer size of -1: the operating system's default, with TCP autotuning on Linux. */
    private static final int KERNEL_DEFAULT = -1;

    private ClientProperties() {}

    /**
     * Leaves the size of each socket's buffers to the kernel ({@code send.buffer.bytes} and
     * {@code receive.buffer.bytes} -1, the OS default) instead of Kafka's 128 KiB and 64 KiB. A buffer size set
     * on a socket turns Linux's TCP autotuning off, so a record of a few hundred KiB (a gradient or model shard)
     * crossed a 64 KiB window in many small reads, each a wake-up of the reading thread; autotuned windows grow
     * to what the connection carries (docs/operating.md, "Socket buffers and request threads"). Given settings win.
     */
    public static Properties withKernelSocketBuffers(final Properties props) {
        props.putIfAbsent(CommonClientConfigs.SEND_BUFFER_CONFIG, KERNEL_DEFAULT);
        props.putIfAbsent(CommonClientConfigs.RECEIVE_BUFFER_CONFIG, KERNEL_DEFAULT);
        return props;
    }

    /**
     * Idempotent, acks=all, a 1 ms linger: a worker's shard gradients of one clock leave in one request,
     * so the aggregator reads them in one fetch and publishes the clock's shards with one commit (sent
     * one by one, the first shard's commit held the others up). Batches of {@link #BATCH_BYTES}.
     */
    public static Properties producer(final Properties given) {
        final Properties props = withKernelSocketBuffers(copy(given));
        props.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        props.putIfAbsent(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 1);
        props.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
        props.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, BATCH_BYTES);
        return props;
    }

    /** A consumer without a group (the caller assigns partitions) that sees only committed records. */
    public static Properties assignedConsumer(final Properties given) {
        final Properties props = withKernelSocketBuffers(copy(given));
        props.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        props.putIfAbsent(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        // a read_committed fetch waiting at the broker is answered at fetch.max.wait.ms, not when a commit
        // marker makes records readable: 500 ms by default, which a worker waited for the committed
        // model it joins at
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        return props;
    }

    /**
     * {@code given} with a {@value #BRIEF_FETCH_WAIT_MS} ms {@code fetch.max.wait.ms} unless it sets one: for a
     * short-lived reader of committed records that a caller waits on, as a worker joining at the committed model. The
     * broker answers a waiting read_committed fetch at that wait, not when a commit marker makes records readable;
     * at {@link #assignedConsumer}'s 50 ms, a worker joined 100 ms after version 0 was committed.
     */
    public static Properties briefFetchWaits(final Properties given) {
        final Properties props = copy(given);
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, BRIEF_FETCH_WAIT_MS);
        return props;
    }

    /**
     * {@code given} with {@code isolation.level=read_uncommitted} unless it sets one: for a reader that
     * may see a record before the transaction writing it commits (see {@code Worker}).
     */
    public static Properties uncommittedReads(final Properties given) {
        final Properties props = copy(given);
        props.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_UNCOMMITTED.toString());
        return props;
    }

    /**
     * As {@link #uncommittedReads}, for a worker's reader of {@code model}: a fetch waits at the broker until
     * {@code versionBytes} (the values of a whole model version, as much as the worker reads) are there, or
     * until {@code fetch.max.wait.ms}, so that a version's shards, published one by one, reach the worker in
     * one fetch instead of one fetch each.
     */
    public static Properties modelReads(final Properties given, final int versionBytes) {
        final Properties props = uncommittedReads(given);
        props.putIfAbsent(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, Math.max(1, versionBytes));
        return props;
    }

    /**
     * {@code settings} less the schema registry client's ({@link RegistryClientSettings}): what a plain Kafka
     * client is given, security settings ({@code security.protocol}, {@code sasl.*}, {@code ssl.*}) included.
     */
    public static Properties withoutRegistrySettings(final Properties settings) {
        final Properties props = new Properties();
        settings.forEach((key, value) -> {
            if (!RegistryClientSettings.isRegistrySetting(key.toString())) {
                props.put(key, value);
            }
        });
        return props;
    }

    private static Properties copy(final Properties given) {
        final Properties props = new Properties();
        props.putAll(given);
        return props;
    }
}
