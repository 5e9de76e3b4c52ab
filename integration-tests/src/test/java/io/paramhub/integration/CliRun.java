package io.paramhub.integration;

import io.paramhub.cli.ParamHubCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What {@code paramhub ARGS} returned and printed on standard output and standard error, for the command-line tests. */
record CliRun(int code, String err, String out) {

    static CliRun of(final String... args) {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final PrintStream originalErr = System.err;
        final PrintStream originalOut = System.out;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            final int code = ParamHubCli.execute(args);
            return new CliRun(code, err.toString(StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(originalErr);
            System.setOut(originalOut);
        }
    }
}
