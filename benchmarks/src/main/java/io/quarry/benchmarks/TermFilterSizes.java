package io.quarry.benchmarks;

import io.quarry.codecs.block.TermFilter;
import io.quarry.codecs.tokens.TermSet;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.util.BytesRef;

/**
 * What a block's {@link TermFilter} costs in bytes against how often it answers a false "maybe",
 * measured on a log's own blocks (consecutive lines, {@code blockEvents} a block, their terms as
 * {@link TermSet} makes them for the store): per bits-an-entry density, the filters' bytes with and
 * without the 4-byte prefixes and the false "maybe" rate of random absent hashes; and how the
 * (term, block) entries spread over terms by the share of blocks holding the term (a term in every
 * block costs a filter its bits in each, where a posting list would cost about a bit); and the two
 * levels of {@code TermFilterFormat} version 2, a filter per group of blocks probed first (bytes,
 * false "maybe"s and filters probed a search, per group size and densities).
 *
 * <pre>
 * java -cp benchmarks.jar io.quarry.benchmarks.TermFilterSizes &lt;log&gt; [lines] [blockEvents] \
 *     [runBlocks,...]
 * </pre>
 */
public final class TermFilterSizes {
  private TermFilterSizes() {}

  public static void main(String[] args) throws IOException {
    Path log = Path.of(args[0]);
    int lines = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
    int blockEvents = args.length > 2 ? Integer.parseInt(args[2]) : 1024;
    List<long[]> termHashes = new ArrayList<>(); // per block: its distinct terms' hashes
    List<long[]> prefixHashes = new ArrayList<>(); // per block: its distinct prefixes' hashes
    Map<Long, Integer> blocksOf = new HashMap<>(); // a term's hash -> blocks holding it
    TermSet terms = new TermSet();
    try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
      int inBlock = 0;
      for (int read = 0; read < lines; read++) {
        String line = reader.readLine();
        if (line != null) {
          terms.add(line);
          inBlock++;
        }
        if (inBlock > 0 && (inBlock == blockEvents || line == null || read == lines - 1)) {
          block(terms, termHashes, prefixHashes, blocksOf);
          terms.clear();
          inBlock = 0;
        }
        if (line == null) {
          break;
        }
      }
    }
    int blocks = termHashes.size();
    long termEntries = termHashes.stream().mapToLong(h -> h.length).sum();
    long prefixEntries = prefixHashes.stream().mapToLong(h -> h.length).sum();
    System.out.printf(
        "%s: %,d blocks of %d lines, %,.0f distinct terms a block, %,.0f prefixes a block,"
            + " %,d distinct terms in all%n",
        log.getFileName(),
        blocks,
        blockEvents,
        termEntries / (double) blocks,
        prefixEntries / (double) blocks,
        blocksOf.size());
    System.out.println(
        "| bits an entry | filters, terms and prefixes | terms only | false maybe (terms only) |");
    System.out.println("|---:|---:|---:|---:|");
    SplittableRandom random = new SplittableRandom(28);
    for (int bits : new int[] {6, 8, 10, 12, 16, 20}) {
      long withPrefixes = 0;
      long termsOnly = 0;
      long probes = 0;
      long maybes = 0;
      for (int b = 0; b < blocks; b++) {
        long[] t = termHashes.get(b);
        long[] p = prefixHashes.get(b);
        withPrefixes += bytes(t.length + p.length, bits);
        termsOnly += bytes(t.length, bits);
        if (b % 8 == 0) {
          TermFilter.Builder builder = builder(t.length, bits);
          for (long h : t) {
            builder.add(h);
          }
          BytesRef filter = new BytesRef(builder.toBytes());
          for (int i = 0; i < 20_000; i++) {
            probes++;
            if (mayContain(filter, random.nextLong())) {
              maybes++;
            }
          }
        }
      }
      System.out.printf(
          "| %d | %,d | %,d | %.3f%% |%n", bits, withPrefixes, termsOnly, 100.0 * maybes / probes);
    }
    System.out.println(
        "| terms in at least this share of blocks | terms | their (term, block) entries |");
    System.out.println("|---:|---:|---:|");
    for (double share : new double[] {0.99, 0.9, 0.5, 0.1, 0.01}) {
      long count = 0;
      long entries = 0;
      for (int n : blocksOf.values()) {
        if (n >= share * blocks) {
          count++;
          entries += n;
        }
      }
      System.out.printf(
          "| %.0f%% | %,d | %,d (%.1f%%) |%n",
          share * 100, count, entries, 100.0 * entries / termEntries);
    }
    long once = blocksOf.values().stream().filter(n -> n == 1).count();
    System.out.printf(
        "terms in one block only: %,d (%.1f%% of the entries)%n", once, 100.0 * once / termEntries);
    for (String segment : (args.length > 3 ? args[3] : "0").split(",")) {
      int segmentBlocks = Integer.parseInt(segment);
      commonTerms(termHashes, prefixHashes, segmentBlocks <= 0 ? blocks : segmentBlocks);
    }
    groups(termHashes, prefixHashes);
  }

  /**
   * Two levels, as {@code TermFilterFormat} version 2 writes them: the entries in at least {@link
   * io.quarry.codecs.block.CommonTerms#SHARE} of the log's blocks listed, a filter per group of
   * consecutive blocks over its blocks' other distinct entries (hashed as {@link
   * TermFilter#groupHash}) and each block's filter: per group size and densities, the bytes of both
   * levels, the share of groups and of blocks a random absent entry is a "maybe" in, and the
   * filters a rare term probes (its groups, and the blocks of the groups that say "maybe").
   */
  private static void groups(List<long[]> termHashes, List<long[]> prefixHashes) {
    int blocks = termHashes.size();
    List<long[]> kept = new ArrayList<>();
    Map<Long, Integer> blocksOf = new HashMap<>();
    for (int b = 0; b < blocks; b++) {
      for (long h : termHashes.get(b)) {
        blocksOf.merge(h, 1, Integer::sum);
      }
      for (long h : prefixHashes.get(b)) {
        blocksOf.merge(h, 1, Integer::sum);
      }
    }
    for (int b = 0; b < blocks; b++) {
      kept.add(
          java.util.stream.LongStream.concat(
                  java.util.Arrays.stream(termHashes.get(b)),
                  java.util.Arrays.stream(prefixHashes.get(b)))
              .filter(h -> blocksOf.get(h) < io.quarry.codecs.block.CommonTerms.SHARE * blocks)
              .toArray());
    }
    System.out.println(
        "| blocks a group | group bits | block bits | groups' entries / blocks' | group filters"
            + " | block filters | together | groups maybe | blocks maybe | filters probed a"
            + " search |");
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (int group : new int[] {16, 64, 256}) {
      List<long[]> groupEntries = new ArrayList<>();
      long sum = 0;
      long distinct = 0;
      for (int from = 0; from < blocks; from += group) {
        java.util.Set<Long> set = new java.util.HashSet<>();
        for (int b = from; b < Math.min(blocks, from + group); b++) {
          for (long h : kept.get(b)) {
            set.add(h);
          }
          sum += kept.get(b).length;
        }
        distinct += set.size();
        groupEntries.add(set.stream().mapToLong(Long::longValue).toArray());
      }
      for (int[] bits :
          new int[][] {{0, 16}, {8, 8}, {8, 10}, {10, 10}, {12, 8}, {12, 10}, {12, 12}}) {
        if (bits[0] == 0 && group != 16) {
          continue;
        }
        long groupBytes = 0;
        long blockBytes = 0;
        long probes = 0;
        long groupMaybes = 0;
        long blockMaybes = 0;
        SplittableRandom random = new SplittableRandom(30);
        for (int g = 0; g < groupEntries.size(); g++) {
          long[] entries = groupEntries.get(g);
          BytesRef coarse = null;
          if (bits[0] > 0) {
            groupBytes += bytes(entries.length, bits[0]);
            TermFilter.Builder builder = builder(entries.length, bits[0]);
            for (long h : entries) {
              builder.add(TermFilter.groupHash(h));
            }
            coarse = new BytesRef(builder.toBytes());
          }
          List<BytesRef> fine = new ArrayList<>();
          for (int b = g * group; b < Math.min(blocks, (g + 1) * group); b++) {
            blockBytes += bytes(kept.get(b).length, bits[1]);
            TermFilter.Builder builder = builder(kept.get(b).length, bits[1]);
            for (long h : kept.get(b)) {
              builder.add(h);
            }
            fine.add(new BytesRef(builder.toBytes()));
          }
          for (int i = 0; i < 2_000; i++) {
            long h = random.nextLong();
            probes++;
            if (coarse != null && !mayContain(coarse, TermFilter.groupHash(h))) {
              continue;
            }
            groupMaybes++;
            for (BytesRef f : fine) {
              blockMaybes += mayContain(f, h) ? 1 : 0;
            }
          }
        }
        double groupShare = groupMaybes / (double) probes;
        double blockShare = blockMaybes / (double) probes / group;
        System.out.printf(
            "| %d | %d | %d | %.3f | %,d | %,d | %,d | %.2f%% | %.3f%% | %.1f |%n",
            group,
            bits[0],
            bits[1],
            distinct / (double) sum,
            groupBytes,
            blockBytes,
            groupBytes + blockBytes,
            100 * groupShare,
            100 * blockShare,
            (bits[0] == 0 ? 0 : groupEntries.size()) + groupShare * blocks);
      }
    }
  }

  /**
   * The bytes of the filters when the entries (terms and prefixes) in at least a share of a run's
   * blocks are left out of them into one list of 8-byte hashes a run, as {@link
   * io.quarry.codecs.block.CommonTerms} does per flushed segment (a run: {@code segmentBlocks}
   * consecutive blocks): per share and density, the filters' bytes, the lists', and what a search
   * for a listed entry pays, the blocks it reads without the entry (a listed entry is a "maybe" in
   * every block of its run).
   */
  private static void commonTerms(
      List<long[]> termHashes, List<long[]> prefixHashes, int segmentBlocks) {
    int blocks = termHashes.size();
    System.out.printf("runs of %d blocks:%n", segmentBlocks);
    System.out.println(
        "| entries in at least this share of a run's blocks listed | listed (all runs) | bits an"
            + " entry | filters | lists | together | blocks read without a listed entry |");
    System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
    for (double share : new double[] {2, 0.99, 0.9, 0.75, 0.5}) {
      long listedCount = 0;
      long without = 0; // (listed entry, block of its run without it) pairs
      long listedBlocks = 0; // (listed entry, block of its run) pairs
      int[] kept = new int[blocks];
      for (int from = 0; from < blocks; from += segmentBlocks) {
        int to = Math.min(blocks, from + segmentBlocks);
        Map<Long, Integer> blocksOf = new HashMap<>(); // an entry's hash -> blocks holding it
        for (int b = from; b < to; b++) {
          for (long h : termHashes.get(b)) {
            blocksOf.merge(h, 1, Integer::sum);
          }
          for (long h : prefixHashes.get(b)) {
            blocksOf.merge(h, 1, Integer::sum);
          }
        }
        java.util.Set<Long> listed = new java.util.HashSet<>();
        for (Map.Entry<Long, Integer> entry : blocksOf.entrySet()) {
          if (to - from >= 8 && entry.getValue() >= share * (to - from)) {
            listed.add(entry.getKey());
            without += (to - from) - entry.getValue();
            listedBlocks += to - from;
          }
        }
        listedCount += listed.size();
        for (int b = from; b < to; b++) {
          for (long h : termHashes.get(b)) {
            kept[b] += listed.contains(h) ? 0 : 1;
          }
          for (long h : prefixHashes.get(b)) {
            kept[b] += listed.contains(h) ? 0 : 1;
          }
        }
      }
      for (int bits : new int[] {8, 10, 12, 16}) {
        long filters = 0;
        for (int b = 0; b < blocks; b++) {
          filters += bytes(kept[b], bits);
        }
        long list = 8L * listedCount;
        System.out.printf(
            "| %s | %,d | %d | %,d | %,d | %,d | %.1f%% |%n",
            share > 1 ? "none" : String.format("%.0f%%", share * 100),
            listedCount,
            bits,
            filters,
            list,
            filters + list,
            listedBlocks == 0 ? 0.0 : 100.0 * without / listedBlocks);
      }
    }
  }

  private static void block(
      TermSet terms,
      List<long[]> termHashes,
      List<long[]> prefixHashes,
      Map<Long, Integer> blocksOf)
      throws IOException {
    long[] hashes = new long[terms.size()];
    java.util.Set<Long> prefixes = new java.util.HashSet<>();
    int n = 0;
    try (TokenStream stream = terms.tokenStream()) {
      BytesTermAttribute term = stream.getAttribute(BytesTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        BytesRef bytes = term.getBytesRef();
        long hash = TermFilter.hash(bytes);
        hashes[n++] = hash;
        blocksOf.merge(hash, 1, Integer::sum);
        if (bytes.length >= TermFilter.PREFIX) {
          prefixes.add(TermFilter.prefixHash(bytes.bytes, bytes.offset));
        }
      }
      stream.end();
    }
    termHashes.add(hashes);
    prefixHashes.add(prefixes.stream().mapToLong(Long::longValue).toArray());
  }

  /** A filter's bytes for {@code entries} at {@code bits} an entry, header included. */
  private static long bytes(int entries, int bits) {
    long blocks = Math.max(1, ((long) entries * bits + 255) / 256);
    return 1 + (blocks < 128 ? 1 : blocks < 16384 ? 2 : 3) + blocks * 32;
  }

  private static TermFilter.Builder builder(int entries, int bits) {
    // Builder.reset sizes for TermFilter.BITS_PER_TERM an entry: ask for as many entries as make
    // the same number of 256-bit blocks at this density
    long blocks = Math.max(1, ((long) entries * bits + 255) / 256);
    return new TermFilter.Builder().reset((int) (blocks * 256 / TermFilter.BITS_PER_TERM));
  }

  private static boolean mayContain(BytesRef filter, long hash) {
    try {
      return TermFilter.mayContain(filter, hash);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
