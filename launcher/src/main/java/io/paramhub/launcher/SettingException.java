package io.paramhub.launcher;

/** A setting that is missing or malformed; its message names the setting and is meant for the user as it is. */
public final class SettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;

    public SettingException(final String setting, final String message) {
        super(message);
        this.setting = setting;
    }

    /** The setting's name: a Kafka setting or one of ParamHub's options. */
    public String setting() {
        return setting;
    }

    /** Fails naming {@code --option} and its variable when a required option of ParamHub's own has no value. */
    public static <T> T requireOption(final T value, final String option) {
        if (value == null || value.toString().isBlank()) {
            throw new SettingException(
                    option,
                    "missing setting " + option + ": give " + option + ", " + Settings.optionEnv(option) + " or "
                            + Settings.optionKey(option) + " in the --config file");
        }
        return value;
    }
}
