package io.paramhub.launcher;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Gives picocli the values of ParamHub's own options that are not on the command line: {@code PARAMHUB_*}
 * from the environment, else {@code paramhub.*} from the properties file (see {@link Settings}); picocli
 * falls back to the option's own default. Options that stand for Kafka settings
 * ({@link KafkaOptions#SETTING_OPTIONS}) are skipped: their environment name is {@code KAFKA_*}.
 */
public final class SettingsProvider implements IDefaultValueProvider {

    private final Map<String, String> env;
    private final Properties file;
    private final Path fileName;

    public SettingsProvider(final Map<String, String> env, final Properties file, final Path fileName) {
        this.env = Map.copyOf(env);
        this.file = file;
        this.fileName = fileName;
    }

    /** No environment, no file: only the command line and the options' own defaults. */
    public static SettingsProvider none() {
        return new SettingsProvider(Map.of(), new Properties(), null);
    }

    @Override
    public String defaultValue(final ArgSpec argSpec) {
        if (!(argSpec instanceof OptionSpec option) || !takesSetting(option)) {
            return null;
        }
        return Settings.option(option.longestName(), env, file);
    }

    /** Where a value for {@code option} below the command line came from, or null when none did. */
    public String source(final OptionSpec option) {
        if (!takesSetting(option)) {
            return null;
        }
        final String envName = Settings.optionEnv(option.longestName());
        if (env.containsKey(envName)) {
            return "environment variable " + envName;
        }
        final String key = Settings.optionKey(option.longestName());
        return file.containsKey(key) ? key + " in " + fileName : null;
    }

    public Map<String, String> env() {
        return env;
    }

    public Properties file() {
        return file;
    }

    /** The option keys of {@code options} in the file, which are not Kafka settings. */
    public static Set<String> optionKeys(final Iterable<OptionSpec> options) {
        final Set<String> keys = new HashSet<>();
        for (final OptionSpec option : options) {
            if (takesSetting(option)) {
                keys.add(Settings.optionKey(option.longestName()));
            }
        }
        return keys;
    }

    /** Whether an option can be set from PARAMHUB_* or the file: ParamHub's own, valued, not -D, help or version. */
    public static boolean takesSetting(final OptionSpec option) {
        final String name = option.longestName();
        return name.startsWith("--")
                && !option.usageHelp()
                && !option.versionHelp()
                && !KafkaOptions.SETTING_OPTIONS.containsKey(name);
    }
}
