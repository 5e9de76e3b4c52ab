package io.paramhub.topology;

/**
 * One setting of an existing ParamHub topic that is not what ParamHub would create: the topic, the setting, what
 * it is, what it should be, why it matters, the command that fixes it, and whether it stops an app from starting
 * ({@code fatal}) or is only logged ({@link TopicExpectation} says which is which).
 */
public record TopicDrift(
        String topic, String setting, String actual, String expected, String why, String fix, boolean fatal) {

    /** One line for the log or the refusal: topic, setting, value, expected value, why, fix. */
    public String message() {
        return "topic " + topic + ": " + setting + " is " + actual + ", should be " + expected + " (" + why + "); fix: "
                + fix;
    }
}
