package io.paramhub.launcher;

import io.paramhub.ml.PluginJars;
import io.paramhub.ml.Plugins;
import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/**
 * The {@code --plugins} option of every ParamHub app (a picocli mixin; {@code PARAMHUB_PLUGINS} in the
 * environment, {@code paramhub.plugins} in the {@code --config} file): directories of jars holding a user's
 * {@code ModelProvider}s and {@code DatasetProvider}s. {@link #install} loads them into {@link Plugins} before the
 * app builds any model or loads any data, and logs which kinds each jar brought; the {@code paramhub} command
 * calls {@link #install(String, String)} with its own global option.
 */
public final class PluginOptions {

    /** The option's name, as every app and the {@code paramhub} command spell it. */
    public static final String OPTION = "--plugins";

    /** What the option is, for every help text that shows it. */
    public static final String DESCRIPTION = "Directories of plugin jars (several separated by the path separator, "
            + "':' on Linux and macOS): every *.jar in them is loaded, and the model and data set kinds its "
            + "META-INF/services ModelProvider and DatasetProvider bring become known (docs/models.md, \"Deploying "
            + "your own model without rebuilding an image\"). Env PARAMHUB_PLUGINS.";

    private static final Logger log = LoggerFactory.getLogger(PluginOptions.class);

    @Option(names = OPTION, paramLabel = "DIR[:DIR...]", description = DESCRIPTION)
    private String plugins;

    /** Loads the jars of {@code --plugins}, if given; fails naming the option when one cannot be loaded. */
    public List<PluginJars.Jar> install() {
        return install(plugins, OPTION + " or " + Settings.optionEnv(OPTION));
    }

    /**
     * Loads the jars of {@code dirs} (directories separated by the path separator; null or blank: none, and
     * nothing is installed) into {@link Plugins} and logs what each brought.
     *
     * @param source where {@code dirs} came from, for the message of a failure
     * @throws SettingException for a directory that is missing, a jar that cannot be read or a provider that
     *     cannot be loaded
     */
    public static List<PluginJars.Jar> install(final String dirs, final String source) {
        if (dirs == null || dirs.isBlank()) {
            return List.of();
        }
        final List<Path> paths = dirs(dirs, source);
        final PluginJars jars;
        try {
            jars = PluginJars.open(paths);
        } catch (final IllegalArgumentException e) {
            throw new SettingException(OPTION, source + ": " + e.getMessage());
        }
        Plugins.install(jars.classLoader());
        if (jars.jars().isEmpty()) {
            log.info("no plugin jars in {}", paths);
        }
        for (final PluginJars.Jar jar : jars.jars()) {
            log.info("{}", jar.describe());
        }
        return jars.jars();
    }

    /** The directories of {@code dirs}, split at the path separator, empty parts skipped. */
    static List<Path> dirs(final String dirs, final String source) {
        final List<Path> paths = new ArrayList<>();
        for (final String part : dirs.split(File.pathSeparator)) {
            if (part.isBlank()) {
                continue;
            }
            try {
                paths.add(Path.of(part.trim()));
            } catch (final InvalidPathException e) {
                throw new SettingException(OPTION, source + ": '" + part + "' is not a path");
            }
        }
        return paths;
    }
}
