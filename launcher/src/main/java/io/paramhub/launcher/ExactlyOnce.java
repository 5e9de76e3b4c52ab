package io.paramhub.launcher;

import java.util.Locale;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps ParamHub's Streams apps exactly-once: a {@code processing.guarantee} other than {@code exactly_once_v2} is
 * refused, naming the setting and the way out, unless {@value #ACCEPT_CONFIG}{@code =true} is among the app's Kafka
 * settings (then it is only logged).
 */
public final class ExactlyOnce {

    /** The Kafka setting that lets an app run with a weaker guarantee. */
    public static final String ACCEPT_CONFIG = "paramhub.accept.at.least.once";

    private static final Logger log = LoggerFactory.getLogger(ExactlyOnce.class);

    private ExactlyOnce() {}

    /**
     * Fails with a {@link SettingException} naming {@code processing.guarantee} when {@code props} ask for anything
     * but {@code exactly_once_v2} and do not accept it, or when {@value #ACCEPT_CONFIG} is not true or false.
     */
    public static void require(final Properties props) {
        final String guarantee = String.valueOf(
                        props.getOrDefault(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE))
                .trim();
        final boolean accepted = accepted(props);
        if (StreamsConfig.EXACTLY_ONCE_V2.equals(guarantee)) {
            return;
        }
        final String why = StreamsConfig.PROCESSING_GUARANTEE_CONFIG + " is " + guarantee + ", and ParamHub needs "
                + StreamsConfig.EXACTLY_ONCE_V2 + ": otherwise an app that fails can apply a gradient twice or lose a "
                + "model version, and the model is no longer the one computed without faults";
        if (accepted) {
            log.warn("accepted ({}=true): {}", ACCEPT_CONFIG, why);
            return;
        }
        throw new SettingException(
                StreamsConfig.PROCESSING_GUARANTEE_CONFIG,
                why + ". Remove the setting (ParamHub's default is " + StreamsConfig.EXACTLY_ONCE_V2 + "), or set "
                        + ACCEPT_CONFIG + "=true (-D, the --config file or " + Settings.kafkaEnv(ACCEPT_CONFIG)
                        + ") to run anyway");
    }

    private static boolean accepted(final Properties props) {
        final Object value = props.get(ACCEPT_CONFIG);
        if (value == null) {
            return false;
        }
        final String text = value.toString().trim().toLowerCase(Locale.ROOT);
        if (!"true".equals(text) && !"false".equals(text)) {
            throw new SettingException(ACCEPT_CONFIG, ACCEPT_CONFIG + " must be true or false, not '" + value + "'");
        }
        return "true".equals(text);
    }
}
