package io.sluice.feed.cli;

import com.github.luben.zstd.ZstdOutputStream;
import io.sluice.feed.VisitSink;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Writes one slice's documents to files of its own in a directory: one file per slice, or a new one at the first
 * continuation after a file holds {@code maxDocuments} documents or {@code maxBytes} bytes of JSON. A file is written
 * under its name plus {@code .partial} and renamed when complete, so every file with its final name is whole and valid.
 * <p>
 * Resumable: at each continuation the slice's output is complete up to that point (a gzip member or zstd frame ends
 * there), and the checkpoint records the token with the partial file's length and index; a rerun truncates the partial
 * file to that length and goes on. Before a file is renamed, the checkpoint naming the next file is saved, and a rerun
 * completes the rename of any earlier partial file. Used for one slice, by one thread at a time (see VisitSink).
 */
final class SliceFiles implements VisitSink, Closeable {

    /** How the files are written. */
    record Format(boolean array, Compression compression, long maxDocuments, long maxBytes) {
        boolean rotates() { return maxDocuments < Long.MAX_VALUE || maxBytes < Long.MAX_VALUE; }
        String extension() { return (array ? ".json" : ".jsonl") + compression.extension; }
    }

    /**
     * How file contents are compressed. Both formats allow a file of several compressed units one after the other
     * (gzip members, zstd frames), read back as one stream by {@code gzip -d}, {@code zstd -d} and the libraries, so
     * one unit ends at every continuation and a resumed slice appends the next.
     */
    enum Compression {
        NONE(""), GZIP(".gz"), ZSTD(".zst");

        final String extension;

        Compression(String extension) { this.extension = extension; }

        /** A new compressed unit, written to {@code out}, which its closing ends (and leaves {@code out} open). */
        OutputStream begin(OutputStream out) throws IOException {
            switch (this) {
                case GZIP: return new FastGzip(out);
                // Level 1, as for gzip; writes come in blocks of SliceWriter.BLOCK_BYTES, so no buffer of its own.
                case ZSTD: return new ZstdOutputStream(out, 1);
                default: throw new IllegalStateException("Not compressed");
            }
        }
    }

