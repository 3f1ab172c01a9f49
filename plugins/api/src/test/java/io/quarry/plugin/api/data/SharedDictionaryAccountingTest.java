package io.quarry.plugin.api.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A dictionary several string blocks hold is reserved once per account: with the first block that
 * holds it, released with the last; each block's own ordinals are reserved and released with it.
 */
class SharedDictionaryAccountingTest {
  private static BytesBlock dictionary(int entries) {
    BytesBlock.Builder builder = BytesBlock.builder(entries);
    for (int i = 0; i < entries; i++) {
      builder.append("value number " + i);
    }
    return builder.build();
  }

  private static BytesBlock ordinals(BlockFactory factory, BytesBlock dictionary, int... ords) {
    BytesBlock.OrdinalBuilder builder =
        factory.newOrdinalBytesBlockBuilder(dictionary, ords.length);
    for (int ord : ords) {
      if (ord < 0) {
        builder.appendNull();
      } else {
        builder.appendOrdinal(ord);
      }
    }
    return builder.build();
  }

  private static long own(BytesBlock block) {
    return block.ramBytesUsed() - block.dictionary().ramBytesUsed();
  }

  @Test
  void aFilteredCopyOverTheSameDictionaryDoesNotCountItAgain() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    BlockFactory factory = new BlockFactory(account);
    BytesBlock dictionary = dictionary(100);
    BytesBlock page = ordinals(factory, dictionary, 0, 5, 99, -1, 5, 7);
    assertThat(account.used()).isEqualTo(page.ramBytesUsed());
    BytesBlock copy = ordinals(factory, dictionary, 5, 99); // what a filter keeps
    assertThat(own(copy)).isLessThan(dictionary.ramBytesUsed());
    assertThat(account.used()).isEqualTo(page.ramBytesUsed() + own(copy));
    assertThat(account.holders(dictionary)).isEqualTo(2);

    factory.release(page); // the source goes first: the copy still holds the dictionary
    assertThat(account.used()).isEqualTo(copy.ramBytesUsed());
    factory.release(copy);
    assertThat(account.used()).isZero();
    assertThat(account.holders(dictionary)).isZero();
  }

  @Test
  void theDictionaryIsReleasedWithTheLastHolderWhateverTheOrder() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    BlockFactory factory = new BlockFactory(account);
    BytesBlock dictionary = dictionary(10);
    List<BytesBlock> blocks = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      blocks.add(ordinals(factory, dictionary, i, i + 1, -1));
    }
    long owns = blocks.stream().mapToLong(SharedDictionaryAccountingTest::own).sum();
    assertThat(account.used()).isEqualTo(owns + dictionary.ramBytesUsed());
    for (int i : new int[] {3, 0, 4, 1}) {
      factory.release(blocks.get(i));
      owns -= own(blocks.get(i));
      assertThat(account.used()).isEqualTo(owns + dictionary.ramBytesUsed());
    }
    factory.release(blocks.get(2));
    assertThat(account.used()).isZero();
  }

  @Test
  void factoriesOfOneAccountShareTheCountAndAccountsEachHoldTheirOwn() {
    MemoryAccount one = MemoryAccount.unbounded("one");
    MemoryAccount other = MemoryAccount.unbounded("other");
    BytesBlock dictionary = dictionary(20);
    BytesBlock a = ordinals(new BlockFactory(one), dictionary, 1, 2);
    BytesBlock b = ordinals(new BlockFactory(one), dictionary, 3);
    BytesBlock c = ordinals(new BlockFactory(other), dictionary, 4);
    assertThat(one.used()).isEqualTo(a.ramBytesUsed() + own(b));
    assertThat(other.used()).isEqualTo(c.ramBytesUsed());
    new BlockFactory(one).release(a);
    new BlockFactory(one).release(b);
    new BlockFactory(other).release(c);
    assertThat(one.used()).isZero();
    assertThat(other.used()).isZero();
  }

  @Test
  void anAdoptedBlockAndAConstantCountTheirDictionaryOnce() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    BlockFactory factory = new BlockFactory(account);
    BytesBlock dictionary = dictionary(3);
    BytesBlock built =
        BytesBlock.ordinalBuilder(dictionary, 2).appendOrdinal(2).appendOrdinal(0).build();
    assertThat(account.used()).isZero(); // built outside the factory: nothing reserved
    factory.reserve(built);
    factory.reserve(built); // adopted twice (two owners): the dictionary once
    assertThat(account.used()).isEqualTo(built.ramBytesUsed() + own(built));
    factory.release(built);
    factory.release(built);
    assertThat(account.used()).isZero();

    BytesBlock constant = factory.newConstantBytesBlock("GET", 1000);
    assertThat(account.used()).isEqualTo(constant.ramBytesUsed());
    factory.release(constant);
    assertThat(account.used()).isZero();
  }

  @Test
  void aDictionaryOverTheLimitReservesNothingAndIsCountedByTheNextHolder() {
    BytesBlock dictionary = dictionary(1000);
    BytesBlock sample = BytesBlock.ordinalBuilder(dictionary, 1).appendOrdinal(0).build();
    long limit = own(sample) + dictionary.ramBytesUsed() / 2; // room for ordinals, not the entries
    MemoryAccount account = new MemoryAccount("search 9", limit);
    BlockFactory factory = new BlockFactory(account);
    assertThatThrownBy(() -> ordinals(factory, dictionary, 0))
        .isInstanceOf(MemoryLimitExceededException.class);
    assertThat(account.used()).isZero();
    assertThat(account.holders(dictionary)).isZero();

    MemoryAccount roomy = MemoryAccount.unbounded("roomy");
    BlockFactory enough = new BlockFactory(roomy);
    BytesBlock block = ordinals(enough, dictionary, 0);
    assertThat(roomy.used()).isEqualTo(block.ramBytesUsed());
    enough.release(block);
    assertThat(roomy.used()).isZero();
  }

  @Test
  void threadsTakingAndDroppingCopiesLeaveNothingReserved() throws Exception {
    MemoryAccount account = MemoryAccount.unbounded("test");
    BytesBlock dictionary = dictionary(50);
    BlockFactory factory = new BlockFactory(account);
    BytesBlock source = ordinals(factory, dictionary, 1, 2, 3);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(
            pool.submit(
                () -> {
                  BlockFactory mine = new BlockFactory(account);
                  for (int i = 0; i < 2000; i++) {
                    BytesBlock copy = ordinals(mine, dictionary, (seed + i) % 50);
                    mine.release(copy);
                  }
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(account.used()).isEqualTo(source.ramBytesUsed());
    factory.release(source);
    assertThat(account.used()).isZero();
  }
}
