package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.logging.Logger;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.IntroSorter;

/**
 * Rewrites a warm bucket of the event layout in the block layout, in place ({@code quarry reindex},
 * issue 23): the old bucket's events are read back segment by segment, in windows of {@value
 * #WINDOW} documents ordered by sequence number, and every run of consecutive sequence numbers is
 * added as block documents ({@link BlockDocuments#add}) to a new bucket written beside the old one
 * ({@code <id>.converting}). The new bucket rolls to warm (merged, its manifest written), its
 * count, time bounds and last sequence number are checked against the old manifest, and the two
 * swap places by two renames: the old one to {@code <id>.replaced}, the new one to {@code <id>};
 * then the old one is deleted.
 *
 * <p>Every event keeps its sequence number, so recovery's question "is sequence s present" has the
 * same answer after the conversion; a block's sequence numbers stay one range, as the block layout
 * requires. Index-time number fields are read back as their doc values hold them ({@code 1.50} as
 * {@code 1.5}), which is what the event layout already answered for them.
 *
 * <p><b>Crash safety.</b> {@link #finishInterrupted} runs before an index opens its buckets: a
 * {@code <id>.replaced} with no {@code <id>} beside it is the old bucket between the two renames
 * and moves back; one with {@code <id>} beside it is the old bucket after the swap and is deleted;
 * every {@code <id>.converting} left is an unfinished conversion and is deleted. So an interrupted
 * conversion leaves the bucket either wholly old or wholly new, never missing.
 *
 * <p>Only the direction the format needs is built: event layout to block layout. A block bucket
 * cannot go back, since a block keeps its sequence range, not each event's sequence number.
 */
public final class BucketConversion {
  private static final Logger LOG = Logger.getLogger(BucketConversion.class.getName());

  /** Suffix of the directory a conversion writes the new bucket to. */
  static final String CONVERTING = ".converting";

  /** Suffix the old bucket takes between the two renames of the swap. */
  static final String REPLACED = ".replaced";

  /** Documents read, ordered by sequence number and written per window. */
  static final int WINDOW = 64 * 1024;

  /**
   * One bucket converted.
   *
   * @param bucket the bucket's id
   * @param events the events it holds (the same before and after)
   * @param bytesBefore its size on disk in the old layout
   * @param bytesAfter its size on disk in the new layout
   */
  public record Result(long bucket, long events, long bytesBefore, long bytesAfter) {}

  private BucketConversion() {}

  /**
   * Converts every warm bucket of the event layout among {@code buckets} to the block layout, each
   * new bucket put in its old one's place in the list.
   *
   * @return one result per bucket converted, in the list's order
   */
  static List<Result> convertWarm(
      String index,
      List<Bucket> buckets,
      IndexOptions blockOptions,
      BlockDocuments blocks,
      BucketDirectories directories,
      IndexStore.BucketProgress progress)
      throws IOException {
    List<Result> results = new ArrayList<>();
    for (int i = 0; i < buckets.size(); i++) {
      Bucket old = buckets.get(i);
      if (!old.isWarm() || old.format() != BucketFormat.EVENTS) {
        continue;
      }
      long before = BucketBytes.onDisk(old);
      long id = old.id();
      Bucket converted =
          convert(
              index, old, blockOptions, blocks, directories, written -> progress.at(id, written));
      buckets.set(i, converted);
      results.add(new Result(id, converted.events(), before, BucketBytes.onDisk(converted)));
    }
    return results;
  }

  /**
   * Converts warm bucket {@code old} (of the event layout) to the block layout and returns the new
   * bucket, opened, in its place; {@code old} is closed.
   *
   * @param progress told the number of events written so far, after each window
   */
  static Bucket convert(
      String index,
      Bucket old,
      IndexOptions blockOptions,
      BlockDocuments blocks,
      BucketDirectories directories,
      LongConsumer progress)
      throws IOException {
    if (!old.isWarm() || old.format() != BucketFormat.EVENTS) {
      throw new IllegalArgumentException(
          "bucket " + old.id() + " is not a warm bucket of the event layout");
    }
    if (blockOptions.format() != BucketFormat.BLOCKS) {
      throw new IllegalArgumentException("the options must name the block layout");
    }
    Path path = old.path();
    Path converting = path.resolveSibling(path.getFileName() + CONVERTING);
    IOUtils.rm(converting);
    Bucket fresh = Bucket.open(old.id(), converting, blockOptions, old.created(), directories);
    try {
      long written = copy(index, old, fresh, blocks, progress);
      if (written != old.events()) {
        throw new CorruptIndexException(
            "read " + written + " events, the manifest counts " + old.events(), path.toString());
      }
      fresh.roll();
      if (fresh.events() != old.events()
          || fresh.minTime() != old.minTime()
          || fresh.maxTime() != old.maxTime()
          || fresh.maxSequence() != old.maxSequence()) {
        throw new IllegalStateException(
            "bucket "
                + old.id()
                + " converted to "
                + fresh.events()
                + " events over ["
                + fresh.minTime()
                + ", "
                + fresh.maxTime()
                + "] up to sequence "
                + fresh.maxSequence()
                + ", not "
                + old.events()
                + " over ["
                + old.minTime()
                + ", "
                + old.maxTime()
                + "] up to "
                + old.maxSequence());
      }
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(fresh);
      IOUtils.rm(converting);
      throw e;
    }
    fresh.close();
    old.close();
    swap(path, converting);
    return Bucket.open(old.id(), path, blockOptions, old.created(), directories);
  }

