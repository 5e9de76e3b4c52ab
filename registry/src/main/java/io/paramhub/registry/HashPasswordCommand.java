package io.paramhub.registry;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hash-password}: reads a password and prints it as the registry's users file keeps it, a salted PBKDF2
 * hash ({@link PasswordHash}), so that no plain password need be written to the file. A subcommand of the
 * stand-alone registry ({@code paramhub-registry hash-password}) and of {@code paramhub registry}.
 */
@Command(
        name = "hash-password",
        mixinStandardHelpOptions = true,
        description = {
            "Reads a password and prints its salted hash (PBKDF2 with HMAC-SHA256) for the registry's users file, "
                    + "whose lines are NAME: PBKDF2-SHA256:ITERATIONS:SALT:HASH[,role...].",
            "From a terminal it asks twice without echo; otherwise it reads the first line of standard input, e.g. "
                    + "printf '%s\\n' \"$PASSWORD\" | paramhub-registry hash-password alice >> users.properties"
        })
public final class HashPasswordCommand implements Callable<Integer> {

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "NAME",
            description = "A user name: print the whole line, NAME: HASH. Default: the hash alone.")
    private String name;

    @Option(
            names = "--iterations",
            paramLabel = "N",
            description = "PBKDF2 iterations, at least " + PasswordHash.MIN_ITERATIONS + " (default: "
                    + PasswordHash.DEFAULT_ITERATIONS + ").")
    private int iterations = PasswordHash.DEFAULT_ITERATIONS;

    @Spec
    private CommandSpec spec;

    private final InputStream in;
    private final Console console;

    /** Reads from the terminal when there is one, else from standard input. */
    public HashPasswordCommand() {
        this(System.in, System.console());
    }

    HashPasswordCommand(final InputStream in, final Console console) {
        this.in = in;
        this.console = console;
    }

    @Override
    public Integer call() {
        if (name != null && (name.isBlank() || name.contains(":"))) {
            throw new IllegalArgumentException("a user name is not blank and has no ':'");
        }
        final char[] password = console != null ? fromConsole() : fromInput();
        try {
            if (password.length == 0) {
                throw new IllegalArgumentException("the password is empty");
            }
            final String hash = PasswordHash.of(password, iterations).encoded();
            spec.commandLine().getOut().println(name == null ? hash : name + ": " + hash);
            spec.commandLine().getOut().flush();
            return 0;
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    private char[] fromConsole() {
        final char[] first = console.readPassword("Password: ");
        final char[] second = console.readPassword("Again: ");
        if (first == null || second == null) {
            throw new IllegalArgumentException("no password given");
        }
        final boolean same = Arrays.equals(first, second);
        Arrays.fill(second, '\0');
        if (!same) {
            Arrays.fill(first, '\0');
            throw new IllegalArgumentException("the two passwords differ");
        }
        return first;
    }

    private char[] fromInput() {
        try {
            final String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
            if (line == null) {
                throw new IllegalArgumentException("no password on standard input");
            }
            return line.toCharArray();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read standard input", e);
        }
    }
}
