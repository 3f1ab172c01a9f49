package io.quarry.benchmarks;

import io.quarry.codecs.store.AsciiText;
import io.quarry.codecs.tokens.TermSet;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The block term set alone ({@link TermSet}): a log's lines in blocks of 1,024 (or of the size
 * given third: the pairs it prints are the (block, term) pairs Lucene would be handed at that
 * {@code storage.blockEvents}), each block's set cleared and filled as the store fills it (ASCII
 * lines as their bytes), round after round on one thread. Prints the thread's CPU time per event of
 * each round, then the least and the median of the rounds after the first three, and the distinct
 * terms summed over the blocks (the same for two builds that make the same terms). To compare two
 * builds on a shared machine, run each in its own JVM, alternated.
 *
 * <pre>
 * java -cp 'distribution/target/quarry-*&#47;quarry-*&#47;lib/*' \
 *     benchmarks/src/main/java/io/quarry/benchmarks/TermSetCpu.java \
 *     access-200k.log [rounds [block]]
 * </pre>
 */
public final class TermSetCpu {
  private TermSetCpu() {}

  public static void main(String[] args) throws IOException {
    List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
    int block = args.length > 2 ? Integer.parseInt(args[2]) : 1_024;
    byte[][] asciis = new byte[lines.size()][];
    for (int i = 0; i < asciis.length; i++) {
      asciis[i] = AsciiText.bytesOf(lines.get(i));
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    TermSet set = new TermSet();
    List<Long> perEvent = new ArrayList<>();
    long terms = 0;
    for (int round = 0; round < rounds; round++) {
      long started = threads.getCurrentThreadCpuTime();
      terms = 0;
      for (int from = 0; from < asciis.length; from += block) {
        set.clear();
        for (int i = from; i < Math.min(asciis.length, from + block); i++) {
          if (asciis[i] != null) {
            set.addAscii(asciis[i]);
          } else {
            set.add(lines.get(i));
          }
        }
        terms += set.size();
      }
      perEvent.add((threads.getCurrentThreadCpuTime() - started) / Math.max(1, asciis.length));
    }
    List<Long> settled = new ArrayList<>(perEvent.subList(Math.min(3, rounds - 1), rounds));
    Collections.sort(settled);
    System.out.printf(
        "ns per event %s; least %d, median %d; terms %d%n",
        perEvent, settled.get(0), settled.get(settled.size() / 2), terms);
  }
}
