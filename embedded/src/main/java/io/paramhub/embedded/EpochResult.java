package io.paramhub.embedded;

/**
 * The model at the end of one epoch: mean training loss over the epoch's iterations, the test
 * metric (accuracy for classification, RMSE for regression) and seconds since the run started.
 */
public record EpochResult(
        int epoch, long version, double trainLoss, String metric, double testMetric, double seconds) {}
