package io.paramhub.ml;

/** Turns one worker's float32 gradient into what it ships, clock after clock (it may keep state). */
@FunctionalInterface
public interface GradientRounding {

    /** What to ship for {@code values} (not changed; the result may be the same array). */
    float[] round(float[] values);
}
