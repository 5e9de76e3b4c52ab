package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the Python worker library's unit tests ({@code clients/python/tests}, stdlib unittest) with Debian's
 * Python: the permutation, shares and layout against Java's values, murmur2, the wire format, bfloat16, the
 * PyTorch adapter. Prints their output; fails if any fails.
 */
class PythonClientTest {

    @Test
    void shouldPassEveryTestOfThePythonWorkerLibrary(@TempDir final Path dir) throws Exception {
        // given
        final Path output = dir.resolve("unittest.out");

        // when
        final PythonProcesses.Finished run = PythonProcesses.run(
                output,
                120,
                "-m",
                "unittest",
                "discover",
                "-v",
                "-s",
                PythonProcesses.CLIENT.resolve("tests").toString(),
                "-t",
                PythonProcesses.CLIENT.resolve("tests").toString());

        // then
        System.out.println(run.output());
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("\nOK").doesNotContain("skipped");
        assertThat(Files.size(output)).isPositive();
    }
}
