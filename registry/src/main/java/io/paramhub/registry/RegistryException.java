package io.paramhub.registry;

import java.util.List;

/** A request the registry refuses, with the HTTP status and Confluent {@code error_code} to answer. */
final class RegistryException extends RuntimeException {

    private final int httpStatus;
    private final int errorCode;

    RegistryException(final int httpStatus, final int errorCode, final String message) {
        super(message);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    RegistryException(final int httpStatus, final int errorCode, final String message, final Throwable cause) {
        super(message, cause);
        this.httpStatus = httpStatus;
        this.errorCode = errorCode;
    }

    int httpStatus() {
        return httpStatus;
    }

    int errorCode() {
        return errorCode;
    }

    static RegistryException subjectNotFound(final String subject) {
        return new RegistryException(404, 40401, "Subject '" + subject + "' not found.");
    }

    static RegistryException versionNotFound(final String subject, final int version) {
        return new RegistryException(404, 40402, "Version " + version + " not found for subject '" + subject + "'.");
    }

    static RegistryException schemaNotFound(final String what) {
        return new RegistryException(404, 40403, "Schema " + what + " not found.");
    }

    static RegistryException subjectLevelConfigNotFound(final String subject) {
        return new RegistryException(
                404, 40408, "Subject '" + subject + "' does not have subject-level compatibility configured");
    }

    static RegistryException incompatible(final String subject, final List<String> problems) {
        return new RegistryException(
                409,
                409,
                "Schema being registered is incompatible with an earlier schema for" + " subject \"" + subject
                        + "\", details: " + problems);
    }

    static RegistryException invalidSchema(final String reason) {
        return new RegistryException(422, 42201, "Invalid schema: " + reason);
    }

    static RegistryException invalidVersion(final String version) {
        return new RegistryException(
                422,
                42202,
                "The specified version '" + version + "' is not a valid version id."
                        + " Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    static RegistryException invalidCompatibilityLevel(final Object level) {
        return new RegistryException(
                422,
                42203,
                "Invalid compatibility level '" + level + "'. Valid values are none,"
                        + " backward, forward, full, backward_transitive, forward_transitive, and full_transitive");
    }

    static RegistryException storeError(final String operation, final Throwable cause) {
        return new RegistryException(
                500, 50001, "Error in the backend data store while " + operation + ": " + cause.getMessage(), cause);
    }
}
