package io.paramhub.embedded.secure;

import java.util.Locale;

/**
 * The principals of a secured ParamHub cluster, each with its own SCRAM user and least-privilege ACLs
 * ({@link AppAcls#of}): the two Streams apps, the workers, those who submit jobs and those who only watch.
 */
public enum Role {
    /** The aggregator app: the only writer of {@code model}. */
    AGGREGATOR("the aggregator app; the only writer of model"),
    /** The orchestrator app: the only writer of {@code commands} and {@code placements}. */
    ORCHESTRATOR("the orchestrator app (and its dashboard); the only writer of commands and placements"),
    /** A worker: writes gradients, telemetry, membership, activations and its dead letters; reads users' data. */
    WORKER("workers; write gradients, telemetry, membership, activations; read jobs, model, data topics"),
    /** Whoever submits and deletes jobs: the only writer of {@code jobs}; reads what a job's status needs. */
    SUBMITTER("submitting, deleting and following jobs; the only writer of jobs"),
    /** Whoever only watches: reads jobs, models, telemetry and what a job's status needs; writes nothing. */
    READER("reading jobs, models, telemetry and job status; writes nothing");

    private final String description;

    Role(final String description) {
        this.description = description;
    }

    /** The role's user name, and its settings file's name without {@code .properties}: {@code aggregator}, ... */
    public String user() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Who the role is for and what it may write, in a line. */
    public String description() {
        return description;
    }
}
