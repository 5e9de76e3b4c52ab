package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.launcher.AppCommandLine;
import io.paramhub.launcher.SettingException;
import io.paramhub.ml.TopicSpec;
import io.paramhub.topology.jobs.JobSpecs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** How {@code paramhub-submit}'s topic options and a probe of the topic become a job spec, without Kafka. */
class SubmitTopicJobTest {

    private static final List<Long> ENDS = List.of(300L, 200L);

    @Test
    void shouldLearnTheClassCountWhenTheLabelsAreWholeNumbers() {
        // given: labels 0, 1 and 3 among the first records, 8 features each
        final SubmitJobApp app = parsed("--model", "softmax");

        // when
        final JobSpec spec = spec(app, probe(seen(8, Map.of("0", 5, "3", 2, "1", 4), List.of())));

        // then: the largest + 1 classes, the labels being their indices, and one pass over the topic
        assertThat(spec.getInputs()).isEqualTo(8);
        assertThat(spec.getOutputs()).isEqualTo(4);
        assertThat(spec.getEpochs()).isEqualTo(1);
        assertThat(spec.getDataset()).isEqualTo("topic:readings,features=x,label=y");
        assertThat(TopicSpec.parse(spec.getDataset()).labels()).isEmpty();
    }

    @Test
    void shouldNameTheClassesInSortedOrderWhenTheLabelsAreText() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax");

        // when
        final JobSpec spec = spec(app, probe(seen(4, Map.of("owl", 1, "cat", 3, "dog", 2), List.of())));

