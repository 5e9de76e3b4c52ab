package io.paramhub.topology;

import io.paramhub.topology.errors.DeadLetterDeserializationHandler;
import io.paramhub.topology.errors.DeadLetterProcessingHandler;
import io.paramhub.topology.errors.DeadLetterProductionHandler;
import io.paramhub.topology.errors.DeadLetterSettings;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The Kafka Streams configuration of a ParamHub app: given settings win, ParamHub's defaults fill
 * the rest ({@code putIfAbsent}).
 *
 * <p>The defaults are those measured to make an exactly-once parameter-server round cost milliseconds
 * instead of a hundred (docs/operating.md, "Latency: ParamHub's client and Streams defaults"): the
 * Streams producer does not linger and retries a busy transaction after 2 ms, and the state store cache
 * is off. Workers read model versions before
 * they commit, so the 100 ms commit interval is not part of a round; it bounds how late readers of
 * committed records see them.
 *
 * <p>A record Streams cannot deserialize, or on which a processor throws unexpectedly, or whose output cannot be
 * serialized, becomes a {@code DeadLetter} on the topic named by {@link DeadLetterSettings#TOPIC}
 * ({@link DeadLetterDeserializationHandler}, {@link DeadLetterProcessingHandler},
 * {@link DeadLetterProductionHandler}) instead of stopping the stream thread.
 */
public final class StreamsProperties {

    /** Schema registry URL, read by our Avro serdes as Confluent's are. */
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";

    private StreamsProperties() {}

    public static Properties withDefaults(final String applicationId, final Properties given) {
        final Properties props = new Properties();
        props.putAll(given);
        props.putIfAbsent(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.putIfAbsent(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // Kafka's exactly-once default; workers read model versions before the commit, and a join or a
        // departure asks for a commit at once (ProcessorContext.commit)
        props.putIfAbsent(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        // poll.ms is also how long the state updater's restore consumer waits for changelog records, even from
        // empty changelogs: a fresh aggregator restored its nine stores in three waits of 100 ms before it ran.
        // 20 ms: an idle stream thread wakes 50 times a second, which costs nothing measurable
        props.putIfAbsent(StreamsConfig.POLL_MS_CONFIG, 20);
        props.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 0);
        // A read_committed fetch that waits at the broker is not answered when a transaction's commit
        // marker makes records readable, only at fetch.max.wait.ms (500 ms by default): a job's first hop
        // through shard-jobs and the restore of every (empty) changelog waited that long at start-up.
        // 50 ms on the main consumer made the MLP's slow rounds slower (p99 wait 98 -> 130 ms); 200 ms did not
        props.putIfAbsent(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 200);
        props.putIfAbsent(StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 10);
        // Streams creates its changelog topics in the first rebalance and checks every retry.backoff.ms
        // (100 ms by default) until they have leaders: 4 checks, 400 ms, on a fresh cluster. Clients back
        // off exponentially from this value (to retry.backoff.max.ms, 1 s)
        props.putIfAbsent(StreamsConfig.RETRY_BACKOFF_MS_CONFIG, 10);
        // brokers before transaction version 2 answer a new transaction's AddPartitionsToTxn with
        // CONCURRENT_TRANSACTIONS while the last one's markers are written; the producer retries after
        // min(20 ms, retry.backoff.ms), once per commit (retries back off exponentially from there)
        props.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.RETRY_BACKOFF_MS_CONFIG), 2);
        props.putIfAbsent(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        // socket buffers sized by the kernel for every Streams client, as for ParamHub's own
        ClientProperties.withKernelSocketBuffers(props);
        props.putIfAbsent(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        props.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), 8 * 1024 * 1024);
        // a model shard fits one batch, whose buffer the producer recycles (ClientProperties.BATCH_BYTES)
        props.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), ClientProperties.BATCH_BYTES);
        props.putIfAbsent(
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterDeserializationHandler.class.getName());
        props.putIfAbsent(
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProcessingHandler.class.getName());
        props.putIfAbsent(
                StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProductionHandler.class.getName());
        return props;
    }
}
