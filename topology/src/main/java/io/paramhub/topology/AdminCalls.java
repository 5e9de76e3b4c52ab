package io.paramhub.topology;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Runs a blocking Kafka admin call, turning its checked failures into messages that say what was asked. */
final class AdminCalls {

    private AdminCalls() {}

    /** A blocking admin call, such as {@code admin.listTopics().names().get(timeout, unit)}. */
    interface AdminCall<T> {
        T call() throws InterruptedException, ExecutionException, TimeoutException;
    }

    /**
     * The call's result; an {@link IllegalStateException} naming {@code what} ("reading topic configs") when
     * it fails, is interrupted or times out after {@code timeoutSeconds}.
     */
    static <T> T call(final String what, final long timeoutSeconds, final AdminCall<T> call) {
        try {
            return call.call();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + what, e);
        } catch (final ExecutionException e) {
            throw new IllegalStateException(
                    "Kafka failed " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (final TimeoutException e) {
            throw new IllegalStateException(
                    "Kafka did not answer within " + timeoutSeconds + " s while " + what
                            + ": is bootstrap.servers right and the cluster up?",
                    e);
        }
    }
}
