package io.paramhub.worker;

import io.paramhub.avro.TensorShape;
import io.paramhub.launcher.SettingException;
import io.paramhub.schemas.FloatPacking;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the file that describes an external model for {@code paramhub-submit --external-model}: JSON with
 * {@code format} {@value #FORMAT}, its {@code tensors} ({@code name}, {@code shape}) and its version 0, either
 * {@code initialParameters} (a list of numbers) or {@code initialParametersFile} (raw float32, little-endian, a
 * path relative to the JSON file). The Python worker's {@code TorchModel.export} writes it. Reads no topic.
 */
public final class ExternalModelFile {

    /** The format this reader understands. */
    public static final String FORMAT = "paramhub-external-model/1";

    private static final String OPTION = "--external-model";

    /** An external model's layout and version 0, packed as {@code JobSpec.initialParameters}. */
    public record ExternalModel(List<TensorShape> tensors, ByteBuffer initialParameters) {
        /** The parameter count: the values of version 0. */
        public int parameters() {
            return initialParameters.remaining() / Float.BYTES;
        }
    }

    private ExternalModelFile() {}

    /**
     * The model {@code file} describes.
     *
     * @throws SettingException naming the file and what is wrong with it
     */
    public static ExternalModel read(final Path file) {
        final JsonObject json;
        try {
            json = new JsonObject(Files.readString(file));
        } catch (final IOException e) {
            throw problem(file, "cannot be read: " + e.getMessage());
        } catch (final DecodeException | ClassCastException e) {
            throw problem(file, "is not a JSON object: " + e.getMessage());
        }
        if (!FORMAT.equals(json.getValue("format"))) {
            throw problem(file, "has format " + json.getValue("format") + ", not " + FORMAT);
        }
        final List<TensorShape> tensors = tensors(file, json);
        final ByteBuffer initial = initialParameters(file, json);
        return new ExternalModel(tensors, initial);
    }

    private static List<TensorShape> tensors(final Path file, final JsonObject json) {
        final List<TensorShape> tensors = new ArrayList<>();
        try {
            final JsonArray list = json.getJsonArray("tensors");
            if (list == null) {
                throw problem(file, "has no tensors");
            }
            for (int i = 0; i < list.size(); i++) {
                final JsonObject tensor = list.getJsonObject(i);
                final List<Integer> shape = new ArrayList<>();
                for (final Object dimension : tensor.getJsonArray("shape", new JsonArray())) {
                    shape.add(((Number) dimension).intValue());
                }
                tensors.add(new TensorShape(tensor.getString("name", ""), shape));
            }
        } catch (final ClassCastException e) {
            throw problem(file, "has a malformed tensors list: " + e.getMessage());
        }
        return tensors;
    }

    private static ByteBuffer initialParameters(final Path file, final JsonObject json) {
        final Object inline = json.getValue("initialParameters");
        final Object named = json.getValue("initialParametersFile");
        if ((inline == null) == (named == null)) {
            throw problem(file, "needs exactly one of initialParameters and initialParametersFile");
        }
        if (inline != null) {
            if (!(inline instanceof JsonArray values)) {
                throw problem(file, "initialParameters must be a list of numbers");
            }
            final float[] params = new float[values.size()];
            for (int i = 0; i < params.length; i++) {
                if (!(values.getValue(i) instanceof Number number)) {
                    throw problem(file, "initialParameters[" + i + "] is not a number");
                }
                params[i] = number.floatValue();
            }
            return FloatPacking.pack(params);
        }
        final Path raw = file.toAbsolutePath().getParent().resolve(named.toString());
        try {
            final byte[] bytes = Files.readAllBytes(raw);
            if (bytes.length % Float.BYTES != 0) {
                throw problem(file, raw + " has " + bytes.length + " bytes, not a whole number of float32 values");
            }
            return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        } catch (final IOException e) {
            throw problem(file, "names initialParametersFile " + raw + ", which cannot be read: " + e.getMessage());
        }
    }

    private static SettingException problem(final Path file, final String what) {
        return new SettingException(OPTION, OPTION + " " + file + " " + what);
    }
}
