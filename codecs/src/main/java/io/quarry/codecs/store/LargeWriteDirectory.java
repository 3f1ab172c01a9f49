package io.quarry.codecs.store;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.OutputStreamIndexOutput;

/**
 * A bucket's directory: a {@link FilterDirectory} over an {@code FSDirectory} whose bulk files are
 * written {@link #WRITE_BYTES} per call instead of Lucene's 8 KiB ({@link #open}: what every bucket
 * of the store opens).
 *
 * <p>Lucene's {@code FSDirectory} hands the operating system at most 8 KiB per write call. Once a
 * file's writes stop falling on 4 KiB boundaries (any write of a large array, such as a journal
 * block, ends the buffer's alignment), each such call covers fresh page-cache blocks only in part,
 * and ext4 zeroes the rest of every new block before the next call writes it: in a 10M-line ingest
 * window's profile that zeroing was ~2% of the server's samples and the calls themselves ~1.5% more
 * (session 48, docs/design/block-index.md "Writes of 256 KiB"). A 256 KiB call leaves at most its
 * two end blocks covered in part, and there are 32× fewer calls.
 *
 * <p>Only {@link #createOutput} of the files that carry a segment's bulk ({@link #BULK}: the
 * journal's blocks, the term filters, postings and terms, doc values, points) changes, and only
 * while Lucene has no deletion pending in the directory (a file it could not delete yet, which its
 * own {@code createOutput} deals with first; never seen on Linux); small files, temporary files,
 * reads, syncs, renames and deletions are the {@code FSDirectory}'s own. Such an output holds a
 * {@link #WRITE_BYTES} buffer, and hands the file channel at most that much per call (as Lucene's
 * output caps its calls at 8 KiB), so the JDK's per-thread native copy buffer for channel writes
 * from the heap never grows past it.
 */
final class LargeWriteDirectory extends FilterDirectory {
  /** The bytes an output buffers before it writes them, and the most it writes in one call. */
  static final int WRITE_BYTES = 256 << 10;

  /** The extensions of the files written large: those that carry a segment's bytes. */
  static final Set<String> BULK =
      Set.of(
          "qjd", // the journal's blocks
          io.quarry.codecs.block.TermFilterFormat.EXTENSION,
          "doc",
          "pos",
          "pay",
          "tim",
          "dvd",
          "kdd",
          "fdt", // the journal of old event buckets' stored fields, and Lucene's own
          "cfs");

  private final FSDirectory fs;

  private LargeWriteDirectory(FSDirectory fs) {
    super(fs);
    this.fs = fs;
  }

  /**
   * Opens the bucket directory {@code path} ({@code FSDirectory.open}), writing bulk files large.
   */
  static Directory open(Path path) throws IOException {
    return new LargeWriteDirectory(FSDirectory.open(path));
  }

  @Override
  public IndexOutput createOutput(String name, IOContext context) throws IOException {
    ensureOpen();
    String extension = IndexFileNames.getExtension(name); // null without a dot
    if (extension == null || !BULK.contains(extension) || !fs.getPendingDeletions().isEmpty()) {
      return super.createOutput(name, context);
    }
    Path path = fs.getDirectory().resolve(name);
    OutputStream file =
        Files.newOutputStream(path, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    return new OutputStreamIndexOutput(
        "LargeWriteOutput(path=\"" + path + "\")", name, new CappedWrites(file), WRITE_BYTES);
  }

  /** Hands its stream at most {@link #WRITE_BYTES} per write call. */
  private static final class CappedWrites extends FilterOutputStream {
    CappedWrites(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      while (length > 0) {
        int piece = Math.min(length, WRITE_BYTES);
        out.write(bytes, offset, piece);
        offset += piece;
        length -= piece;
      }
    }
  }
}
