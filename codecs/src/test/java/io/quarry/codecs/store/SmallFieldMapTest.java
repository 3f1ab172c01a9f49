package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** An event's fields as {@link SmallFieldMap} holds them behave as {@code Map.copyOf}'s map. */
class SmallFieldMapTest {
  @Test
  void behavesAsTheMapItCopiesInItsOrder() {
    Random random = new Random(23);
    for (int round = 0; round < 500; round++) {
      Map<String, List<String>> given = new LinkedHashMap<>();
      int size = random.nextInt(SmallFieldMap.MAX_FIELDS + 4);
      for (int f = 0; f < size; f++) {
        given.put("f" + random.nextInt(20), List.of("v" + random.nextInt(5)));
      }
      Map<String, List<String>> copy = SmallFieldMap.copyOf(given);
      Map<String, List<String>> reference = Map.copyOf(given);
      assertThat(copy).isEqualTo(reference).hasSameHashCodeAs(reference);
      assertThat(reference).isEqualTo(copy);
      assertThat(copy.size()).isEqualTo(given.size());
      assertThat(copy.isEmpty()).isEqualTo(given.isEmpty());
      for (int k = 0; k < 22; k++) {
        assertThat(copy.get("f" + k)).isEqualTo(given.get("f" + k));
        assertThat(copy.containsKey("f" + k)).isEqualTo(given.containsKey("f" + k));
      }
      assertThatThrownBy(() -> copy.get(null)).isInstanceOf(NullPointerException.class);
      assertThatThrownBy(() -> copy.containsKey(null)).isInstanceOf(NullPointerException.class);
      assertThat(copy.get(7)).isNull();
      if (given.size() <= SmallFieldMap.MAX_FIELDS) {
        assertThat(new ArrayList<>(copy.keySet())).isEqualTo(new ArrayList<>(given.keySet()));
        assertThat(SmallFieldMap.copyOf(copy)).isSameAs(copy);
      }
      Map<String, List<String>> plain = new HashMap<>(copy);
      assertThat(plain).isEqualTo(given);
      assertThatThrownBy(() -> copy.put("x", List.of()))
          .isInstanceOf(UnsupportedOperationException.class);
      if (!copy.isEmpty()) {
        assertThatThrownBy(() -> copy.entrySet().iterator().next().setValue(List.of()))
            .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> copy.keySet().clear())
            .isInstanceOf(UnsupportedOperationException.class);
      }
    }
  }

  @Test
  void refusesNullsAsMapCopyOf() {
    Map<String, List<String>> nullValue = new HashMap<>();
    nullValue.put("f", null);
    assertThatThrownBy(() -> SmallFieldMap.copyOf(nullValue))
        .isInstanceOf(NullPointerException.class);
    Map<String, List<String>> nullKey = new HashMap<>();
    nullKey.put(null, List.of("v"));
    assertThatThrownBy(() -> SmallFieldMap.copyOf(nullKey))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new Event(0, "r", "h", "s", "st", nullValue))
        .isInstanceOf(NullPointerException.class);
  }

  /**
   * A map made from its entries (how the access-log extraction hands its fields to {@link Event})
   * is the map {@link SmallFieldMap#copyOf} makes of the same fields, kept as is by the event; what
   * {@code Map.ofEntries} refuses it refuses.
   */
  @Test
  void madeFromEntriesAsCopied() {
    Map<String, List<String>> given = new LinkedHashMap<>();
    given.put("clientip", List.of("10.0.0.1"));
    given.put("method", List.of("GET"));
    given.put("status", List.of("404"));
    Map<String, List<String>> made =
        SmallFieldMap.ofEntries(
            Map.entry("clientip", List.of("10.0.0.1")),
            Map.entry("method", List.of("GET")),
            Map.entry("status", List.of("404")));
    assertThat(made).isEqualTo(given).hasSameHashCodeAs(given);
    assertThat(new ArrayList<>(made.keySet())).isEqualTo(new ArrayList<>(given.keySet()));
    assertThat(new Event(0, "r", "h", "s", "st", made).indexedFields()).isSameAs(made);
    assertThatThrownBy(
            () ->
                SmallFieldMap.ofEntries(
                    Map.entry("status", List.of("404")), Map.entry("status", List.of("200"))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SmallFieldMap.ofEntries(Map.entry("a", List.of("1")), null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> SmallFieldMap.ofEntries())
        .isInstanceOf(IllegalArgumentException.class);
    List<Map.Entry<String, List<String>>> many = new ArrayList<>();
    for (int f = 0; f <= SmallFieldMap.MAX_FIELDS; f++) {
      many.add(Map.entry("f" + f, List.of("v")));
    }
    @SuppressWarnings("unchecked")
    Map.Entry<String, List<String>>[] tooMany = many.toArray(new Map.Entry[0]);
    assertThatThrownBy(() -> SmallFieldMap.ofEntries(tooMany))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
