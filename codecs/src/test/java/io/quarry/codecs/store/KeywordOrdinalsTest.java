package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An event's keyword index-time field as a segment ordinal ({@link StoredEvent#keywordOrdinal}), in
 * both layouts: within one scope equal ordinals are equal values and equal values equal ordinals,
 * the ordinal's text is the value {@link StoredEvent#indexedField} reads (also after the ordinal
 * was read), and a field an event holds otherwise (several values, none, a number, a block's
 * payload column) has no ordinal but reads as before.
 */
class KeywordOrdinalsTest {
  @TempDir Path data;

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void ordinalsNameTheValuesIndexedFieldReads(BucketFormat format) throws Exception {
    IndexOptions options =
        IndexOptions.builder()
            .format(format)
            .fieldTypes(Map.of("bytes", IndexedFieldType.LONG))
            .build();
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String[] methods = {"GET", "POST", "PUT", "é"};
    List<Event> written = new ArrayList<>();
    try (EventStore store = EventStore.open(data, Map.of("main", options))) {
      for (int batch = 0; batch < 3; batch++) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
          Map<String, List<String>> fields = new LinkedHashMap<>();
          fields.put("method", List.of(methods[random.nextInt(methods.length)]));
          fields.put("ip", List.of("10.0.0." + random.nextInt(300)));
          if (random.nextInt(3) == 0) {
            fields.put("tag", List.of("a" + random.nextInt(3), "b" + random.nextInt(3)));
          }
          if (random.nextBoolean()) {
            fields.put("user", List.of("u" + random.nextInt(4)));
          }
          fields.put("bytes", List.of(Integer.toString(random.nextInt(1000))));
          events.add(
              new Event(
                  1_700_000_000_000_000L + batch * 1_000_000L + i,
                  "line " + batch + " " + i,
                  "web",
                  "/var/log/a",
                  "st",
                  fields));
        }
        store.write("main", events);
        written.addAll(events);
      }
    }
    String why = format + ", seed " + seed;
    Map<Object, Map<String, Map<Long, String>>> textsByScope = new IdentityHashMap<>();
    int[] counts = new int[2]; // events read, ordinals given
    try (EventStore store = EventStore.open(data, Map.of("main", options))) {
      store.scan(
          List.of("main"),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          event -> {
            counts[0]++;
            Map<String, Map<Long, String>> texts =
                textsByScope.computeIfAbsent(event.keywordScope(), s -> new HashMap<>());
            for (String field : List.of("method", "ip", "tag", "user", "bytes", "missing")) {
              long ordinal = event.keywordOrdinal(field);
              List<String> values = event.indexedField(field);
              if (ordinal == StoredEvent.NO_ORDINAL) {
                continue;
              }
              counts[1]++;
              assertThat(ordinal).as(why).isNotNegative();
              assertThat(values).as(why + " " + field).hasSize(1);
              String text = event.keywordText(field, ordinal);
              assertThat(text).as(why + " " + field).isEqualTo(values.get(0));
              String before = texts.computeIfAbsent(field, f -> new HashMap<>()).put(ordinal, text);
              assertThat(before).as(why + " one ordinal, one value").isIn(null, text);
            }
            assertThat(event.keywordOrdinal("method")) // read already: the values say it
                .as(why)
                .isEqualTo(StoredEvent.NO_ORDINAL);
            return true;
          });
    }
    assertThat(counts[0]).as(why).isEqualTo(written.size());
    // method and ip every event has, one value each: by ordinal in either layout
    assertThat(counts[1]).as(why).isGreaterThanOrEqualTo(2 * written.size());
    for (Map<String, Map<Long, String>> scope : textsByScope.values()) {
      scope.forEach(
          (field, texts) ->
              assertThat(new java.util.HashSet<>(texts.values()))
                  .as(why + " one value, one ordinal: " + field)
                  .hasSize(texts.size()));
      assertThat(scope).as(why).doesNotContainKeys("tag", "bytes", "missing");
    }
  }
}
