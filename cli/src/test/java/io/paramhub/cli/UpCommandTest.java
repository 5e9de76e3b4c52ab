package io.paramhub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What {@code paramhub up} refuses before it starts anything. */
class UpCommandTest {

    /** The exit code and standard error of {@code paramhub ARGS}. */
    private static String[] run(final String... args) {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            final int code = ParamHubCli.execute(args);
            return new String[] {Integer.toString(code), err.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setErr(original);
        }
    }

    @Test
    void shouldRefuseSecureWhenThreeBrokers() {
        // when
        final String[] outcome = run("up", "--brokers", "3", "--secure");

        // then
        assertThat(outcome[0]).isEqualTo("2");
        assertThat(outcome[1]).contains("--secure takes one broker");
    }

    @Test
    void shouldRefuseSecureWhenDataTopicsCoverParamHubsTopics() {
        // when: workers would read every ParamHub topic
        final String[] outcome = run("up", "--secure", "--data-topics", "data.,paramhub.", "--port", "1");

        // then
        assertThat(outcome[0]).isEqualTo("2");
        assertThat(outcome[1]).contains("--data-topics: data topic prefix 'paramhub.' covers ParamHub's topics");
    }

    @Test
    void shouldRefuseABrokerCountOtherThanOneOrThree() {
        // when
        final String[] outcome = run("up", "--brokers", "2");

        // then
        assertThat(outcome[0]).isEqualTo("2");
        assertThat(outcome[1]).contains("--brokers must be 1 or 3, not 2");
    }

    @Test
    void shouldRefuseAHeapJavaWouldNotTakeWhenThreeBrokers() {
        // when
        final String[] outcome = run("up", "--brokers", "3", "--broker-heap", "lots");

        // then
        assertThat(outcome[0]).isEqualTo("2");
        assertThat(outcome[1]).contains("--broker-heap must be a size such as 512m or 1g, not lots");
    }
}
