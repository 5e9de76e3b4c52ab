package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tests that each built-in model's named tensors describe its flat parameter vector exactly: their sizes add up
 * to the parameter count, and setting one element, found by the tensor's offset and row-major shape, changes
 * the output the model's own indexing says it must.
 */
class ModelTensorsTest {

    @Test
    void shouldLayOutWeightThenBiasWhenLinear() {
        // given
        final Model model = new LinearRegression(5);
        final float[] params = new float[model.parameterCount()];
        final Dataset unitAt3 = new Dataset("x", 5, oneHot(5, 3), new float[1], 0);

        // when
        params[at(model, "weight", 0, 3)] = 2f;
        params[at(model, "bias", 0)] = 0.5f;

        // then
        assertThat(names(model)).containsExactly("weight", "bias");
        assertThat(shapes(model)).containsExactly(List.of(1, 5), List.of(1));
        assertThat(totalSize(model)).isEqualTo(model.parameterCount());
        assertThat(model.predict(params, unitAt3, 0)).isCloseTo(2.5f, within(1e-6f));
    }

    @Test
    void shouldLayOutClassMajorWeightsWhenSoftmax() {
        // given
        final Model model = new SoftmaxRegression(6, 4);
        final float[] params = new float[model.parameterCount()];
        final Dataset unitAt5 = new Dataset("x", 6, oneHot(6, 5), new float[1], 4);
        final Dataset zero = new Dataset("x", 6, new float[6], new float[1], 4);

        // when
        params[at(model, "weight", 2, 5)] = 3f;
        params[at(model, "bias", 1)] = 1f;

        // then
        assertThat(shapes(model)).containsExactly(List.of(4, 6), List.of(4));
        assertThat(totalSize(model)).isEqualTo(model.parameterCount());
        assertThat(model.predict(params, unitAt5, 0)).isEqualTo(2f);
        assertThat(model.predict(params, zero, 0)).isEqualTo(1f);
    }

    @Test
    void shouldLayOutEachLayerAsTorchLinearWhenMlp() {
        // given a path input 4 -> hidden unit 6 -> hidden unit 2 -> class 7, each set through the tensors
        final Model model = new Mlp(9, List.of(10, 5), 8);
        final float[] params = new float[model.parameterCount()];
        final Dataset unitAt4 = new Dataset("x", 9, oneHot(9, 4), new float[1], 8);

        // when
        params[at(model, "layers.0.weight", 6, 4)] = 1f;
        params[at(model, "layers.1.weight", 2, 6)] = 1f;
        params[at(model, "layers.2.weight", 7, 2)] = 1f;

        // then
        assertThat(names(model))
                .containsExactly(
                        "layers.0.weight",
                        "layers.0.bias",
                        "layers.1.weight",
                        "layers.1.bias",
                        "layers.2.weight",
                        "layers.2.bias");
        assertThat(shapes(model))
                .containsExactly(List.of(10, 9), List.of(10), List.of(5, 10), List.of(5), List.of(8, 5), List.of(8));
        assertThat(totalSize(model)).isEqualTo(model.parameterCount());
        assertThat(model.predict(params, unitAt4, 0)).isEqualTo(7f);
    }

    @Test
    void shouldLightTheBiasPathWhenMlpBiasesAreSetThroughTheirTensors() {
        // given
        final Model model = new Mlp(3, List.of(4), 5);
        final float[] params = new float[model.parameterCount()];
        final Dataset zero = new Dataset("x", 3, new float[3], new float[1], 5);

        // when
        params[at(model, "layers.0.bias", 3)] = 1f;
        params[at(model, "layers.1.weight", 4, 3)] = 1f;

        // then
        assertThat(model.predict(params, zero, 0)).isEqualTo(4f);
        params[at(model, "layers.1.bias", 2)] = 2f;
        assertThat(model.predict(params, zero, 0)).isEqualTo(2f);
    }

