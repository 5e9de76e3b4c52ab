package io.paramhub.cli.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A hostile tenant of a chaos run: a thread of the chaos command's JVM with its own producer (its own client id,
 * not transactional), which, once the BSP job has reached each of its round clocks, writes every
 * {@link HostileForgeries} record to {@code model}, {@code commands}, {@code membership} and {@code jobs}, and
 * keeps where each landed for the invariants. A thread rather than a process: no fault targets it, a JVM more would
 * cost the two cores a second of CPU at start, and the invariants need exactly what it sent.
 */
final class HostileTenant implements AutoCloseable {

    /** A forged record as written: its forgery and where it landed. */
    record Sent(Forgery forgery, String topic, int partition, long offset) {}

    private static final long SERIALIZE_RETRY_MS = 120_000;

    private final HostileForgeries forgeries;
    private final Properties client;
    private final JobProgress progress;
    private final List<Long> roundClocks;
    private final Consumer<String> out;
    private final List<Sent> sent = Collections.synchronizedList(new ArrayList<>());
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;
    private volatile boolean closed;

    HostileTenant(
            final HostileForgeries forgeries,
            final Properties client,
            final JobProgress progress,
            final List<Long> roundClocks,
            final Consumer<String> out) {
        this.forgeries = forgeries;
        this.client = client;
        this.progress = progress;
        this.roundClocks = List.copyOf(roundClocks);
        this.out = out;
        this.thread = new Thread(this::run, "chaos-hostile-tenant");
        this.thread.setDaemon(true);
    }

    /** The clocks a run of {@code clocks} clocks is forged at: early, before the faults, and half way. */
    static List<Long> roundClocks(final long clocks) {
        return List.of(Math.min(8, clocks / 4), clocks / 2);
    }

    void start() {
        thread.start();
    }

    /** What was written, in order; complete once {@link #close()} returned. */
    List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** Forgeries that could not be written, as text. */
    List<String> failures() {
        return List.copyOf(failures);
    }

    private void run() {
        final Properties props = new Properties();
        props.putAll(client);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "chaos-hostile-tenant");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
            for (final long clock : roundClocks) {
                while (!closed && progress.clock() < clock && !progress.finished()) {
                    Thread.sleep(20);
                }
                if (closed || progress.finished()) {
                    return;
                }
                out.accept("chaos: clock " + progress.clock() + ": the hostile tenant forges "
                        + HostileForgeries.kinds(forgeries.bsp()).size() + " records");
                for (final HostileForgeries.Planned planned : forgeries.plan()) {
                    send(producer, planned);
                }
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final RuntimeException e) {
            failures.add("the tenant broke off: " + e);
        }
    }

    private void send(final KafkaProducer<String, byte[]> producer, final HostileForgeries.Planned planned)
            throws InterruptedException {
        final byte[] value = serialize(planned);
        if (value == null) {
            return;
        }
        try {
            final RecordMetadata metadata = producer.send(new ProducerRecord<>(planned.topic(), planned.key(), value))
                    .get(SERIALIZE_RETRY_MS, TimeUnit.MILLISECONDS);
            sent.add(new Sent(planned.forgery(), planned.topic(), metadata.partition(), metadata.offset()));
        } catch (final ExecutionException | TimeoutException e) {
            failures.add(planned.forgery().kind() + " not written: " + e);
        }
    }

    /** The record's bytes; a registry being restarted by the nemesis is waited for. */
    private byte[] serialize(final HostileForgeries.Planned planned) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SERIALIZE_RETRY_MS);
        while (true) {
            try {
                return planned.value().get();
            } catch (final RuntimeException e) {
                if (System.nanoTime() > deadline || closed) {
                    failures.add(planned.forgery().kind() + " not serialized: " + e);
                    return null;
                }
                Thread.sleep(1_000);
            }
        }
    }

    /** Stops waiting for a round the job will not reach, and waits for a round being written. */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.join(TimeUnit.MILLISECONDS.toMillis(SERIALIZE_RETRY_MS * 2));
    }
}
