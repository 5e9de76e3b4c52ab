package io.paramhub.ml;

import java.util.Set;

/**
 * How a user's own {@link Model} becomes known to {@link Models#create}, and so to workers, the
 * aggregator and {@code paramhub demo --model}: implement this, list the class in
 * {@code META-INF/services/io.paramhub.ml.ModelProvider} of your jar, and put the jar on the
 * classpath of every process of the job. Built-in kinds cannot be overridden.
 */
public interface ModelProvider {

    /** The kinds this provider creates, without any {@code :suffix}, in lower case. */
    Set<String> kinds();

    /**
     * A model of one of {@link #kinds()}.
     *
     * @param kind the full kind as the job spec carries it, lower-cased, suffix included
     * @throws IllegalArgumentException for a shape the kind cannot have
     */
    Model create(String kind, int inputs, int outputs);
}
