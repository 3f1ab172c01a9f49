package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.tokens.Segmenter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.WildcardQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block layout ({@code format: blocks}) against the event layout: the same random batches
 * written to an index of each, and every scan — time-ordered, parallel, counting, over time ranges
 * and term queries checked per event, stopped early — gives back the same events, field for field,
 * before and after rolling to warm and reopening with the other format configured.
 */
class BlockStoreTest {
  @TempDir Path data;
  private final ExecutorService pool = Executors.newFixedThreadPool(3);

  @AfterEach
  void stopPool() {
    pool.shutdownNow();
  }

  private static final String[] WORDS = {
    "GET", "post", "/cart.do", "10.1.2.3", "Error", "timeout", "user=alice", "Grüße", "ß", "x_y-z"
  };

  private static List<List<Event>> batches(Random random) {
    List<List<Event>> batches = new ArrayList<>();
    Set<Long> times = new HashSet<>();
    for (int b = 0; b < 12; b++) {
      int size = random.nextInt(4) == 0 ? 300 + random.nextInt(300) : 1 + random.nextInt(40);
      List<Event> batch = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        long time;
        do {
          time = 1_700_000_000_000_000L + random.nextInt(5_000_000) * 1_000L;
        } while (!times.add(time)); // distinct times: one newest-first order
        StringBuilder raw = new StringBuilder("e" + b + "." + i);
        for (int w = random.nextInt(8); w > 0; w--) {
          raw.append(' ').append(WORDS[random.nextInt(WORDS.length)]);
        }
        Map<String, List<String>> fields = new LinkedHashMap<>();
        if (random.nextBoolean()) {
          fields.put("status", List.of(Integer.toString(200 + random.nextInt(5) * 100)));
        }
        if (random.nextInt(3) == 0) {
          fields.put("ms", List.of("1.50", " 2", Double.toString(random.nextDouble())));
        }
        if (random.nextInt(3) == 0) {
          fields.put("tag", List.of("b", "A", "a", "b"));
        }
        batch.add(
            new Event(
                time,
                raw.toString(),
                "host-" + random.nextInt(3),
                "src",
                random.nextBoolean() ? "access" : "app",
                fields));
      }
      batches.add(batch);
    }
    return batches;
  }

  private static IndexOptions options(BucketFormat format) {
    return IndexOptions.builder()
        .fieldTypes(Map.of("status", IndexedFieldType.LONG, "ms", IndexedFieldType.DOUBLE))
        .format(format)
        .build();
  }

  /** Every scan visible event as text: time, raw, default fields, index-time fields. */
  private static String describe(StoredEvent event) {
    String view = String.valueOf(event.rawText()); // the block's bytes where they are ASCII
    return event.timeMicros()
        + " "
        + event.raw()
        + " | "
        + view
        + " | "
        + event.host()
        + " "
        + event.source()
        + " "
        + event.sourcetype()
        + " "
        + new java.util.TreeMap<>(event.indexedFields());
  }

  private static List<String> ordered(
      EventStore store, String index, Query query, long from, long to) throws Exception {
    List<String> seen = new ArrayList<>();
    store.scan(List.of(index), query, from, to, e -> seen.add(describe(e)));
    return seen;
  }

  private static List<String> parallel(
      EventStore store, String index, Query query, long from, long to) throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Scans.visitAll(
        store, List.of(index), query, from, to, () -> e -> seen.add(describe(e)), pool());
    List<String> sorted = new ArrayList<>(seen);
    Collections.sort(sorted);
    return sorted;
  }

  /**
   * As {@link #parallel}, with visitors that keep no event ({@link EventVisitor#keepsEvents} false)
   * or that keep every event and describe them all at {@link EventVisitor#finish}.
   */
  private static List<String> parallel(
      EventStore store, String index, Query query, long from, long to, boolean keep)
      throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    Scans.visitAll(
        store,
        List.of(index),
        query,
        from,
        to,
        () ->
            new EventVisitor() {
              private final List<StoredEvent> kept = new ArrayList<>();

              @Override
              public boolean visit(StoredEvent event) {
                if (keep) {
                  kept.add(event);
                } else {
                  seen.add(describe(event));
                }
                return true;
              }

              @Override
              public void finish() {
                kept.forEach(e -> seen.add(describe(e)));
              }

              @Override
              public boolean keepsEvents() {
                return keep;
              }
            },
        pool());
    List<String> sorted = new ArrayList<>(seen);
    Collections.sort(sorted);
    return sorted;
  }

  /**
   * As {@link #parallel}, each slice pulled through its {@link SliceCursor} {@code step} events at
   * a time by a visitor that keeps no event; each visitor must be finished exactly once, by the
   * cursor, when its slice ends, and closed after.
   */
  private static List<String> pulled(
      EventStore store, String index, Query query, long from, long to, int step) throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    List<String> problems = Collections.synchronizedList(new ArrayList<>());
    store.pullParallel(
        List.of(index),
        query,
        from,
        to,
        () ->
            new ScanSlice() {
              private int finished;
              private final EventVisitor visitor =
                  new EventVisitor() {
                    @Override
                    public boolean visit(StoredEvent event) {
                      seen.add(describe(event));
                      return true;
                    }

                    @Override
                    public void finish() {
                      finished++;
                    }

                    @Override
                    public void close() {
                      if (finished != 1) {
                        problems.add("finished " + finished + " times before close");
                      }
                    }

                    @Override
                    public boolean keepsEvents() {
                      return false;
                    }
                  };

              @Override
              public EventVisitor visitor() {
                return visitor;
              }

              @Override
              public void pull(SliceCursor cursor) throws java.io.IOException {
                long before = cursor.eventsRead();
                while (cursor.advance(step)) {
                  if (cursor.eventsRead() - before > step) {
                    problems.add("advanced past " + step + " events");
                  }
                  before = cursor.eventsRead();
                }
                if (!cursor.ended() || cursor.advance(step)) {
                  problems.add("a cursor that ended advanced again");
                }
              }
            },
        pool());
    assertThat(problems).isEmpty();
    List<String> sorted = new ArrayList<>(seen);
    Collections.sort(sorted);
    return sorted;
  }

  /**
   * Pulls only the first {@code events} events of each slice, then stops: the visitor is closed but
   * never finished; returns how many events were visited in all.
   */
  private static long pulledFirst(EventStore store, String index, int events) throws Exception {
    java.util.concurrent.atomic.AtomicLong visited = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicInteger finished =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger slices =
        new java.util.concurrent.atomic.AtomicInteger();
    Scans.pullEach(
        store,
        index,
        () -> {
          slices.incrementAndGet();
          return new EventVisitor() {
            @Override
            public boolean visit(StoredEvent event) {
              visited.incrementAndGet();
              return true;
            }

            @Override
            public void finish() {
              finished.incrementAndGet();
            }
          };
        },
        cursor -> cursor.advance(events),
        pool());
    assertThat(slices.get()).isPositive();
    assertThat(visited.get()).isLessThanOrEqualTo((long) events * slices.get());
    return visited.get() + 1_000_000L * finished.get();
  }

  private static ExecutorService sharedPool;

  private static ExecutorService pool() {
    return sharedPool;
  }

  /** Events a term query matches on their own: the per-event check a search makes. */
  private static List<String> checked(List<String> events, String term) {
    return events.stream()
        .filter(
            e -> Segmenter.terms(e.substring(e.indexOf(' ') + 1, e.indexOf(" | "))).contains(term))
        .toList();
  }

  @Test
  void blocksAnswerAsEventsDo() throws Exception {
    sharedPool = pool;
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<List<Event>> batches = batches(random);
    Map<String, IndexOptions> both =
        Map.of("ev", options(BucketFormat.EVENTS), "bl", options(BucketFormat.BLOCKS));
    try (EventStore store = EventStore.open(data, both)) {
      for (List<Event> batch : batches) {
        store.write("ev", batch);
        store.write("bl", batch);
      }
      assertSame(store, random, seed);
      store.index("bl").rollHotBucket();
      store.index("ev").rollHotBucket();
      store.write("bl", batches.get(0).subList(0, 1)); // a new hot bucket next to the warm one
      store.write("ev", batches.get(0).subList(0, 1));
      assertSame(store, random, seed);
      assertThat(store.index("bl").holdsBlocks()).isTrue();
      assertThat(store.index("ev").holdsBlocks()).isFalse();
      assertThat(store.index("bl").bytesByKind().keySet())
          .isEqualTo(store.index("ev").bytesByKind().keySet());
    }
    // configured the other way round: each bucket is read by the layout it was written in
    Map<String, IndexOptions> swapped =
        Map.of("ev", options(BucketFormat.BLOCKS), "bl", options(BucketFormat.EVENTS));
    try (EventStore store = EventStore.open(data, swapped)) {
      assertSame(store, random, seed);
      assertThat(store.index("bl").count()).isEqualTo(store.index("ev").count());
      assertThat(store.index("bl").buckets())
          .extracting(BucketInfo::events)
          .isEqualTo(store.index("ev").buckets().stream().map(BucketInfo::events).toList());
    }
    // new block buckets keep their blocks in the order written (no index sort) and, by default,
    // their terms in per-block term filters (layout 3; postings are layout 2: the test below)
    for (Path marker : markers("bl")) {
      assertThat(Files.readString(marker).strip()).isEqualTo("blocks 3");
      assertThat(segmentsSorted(marker.getParent())).isNotEmpty().containsOnly(false);
      assertThat(termIndexes(marker.getParent())).isNotEmpty().containsOnly("filters");
    }
  }

  @Test
  void olderLayoutBucketsStillReadAndTheNewestFollows() throws Exception {
    // new buckets of the newest layout (3: term filters) under its setting
    System.setProperty(TermIndex.TERM_FILTERS_PROPERTY, "true");
    try {
      olderLayoutsAndTheNewest();
    } finally {
      System.clearProperty(TermIndex.TERM_FILTERS_PROPERTY);
    }
  }

  private void olderLayoutsAndTheNewest() throws Exception {
    sharedPool = pool;
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<List<Event>> batches = batches(random);
    Map<String, IndexOptions> both =
        Map.of("ev", options(BucketFormat.EVENTS), "bl", options(BucketFormat.BLOCKS));
    try (EventStore store = EventStore.open(data, both)) {
      store.index("bl"); // the empty hot bucket, recorded as layout 3
    }
    // a bucket of the first block layout, whose segments Lucene keeps sorted by time
    List<Path> markers = markers("bl");
    assertThat(markers).hasSize(1);
    assertThat(Files.readString(markers.get(0)).strip()).isEqualTo("blocks 3");
    Files.writeString(markers.get(0), "blocks\n");
    try (EventStore store = EventStore.open(data, both)) {
      for (List<Event> batch : batches.subList(0, 4)) {
        store.write("ev", batch);
        store.write("bl", batch);
      }
      store.index("bl").rollHotBucket();
      store.index("ev").rollHotBucket();
    }
    // then one of the second (unsorted, _tok postings): the new hot bucket recorded so
    try (EventStore store = EventStore.open(data, both)) {
      store.index("bl"); // its hot bucket, made if the roll did not
    }
    Path second =
        markers("bl").stream()
            .filter(m -> !readMarker(m).equals("blocks"))
            .findFirst()
            .orElseThrow();
    Files.writeString(second, "blocks 2\n");
    try (EventStore store = EventStore.open(data, both)) {
      for (List<Event> batch : batches.subList(4, 8)) {
        store.write("ev", batch);
        store.write("bl", batch);
      }
      store.index("bl").rollHotBucket();
      store.index("ev").rollHotBucket();
      for (List<Event> batch : batches.subList(8, batches.size())) {
        store.write("ev", batch);
        store.write("bl", batch);
      }
      assertSame(store, random, seed);
    }
    Map<String, List<Boolean>> sortedByMarker = new java.util.TreeMap<>();
    Map<String, List<String>> termsByMarker = new java.util.TreeMap<>();
    for (Path marker : markers("bl")) {
      sortedByMarker.put(readMarker(marker), segmentsSorted(marker.getParent()));
      termsByMarker.put(readMarker(marker), termIndexes(marker.getParent()));
    }
    assertThat(sortedByMarker.keySet()).containsExactly("blocks", "blocks 2", "blocks 3");
    assertThat(sortedByMarker.get("blocks")).isNotEmpty().containsOnly(true);
    assertThat(sortedByMarker.get("blocks 2")).isNotEmpty().containsOnly(false);
    assertThat(sortedByMarker.get("blocks 3")).isNotEmpty().containsOnly(false);
    assertThat(termsByMarker.get("blocks")).isNotEmpty().containsOnly("postings");
    assertThat(termsByMarker.get("blocks 2")).isNotEmpty().containsOnly("postings");
    assertThat(termsByMarker.get("blocks 3")).isNotEmpty().containsOnly("filters");
    try (EventStore store = EventStore.open(data, both)) {
      assertSame(store, random, seed);
    }
  }

  private static String readMarker(Path marker) {
    try {
      return Files.readString(marker).strip();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * How each segment of a closed bucket indexes its events' terms: "postings" ({@code _tok}),
   * "filters" (each block's term filter), "both" or "none".
   */
  private static List<String> termIndexes(Path bucket) throws Exception {
    try (var directory = org.apache.lucene.store.FSDirectory.open(bucket);
        var reader = org.apache.lucene.index.DirectoryReader.open(directory)) {
      return reader.leaves().stream()
          .map(
              l -> {
                var infos = l.reader().getFieldInfos();
                boolean postings = infos.fieldInfo(EventFields.TOKENS) != null;
                boolean filters = infos.fieldInfo(BlockDocuments.TERM_FILTER) != null;
                return postings ? (filters ? "both" : "postings") : filters ? "filters" : "none";
              })
          .toList();
    }
  }

  @Test
  void aBucketOfANewerLayoutIsRefused() throws Exception {
    try (EventStore store = EventStore.open(data, Map.of("bl", options(BucketFormat.BLOCKS)))) {
      store.index("bl");
    }
    Path marker = markers("bl").get(0);
    Files.writeString(marker, "blocks 4\n");
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> BucketFormat.recordedVersion(marker.getParent())))
        .isInstanceOf(org.apache.lucene.index.CorruptIndexException.class)
        .hasMessageContaining("blocks 4");
  }

  @Test
  void convertedBucketsAnswerAsEventsDo() throws Exception {
    sharedPool = pool;
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<List<Event>> batches = batches(random);
    writeEventLayout(batches, Set.of(3, 7), false); // two warm buckets, then a hot one
    Map<String, IndexOptions> converting =
        Map.of("ev", options(BucketFormat.EVENTS), "bl", options(BucketFormat.BLOCKS));
    long total;
    try (EventStore store = EventStore.open(data, converting)) {
      assertThat(
              org.assertj.core.api.Assertions.catchThrowable(
                  () -> store.index("ev").convertToBlocks((bucket, written) -> {})))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("storage.indexes.ev.format: blocks");
      List<Long> progress = new ArrayList<>();
      List<BucketConversion.Result> results =
          store.index("bl").convertToBlocks((bucket, written) -> progress.add(written));
      assertThat(results).hasSize(3); // the two warm buckets and the hot one, rolled
      total = results.stream().mapToLong(BucketConversion.Result::events).sum();
      assertThat(total).isEqualTo(store.index("ev").count());
      assertThat(progress).isNotEmpty();
      assertThat(store.index("bl").buckets())
          .extracting(BucketInfo::format)
          .containsOnly(BucketFormat.BLOCKS);
      assertSame(store, random, seed);
      assertThat(store.index("bl").convertToBlocks((bucket, written) -> {})).isEmpty();
    }
    // every event kept its sequence number: the blocks' ranges cover 0 .. total-1 once each
    java.util.BitSet sequences = new java.util.BitSet();
    long covered = 0;
    for (Path marker : markers("bl")) {
      try (var directory = org.apache.lucene.store.FSDirectory.open(marker.getParent());
          var reader = org.apache.lucene.index.DirectoryReader.open(directory)) {
        for (var leaf : reader.leaves()) {
          java.util.BitSet bits = new java.util.BitSet();
          BlockSequences.collect(leaf.reader(), 0, total - 1, bits);
          covered += bits.cardinality();
          sequences.or(bits);
        }
      } catch (org.apache.lucene.index.IndexNotFoundException e) {
        // the new, empty hot bucket
      }
    }
    assertThat(covered).isEqualTo(total);
    assertThat(sequences.cardinality()).isEqualTo((int) total);
    try (EventStore store = EventStore.open(data, converting)) {
      assertSame(store, random, seed);
    }
  }

  @Test
  void anInterruptedConversionLeavesEachBucketWhole() throws Exception {
    sharedPool = pool;
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<List<Event>> batches = batches(random);
    writeEventLayout(batches, Set.of(5), true); // two warm buckets, an empty hot one
    Map<String, IndexOptions> events =
        Map.of("ev", options(BucketFormat.EVENTS), "bl", options(BucketFormat.EVENTS));
    Path buckets = data.resolve("indexes").resolve("bl").resolve("buckets");
    Path first = buckets.resolve("1");
    Path second = buckets.resolve("2");
    assertThat(first).isDirectory();
    assertThat(second).isDirectory();
    // bucket 1 between the two renames: moved aside, its conversion complete beside it
    copyTree(first, buckets.resolve("1" + BucketConversion.CONVERTING));
    Files.move(first, buckets.resolve("1" + BucketConversion.REPLACED));
    // bucket 2 after the swap, before the old copy was deleted; and a conversion cut short
    copyTree(second, buckets.resolve("2" + BucketConversion.REPLACED));
    Files.createDirectories(buckets.resolve("3" + BucketConversion.CONVERTING));
    try (EventStore store = EventStore.open(data, events)) {
      assertSame(store, random, seed);
    }
    try (var entries = Files.list(buckets)) {
      assertThat(entries.map(p -> p.getFileName().toString()).sorted().toList())
          .containsExactly("1", "2", "3");
    }
  }

  /**
   * Writes the batches to indexes {@code ev} and {@code bl}, both of the event layout, rolling both
   * hot buckets after each batch in {@code rollAfter}, and at the end when {@code rollLast}.
   */
  private void writeEventLayout(List<List<Event>> batches, Set<Integer> rollAfter, boolean rollLast)
      throws Exception {
    Map<String, IndexOptions> events =
        Map.of("ev", options(BucketFormat.EVENTS), "bl", options(BucketFormat.EVENTS));
    try (EventStore store = EventStore.open(data, events)) {
      for (int b = 0; b < batches.size(); b++) {
        store.write("ev", batches.get(b));
        store.write("bl", batches.get(b));
        if (rollAfter.contains(b) || rollLast && b == batches.size() - 1) {
          store.index("ev").rollHotBucket();
          store.index("bl").rollHotBucket();
        }
      }
    }
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (var files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }

  /** The format records of an index's buckets. */
  private List<Path> markers(String index) throws Exception {
    try (var files = Files.walk(data)) {
      return files
          .filter(f -> f.getFileName().toString().equals(BucketFormat.MARKER))
          .filter(f -> f.toString().contains("/" + index + "/"))
          .sorted()
          .toList();
    }
  }

  /** Whether each segment of a closed bucket has Lucene's index sort. */
  private static List<Boolean> segmentsSorted(Path bucket) throws Exception {
    try (var directory = org.apache.lucene.store.FSDirectory.open(bucket);
        var reader = org.apache.lucene.index.DirectoryReader.open(directory)) {
      return reader.leaves().stream().map(l -> l.reader().getMetaData().sort() != null).toList();
    }
  }

  private void assertSame(EventStore store, Random random, long seed) throws Exception {
    String why = "seed " + seed;
    Query all = new MatchAllDocsQuery();
    List<String> every = ordered(store, "ev", all, Long.MIN_VALUE, Long.MAX_VALUE);
    assertThat(every).isNotEmpty();
    assertThat(ordered(store, "bl", all, Long.MIN_VALUE, Long.MAX_VALUE)).as(why).isEqualTo(every);
    for (int round = 0; round < 20; round++) {
      long from = 1_700_000_000_000_000L + random.nextInt(5_000_000) * 1_000L;
      long to = from + random.nextInt(2_000_000) * 1_000L;
      assertThat(ordered(store, "bl", all, from, to))
          .as(why)
          .isEqualTo(ordered(store, "ev", all, from, to));
      assertThat(parallel(store, "bl", all, from, to))
          .as(why)
          .isEqualTo(parallel(store, "ev", all, from, to));
      // a visitor keeping no event (the journal's bytes reused block after block), and one that
      // keeps every event and reads it only at the end (the bytes never reused under it)
      assertThat(parallel(store, "bl", all, from, to, false))
          .as(why)
          .isEqualTo(parallel(store, "ev", all, from, to));
      assertThat(parallel(store, "bl", all, from, to, true))
          .as(why)
          .isEqualTo(parallel(store, "ev", all, from, to));
      // pulled a few events at a time, resuming inside a block and between documents
      int step = 1 + random.nextInt(700);
      assertThat(pulled(store, "bl", all, from, to, step))
          .as(why + ", step " + step)
          .isEqualTo(parallel(store, "ev", all, from, to));
      assertThat(pulled(store, "ev", all, from, to, step))
          .as(why + ", step " + step)
          .isEqualTo(parallel(store, "ev", all, from, to));
      String term = Segmenter.terms(WORDS[random.nextInt(WORDS.length)]).iterator().next();
      Query terms = new TermQuery(new Term(EventFields.TOKENS, term));
      List<String> events = ordered(store, "ev", terms, from, to);
      List<String> candidates = ordered(store, "bl", terms, from, to);
      assertThat(candidates).as(why).containsAll(events);
      assertThat(checked(candidates, term)).as(why).isEqualTo(events);
      // two terms at once (one filter probe per block), either of two terms, and a wildcard term,
      // which a block's filter cannot answer: every block in range is a candidate
      String other = Segmenter.terms(WORDS[random.nextInt(WORDS.length)]).iterator().next();
      Query both =
          new BooleanQuery.Builder()
              .add(terms, BooleanClause.Occur.FILTER)
              .add(new TermQuery(new Term(EventFields.TOKENS, other)), BooleanClause.Occur.MUST)
              .build();
      List<String> bothEvents = ordered(store, "ev", both, from, to);
      List<String> bothCandidates = ordered(store, "bl", both, from, to);
      assertThat(bothCandidates).as(why).containsAll(bothEvents);
      assertThat(checked(checked(bothCandidates, term), other)).as(why).isEqualTo(bothEvents);
      Query either =
          new org.apache.lucene.search.TermInSetQuery(
              EventFields.TOKENS,
              List.of(
                  new org.apache.lucene.util.BytesRef(term),
                  new org.apache.lucene.util.BytesRef(other)));
      assertThat(parallel(store, "bl", either, from, to))
          .as(why)
          .containsAll(parallel(store, "ev", either, from, to));
      Query wildcard = new WildcardQuery(new Term(EventFields.TOKENS, term.substring(0, 1) + "*"));
      assertThat(parallel(store, "bl", wildcard, from, to))
          .as(why)
          .containsAll(parallel(store, "ev", wildcard, from, to));
      // a literal prefix of four bytes or more: a probe of the filters' prefixes
      for (String longer : List.of("timeout", "10.1.2.3", "error", "grüße", "x_y-z")) {
        for (String pattern :
            List.of(longer.substring(0, 4) + "*", longer.substring(0, 5) + "?*")) {
          Query prefixed = new WildcardQuery(new Term(EventFields.TOKENS, pattern));
          List<String> matches = ordered(store, "ev", prefixed, from, to);
          assertThat(ordered(store, "bl", prefixed, from, to)).as(why).containsAll(matches);
        }
        Query prefix =
            new org.apache.lucene.search.PrefixQuery(new Term(EventFields.TOKENS, longer));
        assertThat(parallel(store, "bl", prefix, from, to))
            .as(why)
            .containsAll(parallel(store, "ev", prefix, from, to));
      }
      // an exclusion cannot be decided per block: its candidates are every block in range
      Query excluding =
          new BooleanQuery.Builder()
              .add(all, BooleanClause.Occur.FILTER)
              .add(terms, BooleanClause.Occur.MUST_NOT)
              .build();
      assertThat(ordered(store, "bl", excluding, from, to))
          .as(why)
          .containsAll(ordered(store, "ev", excluding, from, to));
      // a query of the caller's own that knows its blocks: events without an index-time status
      List<String> lacking = ordered(store, "ev", new LacksStatus(), from, to);
      List<String> lackingCandidates = ordered(store, "bl", new LacksStatus(), from, to);
      assertThat(lackingCandidates).as(why).containsAll(lacking);
      assertThat(lackingCandidates.stream().filter(e -> !e.contains("status=")).toList())
          .as(why)
          .isEqualTo(lacking);
      assertThat(counted(store, from, to))
          .as(why)
          .isEqualTo(ordered(store, "ev", all, from, to).size());
      Query host = new WildcardQuery(new Term(EventFields.keywordField("host"), "host-1*"));
      assertThat(parallel(store, "bl", host, from, to))
          .as(why)
          .containsAll(parallel(store, "ev", host, from, to));
    }
    // stopped early: the newest ten
    List<String> ten = new ArrayList<>();
    store.scan(
        List.of("bl"),
        all,
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        e -> ten.add(describe(e)) && ten.size() < 10);
    assertThat(ten).as(why).isEqualTo(every.subList(0, 10));
    // counting: a block bucket inside the range counts its blocks' events, others are visited
    assertThat(counted(store, Long.MIN_VALUE, Long.MAX_VALUE)).as(why).isEqualTo(every.size());
  }

  /** Events counted up front plus events visited, by a counting scan of every event. */
  private long counted(EventStore store, long from, long to) throws Exception {
    Query all = new MatchAllDocsQuery();
    AtomicLong counted = new AtomicLong();
    AtomicLong visited = new AtomicLong();
    store.pullParallelCounting(
        List.of("bl"),
        all,
        all,
        from,
        to,
        counted::addAndGet,
        () -> ScanSlice.visiting(e -> visited.incrementAndGet() > 0),
        pool);
    return counted.get() + visited.get();
  }
}
