package io.paramhub.bench.replay;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes one topic's recorded records: for each, partition (int), offset (long), timestamp
 * (long), key (modified UTF-8), value length (int) and value bytes, big-endian.
 */
final class RecordingFiles {

    private RecordingFiles() {}

    static void write(final Path file, final List<RecordedRecord> records) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            for (final RecordedRecord record : records) {
                out.writeInt(record.partition());
                out.writeLong(record.offset());
                out.writeLong(record.timestamp());
                out.writeUTF(record.key());
                out.writeInt(record.value().length);
                out.write(record.value());
            }
        }
    }

    static List<RecordedRecord> read(final Path file) throws IOException {
        final List<RecordedRecord> records = new ArrayList<>();
        if (!Files.exists(file)) {
            return records;
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            while (true) {
                final int partition;
                try {
                    partition = in.readInt();
                } catch (final EOFException end) {
                    return records;
                }
                final long offset = in.readLong();
                final long timestamp = in.readLong();
                final String key = in.readUTF();
                final byte[] value = new byte[in.readInt()];
                in.readFully(value);
                records.add(new RecordedRecord(partition, offset, timestamp, key, value));
            }
        }
    }
}
