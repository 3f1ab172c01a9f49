package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupOrder} sorts groups exactly as a stable sort of their keys with {@link
 * Values#NATURAL_ORDER}, field by field.
 */
class GroupOrderTest {

  private static final String[] SHAPES = {
    "",
    "a",
    "A",
    "ab",
    "ab\0",
    "abc",
    "Abc",
    "abcdefgh",
    "abcdefghi",
    "ABCDEFGHI",
    "abcdefgh\0",
    "ÿ",
    "é",
    "ā",
    "Ω",
    "zz",
    "10.0.0.1",
    "1",
    "1.0",
    "-0",
    "0",
    "-1",
    "2e3",
    "1e-9",
    "-7.5",
    "+3",
    ".5",
    "007",
    "NaN",
    "Infinity",
    "x y",
    "Straße",
    "STRASSE"
  };

  private static final String[] ASCII_SHAPES =
      Arrays.stream(SHAPES).filter(s -> s.chars().allMatch(c -> c < 0x80)).toArray(String[]::new);

  @Test
  void agreesWithTheNaturalOrderOnOneField() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      check(random, 1, 1 + random.nextInt(round < 20 ? 40 : 3_000), round % 3 == 0);
    }
  }

  @Test
  void agreesWithTheNaturalOrderOnSeveralFields() {
    Random random = new Random(11);
    for (int round = 0; round < 100; round++) {
      check(random, 2 + random.nextInt(2), 1 + random.nextInt(800), round % 2 == 0);
    }
  }

  /** Every key ASCII: the order read from the key bytes ({@link AsciiKeyOrder}). */
  @Test
  void agreesWithTheNaturalOrderOnAsciiKeys() {
    Random random = new Random(17);
    for (int round = 0; round < 200; round++) {
      int width = round % 2 == 0 ? 1 : 2 + random.nextInt(2);
      check(random, width, 1 + random.nextInt(round < 20 ? 40 : 2_000), ASCII_SHAPES);
    }
  }

  /**
   * Session ids with one text unlike them (the benchmark's {@code RARETERM}), which shares none of
   * their common characters: the keys must still tell the ids apart, and the order stays natural.
   */
  @Test
  void sessionIdsWithOneUnlikeText() {
    Random random = new Random(19);
    GroupKeys keys = new GroupKeys(1);
    List<String> byId = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      String key =
          i == 777
              ? "RARETERM"
              : "SD" + random.nextInt(10) + "SL" + sessionLike(random).substring(2);
      if (keys.idOf(List.of(key)) == byId.size()) {
        byId.add(key);
      }
    }
    Integer[] expected = IntStream.range(0, byId.size()).boxed().toArray(Integer[]::new);
    Arrays.sort(expected, (a, b) -> natural(byId.get(a), byId.get(b)));
    assertThat(GroupOrder.of(keys, 1))
        .containsExactly(Arrays.stream(expected).mapToInt(i -> i).toArray());
  }

  /** ASCII texts sharing a start several keys long, some of them in capitals, some ending there. */
  @Test
  void asciiTextsSharingAStartLongerThanAKey() {
    Random random = new Random(23);
    String start = "GET /a/fairly/long/path/shared/by/all?q=";
    for (int round = 0; round < 40; round++) {
      GroupKeys keys = new GroupKeys(1);
      List<String> byId = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(round < 10 ? 30 : 3_000); i++) {
        String key =
            switch (random.nextInt(4)) {
              case 0 -> start.substring(0, start.length() - random.nextInt(3));
              case 1 -> start.toUpperCase(java.util.Locale.ROOT) + shape(random, ASCII_SHAPES);
              default -> start + shape(random, ASCII_SHAPES);
            };
        if (keys.idOf(List.of(key)) == byId.size()) {
          byId.add(key);
        }
      }
      Integer[] expected = IntStream.range(0, byId.size()).boxed().toArray(Integer[]::new);
      Arrays.sort(expected, (a, b) -> natural(byId.get(a), byId.get(b)));
      assertThat(GroupOrder.of(keys, 1))
          .containsExactly(Arrays.stream(expected).mapToInt(i -> i).toArray());
    }
  }

  @Test
  void sessionIdsOfTheBenchmarkShape() {
    Random random = new Random(5);
    check(random, 1, 50_000, false);
  }

  /**
   * Texts sharing a long start (the packed keys skip it), among them that start alone, the start in
   * capitals (the same when folded), one differing just after it and numbers.
   */
  @Test
  void textsSharingALongStart() {
    Random random = new Random(13);
    for (int round = 0; round < 30; round++) {
      GroupKeys keys = new GroupKeys(1);
      List<String> byId = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        String key =
            switch (random.nextInt(9)) {
              case 0 -> "sd0sl";
              case 1 -> "SD0SL" + shape(random);
              case 2 -> "SD" + random.nextInt(10) + "SL" + sessionLike(random); // same 4th, 5th
              case 3 -> Integer.toString(random.nextInt(100));
              default -> "sd0sl" + sessionLike(random).substring(random.nextInt(3));
            };
        if (keys.idOf(List.of(key)) == byId.size()) {
          byId.add(key);
        }
      }
      Integer[] expected = IntStream.range(0, byId.size()).boxed().toArray(Integer[]::new);
      Arrays.sort(expected, (a, b) -> natural(byId.get(a), byId.get(b)));
      assertThat(GroupOrder.of(keys, 1))
          .containsExactly(Arrays.stream(expected).mapToInt(i -> i).toArray());
    }
  }

  /**
   * A likely order left with the keys ({@link GroupKeys#likelyOrder(int[])}, as {@link
   * EntryPartial} leaves its entries' order): the answer when it is the natural order, checked, not
   * trusted — the keys' byte order (a sorted dictionary's) differs where capitals meet {@code
   * [\]^_`}, where numbers are, and beyond ASCII; a shuffled order is never the answer. Each time
   * the answer is the stable natural sort's.
   */
  @Test
  void aLikelyOrderIsTheAnswerOnlyWhereItIsTheNaturalOrder() {
    Random random = new Random(29);
    String[] letters = {"Ab", "ab", "B", "_x", "[", "zz", "Q", "q_", "QA"};
    int taken = 0;
    for (int round = 0; round < 300; round++) {
      GroupKeys keys = new GroupKeys(1);
      List<String> byId = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(round < 50 ? 20 : 2_000); i++) {
        String key =
            switch (round % 4) {
              case 0 -> sessionLike(random);
              case 1 -> shape(random, letters);
              case 2 -> shape(random, ASCII_SHAPES);
              default -> shape(random);
            };
        if (keys.idOf(List.of(key)) == byId.size()) {
          byId.add(key);
        }
      }
      Integer[] expected = IntStream.range(0, byId.size()).boxed().toArray(Integer[]::new);
      Arrays.sort(expected, (a, b) -> natural(byId.get(a), byId.get(b)));
      int[] answer = Arrays.stream(expected).mapToInt(i -> i).toArray();
      Integer[] bytes = IntStream.range(0, byId.size()).boxed().toArray(Integer[]::new);
      Arrays.sort(
          bytes,
          (a, b) ->
              Arrays.compareUnsigned(
                  byId.get(a).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                  byId.get(b).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      int[] likely =
          random.nextInt(5) == 0
              ? IntStream.range(0, byId.size()).toArray()
              : Arrays.stream(bytes).mapToInt(i -> i).toArray();
      keys.likelyOrder(likely);
      int[] order = GroupOrder.of(keys, 1);
      assertThat(order).as("round " + round + ": " + byId).containsExactly(answer);
      if (Arrays.equals(likely, answer) && byId.size() > 1) {
        taken++;
      }
    }
    assertThat(taken).as("rounds whose likely order was the answer").isGreaterThan(30);
  }

  /** A likely order is forgotten once a key is added: the keys it names are not all the keys. */
  @Test
  void aLikelyOrderIsForgottenWhenAKeyIsAdded() {
    GroupKeys keys = new GroupKeys(1);
    keys.idOf(List.of("b"));
    keys.idOf(List.of("c"));
    keys.likelyOrder(new int[] {0, 1});
    assertThat(keys.likelyOrder()).containsExactly(0, 1);
    keys.idOf(List.of("b")); // there already
    assertThat(keys.likelyOrder()).containsExactly(0, 1);
    keys.idOf(List.of("a"));
    assertThat(keys.likelyOrder()).isNull();
    assertThat(GroupOrder.of(keys, 1)).containsExactly(2, 0, 1);
  }

  private static void check(Random random, int width, int groups, boolean shapes) {
    check(random, width, groups, shapes ? SHAPES : null);
  }

  /**
   * {@link Values#NATURAL_ORDER}, numbers equal in value ({@code 1}, {@code 1.0}, {@code 007} and
   * {@code 7}) then by their exact text — the answer's order does not follow group ids (arrival).
   */
  private static int natural(String a, String b) {
    int c = Values.NATURAL_ORDER.compare(a, b);
    return c == 0 && !Double.isNaN(Values.toNumber(a)) ? a.compareTo(b) : c;
  }

  /** Keys drawn from {@code shapes}, or session-like keys when null. */
  private static void check(Random random, int width, int groups, String[] shapes) {
    GroupKeys keys = new GroupKeys(width);
    List<List<String>> byId = new ArrayList<>();
    for (int attempt = 0; attempt < 2 * groups && byId.size() < groups; attempt++) {
      List<String> key = new ArrayList<>();
      for (int k = 0; k < width; k++) {
        key.add(shapes != null ? shape(random, shapes) : sessionLike(random));
      }
      if (keys.idOf(key) == byId.size()) { // a new group
        byId.add(key);
      }
    }
    Comparator<Integer> natural =
        (a, b) -> {
          for (int k = 0; k < width; k++) {
            int c = natural(byId.get(a).get(k), byId.get(b).get(k));
            if (c != 0) {
              return c;
            }
          }
          return 0;
        };
    Integer[] expected = IntStream.range(0, byId.size()).boxed().toArray(Integer[]::new);
    Arrays.sort(expected, natural); // stable: ties keep id order
    int[] order = GroupOrder.of(keys, width);
    assertThat(order).containsExactly(Arrays.stream(expected).mapToInt(i -> i).toArray());
  }

  private static String shape(Random random) {
    return shape(random, SHAPES);
  }

  private static String shape(Random random, String[] shapes) {
    String base = shapes[random.nextInt(shapes.length)];
    return random.nextInt(4) == 0 ? base + shapes[random.nextInt(shapes.length)] : base;
  }

  private static String sessionLike(Random random) {
    StringBuilder id = new StringBuilder("SD");
    int length = 2 + random.nextInt(14);
    for (int i = 0; i < length; i++) {
      id.append("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".charAt(random.nextInt(36)));
    }
    return random.nextInt(50) == 0
        ? id.toString().toLowerCase(java.util.Locale.ROOT)
        : id.toString();
  }
}
