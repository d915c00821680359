package io.linerate.core.fulllog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The full log's file: the header line {@value FullLog#HEADER}, then one line per entry of
 * decimal integers separated by commas, in ASCII ({@link StringBuilder#append(long)} is
 * locale-independent). Each chunk is formatted into one reused buffer and written to the file's
 * channel in full before the next, so the writer allocates nothing per chunk either.
 */
final class CsvFile implements ChunkSink {
    /** Longest line of one entry: 20 characters per {@code long} ("-9223372036854775808"), separators, newline. */
    private static final int MAX_LINE = FullLog.COLUMNS * 21;

    private final FileChannel channel;
    private final StringBuilder text;
    private final ByteBuffer bytes;

    private CsvFile(FileChannel channel, int chunkEntries) {
        this.channel = channel;
        this.text = new StringBuilder(chunkEntries * MAX_LINE);
        this.bytes = ByteBuffer.allocateDirect(chunkEntries * MAX_LINE);
    }

    /**
     * Creates or truncates {@code file} and writes the header line.
     *
     * @throws IOException when the file cannot be opened or written; nothing is left open
     */
    static CsvFile create(Path file, int chunkEntries) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        try {
            CsvFile f = new CsvFile(ch, chunkEntries);
            f.text.append(FullLog.HEADER).append('\n');
            f.flushText();
            return f;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public void write(long[] entries, int count) throws IOException {
        int n = count * FullLog.COLUMNS;
        for (int i = 0; i < n; i += FullLog.COLUMNS) {
            text.append(entries[i]);
            for (int c = 1; c < FullLog.COLUMNS; c++) {
                text.append(',').append(entries[i + c]);
            }
            text.append('\n');
        }
        flushText();
    }

    private void flushText() throws IOException {
        bytes.clear();
        for (int i = 0, n = text.length(); i < n; i++) {
            bytes.put((byte) text.charAt(i));
        }
        text.setLength(0);
        bytes.flip();
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
