package io.paramhub.schemas.registry;

/**
 * A schema-registry call that failed: the registry's answer (HTTP status and Confluent
 * {@code error_code}) or, when it could not be reached, {@link #NO_RESPONSE} for both.
 */
public class SchemaRegistryException extends RuntimeException {

    /** Status and error code of a call that got no HTTP answer. */
    public static final int NO_RESPONSE = -1;

    /** Confluent error code: subject not found. */
    public static final int SUBJECT_NOT_FOUND = 40401;
    /** Confluent error code: version not found. */
    public static final int VERSION_NOT_FOUND = 40402;
    /** Confluent error code: schema not found. */
    public static final int SCHEMA_NOT_FOUND = 40403;
    /** Confluent error code (and HTTP status): schema incompatible with an earlier version. */
    public static final int INCOMPATIBLE_SCHEMA = 409;
    /** Confluent error code: invalid schema. */
    public static final int INVALID_SCHEMA = 42201;

    private final int httpStatus;
    private final int errorCode;

    public SchemaRegistryException(final String message, final int httpStatus, final int errorCode) {
        super(message);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    public SchemaRegistryException(
            final String message, final int httpStatus, final int errorCode, final Throwable cause) {
        super(message, cause);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    /** HTTP status of the registry's answer, or {@link #NO_RESPONSE}. */
    public int httpStatus() {
        return httpStatus;
    }

    /** Confluent {@code error_code} of the answer (e.g. 40401), or {@link #NO_RESPONSE}. */
    public int errorCode() {
        return errorCode;
    }

    /**
     * Whether the registry could not answer (unreachable, or a server error, HTTP 5xx): a call worth making again
     * later, unlike a refusal (4xx) of what was asked.
     */
    public boolean unavailable() {
        return httpStatus == NO_RESPONSE || httpStatus >= 500;
    }

    /** The first registry failure among {@code error} and its causes that is {@link #unavailable}, else null. */
    public static SchemaRegistryException unavailableIn(final Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SchemaRegistryException registryError && registryError.unavailable()) {
                return registryError;
            }
        }
        return null;
    }
}
