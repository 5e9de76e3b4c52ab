package io.paramhub.cli.chaos;

/** The outcome of one invariant: its name, whether it held, and what was found. */
record Verdict(String invariant, boolean passed, String detail) {

    static Verdict pass(final String invariant, final String detail) {
        return new Verdict(invariant, true, detail);
    }

    static Verdict fail(final String invariant, final String detail) {
        return new Verdict(invariant, false, detail);
    }
}
