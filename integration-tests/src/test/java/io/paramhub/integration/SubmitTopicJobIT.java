package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.cli.ParamHubCli;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.launcher.AppCommandLine;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.worker.SubmitJobApp;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code paramhub-submit --data-topic}: a producer that is not ParamHub's writes measurements of its own schema
 * (registered through the registry's REST API) to a topic, the submitter probes the topic and publishes the job
 * it resolves to {@code jobs}, where this test reads it back.
 */
@Tag("integration")
class SubmitTopicJobIT extends ClusterTestBase {

    private static final String SCHEMA =
            "{\"type\":\"record\",\"name\":\"Measurement\",\"namespace\":\"com.example.lab\","
                    + "\"fields\":[{\"name\":\"sepal\",\"type\":{\"type\":\"array\",\"items\":\"double\"}},"
                    + "{\"name\":\"species\",\"type\":\"string\"}]}";

    private static TopicCatalog topics;

    @BeforeAll
    static void createJobsTopic() {
        topics = KafkaConnection.plain(kafka.bootstrapServers(), registry.url()).topics(TopicCatalog.DEFAULT_PREFIX);
        // compacted, as ParamHub creates it: an app's start-up check refuses a jobs topic that deletes
        kafka.createTopic(
                topics.jobs().name(), 1, Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    }

    @Test
    void shouldSubmitTheJobTheTopicsFirstRecordsResolveToWhenTheJobRunsUntilTheEnd() throws Exception {
        // given: 3 measurements in partition 0; 2 and a value that is not Avro in partition 1
        final String topic = "measurements";
        kafka.createTopic(topic, 2);
        final Schema schema = new Schema.Parser().parse(SCHEMA);
        final int id = ForeignExamples.register(registry.url(), topic + "-value", SCHEMA);
        try (KafkaProducer<String, byte[]> producer = producer()) {
            for (final String species : List.of("virginica", "setosa", "virginica")) {
                send(producer, topic, 0, ForeignExamples.frame(id, schema, measurement(schema, species)));
            }
            send(producer, topic, 1, ForeignExamples.frame(id, schema, measurement(schema, "versicolor")));
            send(producer, topic, 1, new byte[] {'n', 'o', 't', ' ', 'a', 'v', 'r', 'o'});
            send(producer, topic, 1, ForeignExamples.frame(id, schema, measurement(schema, "setosa")));
        }

        // when
        final Run run = submit(
                "--job",
                "from-topic",
                "--data-topic",
                topic,
                "--features",
                "sepal",
                "--label",
                "species",
                "--until-end",
                "--lr-schedule",
                "cosine",
                "--batch",
                "2");

        // then: the job on jobs names the classes in sorted order and each partition's end
        assertThat(run.code()).as(run.err()).isZero();
        final JobSpec spec = submitted("from-topic");
        assertThat(spec.getDataset())
                .isEqualTo("topic:measurements,features=sepal,label=species,labels=setosa|versicolor|virginica,"
                        + "ends=3|3");
        assertThat(spec.getInputs()).isEqualTo(4);
        assertThat(spec.getOutputs()).isEqualTo(3);
        assertThat(spec.getModel()).isEqualTo("softmax");
        assertThat(spec.getEpochs()).isEqualTo(1);
        assertThat(spec.getDecayClocks()).isEqualTo(3);
        // and it said what it resolved
        assertThat(run.out())
                .contains(
                        "data topic measurements: 2 partitions, end offsets [3, 3]; read 6 records, 5 of them examples")
                .contains("inputs: 4 (the features of the first record read)")
                .contains("classes: 3 [setosa, versicolor, virginica]")
                .contains("warning: 1 of the 6 records read are no examples")
                .contains("submitted job from-topic");
    }

    @Test
    void shouldAskForTheInputsAndClassesWhenTheTopicIsEmpty() {
        // given
        kafka.createTopic("nothing-yet", 2);

        // when
        final Run run = submit("--job", "empty", "--data-topic", "nothing-yet", "--features", "sepal");

        // then: nothing submitted
        assertThat(run.code()).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(run.err()).contains("data topic nothing-yet is empty").contains("give --inputs N and --classes N");
        assertThat(jobs()).noneMatch(spec -> spec.getJob().equals("empty"));
    }

    @Test
    void shouldSubmitTheSameJobThroughParamhubJobsSubmit() {
        // given
        kafka.createTopic("via-cli", 2);

        // when: the paramhub command's jobs submit, on a topic still empty, inputs and classes given
        final int code = ParamHubCli.execute(
                "jobs",
                "submit",
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--registry-url",
                registry.url(),
                "--workers",
                "2",
                "--model",
                "softmax",
                "--job",
                "via-cli",
                "--data-topic",
                "via-cli",
                "--features",
                "sepal",
                "--inputs",
                "4",
                "--classes",
                "3",
                "--max-examples",
                "100");

        // then
        assertThat(code).isZero();
        final JobSpec spec = submitted("via-cli");
        assertThat(spec.getDataset()).isEqualTo("topic:via-cli,features=sepal,label=label,max-examples=100");
        assertThat(spec.getInputs()).isEqualTo(4);
        assertThat(spec.getOutputs()).isEqualTo(3);
    }

    private record Run(int code, String out, String err) {}

    private static Run submit(final String... options) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final String[] args = Stream.concat(
                        Stream.of(
                                "--bootstrap-servers",
                                kafka.bootstrapServers(),
                                "--registry-url",
                                registry.url(),
                                "--workers",
                                "2",
                                "--model",
                                "softmax"),
                        Stream.of(options))
                .toArray(String[]::new);
        final int code = AppCommandLine.execute(
                new SubmitJobApp(), Map.of(), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    private static JobSpec submitted(final String job) {
        return jobs().stream()
                .filter(spec -> spec.getJob().equals(job))
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        "no job " + job + " on " + topics.jobs().name()));
    }

    private static List<JobSpec> jobs() {
        return TopicContents.values(kafka.bootstrapServers(), topics.jobs());
    }

    private static GenericRecord measurement(final Schema schema, final String species) {
        final GenericRecord record = new GenericData.Record(schema);
        record.put("sepal", List.of(5.1, 3.5, 1.4, 0.2));
        record.put("species", species);
        return record;
    }

    private static KafkaProducer<String, byte[]> producer() {
        final Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    private static void send(
            final KafkaProducer<String, byte[]> producer, final String topic, final int partition, final byte[] value)
            throws Exception {
        producer.send(new ProducerRecord<>(topic, partition, null, value)).get();
    }
}
