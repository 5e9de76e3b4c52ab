package io.paramhub.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/** The settings an app's command line gives: a properties file (optional), then {@code -D key=value} overrides. */
public final class ConfigFiles {

    private ConfigFiles() {
    }

    public static Properties load(final Path configFile, final Map<String, String> overrides) throws IOException {
        final Properties props = new Properties();
        if (configFile != null) {
            try (InputStream in = Files.newInputStream(configFile)) {
                props.load(in);
            }
        }
        props.putAll(overrides);
        return props;
    }
}
