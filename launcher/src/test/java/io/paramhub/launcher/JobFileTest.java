package io.paramhub.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

class JobFileTest {

    @Command(name = "submit", mixinStandardHelpOptions = true)
    static final class Submit {
        @Option(names = "--job")
        String job;

        @Option(names = "--lr")
        Double lr;

        @Option(names = "--features")
        String features;

        @Option(names = "--until-end")
        boolean untilEnd;

        @Option(names = "--keep-going")
        boolean keepGoing;
    }

    private static final CommandSpec SUBMIT = new CommandLine(new Submit()).getCommandSpec();

    @Test
    void shouldTurnEveryKeyIntoItsOption(@TempDir final Path dir) throws IOException {
        // given
        final Path file = write(
                dir.resolve("job.yaml"),
                "job: mlp\nlr: 0.002\nfeatures: [pixels, extra]\nuntil-end: true\nkeep-going: false\n");

        // when
        final List<String> arguments = JobFile.arguments(file, SUBMIT);

        // then: a list joined with commas, a true flag given, a false one left out
        assertThat(arguments)
                .containsExactly("--job", "mlp", "--lr", "0.002", "--features", "pixels,extra", "--until-end");
    }

    @Test
    void shouldReadJson(@TempDir final Path dir) throws IOException {
        // given
        final Path file = write(dir.resolve("job.json"), "{\"job\": \"mlp\", \"lr\": 0.5}");

        // when / then
        assertThat(JobFile.arguments(file, SUBMIT)).containsExactly("--job", "mlp", "--lr", "0.5");
    }

    @Test
    void shouldNameTheFileTheKeyAndTheKnownKeysWhenAKeyIsUnknown(@TempDir final Path dir) throws IOException {
        // given
        final Path file = write(dir.resolve("job.yaml"), "job: mlp\nlearning-rate: 0.1\n");

        // when / then
        assertThatThrownBy(() -> JobFile.arguments(file, SUBMIT))
                .isInstanceOf(SettingException.class)
                .hasMessage(file + ": unknown key 'learning-rate'; the keys are the options of submit without their "
                        + "dashes: features, job, keep-going, lr, until-end");
    }

    @Test
    void shouldRefuseWhatIsNotOneMappingOfSettings(@TempDir final Path dir) throws IOException {
        // given
        final Path list = write(dir.resolve("list.yaml"), "- job: mlp\n");
        final Path nested = write(dir.resolve("nested.yaml"), "job:\n  name: mlp\n");
        final Path flag = write(dir.resolve("flag.yaml"), "until-end: yes please\n");
        final Path broken = write(dir.resolve("broken.yaml"), "job: [mlp\n");

        // when / then
        assertThatThrownBy(() -> JobFile.arguments(list, SUBMIT)).hasMessageContaining("one mapping of settings");
        assertThatThrownBy(() -> JobFile.arguments(nested, SUBMIT))
                .hasMessageContaining("'job' takes a number, a word or a list of them");
        assertThatThrownBy(() -> JobFile.arguments(flag, SUBMIT)).hasMessageContaining("'until-end' is true or false");
        assertThatThrownBy(() -> JobFile.arguments(broken, SUBMIT)).hasMessageContaining("is not YAML or JSON");
        assertThatThrownBy(() -> JobFile.arguments(dir.resolve("missing.yaml"), SUBMIT))
                .hasMessageContaining("missing.yaml does not exist");
    }

    private static Path write(final Path file, final String text) throws IOException {
        return Files.writeString(file, text);
    }
}