    @Test
    void shouldLayOutConvolutionsAsTorchConv2dWhenConvNet() {
        // given 14 x 14 images, kernel 3, no padding: 12 -> pooled 6 -> 4 -> pooled 2 x 2 per channel
        final ConvNet model = new ConvNet(196, List.of(3, 2, 3, 4), 5);
        final float[] params = new float[model.parameterCount()];
        // one pixel at row 1, column 2: only kernel element (ky 1, kx 2) puts it at conv1's position (0, 0)
        final float[] image = new float[196];
        image[14 + 2] = 1f;
        final Dataset pixel = new Dataset("x", 196, image, new float[1], 5);

        // when a path pixel -> conv1 channel 1 -> conv2 channel 2 -> fc1 unit 3 -> class 4, at position (0, 0)
        params[at(model, "conv1.weight", 1, 0, 1, 2)] = 1f;
        params[at(model, "conv2.weight", 2, 1, 0, 0)] = 1f;
        params[at(model, "fc1.weight", 3, 2 * 4)] = 1f;
        params[at(model, "fc2.weight", 4, 3)] = 1f;

        // then
        assertThat(names(model))
                .containsExactly(
                        "conv1.weight",
                        "conv1.bias",
                        "conv2.weight",
                        "conv2.bias",
                        "fc1.weight",
                        "fc1.bias",
                        "fc2.weight",
                        "fc2.bias");
        assertThat(shapes(model))
                .containsExactly(
                        List.of(2, 1, 3, 3),
                        List.of(2),
                        List.of(3, 2, 3, 3),
                        List.of(3),
                        List.of(4, 12),
                        List.of(4),
                        List.of(5, 4),
                        List.of(5));
        assertThat(totalSize(model)).isEqualTo(model.parameterCount());
        assertThat(model.predict(params, pixel, 0)).isEqualTo(4f);
    }

    @Test
    void shouldFlattenPooledChannelsChannelMajorWhenConvNetBiasesLightWholeChannels() {
        // given
        final ConvNet model = new ConvNet(196, List.of(3, 2, 3, 4), 5);
        final float[] params = new float[model.parameterCount()];
        final Dataset blank = new Dataset("x", 196, new float[196], new float[1], 5);

        // when conv2 channel 1 is 1 everywhere, and fc1 unit 2 reads its last position (row 1, column 1)
        params[at(model, "conv2.bias", 1)] = 1f;
        params[at(model, "fc1.weight", 2, 1 * 4 + 3)] = 1f;
        params[at(model, "fc2.weight", 3, 2)] = 1f;

        // then
        assertThat(model.predict(params, blank, 0)).isEqualTo(3f);
        params[at(model, "fc2.bias", 1)] = 5f;
        assertThat(model.predict(params, blank, 0)).isEqualTo(1f);
    }

    @Test
    void shouldBeOneTensorWhenAModelDoesNotSay() {
        // given
        final Model model = new SevenParameters();

        // when
        final List<NamedTensor> tensors = model.tensors();

        // then
        assertThat(tensors).containsExactly(NamedTensor.of("parameters", 7));
    }

    /** The index in the flat vector of element {@code index} of tensor {@code name}, from the model's tensors. */
    private static int at(final Model model, final String name, final int... index) {
        long offset = 0;
        for (final NamedTensor tensor : model.tensors()) {
            if (tensor.name().equals(name)) {
                assertThat(index).hasSameSizeAs(tensor.shape().toArray());
                long flat = 0;
                for (int d = 0; d < index.length; d++) {
                    assertThat(index[d]).isBetween(0, tensor.shape().get(d) - 1);
                    flat = flat * tensor.shape().get(d) + index[d];
                }
                return (int) (offset + flat);
            }
            offset += tensor.size();
        }
        throw new AssertionError("no tensor " + name + " in " + model.tensors());
    }

    private static List<String> names(final Model model) {
        return model.tensors().stream().map(NamedTensor::name).toList();
    }

    private static List<List<Integer>> shapes(final Model model) {
        return model.tensors().stream().map(NamedTensor::shape).toList();
    }

    private static long totalSize(final Model model) {
        return model.tensors().stream().mapToLong(NamedTensor::size).sum();
    }

    private static float[] oneHot(final int length, final int hot) {
        final float[] x = new float[length];
        x[hot] = 1f;
        return x;
    }

    /** A model of 7 parameters that keeps the default layout. */
    private static final class SevenParameters implements Model {
        @Override
        public String kind() {
            return "seven";
        }

        @Override
        public int inputs() {
            return 1;
        }

        @Override
        public int outputs() {
            return 1;
        }

        @Override
        public int parameterCount() {
            return 7;
        }

        @Override
        public float[] initialParameters(final long seed) {
            return new float[7];
        }

        @Override
        public double accumulateGradient(
                final float[] params, final Dataset data, final int[] samples, final double[] gradientSum) {
            return 0;
        }

        @Override
        public float predict(final float[] params, final Dataset data, final int sample) {
            return 0;
        }
    }
}
