package io.paramhub.schemas.serde;

import io.paramhub.schemas.registry.OutagePauses;
import io.paramhub.schemas.registry.SchemaRegistryException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A deserializer that waits out an unavailable schema registry: while the registry cannot answer (unreachable,
 * HTTP 5xx) it pauses and decodes the record again, instead of failing it. For readers that cannot fail a record
 * and go on, such as a Kafka Streams global store, whose thread, once dead, takes the app down with it. A record the
 * registry refuses (an unknown id) still fails at once.
 */
public final class PatientDeserializer<T> implements Deserializer<T> {

    /** The longest pause: a closing app waits for the thread in here at most about this long. */
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(PatientDeserializer.class);

    /** Pauses the calling thread; {@link Thread#sleep} but for tests. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration pause) throws InterruptedException;
    }

    private final Deserializer<T> inner;
    private final Sleeper sleeper;

    /** Waits with {@link Thread#sleep} around {@code inner}. */
    public PatientDeserializer(final Deserializer<T> inner) {
        this(inner, pause -> Thread.sleep(pause.toMillis()));
    }

    PatientDeserializer(final Deserializer<T> inner, final Sleeper sleeper) {
        this.inner = inner;
        this.sleeper = sleeper;
    }

    @Override
    public void configure(final Map<String, ?> configs, final boolean isKey) {
        inner.configure(configs, isKey);
    }

    @Override
    public T deserialize(final String topic, final byte[] data) {
        return patiently(topic, () -> inner.deserialize(topic, data));
    }

    @Override
    public T deserialize(final String topic, final Headers headers, final byte[] data) {
        return patiently(topic, () -> inner.deserialize(topic, headers, data));
    }

    @Override
    public void close() {
        inner.close();
    }

    private T patiently(final String topic, final Supplier<T> decode) {
        Duration pause = OutagePauses.FIRST;
        for (int attempt = 1; ; attempt++) {
            try {
                return decode.get();
            } catch (final RuntimeException e) {
                final SchemaRegistryException outage = SchemaRegistryException.unavailableIn(e);
                if (outage == null) {
                    throw e;
                }
                log.warn(
                        "schema registry unavailable decoding a record of {} (attempt {}): {}; trying again in {}",
                        topic,
                        attempt,
                        outage.getMessage(),
                        pause);
                try {
                    sleeper.sleep(pause);
                } catch (final InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new InterruptException(interrupted);
                }
                pause = OutagePauses.next(pause, LONGEST_PAUSE);
            }
        }
    }
}
