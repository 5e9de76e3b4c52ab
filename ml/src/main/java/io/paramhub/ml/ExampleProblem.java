package io.paramhub.ml;

/** Why one Avro record cannot be a training example ({@link ExampleFields}, {@link ExampleLabels}). */
public enum ExampleProblem {
    /** Its schema lacks a field the job names, or the field's type cannot hold features or a label. */
    SCHEMA,
    /** A field it needs is null or of a shape it cannot be read as. */
    MALFORMED,
    /** Its features are not as many as the model's inputs. */
    WRONG_LENGTH,
    /** A feature is NaN or infinite. */
    NON_FINITE,
    /** Its label is not one of the job's classes. */
    UNKNOWN_LABEL
}
