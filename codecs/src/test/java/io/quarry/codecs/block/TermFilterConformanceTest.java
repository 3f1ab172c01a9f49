package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * {@link TermFilter}'s grammar: the hash and the bytes of small filters against values computed
 * from the grammar by an independent implementation (a Python script following the class javadoc
 * line by line, not this class), a group's hash and the densities of grouped filters, no false "no"
 * for any added term, the false "maybe" rate at the written densities, and malformed filters
 * refused.
 */
class TermFilterConformanceTest {
  private static BytesRef term(String text) {
    return new BytesRef(text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] filter(int blocks, String... terms) {
    TermFilter.Builder builder = new TermFilter.Builder().reset(terms.length);
    assertThat(TermFilter.blocksFor(terms.length)).isEqualTo(blocks);
    for (String t : terms) {
      builder.add(TermFilter.hash(term(t)));
    }
    return builder.toBytes();
  }

  @Test
  void theHashIsTheGrammars() {
    assertThat(TermFilter.hash(term(""))).isEqualTo(0L);
    assertThat(TermFilter.hash(term("a"))).isEqualTo(-7151273289998648287L);
    assertThat(TermFilter.hash(term("error"))).isEqualTo(7081098620363264253L);
    assertThat(TermFilter.hash(term("10.1.2.3"))).isEqualTo(6328850009862273493L); // one word
    assertThat(TermFilter.hash(term("/cart.do?action=view"))).isEqualTo(-7417582163032113469L);
    // a prefix: its first four bytes' hash, xor the prefix seed
    byte[] rarest = "rarest".getBytes(StandardCharsets.UTF_8);
    assertThat(TermFilter.prefixHash(rarest, 0)).isEqualTo(9215110636584565210L);
    assertThat(TermFilter.prefixHash(rarest, 0)).isNotEqualTo(TermFilter.hash(rarest, 0, 4));
    // a slice hashes as its own bytes
    byte[] padded = "xxerrorxx".getBytes(StandardCharsets.UTF_8);
    assertThat(TermFilter.hash(padded, 2, 5)).isEqualTo(7081098620363264253L);
  }

  @Test
  void theBytesAreTheGrammars() {
    assertThat(HexFormat.of().formatHex(filter(1, "error", "10.1.2.3")))
        .isEqualTo("01010200000811000000000011002200000000408000080001004010000001000080");
    // 5 terms × 16 bits need 80 bits; forced to two blocks by 17 terms' worth is checked below
    TermFilter.Builder two = new TermFilter.Builder().reset(17);
    for (String t : new String[] {"get", "post", "error", "10.1.2.3", "timeout"}) {
      two.add(TermFilter.hash(term(t)));
    }
    assertThat(HexFormat.of().formatHex(two.toBytes()))
        .isEqualTo(
            "0102120000081100008080001100260000000040801008800100401400000104008001000800000080"
                + "08000801004000008000200002028000008000002000000044");
  }

  @Test
  void aGroupHoldsAnEntryByItsHashWithItsHalvesSwapped() {
    // "error" = 0x62451DAD_8E42D0FD as a block filter's entry; its halves swapped in a group's
    assertThat(TermFilter.groupHash(7081098620363264253L)).isEqualTo(-8195758585166881363L);
    assertThat(TermFilter.groupHash(TermFilter.groupHash(42L))).isEqualTo(42L);
    // a grouped block's filter at 10 bits an entry, the group's at 12
    assertThat(TermFilter.blocksFor(3_000, TermFilterGroups.BLOCK_BITS)).isEqualTo(118);
    assertThat(TermFilter.blocksFor(3_000, TermFilterGroups.BITS)).isEqualTo(141);
    assertThat(TermFilter.blocksFor(0, TermFilterGroups.BITS)).isEqualTo(1);
    assertThat(new TermFilter.Builder().reset(3_000, TermFilterGroups.BLOCK_BITS).toBytes())
        .hasSize(2 + 118 * 32);
  }

  @Test
  void aGroupAndItsThinnerBlockFiltersSayMaybeLessOftenThanOneFilter() throws Exception {
    // 64 blocks of 1,000 entries, half of each block's drawn from 4,000 shared by the group (as an
    // access log's terms recur within a group), half its own
    Random random = new Random(31);
    TermFilter.Builder group = new TermFilter.Builder();
    Set<Long> distinct = new HashSet<>();
    BytesRef[] blocks = new BytesRef[64];
    long[][] entries = new long[64][];
    for (int b = 0; b < 64; b++) {
      Set<Long> block = new HashSet<>();
      while (block.size() < 500) {
        block.add(TermFilter.hash(term("shared-" + random.nextInt(4_000))));
      }
      while (block.size() < 1_000) {
        block.add(TermFilter.hash(term("own-" + b + "-" + block.size())));
      }
      entries[b] = block.stream().mapToLong(Long::longValue).toArray();
      distinct.addAll(block);
      TermFilter.Builder filter =
          new TermFilter.Builder().reset(block.size(), TermFilterGroups.BLOCK_BITS);
      block.forEach(filter::add);
      blocks[b] = new BytesRef(filter.toBytes());
    }
    group.reset(distinct.size(), TermFilterGroups.BITS);
    distinct.forEach(h -> group.add(TermFilter.groupHash(h)));
    BytesRef groupFilter = new BytesRef(group.toBytes());
    for (int b = 0; b < 64; b++) {
      for (long h : entries[b]) {
        assertThat(TermFilter.mayContain(groupFilter, TermFilter.groupHash(h))).isTrue();
        assertThat(TermFilter.mayContain(blocks[b], h)).isTrue();
      }
    }
    long groupMaybes = 0;
    long blockMaybes = 0;
    int probes = 20_000;
    for (int probe = 0; probe < probes; probe++) {
      long absent = TermFilter.hash(term("absent-" + probe));
      if (TermFilter.mayContain(groupFilter, TermFilter.groupHash(absent))) {
        groupMaybes++;
        for (BytesRef block : blocks) {
          blockMaybes += TermFilter.mayContain(block, absent) ? 1 : 0;
        }
      }
    }
    // expected: the group ~0.6%, a block ~0.6% × 1.2% (one filter at 16 bits an entry: ~0.13%)
    assertThat((double) groupMaybes / probes).as("group maybe rate").isLessThan(0.012);
    assertThat((double) blockMaybes / probes / 64).as("block maybe rate").isLessThan(0.0003);
  }

  @Test
  void sizedAtSixteenBitsATerm() {
    assertThat(TermFilter.blocksFor(0)).isEqualTo(1);
    assertThat(TermFilter.blocksFor(16)).isEqualTo(1);
    assertThat(TermFilter.blocksFor(17)).isEqualTo(2);
    assertThat(TermFilter.blocksFor(3_000)).isEqualTo(188);
    // a block count of two VInt bytes
    assertThat(new TermFilter.Builder().reset(2_048).toBytes()).hasSize(3 + 128 * 32);
  }

  @Test
  void everyAddedTermIsMaybeAndFewOthersAre() throws Exception {
    Random random = new Random(42);
    long falseMaybes = 0;
    long absentProbes = 0;
    for (int round = 0; round < 40; round++) {
      int size = 1 + random.nextInt(round < 20 ? 40 : 6_000);
      Set<String> terms = new HashSet<>();
      while (terms.size() < size) {
        terms.add(Long.toString(random.nextLong() >>> random.nextInt(60), 36));
      }
      byte[] bytes = filter(TermFilter.blocksFor(size), terms.toArray(String[]::new));
      BytesRef filter = new BytesRef(bytes);
      for (String t : terms) {
        assertThat(TermFilter.mayContain(filter, TermFilter.hash(term(t)))).as(t).isTrue();
      }
      for (int probe = 0; probe < 20_000; probe++) {
        String absent = "absent-" + round + "-" + probe;
        absentProbes++;
        if (TermFilter.mayContain(filter, TermFilter.hash(term(absent)))) {
          falseMaybes++;
        }
      }
      // a filter inside a larger array, as doc values hand one out
      byte[] framed = new byte[bytes.length + 7];
      System.arraycopy(bytes, 0, framed, 3, bytes.length);
      String any = terms.iterator().next();
      assertThat(
              TermFilter.mayContain(
                  new BytesRef(framed, 3, bytes.length), TermFilter.hash(term(any))))
          .isTrue();
    }
    double rate = (double) falseMaybes / absentProbes;
    assertThat(rate).as("false maybe rate").isLessThan(0.002);
  }

  @Test
  void malformedFiltersAreRefused() throws Exception {
    long hash = TermFilter.hash(term("error"));
    byte[] good = filter(1, "error");
    assertThat(TermFilter.mayContain(new BytesRef(good), hash)).isTrue();
    byte[] version = good.clone();
    version[0] = 2;
    assertThatThrownBy(() -> TermFilter.mayContain(new BytesRef(version), hash))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("version 2");
    assertThatThrownBy(() -> TermFilter.mayContain(new BytesRef(good, 0, good.length - 1), hash))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("1 blocks in 31 bytes");
    byte[] none = {TermFilter.VERSION, 0};
    assertThatThrownBy(() -> TermFilter.mayContain(new BytesRef(none), hash))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("0 blocks");
    byte[] twoClaimed = good.clone();
    twoClaimed[1] = 2;
    assertThatThrownBy(() -> TermFilter.mayContain(new BytesRef(twoClaimed), hash))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("2 blocks in 32 bytes");
    byte[] unterminated = {TermFilter.VERSION, (byte) 0x80};
    assertThatThrownBy(() -> TermFilter.mayContain(new BytesRef(unterminated), hash))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("bad block count");
    assertThatThrownBy(() -> TermFilter.mayContain(new BytesRef(new byte[] {1}), hash))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("too short");
  }
}
