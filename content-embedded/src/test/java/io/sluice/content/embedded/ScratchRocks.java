package io.sluice.content.embedded;

import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

import java.nio.file.Path;

/** A bare RocksDB database in a test's directory, for tests of the parts below the engine; close it after. */
final class ScratchRocks implements AutoCloseable {

    private final Options options;
    private final RocksDB db;

    private ScratchRocks(Options options, RocksDB db) {
        this.options = options;
        this.db = db;
    }

    /** Opens (creating) a database with default options in {@code directory}. */
    static ScratchRocks open(Path directory) throws RocksDBException {
        RocksDB.loadLibrary();
        Options options = new Options().setCreateIfMissing(true);
        try {
            return new ScratchRocks(options, RocksDB.open(options, directory.toString()));
        } catch (RocksDBException e) {
            options.close();
            throw e;
        }
    }

    RocksDB db() {
        return db;
    }

    @Override
    public void close() {
        db.close();
        options.close();
    }

}
