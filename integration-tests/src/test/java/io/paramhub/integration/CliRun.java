package io.paramhub.integration;

import io.paramhub.cli.ParamHubCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What {@code paramhub ARGS} returned and printed on standard error, for the command-line tests. */
record CliRun(int code, String err) {

    static CliRun of(final String... args) {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            final int code = ParamHubCli.execute(args);
            return new CliRun(code, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(original);
        }
    }
}