    private static final byte[] ARRAY_START = "[\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ARRAY_END = "]\n".getBytes(StandardCharsets.US_ASCII);

    private final Path directory;
    private final String prefix;
    private final Format format;
    private final int sliceId;         // in the file names
    private final int unit;            // in the checkpoint and the progress
    private final Checkpoint checkpoint; // null without --checkpoint
    private final LongAdder documents;
    private final AtomicLongArray permille;
    private final byte[] block = new byte[SliceWriter.BLOCK_BYTES];
    private int used = 0;
    private int index;                 // of the current file
    private FileChannel file;          // the current partial file
    private OutputStream compressed;   // the current gzip member or zstd frame, or null between them
    private long fileDocuments;        // documents in the current file, those still in the block included
    private long fileJsonBytes;        // bytes of JSON in the current file, before compression
    private long atToken;              // length of the partial file at the last continuation
    private long documentsAtToken, jsonBytesAtToken;

    private SliceFiles(Path directory, String prefix, Format format, int sliceId, int unit, Checkpoint checkpoint,
                       LongAdder documents, AtomicLongArray permille) {
        this.directory = directory;
        this.prefix = prefix;
        this.format = format;
        this.sliceId = sliceId;
        this.unit = unit;
        this.checkpoint = checkpoint;
        this.documents = documents;
        this.permille = permille;
    }

    /**
     * Opens the slice's files as {@code state} left them: completes renames a stopped run left undone, and truncates
     * the current partial file to the checkpointed length, or starts it anew.
     *
     * @throws UsageException when the checkpoint names bytes of a partial file that is missing or shorter
     */
    static SliceFiles open(Path directory, String prefix, Format format, int sliceId, int unit, Checkpoint.Slice state,
                           Checkpoint checkpoint, LongAdder documents, AtomicLongArray permille) throws IOException {
        SliceFiles files = new SliceFiles(directory, prefix, format, sliceId, unit, checkpoint, documents, permille);
        for (int i = 0; i < state.file(); i++) files.completeRename(i);
        files.index = state.file();
        if (state.state() == Checkpoint.State.DONE) {
            files.completeRename(files.index);
            return files;
        }
        long keep = state.state() == Checkpoint.State.TOKEN ? state.outputBytes() : 0;
        files.openPartial(keep);
        return files;
    }

    /** The final name of file {@code index} of slice {@code sliceId}. */
    Path name(int index) {
        String rotation = format.rotates() ? String.format(Locale.ROOT, "-%06d", index) : "";
        return directory.resolve(prefix + String.format(Locale.ROOT, "slice-%04d", sliceId) + rotation + format.extension());
    }

    private Path partial(int index) {
        return name(index).resolveSibling(name(index).getFileName() + ".partial");
    }

    private void completeRename(int index) throws IOException {
        if (Files.exists(partial(index)))
            Files.move(partial(index), name(index), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private void openPartial(long keep) throws IOException {
        Path path = partial(index);
        if (keep > 0 && ( ! Files.exists(path) || Files.size(path) < keep))
            throw new UsageException("The checkpoint says " + path + " has " + keep + " bytes, but it " +
                                     (Files.exists(path) ? "has " + Files.size(path) : "is missing") +
                                     "; delete the checkpoint to start over");
        file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            file.truncate(keep);
            file.position(keep);
            if (keep == 0 && format.array()) write(ARRAY_START, 0, ARRAY_START.length);
        }
        catch (IOException e) {
            file.close();
            throw e;
        }
        atToken = file.position();
        // After a resume, the limits count from the checkpoint: the documents before it are not known here.
        fileDocuments = documentsAtToken = keep > ARRAY_START.length ? 1 : 0;
        fileJsonBytes = jsonBytesAtToken = keep;
    }

    @Override
    public void document(byte[] json, int offset, int length) throws IOException {
        boolean comma = format.array() && fileDocuments > 0;
        int needed = length + 1 + (comma ? 1 : 0);
        if (needed > block.length - used) drain();
        if (needed > block.length) { // a document bigger than a block goes out on its own
            if (comma) write(new byte[] { ',' }, 0, 1);
            write(json, offset, length);
            write(new byte[] { '\n' }, 0, 1);
        }
        else {
            if (comma) block[used++] = ',';
            System.arraycopy(json, offset, block, used, length);
            used += length;
            block[used++] = '\n';
        }
        fileDocuments++;
        fileJsonBytes += needed;
        documents.increment();
    }

    @Override
    public void continuation(Optional<String> token, double percentFinished) throws IOException {
        drain();
        endMember();
        atToken = file.position();
        documentsAtToken = fileDocuments;
        jsonBytesAtToken = fileJsonBytes;
        if (token.isEmpty()) {
            finish(Optional.empty());
            permille.set(unit, 1000);
            return;
        }
        if (fileDocuments >= format.maxDocuments() || fileJsonBytes >= format.maxBytes()) finish(token);
        else if (checkpoint != null) checkpoint.update(unit, token, atToken, index);
        if ( ! Double.isNaN(percentFinished)) permille.set(unit, (long) (percentFinished * 10));
    }

    /**
     * Completes the current file: saves the checkpoint naming the next file first, then renames. After the last
     * continuation ({@code token} empty), a rotating slice's last file is dropped if it holds no document.
     */
    private void finish(Optional<String> token) throws IOException {
        if (format.array()) {
            write(ARRAY_END, 0, ARRAY_END.length);
            endMember();
        }
        if (format.compression() != Compression.NONE && file.position() == 0) { // an empty file is not valid: write an empty unit
            write(ARRAY_START, 0, 0);
            endMember();
        }
        file.force(false);
        file.close();
        file = null;
        boolean empty = fileDocuments == 0 && format.rotates() && index > 0;
        if (checkpoint != null) {
            checkpoint.update(unit, token, 0, token.isPresent() ? index + 1 : index);
            checkpoint.save();
        }
        if (empty) Files.delete(partial(index));
        else completeRename(index);
        if (token.isPresent()) {
            index++;
            openPartial(0);
        }
    }

    /** Drops what the slice wrote to its current file after the last continuation. */
    @Override
    public void rewind() throws IOException {
        used = 0;
        compressed = null; // the unit begun after the token is cut off below; its compressor is garbage
        documents.add(documentsAtToken - fileDocuments);
        fileDocuments = documentsAtToken;
        fileJsonBytes = jsonBytesAtToken;
        file.truncate(atToken);
        file.position(atToken);
    }

    /** Writes out what the block holds and closes the current partial file, which stays partial. */
    @Override
    public void close() throws IOException {
        if (file == null) return;
        try {
            drain();
            endMember();
        }
        finally {
            file.close();
            file = null;
        }
    }

    private void drain() throws IOException {
        if (used == 0) return;
        write(block, 0, used);
        used = 0;
    }

    private void write(byte[] bytes, int offset, int length) throws IOException {
        if (format.compression() != Compression.NONE) {
            if (compressed == null) compressed = format.compression().begin(new ChannelStream(file));
            compressed.write(bytes, offset, length);
            return;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
        while (buffer.hasRemaining()) file.write(buffer);
    }

    /** Ends the current gzip member or zstd frame, so the file is valid up to here; a next write begins another. */
    private void endMember() throws IOException {
        if (compressed == null) return;
        compressed.close();
        compressed = null;
    }

    /** Gzip at the fastest level: a dump is bound by how fast it is written, and level 1 is 4 times faster than 6. */
    private static final class FastGzip extends GZIPOutputStream {
        FastGzip(OutputStream out) throws IOException {
            super(out, 1 << 16);
            def.setLevel(Deflater.BEST_SPEED);
        }
    }

    /** Writes to a channel that its closing leaves open. */
    private static final class ChannelStream extends OutputStream {
        private final FileChannel channel;
        ChannelStream(FileChannel channel) { this.channel = channel; }
        @Override public void write(int b) throws IOException { write(new byte[] { (byte) b }, 0, 1); }
        @Override public void write(byte[] bytes, int offset, int length) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
            while (buffer.hasRemaining()) channel.write(buffer);
        }
        @Override public void close() { }
    }

}
