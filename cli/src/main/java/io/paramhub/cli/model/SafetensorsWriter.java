package io.paramhub.cli.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.avro.TensorShape;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a model as a {@code .safetensors} file: the header's length (8 bytes, little-endian), the JSON header
 * ({@code {NAME: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, "__metadata__": {"job", "version",
 * "model"}}}, padded with spaces to a multiple of 8 bytes), then the tensors' float32 values, little-endian, in
 * order.
 */
public final class SafetensorsWriter {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ALIGNMENT = 8;

    private SafetensorsWriter() {}

    /** Writes {@code model} to {@code out}, which it does not close. */
    public static void write(final ExportedModel model, final OutputStream out) throws IOException {
        final byte[] header = header(model);
        out.write(ByteBuffer.allocate(Long.BYTES)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(header.length)
                .array());
        out.write(header);
        NpzWriter.writeFloats(model.parameters(), 0, model.parameters().length, out);
    }

    /** The JSON header, as UTF-8, padded with spaces so that the data starts on a multiple of 8 bytes. */
    static byte[] header(final ExportedModel model) throws IOException {
        final Map<String, Object> header = new LinkedHashMap<>();
        header.put(
                "__metadata__",
                Map.of("job", model.job(), "version", String.valueOf(model.version()), "model", model.model()));
        long begin = 0;
        for (final TensorShape tensor : model.tensors()) {
            final long end = begin + ExportedModel.size(tensor) * Float.BYTES;
            final Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("dtype", "F32");
            entry.put("shape", tensor.getShape());
            entry.put("data_offsets", List.of(begin, end));
            if (header.put(tensor.getName(), entry) != null) {
                throw new IllegalArgumentException("job " + model.job() + " has two tensors named " + tensor.getName());
            }
            begin = end;
        }
        final StringBuilder json = new StringBuilder(JSON.writeValueAsString(header));
        final int length = json.toString().getBytes(StandardCharsets.UTF_8).length;
        json.append(" ".repeat((ALIGNMENT - length % ALIGNMENT) % ALIGNMENT));
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }
}
