package io.paramhub.topology.placement;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Starts a rebalance of the aggregators' group when a new placement is read, and at no other time: the Kafka
 * clients of an aggregator instance that follows {@code placements}, whose stream threads' main consumers ask
 * for a rebalance ({@link Consumer#enforceRebalance(String)}, on the stream thread itself, before its next poll)
 * after {@link #request(String)}. No topic of its own; the clients are Kafka Streams' usual ones.
 *
 * <p>Only the group leader assigns, and only in a rebalance: every instance requests one when it reads a newer
 * placement, so the last request comes after the leader has read it too. A rebalance that moves nothing keeps
 * every task running.
 */
public final class PlacementRebalancer implements KafkaClientSupplier {

    private final List<AtomicReference<String>> pending = new CopyOnWriteArrayList<>();

    /** Asks every main consumer made here to rejoin the group before its next poll, giving {@code reason}. */
    public void request(final String reason) {
        pending.forEach(request -> request.set(reason));
    }

    @Override
    public Admin getAdmin(final Map<String, Object> config) {
        return Admin.create(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(final Map<String, Object> config) {
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(final Map<String, Object> config) {
        return rebalancing(new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()));
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(final Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(final Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** {@code consumer}, rejoining its group before the first poll after each {@link #request(String)}. */
    @SuppressWarnings("unchecked")
    Consumer<byte[], byte[]> rebalancing(final Consumer<byte[], byte[]> consumer) {
        final AtomicReference<String> request = new AtomicReference<>();
        pending.add(request);
        final InvocationHandler handler = (proxy, method, args) -> {
            if ("poll".equals(method.getName())) {
                final String reason = request.getAndSet(null);
                if (reason != null) {
                    consumer.enforceRebalance(reason);
                }
            } else if ("close".equals(method.getName())) {
                pending.remove(request);
            }
            return invoke(consumer, method, args);
        };
        return (Consumer<byte[], byte[]>)
                Proxy.newProxyInstance(Consumer.class.getClassLoader(), new Class<?>[] {Consumer.class}, handler);
    }

    private static Object invoke(final Object target, final Method method, final Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (final InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
