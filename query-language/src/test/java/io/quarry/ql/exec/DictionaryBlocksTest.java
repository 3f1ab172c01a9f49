package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.BlockCopies;
import io.quarry.ql.engine.DictionaryBlockBuilder;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import io.quarry.ql.eval.ColumnBlocks;
import io.quarry.ql.eval.ConstantColumn;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * String blocks in dictionary and constant form through the engine: built by {@link
 * DictionaryBlockBuilder} (the scan's default fields), grouped by {@code stats} by ordinal, kept by
 * {@link BlockCopies#take}, made by {@code eval}'s text literals — each answering exactly as the
 * same values in a plain block.
 */
class DictionaryBlocksTest {
  private static final List<String> HOSTS = List.of("web-1", "web-2", "db", "");

  private static List<Map<String, Object>> randomRows(Random random, int count) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("_time", 1_000_000L * random.nextInt(100));
      if (random.nextInt(8) != 0) {
        row.put("host", HOSTS.get(random.nextInt(random.nextBoolean() ? 1 : HOSTS.size())));
      }
      row.put("bytes", (long) random.nextInt(1000));
      rows.add(row);
    }
    return rows;
  }

  /**
   * {@code page} with its {@code host} column rewritten through a {@link DictionaryBlockBuilder}.
   */
  private static Page withDictionaryHost(Page page) {
    Page rewritten = withDictionary(page, "host");
    assertThat(((BytesBlock) rewritten.block("host")).dictionary()).isNotNull();
    return rewritten;
  }

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  private static List<Map<String, Object>> statsOver(List<Page> pages) {
    return statsOver(stats("stats count, sum(bytes) AS total, dc(bytes) AS kinds by host"), pages);
  }

  @Test
  void statsByADictionaryColumnAnswersAsByThePlainColumn() {
    Random random = new Random(7);
    for (int round = 0; round < 20; round++) {
      List<Page> plain = new ArrayList<>();
      List<Page> dictionary = new ArrayList<>();
      for (int page = 0; page < 1 + random.nextInt(5); page++) {
        Page built =
            TestPages.page(
                TestPages.cells(randomRows(random, 1 + random.nextInt(200))),
                List.of("_time", "host", "bytes"));
        plain.add(built);
        dictionary.add(withDictionaryHost(built));
      }
      List<Map<String, Object>> expected = statsOver(plain);
      assertThat(statsOver(dictionary)).isEqualTo(expected);
    }
  }

  /** {@code column} of {@code page} rewritten through a {@link DictionaryBlockBuilder}. */
  private static Page withDictionary(Page page, String column) {
    Block plain = page.block(column);
    DictionaryBlockBuilder builder = new DictionaryBlockBuilder(page.positionCount());
    for (int p = 0; p < page.positionCount(); p++) {
      builder.append(plain.isNull(p) ? null : ((BytesBlock) plain).getString(p));
    }
    return page.withColumn(column, builder.build(16));
  }

  /**
   * By two string fields in dictionary form (each combination of entries looked up once per page,
   * {@code EntryGroups}), one in dictionary and one plain, or both plain: the same groups in the
   * same order, the same counts; nulls and constants included.
   */
  @Test
  void statsByTwoDictionaryColumnsAnswersAsByThePlainColumns() {
    Random random = new Random(11);
    List<String> methods = List.of("GET", "POST", "PUT");
    StatsCommand command = stats("stats count, sum(bytes) AS total by host, method");
    for (int round = 0; round < 30; round++) {
      List<Page> plain = new ArrayList<>();
      List<Page> both = new ArrayList<>();
      List<Page> one = new ArrayList<>();
      for (int page = 0; page < 1 + random.nextInt(5); page++) {
        List<Map<String, Object>> rows = randomRows(random, 1 + random.nextInt(200));
        for (Map<String, Object> row : rows) {
          if (random.nextInt(10) != 0) {
            row.put("method", methods.get(random.nextInt(round % 4 == 0 ? 1 : methods.size())));
          }
        }
        Page built =
            TestPages.page(TestPages.cells(rows), List.of("_time", "host", "method", "bytes"));
        plain.add(built);
        both.add(withDictionary(withDictionary(built, "host"), "method"));
        one.add(withDictionary(built, "method"));
      }
      assertThat(((BytesBlock) both.get(0).block("method")).dictionary()).isNotNull();
      List<Map<String, Object>> expected = statsOver(command, plain);
      assertThat(statsOver(command, both)).as("round " + round).isEqualTo(expected);
      assertThat(statsOver(command, one)).as("round " + round).isEqualTo(expected);
    }
  }

  /**
   * By two columns whose pages share their dictionaries (the very same objects, as a scan's ordinal
   * columns share a slice's: {@code EntryGroups} keeps the ids of their combinations from page to
   * page), a dictionary grown into a new object part way (the ids numbered again) and an earlier
   * one back after it: the same groups and counts as over the plain columns.
   */
  @Test
  void statsOverPagesSharingDictionariesAnswersAsOverPlainColumns() {
    Random random = new Random(17);
    List<String> methods = List.of("GET", "POST", "PUT", "HEAD");
    List<String> hosts = List.of("web-1", "web-2", "db-1");
    BytesBlock hostEntries = entries(hosts);
    BytesBlock threeMethods = entries(methods.subList(0, 3));
    // another dictionary, its ordinals meaning other values: ids kept from the first are wrong
    BytesBlock fourMethods = entries(List.of("PUT", "HEAD", "GET", "POST"));
    StatsCommand command = stats("stats count, sum(bytes) AS total by host, method");
    for (int round = 0; round < 20; round++) {
      List<Page> plain = new ArrayList<>();
      List<Page> shared = new ArrayList<>();
      int pages = 2 + random.nextInt(6);
      for (int page = 0; page < pages; page++) {
        BytesBlock methodEntries =
            page >= pages / 3 && page < 2 * pages / 3 ? fourMethods : threeMethods;
        List<Map<String, Object>> rows = randomRows(random, 1 + random.nextInt(100));
        for (Map<String, Object> row : rows) {
          row.put("host", hosts.get(random.nextInt(hosts.size())));
          row.put("method", methods.get(random.nextInt(methodEntries.positionCount())));
        }
        Page built =
            TestPages.page(TestPages.cells(rows), List.of("_time", "host", "method", "bytes"));
        plain.add(built);
        shared.add(withEntries(withEntries(built, "host", hostEntries), "method", methodEntries));
      }
      assertThat(((BytesBlock) shared.get(0).block("host")).dictionary()).isSameAs(hostEntries);
      assertThat(statsOver(command, shared))
          .as("round " + round)
          .isEqualTo(statsOver(command, plain));
    }
  }

  private static BytesBlock entries(List<String> values) {
    BytesBlock.Builder builder = BytesBlock.builder(values.size());
    values.forEach(v -> builder.append(v.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    return builder.build();
  }

  /**
   * {@code column} of {@code page} as ordinals into {@code dictionary} (which holds its values).
   */
  private static Page withEntries(Page page, String column, BytesBlock dictionary) {
    BytesBlock plain = (BytesBlock) page.block(column);
    BytesBlock.OrdinalBuilder builder = BytesBlock.ordinalBuilder(dictionary, page.positionCount());
    for (int p = 0; p < page.positionCount(); p++) {
      int ordinal = 0;
      while (!dictionary.getString(ordinal).equals(plain.getString(p))) {
        ordinal++;
      }
      builder.appendOrdinal(ordinal);
    }
    return page.withColumn(column, builder.build());
  }

  private static List<Map<String, Object>> statsOver(StatsCommand command, List<Page> pages) {
    HashAggregationOperator operator =
        new HashAggregationOperator(command, MemoryTracker.unbounded("stats"), 16);
    pages.forEach(operator::addInput);
    operator.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      out.add(page);
    }
    operator.close();
    return TestPages.rows(out);
  }

  /**
   * {@code dedup} and {@code top} over pages whose string fields are dictionary blocks ({@code
   * PageDedup}'s text per entry, {@code top}'s combinations of entries once per page) answer as
   * over the same pages plain.
   */
  @Test
  void dedupAndTopOverDictionaryColumnsAnswerAsOverPlainColumns() {
    Random random = new Random(5);
    List<String> methods = List.of("GET", "POST", "PUT");
    for (String command :
        List.of(
            "dedup host",
            "dedup 2 host keepempty=true",
            "dedup consecutive=true host",
            "top host",
            "top limit=2 host, method",
            "rare method",
            "top method by host")) {
      for (int round = 0; round < 10; round++) {
        List<Page> plain = new ArrayList<>();
        List<Page> dictionary = new ArrayList<>();
        for (int page = 0; page < 1 + random.nextInt(5); page++) {
          List<Map<String, Object>> rows = randomRows(random, 1 + random.nextInt(100));
          for (Map<String, Object> row : rows) {
            if (random.nextInt(10) != 0) {
              row.put("method", methods.get(random.nextInt(round % 3 == 0 ? 1 : 3)));
            }
          }
          Page built =
              TestPages.page(TestPages.cells(rows), List.of("_time", "host", "method", "bytes"));
          plain.add(built);
          dictionary.add(withDictionary(withDictionary(built, "host"), "method"));
        }
        List<Map<String, Object>> expected =
            TestPages.rows(
                OperatorTestCase.drive(
                    OperatorTestCase.reduce(
                        command, 64, MemoryAccount.unbounded("plain"), new ArrayList<>()),
                    plain));
        List<Map<String, Object>> answer =
            TestPages.rows(
                OperatorTestCase.drive(
                    OperatorTestCase.reduce(
                        command, 64, MemoryAccount.unbounded("dictionary"), new ArrayList<>()),
                    dictionary));
        assertThat(answer).as(command + ", round " + round).isEqualTo(expected);
      }
    }
  }

  @Test
  void statsByHandOverADictionaryColumn() {
    // host: web-1, web-1, (none), db, web-1 → db: 1 event of 7 bytes; web-1: 3 of 1 + 2 + 5
    DictionaryBlockBuilder hosts = new DictionaryBlockBuilder(5);
    for (String host : new String[] {"web-1", "web-1", null, "db", "web-1"}) {
      hosts.append(host);
    }
    Page page =
        TestPages.page(
                TestPages.cells(
                    List.of(
                        Map.of("bytes", 1L),
                        Map.of("bytes", 2L),
                        Map.of("bytes", 3L),
                        Map.of("bytes", 7L),
                        Map.of("bytes", 5L))),
                List.of("bytes"))
            .withColumn("host", hosts.build(5));
    assertThat(statsOver(List.of(page)))
        .containsExactly(
            Map.of("host", "db", "count", 1L, "total", 7L, "kinds", 1L),
            Map.of("host", "web-1", "count", 3L, "total", 8L, "kinds", 3L));
  }

  @Test
  void oneValueAtEveryPositionBuildsAConstant() {
    DictionaryBlockBuilder builder = new DictionaryBlockBuilder(3);
    builder.append("main");
    builder.append(new String("main"));
    builder.append("main");
    BytesBlock block = builder.build(3);
    assertThat(block.isConstant()).isTrue();
    assertThat(block.getValues(2)).containsExactly("main");
    assertThat(builder.positionCount()).isZero();
    builder.append("main");
    builder.append(null);
    assertThat(builder.build(3).isConstant()).isFalse();
  }

  @Test
  void takingPositionsKeepsTheForm() {
    MemoryAccount account = new MemoryAccount("take", 1L << 30);
    BlockFactory factory = new BlockFactory(account);
    DictionaryBlockBuilder builder = new DictionaryBlockBuilder(6);
    for (String host : new String[] {"a", "b", null, "a", "c", "b"}) {
      builder.append(host);
    }
    BytesBlock dictionary = builder.build(6);
    int[] positions = {5, 2, 0, 0};
    BytesBlock taken = (BytesBlock) BlockCopies.take(factory, dictionary, positions, 4);
    assertThat(taken.dictionary()).isSameAs(dictionary.dictionary());
    assertThat(taken.isNull(1)).isTrue();
    assertThat(List.of(taken.getString(0), taken.getString(2), taken.getString(3)))
        .containsExactly("b", "a", "a");
    BytesBlock constant = BytesBlock.constant("GET", 10);
    BytesBlock takenConstant = (BytesBlock) BlockCopies.take(factory, constant, positions, 3);
    assertThat(takenConstant.isConstant()).isTrue();
    assertThat(takenConstant.positionCount()).isEqualTo(3);
    assertThat(takenConstant.getString(2)).isEqualTo("GET");
    assertThat(account.used()).isEqualTo(taken.ramBytesUsed() + takenConstant.ramBytesUsed());
    factory.release(taken);
    factory.release(takenConstant);
    assertThat(account.used()).isZero();
  }

  /**
   * A copy of a dictionary block's positions holds the same dictionary: the account counts it once,
   * with whichever of the two is released last (a copy that counted it again would leave the
   * account at the copy's whole size plus the source's).
   */
  @Test
  void aCopyOfADictionaryBlockCountsOnlyItsOrdinals() {
    MemoryAccount account = new MemoryAccount("take", 1L << 30);
    BlockFactory factory = new BlockFactory(account);
    DictionaryBlockBuilder builder = new DictionaryBlockBuilder(6);
    for (String uri : new String[] {"/index.html", "/a/b", null, "/index.html", "/c", "/a/b"}) {
      builder.append(uri);
    }
    BytesBlock source = builder.build(6);
    factory.reserve(source);
    long dictionary = source.dictionary().ramBytesUsed();
    BytesBlock taken = (BytesBlock) BlockCopies.take(factory, source, new int[] {4, 0}, 2);
    assertThat(account.used()).isEqualTo(source.ramBytesUsed() + taken.ramBytesUsed() - dictionary);
    Page filtered =
        BlockCopies.filter(
            new Page(
                new io.quarry.plugin.api.data.Schema(
                    List.of(
                        new io.quarry.plugin.api.data.Schema.Column(
                            "uri", io.quarry.plugin.api.data.DataType.STRING))),
                List.of(source)),
            new int[] {1},
            1);
    assertThat(((BytesBlock) filtered.block(0)).dictionary()).isSameAs(source.dictionary());
    assertThat(account.used()) // an unaccounted copy reserves nothing here
        .isEqualTo(source.ramBytesUsed() + taken.ramBytesUsed() - dictionary);
    factory.release(source);
    assertThat(account.used()).isEqualTo(taken.ramBytesUsed());
    factory.release(taken);
    assertThat(account.used()).isZero();
  }

  @Test
  void takingPositionsKeepsMultivaluesInEitherForm() {
    MemoryAccount account = new MemoryAccount("take", 1L << 30);
    BlockFactory factory = new BlockFactory(account);
    BytesBlock entries = BytesBlock.builder(3).append("a").append("b").append("c").build();
    BytesBlock dictionary =
        BytesBlock.ordinalBuilder(entries, 5)
            .appendOrdinal(0)
            .beginPositionEntry()
            .appendOrdinal(2)
            .appendOrdinal(1)
            .appendOrdinal(2)
            .endPositionEntry()
            .appendNull()
            .build();
    BytesBlock plain =
        BytesBlock.builder(4)
            .append("x")
            .beginPositionEntry()
            .append("y")
            .append("z")
            .endPositionEntry()
            .appendNull()
            .build();
    int[] positions = {1, 2, 0, 1};
    Map<BytesBlock, List<List<String>>> expected = new LinkedHashMap<>();
    expected.put(
        dictionary,
        List.of(List.of("c", "b", "c"), List.of(), List.of("a"), List.of("c", "b", "c")));
    expected.put(plain, List.of(List.of("y", "z"), List.of(), List.of("x"), List.of("y", "z")));
    expected.forEach(
        (source, values) -> {
          BytesBlock taken = (BytesBlock) BlockCopies.take(factory, source, positions, 4);
          assertThat(taken.dictionary()).isSameAs(source.dictionary());
          List<List<String>> actual = new ArrayList<>();
          for (int p = 0; p < taken.positionCount(); p++) {
            List<String> position = new ArrayList<>();
            for (int v = 0; v < taken.getValueCount(p); v++) {
              position.add(taken.getStringValue(taken.getFirstValueIndex(p) + v));
            }
            actual.add(position);
          }
          assertThat(actual).isEqualTo(values);
          assertThat(taken.isNull(1)).isTrue();
          factory.release(taken);
        });
    assertThat(account.used()).isZero();
  }

  @Test
  void aTextLiteralWrittenToAFieldIsAConstantBlock() {
    Block block = ColumnBlocks.block("method", new ConstantColumn("GET", 4));
    assertThat(block)
        .isInstanceOfSatisfying(BytesBlock.class, b -> assertThat(b.isConstant()).isTrue());
    assertThat(block.getValues(3)).containsExactly("GET");
    Block number = ColumnBlocks.block("n", new ConstantColumn(5L, 4));
    assertThat(number.getValues(3)).containsExactly(5L);
  }
}
