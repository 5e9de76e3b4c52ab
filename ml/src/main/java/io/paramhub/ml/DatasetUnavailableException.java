package io.paramhub.ml;

/** Thrown when a data set's files are not on this machine; the message says how to get them. */
public final class DatasetUnavailableException extends RuntimeException {

    /** An exception with a message naming the missing file and how to install it. */
    public DatasetUnavailableException(final String message) {
        super(message);
    }
}
