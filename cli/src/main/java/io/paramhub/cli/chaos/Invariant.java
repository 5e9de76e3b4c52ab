package io.paramhub.cli.chaos;

/** One property a chaos run must keep, checked after healing on what the run left in its topics and processes. */
interface Invariant {

    /** The name the summary lists it under, e.g. {@code bsp-model-bit-identical}. */
    String name();

    /** Checks the run; an invariant that cannot read what it needs fails, it does not throw. */
    Verdict check(ChaosRecord run);
}
