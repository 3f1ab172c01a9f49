package io.quarry.ql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LongPages}, {@link IntPages} and {@link BytePool} hold what a plain array would, across
 * growth from one small page to many, and never make an array as large as G1's humongous threshold
 * (half of its smallest region, 1 MiB).
 */
class PagedArraysTest {
  private static final int HUMONGOUS = 512 * 1024; // bytes: half of G1's smallest region

  @Test
  void longPagesAgreeWithAPlainArrayAcrossGrowth() {
    Random random = new Random(5);
    LongPages pages = new LongPages(0);
    long[] plain = new long[0];
    for (int round = 0; round < 40; round++) {
      int size = plain.length + random.nextInt(3 * LongPages.PAGE / 2);
      pages.grow(size);
      assertThat(pages.capacity()).isGreaterThanOrEqualTo(size);
      plain = Arrays.copyOf(plain, size);
      for (int i = 0; i < 2_000; i++) {
        int index = random.nextInt(size);
        long value = random.nextLong();
        switch (random.nextInt(3)) {
          case 0 -> {
            pages.set(index, value);
            plain[index] = value;
          }
          case 1 -> {
            pages.add(index, value);
            plain[index] += value;
          }
          default -> {
            int to = Math.min(size, index + random.nextInt(3 * LongPages.PAGE));
            pages.fill(index, to, value);
            Arrays.fill(plain, index, to, value);
          }
        }
      }
      for (int i = 0; i < size; i++) {
        assertThat(pages.get(i)).as("index %d", i).isEqualTo(plain[i]);
        assertThat(pages.page(i)[LongPages.offset(i)]).isEqualTo(plain[i]);
      }
    }
    assertThat(pages.capacity()).isGreaterThan(10 * LongPages.PAGE);
    assertThat((long) pages.page(pages.capacity() - 1).length * Long.BYTES).isLessThan(HUMONGOUS);
  }

  @Test
  void valuesSetBeforeAGrowthAreKeptAcrossTheFirstPageAndThePageTable() {
    LongPages longs = new LongPages(0);
    IntPages ints = new IntPages(0);
    for (int i = 0; i < 16; i++) {
      longs.set(i, i + 1);
      ints.set(i, i + 1);
    }
    longs.grow(100); // the one page is copied into a larger one
    ints.grow(100);
    longs.grow(LongPages.PAGE * 40); // pages appended, the page table copied
    ints.grow(IntPages.PAGE * 40);
    for (int i = 0; i < 16; i++) {
      assertThat(longs.get(i)).as("long %d", i).isEqualTo(i + 1);
      assertThat(ints.get(i)).as("int %d", i).isEqualTo(i + 1);
    }
    longs.set(LongPages.PAGE * 40 - 1, 7);
    ints.set(IntPages.PAGE * 40 - 1, 7);
    assertThat(longs.get(LongPages.PAGE * 40 - 1)).isEqualTo(7);
    assertThat(ints.get(IntPages.PAGE * 40 - 1)).isEqualTo(7);
    assertThat(longs.get(LongPages.PAGE * 40 - 2)).isZero();
  }

  @Test
  void aSmallArrayIsOnePowerOfTwoPageAndRunsOfAPowerOfTwoStayInOnePage() {
    LongPages pages = new LongPages(5);
    assertThat(pages.capacity()).isEqualTo(16);
    pages.grow(100);
    assertThat(pages.capacity()).isEqualTo(128);
    assertThat(pages.page(0)).hasSize(128);
    pages.grow(LongPages.PAGE * 3 + 1);
    assertThat(pages.capacity()).isEqualTo(LongPages.PAGE * 4);
    for (int i = 0; i < pages.capacity(); i += 4) {
      assertThat(pages.page(i)).isSameAs(pages.page(i + 3));
    }
    assertThat(pages.page(LongPages.PAGE - 1)).isNotSameAs(pages.page(LongPages.PAGE));
  }

  @Test
  void intPagesAgreeWithAPlainArrayAcrossGrowth() {
    Random random = new Random(7);
    IntPages pages = new IntPages(0);
    int[] plain = new int[0];
    for (int round = 0; round < 30; round++) {
      int size = plain.length + random.nextInt(IntPages.PAGE);
      pages.grow(size);
      plain = Arrays.copyOf(plain, size);
      for (int i = 0; i < 3_000; i++) {
        int index = random.nextInt(size);
        int value = random.nextInt();
        pages.set(index, value);
        plain[index] = value;
      }
      for (int i = 0; i < size; i++) {
        assertThat(pages.get(i)).isEqualTo(plain[i]);
      }
    }
    assertThat((long) pages.page(pages.capacity() - 1).length * Integer.BYTES)
        .isLessThan(HUMONGOUS);
  }

  /** Records of every length up to beyond a page, zero-length ones at a page's very end too. */
  @Test
  void bytePoolRecordsStayWhereTheyWereWrittenAndNeverCrossAPage() {
    Random random = new Random(11);
    BytePool pool = new BytePool();
    for (int round = 0; round < 2; round++) {
      int[] addresses = new int[3_000];
      byte[][] records = new byte[addresses.length][];
      for (int r = 0; r < addresses.length; r++) {
        int length =
            switch (random.nextInt(20)) {
              case 0 -> 0;
              case 1 -> BytePool.PAGE + random.nextInt(1000); // a page of its own
              default -> random.nextInt(300);
            };
        byte[] record = new byte[length];
        random.nextBytes(record);
        records[r] = record;
        int address = pool.reserve(length);
        byte[] page = pool.page(address);
        int offset = BytePool.offset(address);
        assertThat(offset + length).isLessThanOrEqualTo(page.length);
        System.arraycopy(record, 0, page, offset, length);
        addresses[r] = address;
      }
      for (int r = 0; r < addresses.length; r++) {
        int offset = BytePool.offset(addresses[r]);
        byte[] page = pool.page(addresses[r]);
        assertThat(Arrays.copyOfRange(page, offset, offset + records[r].length))
            .isEqualTo(records[r]);
      }
      assertThat(pool.bytes()).isGreaterThan(100L * BytePool.PAGE);
      pool.clear();
      assertThat(pool.bytes()).isLessThanOrEqualTo(BytePool.PAGE);
    }
  }
}
