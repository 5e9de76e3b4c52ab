package io.paramhub.launcher;

import java.util.Map;

/**
 * The log format switch of the apps and the {@code paramhub} command: {@code PARAMHUB_LOG_FORMAT} or the system
 * property {@code paramhub.log.format} (which wins), {@code text} or {@code json}. Their logback configurations
 * pick an appender by its value, so any other value would leave them with none: it is refused at start instead.
 */
public final class LogFormat {

    /** The environment variable. */
    public static final String ENV = "PARAMHUB_LOG_FORMAT";
    /** The system property, which wins over the variable. */
    public static final String PROPERTY = "paramhub.log.format";

    private LogFormat() {}

    /** What is wrong with the format {@code env} and the system properties choose; null when nothing is. */
    public static String problem(final Map<String, String> env) {
        final String chosen = System.getProperty(PROPERTY, env.get(ENV));
        if (chosen == null || chosen.equals("text") || chosen.equals("json")) {
            return null;
        }
        final String source = System.getProperty(PROPERTY) != null ? "-D" + PROPERTY : ENV;
        return source + " must be text or json, not '" + chosen + "'";
    }
}
