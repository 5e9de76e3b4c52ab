package io.paramhub.topology.orchestrator;

/**
 * How much of a worker's compute time a clock does not depend on its samples, fitted from its iterations: the time of
 * a clock of {@code n} samples is taken as {@code msPerSample × (n + fixedSamples)}, where {@code fixedSamples}, the
 * fixed part in samples' worth, belongs to the model and the worker's code and {@code msPerSample} to the worker's
 * speed of the moment.
 *
 * <p>Why: a worker's samples a second grow with its share when part of a clock's cost does not (loading a model
 * version into the framework, reading a layer's weights once a batch, flattening the gradient), so a planner blind to
 * it takes a worker given a small share for slow, and gives shares that do not equalise the clocks.
 *
 * <p>The fixed part is told apart by least squares over the iterations of the current <em>regime</em> (each older one
 * weighing {@value #FORGETTING} times the next) once their sample counts spread by {@value #MIN_SPREAD} of their mean
 * (a plan changes them) and the slope's standard error is at most {@value #MAX_SLOPE_ERROR} of the slope: on cores
 * shared with other work a clock's time varies by a third from one clock to the next, and a fit of two shares a few
 * samples apart would read that noise as anything from no fixed part to all of it. An iteration more than
 * {@value #NEW_REGIME} away from what the current regime predicts (the worker's speed changed: a straggler appears or
 * recovers) starts a new regime, so a change of speed is not mistaken for a fixed part; the last {@code fixedSamples}
 * told apart stands until another regime tells it again.
 *
 * @param weight       the current regime's iterations' total weight
 * @param samples      their weighted sum of samples
 * @param ms           their weighted sum of compute times
 * @param samplesSq    their weighted sum of squared samples
 * @param samplesMs    their weighted sum of samples × compute time
 * @param msSq         their weighted sum of squared compute times
 * @param fixedSamples the last fixed part told apart, in samples' worth (at least 0); 0 until then
 */
public record CostFit(
        double weight,
        double samples,
        double ms,
        double samplesSq,
        double samplesMs,
        double msSq,
        double fixedSamples) {

    /** How much an iteration weighs against the next one: about the last 20 iterations count. */
    static final double FORGETTING = 0.95;

    /** The weighted spread of the sample counts, as a fraction of their mean, needed to tell the fixed part apart. */
    static final double MIN_SPREAD = 0.05;

    /** The largest standard error of the fitted slope, as a fraction of the slope, with which the fit is taken. */
    static final double MAX_SLOPE_ERROR = 0.25;

    /** How far, as a fraction of the prediction, an iteration may be from the current regime's before it starts one. */
    static final double NEW_REGIME = 0.5;

    /** Nothing measured. */
    public static final CostFit NONE = new CostFit(0, 0, 0, 0, 0, 0, 0);

    /** This fit with an iteration of {@code n} samples in {@code computeMs} taken in. */
    CostFit with(final int n, final double computeMs) {
        final double predicted = weight > 0 ? ms / (samples + weight * fixedSamples) * (n + fixedSamples) : computeMs;
        final double keep = Math.abs(computeMs - predicted) > NEW_REGIME * predicted ? 0 : FORGETTING;
        final double w = weight * keep + 1;
        final double sn = samples * keep + n;
        final double st = ms * keep + computeMs;
        final double snn = samplesSq * keep + (double) n * n;
        final double snt = samplesMs * keep + n * computeMs;
        final double stt = msSq * keep + computeMs * computeMs;
        final CostFit next = new CostFit(w, sn, st, snn, snt, stt, fixedSamples);
        return new CostFit(w, sn, st, snn, snt, stt, next.fitted());
    }

    /** Compute ms a sample of the worker's {@code window}: its time over its samples with the fixed part added. */
    double msPerSample(final Iterable<JobState.Iteration> window) {
        double total = 0;
        double time = 0;
        for (final JobState.Iteration it : window) {
            total += it.samples() + fixedSamples;
            time += it.computeMs();
        }
        return time / total;
    }

    /**
     * The intercept over the slope of the weighted least-squares line, at least 0, when the samples spread enough and
     * the slope is positive and well determined; the last one told apart otherwise.
     */
    private double fitted() {
        final double meanN = samples / weight;
        final double spreadN = samplesSq - samples * meanN; // weight × the samples' variance
        if (!(meanN > 0) || spreadN < MIN_SPREAD * MIN_SPREAD * meanN * meanN * weight || weight <= 2) {
            return fixedSamples;
        }
        final double covariance = samplesMs - samples * ms / weight;
        final double slope = covariance / spreadN;
        final double residuals = Math.max(0, msSq - ms * ms / weight - slope * covariance);
        final double slopeError = Math.sqrt(residuals / (weight - 2) / spreadN);
        if (!(slope > 0) || slopeError > MAX_SLOPE_ERROR * slope) {
            return fixedSamples;
        }
        return Math.max(0, (ms / weight - slope * meanN) / slope);
    }
}
