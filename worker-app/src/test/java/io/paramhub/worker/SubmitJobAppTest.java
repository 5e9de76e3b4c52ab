package io.paramhub.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.launcher.SettingException;
import io.paramhub.ml.DataSources;
import io.paramhub.ml.TrainTest;
import org.junit.jupiter.api.Test;
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
    void shouldKeepTheRateConstantWhenNoScheduleIsGiven() {
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
