package io.paramhub.topology.jobs;

import io.paramhub.ml.Dataset;

/**
 * What a job's recipe needs to know of its data: the data spec the job carries, the model's inputs and outputs
 * it implies, and how many examples a pass holds ({@code examples}; for a job from a topic, the examples it will
 * train on in all, or -1 when it trains until deleted).
 */
public record JobData(String dataset, int inputs, int outputs, long examples, boolean topic) {

    /** A data set's training split, under the data spec {@code dataset}. */
    public static JobData ofFile(final String dataset, final Dataset train) {
        return new JobData(
                dataset, train.features(), train.isClassification() ? train.classes() : 1, train.size(), false);
    }

    /** A data topic, under the data spec {@code dataset}: {@code bound} examples in all, or -1 for no end. */
    public static JobData ofTopic(final String dataset, final int inputs, final int outputs, final long bound) {
        return new JobData(dataset, inputs, outputs, bound, true);
    }

    /**
     * The clocks of the whole job: {@code epochs} x floor(examples / {@code batch}) (at least 1 a pass), one pass for
     * a topic; -1 for a topic without an end.
     */
    public long clocks(final int epochs, final int batch) {
        if (topic) {
            return examples < 0 ? -1 : Math.max(1, examples / Math.max(1, batch));
        }
        return (long) epochs * Math.max(1, examples / Math.max(1, batch));
    }
}
