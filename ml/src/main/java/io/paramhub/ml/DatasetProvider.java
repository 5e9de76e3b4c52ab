package io.paramhub.ml;

import java.util.List;
import java.util.Set;

/**
 * How a kind of data set becomes known to {@link DataSources}, and so to every worker, the aggregator's checks of a
 * job, the evaluator, the dashboard and {@code paramhub demo --dataset}: implement this, list the class in
 * {@code META-INF/services/io.paramhub.ml.DatasetProvider} of your jar, and put the jar on the classpath of every
 * process of the job. Built-in kinds ({@code fashion-mnist}, {@code linear}, {@code csv}, {@code idx},
 * {@code avro}, {@code topic}) cannot be overridden.
 *
 * <p>A provider reads a {@link DataSpec}: its positional arguments and the values of {@link #pathKeys()} are the
 * files it reads, which a deployed app accepts only under its data roots. Every process that loads the same
 * spec must get the same data, bit for bit: each worker computes its share of a clock's batch from the data
 * set's size and the job's seed.
 */
public interface DatasetProvider {

    /** The kinds this provider reads, the part of a spec before the colon, in lower case. */
    Set<String> kinds();

    /** The forms it accepts, for messages: {@code csv:<path>[,label=<name|index>]...}. */
    List<String> forms();

    /** Whether the spec names files at all; a topic's positional argument is a topic, not a file. */
    default boolean readsFiles() {
        return true;
    }

    /** The option keys whose values are file paths; the positional arguments are file paths too. */
    default Set<String> pathKeys() {
        return Set.of();
    }

    /**
     * Checks {@code spec}'s form without reading any file: known keys, well-formed values, bounds.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    void check(DataSpec spec);

    /**
     * The training and test sets {@code spec} names.
     *
     * @throws IllegalArgumentException for a spec {@link #check} refuses
     * @throws DataFileException for a file that cannot be read or holds data that cannot be trained on, naming
     *     the file and the place in it
     * @throws DatasetUnavailableException for a data set that is not installed on this machine
     */
    TrainTest load(DataSpec spec);
}
