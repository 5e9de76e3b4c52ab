package io.paramhub.ml;

/** One Avro record that cannot be a training example: why ({@link ExampleProblem}), which field, and what is wrong. */
public final class ExampleException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final ExampleProblem problem;
    private final String field;

    /** The record's {@code field} (empty for the record as a whole) has {@code problem}, as {@code message} says. */
    public ExampleException(final ExampleProblem problem, final String field, final String message) {
        super(message);
        this.problem = problem;
        this.field = field;
    }

    /** Why the record is refused. */
    public ExampleProblem problem() {
        return problem;
    }

    /** The field at fault, empty for the record as a whole. */
    public String field() {
        return field;
    }
}
