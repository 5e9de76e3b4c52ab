package io.paramhub.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Runs the command line of a ParamHub app ({@code main} of each app is one call to {@link #run}): settings
 * layered as {@link Settings} says, and a missing or malformed setting reported as one line on stderr,
 * {@code <app>: <what is wrong, naming the setting>}, with exit code 2, not a stack trace. A start-up
 * failure whose message explains it (an {@link IllegalStateException} such as Kafka not answering) is one
 * line too, with exit code 1; anything else is logged with its stack trace, exit code 1.
 */
public final class AppCommandLine {

    /** Exit code of a missing or malformed setting (picocli's usage-error code). */
    public static final int BAD_SETTING = 2;
    /** Exit code of any other failure. */
    public static final int FAILED = 1;

    /** How settings are layered, as every app's {@code --help} ends. */
    public static final String[] HELP_FOOTER = {
        "",
        "Settings, lowest first: defaults; the --config properties file (Kafka client and Streams settings under "
                + "their own names, ParamHub's options as paramhub.<option words>, e.g. paramhub.http.port); the "
                + "environment (KAFKA_* for Kafka settings, e.g. KAFKA_BOOTSTRAP_SERVERS -> bootstrap.servers, "
                + "KAFKA_SCHEMA_REGISTRY_URL -> schema.registry.url; PARAMHUB_* for ParamHub's options, e.g. "
                + "PARAMHUB_HTTP_PORT -> --http-port); the command line (-D key=value, then the options).",
        "Exit codes: 0 done, 1 failed, 2 missing or malformed setting (one line on stderr), 143 (128 + SIGTERM) "
                + "stopped by SIGTERM after a clean shutdown."
    };

    private static final Logger log = LoggerFactory.getLogger(AppCommandLine.class);

    private AppCommandLine() {}

    /** Runs {@code app} with this process's environment; returns the exit code. */
    public static int run(final Object app, final String... args) {
        return execute(
                app, System.getenv(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /**
     * Runs {@code app} with the environment {@code env}, writing help to {@code out} and errors to {@code err};
     * returns the exit code.
     */
    public static int execute(
            final Object app,
            final Map<String, String> env,
            final PrintWriter out,
            final PrintWriter err,
            final String... args) {
        final CommandLine cli = new CommandLine(app);
        cli.getCommandSpec().usageMessage().footer(HELP_FOOTER);
        cli.setOut(out);
        cli.setErr(err);
        final String name = cli.getCommandName();
        final String logFormat = LogFormat.problem(env);
        if (logFormat != null) {
            err.println(name + ": " + logFormat);
            return BAD_SETTING;
        }
        final Path configFile = configFile(args, env);
        final Properties file;
        try {
            file = load(configFile);
        } catch (final SettingException e) {
            err.println(name + ": " + e.getMessage());
            return BAD_SETTING;
        }
        final SettingsProvider provider = new SettingsProvider(env, file, configFile);
        cli.setDefaultValueProvider(provider);
        cli.setParameterExceptionHandler((error, args1) -> {
            err.println(name + ": " + parameterMessage(error, provider) + " (see --help)");
            return BAD_SETTING;
        });
        cli.setExecutionExceptionHandler((error, line, parsed) -> {
            final String message = settingMessage(error);
            if (message != null) {
                log.debug("{} refused its settings", name, error);
                err.println(name + ": " + message);
                return BAD_SETTING;
            }
            if (error instanceof IllegalArgumentException || error instanceof IllegalStateException) {
                // start-up problems the message explains (Kafka unreachable, topics of the wrong shape)
                log.debug("{} failed", name, error);
                err.println(name + ": " + error.getMessage());
                return FAILED;
            }
            log.error("{} failed", name, error);
            err.println(name + ": " + error);
            return FAILED;
        });
        return cli.execute(args);
    }

    /** {@code --config FILE} or {@code --config=FILE} from the arguments, else {@code PARAMHUB_CONFIG}, else null. */
    static Path configFile(final String[] args, final Map<String, String> env) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config") && i + 1 < args.length) {
                return Path.of(args[i + 1]);
            }
            if (args[i].startsWith("--config=")) {
                return Path.of(args[i].substring("--config=".length()));
            }
        }
        final String fromEnv = env.get(Settings.optionEnv("--config"));
        return fromEnv == null || fromEnv.isBlank() ? null : Path.of(fromEnv);
    }

    /** The properties file, empty when none is given. */
    public static Properties load(final Path configFile) {
        final Properties props = new Properties();
        if (configFile == null) {
            return props;
        }
        try (InputStream in = Files.newInputStream(configFile)) {
            props.load(in);
        } catch (final NoSuchFileException e) {
            throw new SettingException("--config", "--config: no such file " + configFile);
        } catch (final IOException | IllegalArgumentException e) {
            throw new SettingException("--config", "--config: cannot read " + configFile + ": " + e.getMessage());
        }
        return props;
    }

    /** picocli's message, saying where a bad value came from when it was not the command line. */
    private static String parameterMessage(final ParameterException error, final SettingsProvider provider) {
        String message = error.getMessage();
        if (error.getArgSpec() instanceof OptionSpec option
                && option.originalStringValues().isEmpty()) {
            final String source = provider.source(option);
            if (source != null) {
                message = message + " (from " + source + ")";
            }
        }
        return message;
    }

    /**
     * The one line for a failure that a user fixes in the settings (a Kafka {@link ConfigException} or a
     * {@link SettingException} anywhere in the chain), else null.
     */
    static String settingMessage(final Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConfigException || cause instanceof SettingException) {
                return cause.getMessage();
            }
        }
        return null;
    }
}
