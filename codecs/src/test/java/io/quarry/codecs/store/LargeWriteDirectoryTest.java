package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.store.BaseDirectoryTestCase;

/**
 * Lucene's conformance suite for directories, run against what a store opens for its buckets
 * ({@link BucketDirectories#DEFAULT}: {@link LargeWriteDirectory}; two of its cases skip
 * themselves, as they need an {@code FSDirectory} itself — their subjects, a pending deletion and
 * syncing, have cases of their own here), plus: bulk files and only those are written by the large
 * outputs, bytes written across many buffer lengths in mixed small and large writes read back equal
 * with the CRC32 Lucene's footer records.
 */
public class LargeWriteDirectoryTest extends BaseDirectoryTestCase {
  @Override
  protected Directory getDirectory(Path path) throws IOException {
    return BucketDirectories.DEFAULT.open(path);
  }

  private static boolean large(IndexOutput out) {
    return out.toString().startsWith("LargeWriteOutput(");
  }

  public void testBulkFilesAndOnlyThoseAreWrittenLarge() throws IOException {
    try (Directory directory = getDirectory(createTempDir())) {
      for (String name : List.of("_0.qjd", "_0_Lucene90_0.dvd", "_0.qtf", "_0_Lucene104_0.doc")) {
        try (IndexOutput out = directory.createOutput(name, IOContext.DEFAULT)) {
          assertTrue(name + ": " + out, large(out));
        }
      }
      for (String name : List.of("_0.si", "_0.fnm", "_0.qjx", "segments_1", "write.lock2")) {
        try (IndexOutput out = directory.createOutput(name, IOContext.DEFAULT)) {
          assertFalse(name + ": " + out, large(out));
        }
      }
    }
  }

  public void testMixedWritesAcrossManyBuffersReadBackEqual() throws IOException {
    byte[] expected = new byte[LargeWriteDirectory.WRITE_BYTES * 5 + 12_345];
    random().nextBytes(expected);
    try (Directory directory = getDirectory(createTempDir())) {
      long checksum;
      try (IndexOutput out = directory.createOutput("mixed.qjd", IOContext.DEFAULT)) {
        assertTrue(large(out));
        int at = 0;
        while (at < expected.length) {
          int length =
              Math.min(
                  expected.length - at,
                  switch (random().nextInt(4)) {
                    case 0 -> 1;
                    case 1 -> random().nextInt(100);
                    case 2 -> random().nextInt(70_000);
                    default -> 2 * LargeWriteDirectory.WRITE_BYTES + random().nextInt(100_000);
                  });
          if (length == 1) {
            out.writeByte(expected[at]);
          } else {
            out.writeBytes(expected, at, length);
          }
          at += length;
        }
        checksum = out.getChecksum();
      }
      CRC32 crc = new CRC32();
      crc.update(expected);
      assertEquals(crc.getValue(), checksum);
      assertEquals(expected.length, directory.fileLength("mixed.qjd"));
      try (IndexInput in = directory.openInput("mixed.qjd", IOContext.DEFAULT)) {
        byte[] actual = new byte[expected.length];
        in.readBytes(actual, 0, actual.length);
        assertArrayEquals(expected, actual);
      }
    }
  }

  /**
   * While Lucene holds a deletion it could not make yet, a new file is the {@code FSDirectory}'s
   * own output (its {@code createOutput} retries the pending deletions first), and a file pending
   * deletion is not listed.
   */
  public void testAPendingDeletionLeavesOutputsToTheFileSystemDirectory() throws IOException {
    try (Directory directory = getDirectory(addVirusChecker(createTempDir()))) {
      int files = 0;
      while (directory.getPendingDeletions().isEmpty()) {
        assertTrue("the virus checker refused no deletion", files < 10_000);
        String name = "f" + files++ + ".qjd";
        try (IndexOutput out = directory.createOutput(name, IOContext.DEFAULT)) {
          out.writeInt(files);
        }
        directory.deleteFile(name);
      }
      String pending = directory.getPendingDeletions().iterator().next();
      assertFalse(Arrays.asList(directory.listAll()).contains(pending));
      try (IndexOutput out = directory.createOutput("next.qjd", IOContext.DEFAULT)) {
        assertFalse(out.toString(), large(out));
        out.writeInt(7);
      }
      try (IndexInput in = directory.openInput("next.qjd", IOContext.DEFAULT)) {
        assertEquals(7, in.readInt());
      }
    }
  }

  /** Syncing files the large outputs wrote makes no new file, and they read back after it. */
  public void testSyncingLargeFilesMakesNoNewFile() throws IOException {
    try (Directory directory = getDirectory(createTempDir())) {
      for (String name : List.of("a.qjd", "b.dvd", "c.si")) {
        try (IndexOutput out = directory.createOutput(name, IOContext.DEFAULT)) {
          out.writeBytes(new byte[LargeWriteDirectory.WRITE_BYTES + 3], 0, 100_000);
        }
      }
      String[] before = directory.listAll();
      directory.sync(List.of("a.qjd", "b.dvd", "c.si"));
      directory.syncMetaData();
      assertArrayEquals(before, directory.listAll());
      assertEquals(100_000, directory.fileLength("a.qjd"));
    }
  }
}
