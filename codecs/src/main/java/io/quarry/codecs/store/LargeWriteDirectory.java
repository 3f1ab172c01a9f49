package io.quarry.codecs.store;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.OutputStreamIndexOutput;

/**
 * A bucket's file-system directory whose new files are written {@link #WRITE_BYTES} at a time
 * instead of Lucene's 8 KiB: what every bucket of the store opens ({@link #open}).
 *
 * <p>Lucene's {@code FSDirectory} hands the operating system at most 8 KiB per write call. Once a
 * file's writes stop falling on 4 KiB boundaries (any write of a large array, such as a journal
 * block, ends the buffer's alignment), each such call covers fresh page-cache blocks only in part,
 * and ext4 zeroes the rest of every new block before the next call writes it: a 10M-line ingest
 * window spent ~2% of the server's CPU in that zeroing and ~1.5% more in the calls themselves
 * (session 48, docs/design/block-index.md "Writes of 256 KiB"). Large writes leave at most the two
 * end blocks of each call in part, and make 32× fewer calls.
 *
 * <p>Only {@link #createOutput} changes, and only while Lucene has no deletion pending in the
 * directory (a file it could not delete yet, which its own {@code createOutput} retries first;
 * never seen on Linux): reads, temporary files, syncs, renames and deletions are the {@code
 * FSDirectory}'s own. Each open output holds a {@link #WRITE_BYTES} buffer (a flush opens about a
 * dozen).
 */
final class LargeWriteDirectory extends FilterDirectory {
  /** The bytes an output buffers before it writes them in one call. */
  static final int WRITE_BYTES = 256 << 10;

  private final FSDirectory fs;

  private LargeWriteDirectory(FSDirectory fs) {
    super(fs);
    this.fs = fs;
  }

  /** Opens the bucket directory {@code path} ({@code FSDirectory.open}), writing large. */
  static Directory open(Path path) throws IOException {
    return new LargeWriteDirectory(FSDirectory.open(path));
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    ensureOpen();
    if (!fs.getPendingDeletions().isEmpty()) {
      return super.createOutput(name, context);
    }
    Path path = fs.getDirectory().resolve(name);
    OutputStream out =
        Files.newOutputStream(path, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    return new OutputStreamIndexOutput(
        "LargeWriteOutput(path=\"" + path + "\")", name, out, WRITE_BYTES);
  }
}
