package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.launcher.JobFile;
import io.paramhub.launcher.SettingException;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.TrainTest;
import io.paramhub.topology.jobs.JobRecipe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SubmitJobAppTest {

    private static final String DATASET = "linear:n=1000,d=4";
    private static final TrainTest DATA = DataSources.load(DATASET);

    @Test
    void shouldDecayOverTheJobsClocksWhenTheScheduleIsCosine() {
        // given
        final SubmitJobApp app = parsed("--epochs", "3", "--batch", "100", "--lr-schedule", "cosine");

        // when
        final JobSpec spec = app.spec(DATASET, DATA);

        // then: T = epochs x floor(n / B)
        assertThat(spec.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.COSINE);
        assertThat(spec.getDecayClocks()).isEqualTo(3L * (DATA.train().size() / 100));
        assertThat(spec.getDecayClocks()).isPositive();
    }

    @Test
    void shouldKeepTheRateConstantWhenNoScheduleIsGivenForALinearModel() {
        // given
        final SubmitJobApp app = parsed("--epochs", "3");

        // when
        final JobSpec spec = app.spec(DATASET, DATA);

        // then
        assertThat(spec.getLearningRateSchedule()).isEqualTo(LearningRateScheduleKind.CONSTANT);
        assertThat(spec.getDecayClocks()).isZero();
    }

    @Test
    void shouldNameTheOptionWhenTheScheduleIsUnknown() {
        // given
        final SubmitJobApp app = parsed("--lr-schedule", "step");

        // when / then
        assertThatThrownBy(() -> app.spec(DATASET, DATA))
                .isInstanceOf(SettingException.class)
                .hasMessageContaining("--lr-schedule must be constant or cosine, not step");
    }

    @Test
    void shouldTakeTheJobFilesKeysAndLetTheOptionsGivenBesideItOverrideThem(@TempDir final Path dir)
            throws IOException {
        // given: a file with a cosine schedule over 5 epochs, and --epochs 2 on the command line
        final Path file = Files.writeString(
                dir.resolve("job.yaml"),
                "job: from-file\nworkers: 3\ndataset: " + DATASET + "\nepochs: 5\nbatch: 100\n"
                        + "optimizer: adam\nlr-schedule: cosine\nlr: 0.003\n");
        final SubmitJobApp app = new SubmitJobApp();
        final CommandLine line = new CommandLine(app);
        line.parseArgs(file.toString(), "--epochs", "2", "--job", "given");

        // when
        app.applyJobFile();
        final JobSpec spec = app.spec(DATASET, DATA);

        // then: the file's settings, the options' overrides, and the schedule's length from the overridden epochs
        assertThat(spec.getJob()).isEqualTo("given");
        assertThat(spec.getExpectedWorkers()).isEqualTo(3);
        assertThat(spec.getOptimizer()).isEqualTo(OptimizerKind.ADAM);
        assertThat(spec.getLearningRate()).isEqualTo(0.003);
        assertThat(spec.getEpochs()).isEqualTo(2);
        assertThat(spec.getDecayClocks()).isEqualTo(2L * (DATA.train().size() / 100));
    }

    @Test
    void shouldReadEveryExampleJobFileAsOptionsOfTheCommand() throws IOException {
        // given
        final List<Path> files;
        try (Stream<Path> listed = Files.list(Path.of("..", "examples", "jobs"))) {
            files = listed.filter(path -> path.toString().endsWith(".yaml"))
                    .sorted()
                    .toList();
        }

        // when / then: every key is an option, every value parses
        assertThat(files).hasSizeGreaterThanOrEqualTo(8);
        for (final Path file : files) {
            final CommandLine line = new CommandLine(new SubmitJobApp());
            line.parseArgs(JobFile.arguments(file, line.getCommandSpec()).toArray(String[]::new));
            assertThat(line.getParseResult().matchedOptionValue("--job", (String) null))
                    .as(file.toString())
                    .isNotBlank();
        }
    }

    @Test
    void shouldBuildTheLinearExampleThroughTheRecipe() {
        // given
        final SubmitJobApp app = new SubmitJobApp();
        final CommandLine line = new CommandLine(app);
        line.parseArgs(Path.of("..", "examples", "jobs", "linear.yaml").toString());
        app.applyJobFile();

        // when
        final String dataset = "linear:n=20000,d=32,noise=0.1,seed=7";
        final JobSpec spec = app.spec(dataset, DataSources.load(dataset));

        // then
        assertThat(spec.getModel()).isEqualTo("linear");
        assertThat(spec.getSyncMode()).isEqualTo(SyncMode.ASP);
        assertThat(spec.getMomentum()).isEqualTo(JobRecipe.ASYNC_MOMENTUM);
        assertThat(spec.getExpectedWorkers()).isEqualTo(2);
    }

    private static SubmitJobApp parsed(final String... options) {
        final SubmitJobApp app = new SubmitJobApp();
        final String[] common = {"--job", "j", "--workers", "2", "--dataset", DATASET};
        final String[] args = new String[common.length + options.length];
        System.arraycopy(common, 0, args, 0, common.length);
        System.arraycopy(options, 0, args, common.length, options.length);
        new CommandLine(app).parseArgs(args);
        return app;
    }
}