  /** The two renames, each made durable, then the old bucket deleted. */
  private static void swap(Path path, Path converting) throws IOException {
    Path replaced = path.resolveSibling(path.getFileName() + REPLACED);
    IOUtils.rm(replaced);
    Files.move(path, replaced, StandardCopyOption.ATOMIC_MOVE);
    IOUtils.fsync(path.getParent(), true);
    Files.move(converting, path, StandardCopyOption.ATOMIC_MOVE);
    IOUtils.fsync(path.getParent(), true);
    IOUtils.rm(replaced);
  }

  /** Copies every live event of {@code old} into {@code fresh}; returns how many. */
  private static long copy(
      String index, Bucket old, Bucket fresh, BlockDocuments blocks, LongConsumer progress)
      throws IOException {
    long written = 0;
    IndexSearcher searcher = old.acquire();
    try {
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        long[] sequences = sequences(leaf);
        Bits live = leaf.reader().getLiveDocs();
        TimeOrderedScan.EventLoader loader = new TimeOrderedScan.EventLoader(index, leaf);
        int maxDoc = leaf.reader().maxDoc();
        for (int from = 0; from < maxDoc; from += WINDOW) {
          int to = Math.min(maxDoc, from + WINDOW);
          List<Event> events = new ArrayList<>(to - from);
          long[] order = new long[to - from];
          for (int doc = from; doc < to; doc++) {
            if (live != null && !live.get(doc)) {
              continue;
            }
            loader.time(doc);
            order[events.size()] = sequences[doc];
            events.add(loader.load(doc).event());
          }
          written += addInSequence(fresh, blocks, events, Arrays.copyOf(order, events.size()));
          progress.accept(written);
        }
      }
    } finally {
      old.release(searcher);
    }
    return written;
  }

  /** Adds one window's events, ordered by sequence, each consecutive run as one batch. */
  private static int addInSequence(
      Bucket fresh, BlockDocuments blocks, List<Event> events, long[] sequences)
      throws IOException {
    int n = events.size();
    Event[] sorted = events.toArray(new Event[0]);
    new IntroSorter() {
      private long pivot;

      @Override
      protected void swap(int i, int j) {
        long s = sequences[i];
        sequences[i] = sequences[j];
        sequences[j] = s;
        Event e = sorted[i];
        sorted[i] = sorted[j];
        sorted[j] = e;
      }

      @Override
      protected void setPivot(int i) {
        pivot = sequences[i];
      }

      @Override
      protected int comparePivot(int j) {
        return Long.compare(pivot, sequences[j]);
      }
    }.sort(0, n);
    int start = 0;
    for (int i = 1; i <= n; i++) {
      if (i == n || sequences[i] != sequences[i - 1] + 1) {
        blocks.add(fresh, Arrays.asList(sorted).subList(start, i), sequences[start]);
        start = i;
      }
    }
    return n;
  }

  /** Each document's sequence number ({@code _seq}, a point in the event layout). */
  private static long[] sequences(LeafReaderContext leaf) throws IOException {
    int maxDoc = leaf.reader().maxDoc();
    long[] sequences = new long[maxDoc];
    Arrays.fill(sequences, Long.MIN_VALUE);
    PointValues points = leaf.reader().getPointValues(EventFields.SEQUENCE);
    if (points != null) {
      points.intersect(
          new PointValues.IntersectVisitor() {
            @Override
            public void visit(int docId) {
              throw new IllegalStateException("cells never match whole: values are needed");
            }

            @Override
            public void visit(int docId, byte[] packedValue) {
              sequences[docId] = LongPoint.decodeDimension(packedValue, 0);
            }

            @Override
            public PointValues.Relation compare(byte[] minPacked, byte[] maxPacked) {
              return PointValues.Relation.CELL_CROSSES_QUERY;
            }
          });
    }
    Bits live = leaf.reader().getLiveDocs();
    for (int doc = 0; doc < maxDoc; doc++) {
      if (sequences[doc] == Long.MIN_VALUE && (live == null || live.get(doc))) {
        throw new CorruptIndexException(
            "document " + doc + " has no sequence number", leaf.reader().toString());
      }
    }
    return sequences;
  }

  /**
   * Finishes what a conversion interrupted by a crash left in {@code bucketsPath} (see the class
   * comment); called before the index lists its buckets.
   */
  static void finishInterrupted(String index, Path bucketsPath) throws IOException {
    List<Path> replaced = new ArrayList<>();
    List<Path> converting = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(bucketsPath)) {
      for (Path entry : stream) {
        String name = entry.getFileName().toString();
        if (name.endsWith(REPLACED)) {
          replaced.add(entry);
        } else if (name.endsWith(CONVERTING)) {
          converting.add(entry);
        }
      }
    }
    for (Path old : replaced) {
      String id = old.getFileName().toString();
      Path bucket = old.resolveSibling(id.substring(0, id.length() - REPLACED.length()));
      if (Files.exists(bucket)) {
        LOG.info("index " + index + ": removing " + old + ", the bucket it held is converted");
        IOUtils.rm(old);
      } else {
        LOG.warning(
            "index "
                + index
                + ": a conversion of "
                + bucket
                + " was interrupted; it stays as it was");
        Files.move(old, bucket, StandardCopyOption.ATOMIC_MOVE);
        IOUtils.fsync(bucketsPath, true);
      }
    }
    for (Path unfinished : converting) {
      LOG.warning("index " + index + ": removing the unfinished conversion " + unfinished);
      IOUtils.rm(unfinished);
    }
  }
}
