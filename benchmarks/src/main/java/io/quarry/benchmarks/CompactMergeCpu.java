package io.quarry.benchmarks;

import io.quarry.codecs.journal.JournalCompression;
import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import io.quarry.codecs.journal.QuarryCodec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.IOUtils;

/**
 * What a large store's compact merges cost (session 32): copies a bucket of the block layout
 * (segments without an index sort) into a fresh directory and force-merges the copy into one
 * segment on this thread, every merge compact (the journal re-encoded at the compact level, {@code
 * -Dquarry.storage.journalCompactLevel}, the default compact level unless set: 12 since session
 * 42). Prints the merge's thread CPU and the bytes of the merged index and of its journal. Same
 * input, same merges: run it once per level, alternated, and compare.
 *
 * <pre>
 * java -Dquarry.storage.journalCompactLevel=7 -cp benchmarks.jar \
 *   io.quarry.benchmarks.CompactMergeCpu &lt;bucket dir&gt; &lt;scratch dir, emptied&gt;
 * </pre>
 */
public final class CompactMergeCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CompactMergeCpu() {}

  public static void main(String[] args) throws IOException {
    Path source = Path.of(args[0]);
    Path target = Path.of(args[1]);
    if (Files.exists(target)) {
      IOUtils.rm(target);
    }
    Files.createDirectories(target);
    try (var files = Files.list(source)) {
      for (Path file : files.toList()) {
        if (Files.isRegularFile(file) && !file.getFileName().toString().equals("write.lock")) {
          Files.copy(file, target.resolve(file.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
    IndexWriterConfig config = new IndexWriterConfig();
    config.setCodec(
        new QuarryCodec(JournalCompression.ZSTD, JournalStoredFieldsFormat.DEFAULT_BLOCK_SIZE, 0));
    config.setMergeScheduler(new SerialMergeScheduler());
    try (Directory directory = FSDirectory.open(target);
        IndexWriter writer = new IndexWriter(directory, config)) {
      long cpu = THREADS.getCurrentThreadCpuTime();
      long wall = System.nanoTime();
      writer.forceMerge(1);
      cpu = THREADS.getCurrentThreadCpuTime() - cpu;
      wall = System.nanoTime() - wall;
      writer.commit();
      long bytes = 0;
      long journal = 0;
      for (String file : List.of(directory.listAll())) {
        long length = directory.fileLength(file);
        bytes += length;
        if (file.endsWith(".qjd")) {
          journal += length;
        }
      }
      System.out.printf(
          "compact level %s: forceMerge(1) thread CPU %.2f s (wall %.2f s), index %,d bytes,"
              + " journal %,d bytes%n",
          System.getProperty(JournalStoredFieldsFormat.COMPACT_LEVEL_PROPERTY, "12 (default)"),
          cpu / 1e9,
          wall / 1e9,
          bytes,
          journal);
    }
  }
}
