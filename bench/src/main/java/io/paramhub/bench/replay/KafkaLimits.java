package io.paramhub.bench.replay;

import io.paramhub.embedded.KafkaConnection;
import io.paramhub.topology.ClientProperties;
import io.paramhub.topology.PartitionLeaders;
import io.paramhub.topology.StreamsProperties;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Kafka's own limits on the cluster a replay ran on, with records of the gradients' size: Kafka's
 * {@code ProducerPerformance} and {@code ConsumerPerformance} (from {@code kafka-tools}, each in its own
 * JVM) on a fresh topic {@code <prefix>limits} of 8 partitions, then a pass-through Kafka Streams app
 * with ParamHub's Streams settings ({@code exactly_once_v2}, commit every 5 ms) copying it to
 * {@code <prefix>limits-out}. Writes and reads those two topics only.
 */
public final class KafkaLimits {

    private static final Pattern PRODUCED = Pattern.compile("([0-9.]+) records/sec \\(([0-9.]+) MB/sec\\)");

    /** Records per second and MB per second of one measurement. */
    public record Rate(double recordsPerSecond, double megabytesPerSecond) {}

    /** The three measurements. */
    public record Limits(int recordSize, long records, Rate producer, Rate consumer, Rate streamsPassThrough) {}

    private KafkaLimits() {}

    static Limits measure(
            final KafkaConnection connection,
            final String prefix,
            final int recordSize,
            final long records,
            final Path stateDir)
            throws IOException, InterruptedException {
        final String topic = prefix + "limits";
        final Properties client = connection.client();
        // the tools connect with the same settings (security ones included), from a file
        final Path clientConfig = stateDir.resolve("limits-client.properties");
        Files.createDirectories(stateDir);
        try (Writer writer = Files.newBufferedWriter(clientConfig, StandardCharsets.UTF_8)) {
            client.store(writer, "client settings of the Kafka limits tools");
        }
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, 8, (short) -1), new NewTopic(topic + "-out", 8, (short) -1)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
            PartitionLeaders.awaitServing(admin, List.of(topic, topic + "-out"), Duration.ofSeconds(60));
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not create " + topic + ": " + e.getMessage(), e);
        }
        final List<String> produced = tool(
                "org.apache.kafka.tools.ProducerPerformance",
                "--topic",
                topic,
                "--num-records",
                Long.toString(records),
                "--record-size",
                Integer.toString(recordSize),
                "--throughput",
                "-1",
                "--command-config",
                clientConfig.toString(),
                "--command-property",
                "acks=all",
                "linger.ms=5",
                "batch.size=262144");
        final Rate producer = producerRate(produced);
        final List<String> consumed = tool(
                "org.apache.kafka.tools.ConsumerPerformance",
                "--bootstrap-server",
                connection.bootstrapServers(),
                "--command-config",
                clientConfig.toString(),
                "--topic",
                topic,
                "--num-records",
                Long.toString(records),
                "--timeout",
                "120000");
        final Rate consumer = consumerRate(consumed);
        return new Limits(
                recordSize, records, producer, consumer, passThrough(connection, topic, records, recordSize, stateDir));
    }

    /** The summary line of ProducerPerformance: "N records sent, R records/sec (M MB/sec), ...". */
    static Rate producerRate(final List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            final Matcher matcher = PRODUCED.matcher(lines.get(i));
            if (lines.get(i).contains("records sent") && matcher.find()) {
                return new Rate(Double.parseDouble(matcher.group(1)), Double.parseDouble(matcher.group(2)));
            }
        }
        throw new IllegalStateException("ProducerPerformance printed no summary: " + lines);
    }

    /** ConsumerPerformance's header and values: columns "MB.sec" and "nMsg.sec". */
    static Rate consumerRate(final List<String> lines) {
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).startsWith("start.time")) {
                final List<String> header =
                        Arrays.stream(lines.get(i).split(",")).map(String::trim).toList();
                final String[] values = lines.get(i + 1).split(",");
                return new Rate(
                        Double.parseDouble(values[header.indexOf("nMsg.sec")].trim()),
                        Double.parseDouble(values[header.indexOf("MB.sec")].trim()));
            }
        }
        throw new IllegalStateException("ConsumerPerformance printed no figures: " + lines);
    }

    private static List<String> tool(final String mainClass, final String... args)
            throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                "-cp",
                System.getProperty("java.class.path"),
                mainClass));
        command.addAll(List.of(args));
        final Process process =
                new ProcessBuilder(command).redirectErrorStream(true).start();
        final List<String> lines = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        }
        if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException(mainClass + " failed: " + lines);
        }
        return lines;
    }

    /** Copies {@code records} records from {@code topic} to {@code topic-out} with an exactly-once Streams app. */
    private static Rate passThrough(
            final KafkaConnection connection,
            final String topic,
            final long records,
            final int recordSize,
            final Path stateDir)
            throws InterruptedException {
        final StreamsBuilder builder = new StreamsBuilder();
        builder.stream(
                        topic,
                        Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("limits-source"))
                .to(
                        topic + "-out",
                        Produced.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("limits-sink"));
        final Properties given = connection.client();
        given.put(
                StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("pass-through").toString());
        given.put(StreamsProperties.SCHEMA_REGISTRY_URL, "mock://unused");
        given.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        final Properties props =
                StreamsProperties.withDefaults("paramhub-pass-through-" + System.currentTimeMillis(), given);
        final Properties client = connection.client();
        try (KafkaStreams streams = new KafkaStreams(builder.build(), props);
                KafkaConsumer<byte[], byte[]> out = new KafkaConsumer<>(
                        ClientProperties.assignedConsumer(client),
                        new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())) {
            final List<TopicPartition> partitions = out.partitionsFor(topic + "-out", Duration.ofSeconds(30)).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition()))
                    .toList();
            out.assign(partitions);
            out.seekToBeginning(partitions);
            // paused until its group has formed, then timed from its resumption, as the aggregator's replay is:
            // neither start-up nor a feeding producer counts
            streams.pause();
            streams.start();
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (streams.state() != KafkaStreams.State.RUNNING) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the pass-through app did not start in 5 minutes");
                }
                Thread.sleep(10);
            }
            final long started = System.nanoTime();
            streams.resume();
            long copied = 0;
            while (copied < records) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "the pass-through app copied " + copied + " of " + records + " records in 5 minutes");
                }
                copied += out.poll(Duration.ofMillis(1)).count();
            }
            final double seconds = (System.nanoTime() - started) / 1e9;
            streams.close(Duration.ofSeconds(30));
            return new Rate(records / seconds, records * (double) recordSize / (1024 * 1024) / seconds);
        }
    }
}