        // then
        assertThat(spec.getOutputs()).isEqualTo(3);
        assertThat(TopicSpec.parse(spec.getDataset()).labels()).containsExactly("cat", "dog", "owl");
        assertThat(spec.getDataset()).isEqualTo("topic:readings,features=x,label=y,labels=cat|dog|owl");
    }

    @Test
    void shouldTakeTheSymbolsInTheirOrderWhenTheLabelIsAnEnum() {
        // given: only two of the enum's three symbols among the first records
        final SubmitJobApp app = parsed("--model", "softmax");

        // when
        final JobSpec spec = spec(app, probe(seen(4, Map.of("HIGH", 3, "LOW", 1), List.of("LOW", "HIGH", "MID"))));

        // then
        assertThat(spec.getOutputs()).isEqualTo(3);
        assertThat(TopicSpec.parse(spec.getDataset()).labels()).containsExactly("LOW", "HIGH", "MID");
    }

    @Test
    void shouldEndAtTheProbedOffsetsAndDecayOverTheirExamplesWhenUntilEndIsCosine() {
        // given: partitions holding offsets [0, 300) and [50, 200)
        final SubmitJobApp app =
                parsed("--model", "softmax", "--until-end", "--lr-schedule", "cosine", "--batch", "10");
        final TopicProbe.Result probe = new TopicProbe.Result(
                "readings", List.of(0L, 50L), ENDS, seen(8, Map.of("0", 1, "1", 1), List.of()), false);

        // when
        final TopicJobOptions.Resolved topic = app.resolve(probe);
        final JobSpec spec = JobSpecs.requireValid(app.spec(topic));

        // then: T = (300 + 150) / 10 clocks
        assertThat(TopicSpec.parse(spec.getDataset()).ends()).containsExactly(300L, 200L);
        assertThat(spec.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.COSINE);
        assertThat(spec.getDecayClocks()).isEqualTo(45);
        assertThat(topic.report()).contains("end: at offsets [300, 200] (--until-end)");
    }

    @Test
    void shouldDecayOverMaxExamplesWhenTheScheduleIsCosine() {
        // given
        final SubmitJobApp app =
                parsed("--model", "softmax", "--max-examples", "1000", "--lr-schedule", "cosine", "--batch", "100");

        // when
        final JobSpec spec = spec(app, probe(seen(8, Map.of("0", 1, "1", 1), List.of())));

        // then
        assertThat(TopicSpec.parse(spec.getDataset()).maxExamples()).isEqualTo(1000);
        assertThat(TopicSpec.parse(spec.getDataset()).ends()).isEmpty();
        assertThat(spec.getDecayClocks()).isEqualTo(10);
    }

    @Test
    void shouldRefuseCosineWhenTheJobHasNoEnd() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax", "--lr-schedule", "cosine");
        final TopicJobOptions.Resolved topic = app.resolve(probe(seen(8, Map.of("0", 1, "1", 1), List.of())));

        // when / then
        assertThatThrownBy(() -> app.spec(topic))
                .isInstanceOf(SettingException.class)
                .hasMessageContaining("no end: give one of them, or --lr-schedule constant");
    }

    @Test
    void shouldAskForInputsAndClassesWhenTheTopicIsEmpty() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax");
        final TopicProbe.Result empty =
                new TopicProbe.Result("readings", List.of(0L, 0L), List.of(0L, 0L), TopicSample.Seen.NOTHING, false);

        // when / then
        assertThatThrownBy(() -> app.resolve(empty))
                .isInstanceOf(SettingException.class)
                .hasMessage("data topic readings is empty, so nothing can be learned from its records: give "
                        + "--inputs N and --classes N (whole-number labels 0..N-1), or --task regression");
    }

    @Test
    void shouldTakeTheGivenInputsAndClassesWhenTheTopicIsEmpty() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax", "--inputs", "6", "--classes", "5");
        final TopicProbe.Result empty =
                new TopicProbe.Result("readings", List.of(0L, 0L), List.of(0L, 0L), TopicSample.Seen.NOTHING, false);

        // when
        final JobSpec spec = spec(app, empty);

        // then
        assertThat(spec.getInputs()).isEqualTo(6);
        assertThat(spec.getOutputs()).isEqualTo(5);
    }

    @Test
    void shouldTakeOneOutputWhenTheTaskIsRegression() {
        // given
        final SubmitJobApp app = parsed("--task", "regression", "--window", "100", "--linger-ms", "5");

        // when
        final JobSpec spec = spec(app, probe(seen(3, Map.of("0.5", 1, "-2.25", 1), List.of())));

        // then
        assertThat(spec.getModel()).isEqualTo("linear");
        assertThat(spec.getOutputs()).isEqualTo(1);
        assertThat(spec.getDataset())
                .isEqualTo("topic:readings,features=x,label=y,task=regression,window=100,linger-ms=5");
    }

    @Test
    void shouldRefuseClassesWhenTheyContradictTextLabels() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax", "--classes", "4");

        // when / then
        assertThatThrownBy(() -> app.resolve(probe(seen(4, Map.of("cat", 1, "dog", 1), List.of()))))
                .isInstanceOf(SettingException.class)
                .hasMessageContaining("--classes is 4, but the labels are 2 names [cat, dog]");
    }

    @Test
    void shouldRefuseInputsWhenTheFirstRecordHasAnotherFeatureCount() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax", "--inputs", "5");

        // when / then
        assertThatThrownBy(() -> app.resolve(probe(seen(8, Map.of("0", 1, "1", 1), List.of()))))
                .isInstanceOf(SettingException.class)
                .hasMessageContaining("--inputs is 5, but the first record of data topic readings read has 8 features");
    }

    @Test
    void shouldSayWhyWhenNoneOfTheFirstRecordsIsAnExample() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax");
        final TopicSample.Seen unreadable =
                new TopicSample.Seen(5, 0, -1, Map.of(), List.of(), "partition 0, offset 0: UNKNOWN_SCHEMA: no x");

        // when / then
        assertThatThrownBy(() -> app.resolve(probe(unreadable)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("none of the first 5 records of data topic readings is an example")
                .hasMessageEndingWith("the first: partition 0, offset 0: UNKNOWN_SCHEMA: no x");
    }

    @Test
    void shouldRefuseWhenTheTopicIsMissingOrHasFewerPartitionsThanWorkers() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax", "--workers", "3");

        // when / then
        assertThatThrownBy(() -> app.resolve(TopicProbe.Result.missing("readings")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("data topic readings does not exist");
        assertThatThrownBy(() -> app.resolve(probe(seen(8, Map.of("0", 1, "1", 1), List.of()))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has 2 partitions; each of the job's 3 workers needs one");
    }

    @Test
    void shouldWarnWhenSomeLabelsAreOutsideTheGivenClasses() {
        // given
        final SubmitJobApp app = parsed("--model", "softmax", "--classes", "2");

        // when
        final TopicJobOptions.Resolved topic = app.resolve(probe(seen(8, Map.of("0", 6, "1", 3, "7", 1), List.of())));

        // then
        assertThat(topic.outputs()).isEqualTo(2);
        assertThat(topic.report()).last().asString().startsWith("warning: 1 of the 10 examples read have labels");
    }

    @Test
    void shouldSayTheProbeStoppedEarlyWhenItsTimeRanOut() {
        // given: a probe that read 40 of the records before the end offsets in its time
        final SubmitJobApp app = parsed("--model", "softmax");
        final TopicProbe.Result slow = new TopicProbe.Result(
                "readings", List.of(0L, 0L), ENDS, seen(8, Map.of("0", 20, "1", 20), List.of()), true);

        // when
        final TopicJobOptions.Resolved topic = app.resolve(slow);

        // then
        assertThat(topic.report().get(0))
                .isEqualTo(
                        "data topic readings: 2 partitions, end offsets [300, 200]; read 40 records, 40 of them "
                                + "examples; the probe stopped after 10 s, before the end offsets, and learned only from those");
    }

    @Test
    void shouldRefuseTheLinearModelWhenTheLabelsMakeClasses() {
        // given
        final SubmitJobApp app = parsed("--model", "linear");
        final TopicJobOptions.Resolved topic = app.resolve(probe(seen(8, Map.of("0", 1, "2", 1), List.of())));

        // when / then
        assertThatThrownBy(() -> app.spec(topic))
                .isInstanceOf(SettingException.class)
                .hasMessageContaining("give --model softmax or mlp, or --task regression");
    }

    @Test
    void shouldRefuseADatasetWhenADataTopicIsGiven() {
        // when
        final Run run = run("--dataset", "linear", "--data-topic", "readings", "--features", "x");

        // then: refused before Kafka is asked anything
        assertThat(run.code()).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(run.err()).contains("--data-topic and --dataset exclude each other");
    }

    @Test
    void shouldRefuseATopicOptionWhenNoDataTopicIsGiven() {
        // when
        final Run run = run("--features", "x", "--until-end");

        // then
        assertThat(run.code()).isEqualTo(AppCommandLine.BAD_SETTING);
        assertThat(run.err()).contains("--features applies to a job from a topic: give --data-topic too");
    }

    private record Run(int code, String err) {}

    private static Run run(final String... options) {
        final StringWriter err = new StringWriter();
        final String[] args = Stream.concat(Stream.of("--job", "j", "--workers", "2"), Stream.of(options))
                .toArray(String[]::new);
        final int code = AppCommandLine.execute(
                new SubmitJobApp(), Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true), args);
        return new Run(code, err.toString());
    }

    private static JobSpec spec(final SubmitJobApp app, final TopicProbe.Result probe) {
        return JobSpecs.requireValid(app.spec(app.resolve(probe)));
    }

    private static TopicProbe.Result probe(final TopicSample.Seen seen) {
        return new TopicProbe.Result("readings", List.of(0L, 0L), ENDS, seen, false);
    }

    private static TopicSample.Seen seen(
            final int inputs, final Map<String, Integer> labels, final List<String> symbols) {
        final int examples =
                labels.values().stream().mapToInt(Integer::intValue).sum();
        return new TopicSample.Seen(examples, examples, inputs, labels, symbols, "");
    }

    private static SubmitJobApp parsed(final String... options) {
        final SubmitJobApp app = new SubmitJobApp();
        final String[] args = Stream.concat(
                        Stream.of(
                                "--job",
                                "j",
                                "--workers",
                                "2",
                                "--data-topic",
                                "readings",
                                "--features",
                                "x",
                                "--label",
                                "y"),
                        Stream.of(options))
                .toArray(String[]::new);
        // a later --workers wins over the one every test gives
        new CommandLine(app).setOverwrittenOptionsAllowed(true).parseArgs(args);
        return app;
    }
}
