package io.paramhub.local.replay;

import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code paramhub record}: saves one job's records from a cluster's topics into a directory. */
@Command(name = "record", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Saves one job's records (jobs, membership, gradients, telemetry, commands, model) from a "
        + "running cluster into DIR, for `paramhub replay`. Run it while the cluster still holds them: on the "
        + "embedded broker of `paramhub up`, or any cluster given by --bootstrap-servers.")
public final class RecordCommand implements Callable<Integer> {

    @Option(names = "--job", required = true, description = "The job to record.")
    private String job;

    @Option(names = "--out", required = true, description = "Directory to write the recording to.")
    private Path out;

    @Option(names = "--bootstrap-servers", defaultValue = "127.0.0.1:9092",
        description = "Kafka cluster (default: ${DEFAULT-VALUE}, the broker of `paramhub up`).")
    private String bootstrapServers;

    @Option(names = "--registry-url", defaultValue = "http://127.0.0.1:8081",
        description = "Schema registry (default: ${DEFAULT-VALUE}).")
    private String registryUrl;

    @Option(names = "--topic-prefix", defaultValue = TopicCatalog.DEFAULT_PREFIX,
        description = "Prefix of every topic name (default: ${DEFAULT-VALUE}).")
    private String topicPrefix;

    @Override
    public Integer call() throws Exception {
        final Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        final Map<RecordedTopic, Integer> counts = Recorder.record(
            TopicCatalog.create(topicPrefix, SerdeFactory.forRegistry(registryUrl)), client, job, out);
        counts.forEach((topic, count) -> System.out.printf(Locale.ROOT, "%-10s %8d records%n",
            topic.name().toLowerCase(Locale.ROOT), count));
        System.out.println("recorded job " + job + " into " + out);
        return 0;
    }
}
