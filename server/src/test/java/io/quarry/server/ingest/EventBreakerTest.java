package io.quarry.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.IndexedFieldType;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.SourcetypeSettings;
import io.quarry.server.sourcetype.SourcetypeSettings.IndexExtractionSettings;
import io.quarry.server.sourcetype.Sourcetypes;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventBreakerTest {
  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");
  private static final long NOW_MICROS = NOW.getEpochSecond() * 1_000_000L;

  private static EventBreaker.Result breakWith(Sourcetype sourcetype, String text) {
    return new EventBreaker(sourcetype, "h", "src", NOW)
        .breakEvents(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private static SourcetypeSettings.Builder settings() {
    return new SourcetypeSettings.Builder();
  }

  @Test
  void javaStackTracesStayInTheirEvent() {
    String log =
        """
        2026-03-10 10:00:00,001 INFO  [main] app.Server - started
        2026-03-10 10:00:01,002 ERROR [req-7] app.Handler - request failed
        java.lang.IllegalStateException: boom
        \tat app.Handler.handle(Handler.java:42)
        \tat app.Server.serve(Server.java:7)
        Caused by: java.io.IOException: disk
        \t... 2 more
        2026-03-10 10:00:02,003 WARN  [main] app.Server - slow
        """;
    EventBreaker.Result result = breakWith(Sourcetypes.builtIn().forName("log4j"), log);
    assertThat(result.events()).hasSize(3);
    Event failure = result.events().get(1);
    assertThat(failure.raw())
        .startsWith("2026-03-10 10:00:01,002 ERROR")
        .contains("\tat app.Server.serve(Server.java:7)")
        .endsWith("\t... 2 more");
    assertThat(failure.timeMicros())
        .isEqualTo(Instant.parse("2026-03-10T10:00:01.002Z").toEpochMilli() * 1000);
    assertThat(Sourcetypes.builtIn().forName("log4j").extract(failure.raw()))
        .containsEntry("level", List.of("ERROR"));
  }

  @Test
  void mergingStopsAtMaxLines() {
    Sourcetype sourcetype =
        Sourcetype.from("t", settings().breakOnlyBefore("^START").maxLines(3).build());
    String text = "START 1\na\nb\nc\nd\nSTART 2\n";
    assertThat(breakWith(sourcetype, text).events())
        .extracting(Event::raw)
        .containsExactly("START 1\na\nb", "c\nd", "START 2");
  }

  @Test
  void aLineBreakerGroupSeparatesEventsAndIsDropped() {
    Sourcetype sourcetype = Sourcetype.from("t", settings().lineBreaker("(;;)\\d").build());
    assertThat(breakWith(sourcetype, "a 1;;2 b;;3 c").events())
        .extracting(Event::raw)
        .containsExactly("a 1", "2 b", "3 c");
    assertThatThrownBy(() -> Sourcetype.from("t", settings().lineBreaker(";;").build()))
        .hasMessageContaining("sourcetype 't': lineBreaker needs a capturing group");
  }

  @Test
  void lineEndsOfEveryKindAndBlankLines() {
    Sourcetype generic = Sourcetypes.builtIn().forName("generic_single_line");
    assertThat(breakWith(generic, "one\r\n\r\n  \ntwo\nthree").events())
        .extracting(Event::raw)
        .containsExactly("one", "two", "three");
  }

  @Test
  void longEventsAreCutAtTruncateBytesOnACharacterBoundaryAndCounted() {
    Sourcetype sourcetype = Sourcetype.from("t", settings().truncate(10).build());
    EventBreaker.Result result = breakWith(sourcetype, "0123456789abc\nshort\nééééééé\n");
    assertThat(result.events())
        .extracting(Event::raw)
        .containsExactly("0123456789", "short", "ééééé");
    assertThat(result.truncated()).isEqualTo(2);
  }

  @Test
  void eventsWithoutATimestampGetTheReceiveTimeAndAMarker() {
    EventBreaker.Result result =
        breakWith(
            Sourcetypes.builtIn().forName("generic_single_line"),
            "2026-03-10 09:00:00 has a time\nthis one has none\n");
    assertThat(result.timestampMissing()).isEqualTo(1);
    Event missing = result.events().get(1);
    assertThat(missing.timeMicros()).isEqualTo(NOW_MICROS);
    assertThat(missing.indexedFields())
        .containsEntry(EventBreaker.TIMESTAMP_MISSING, List.of("true"));
    assertThat(result.events().get(0).indexedFields()).isEmpty();
  }

  @Test
  void indexTimeExtractionsEarlierOnesWin() {
    Sourcetype sourcetype =
        Sourcetype.from(
            "t",
            settings()
                .indexExtractions(
                    List.of(
                        new IndexExtractionSettings("regex", "status=(?<http_status>\\d+)"),
                        new IndexExtractionSettings("kv", null)))
                .fields(Map.of("http_status", "long"))
                .build());
    Event event =
        breakWith(sourcetype, "2026-03-10 09:00:00 status=503 user=\"a b\" http_status=1\n")
            .events()
            .get(0);
    assertThat(event.indexedFields())
        .containsEntry("http_status", List.of("503"))
        .containsEntry("user", List.of("a b"))
        .containsEntry("status", List.of("503"));
    assertThat(sourcetype.fieldTypes()).containsEntry("http_status", IndexedFieldType.LONG);
  }

  @Test
  void jsonEventsTakeTheirTimeFromTheTimestampField() {
    Sourcetype json =
        new Sourcetypes(Map.of("_json", settings().timestampField("ts").build())).forName("_json");
    EventBreaker.Result result =
        breakWith(
            json,
            """
            {"ts": 1767225600.25, "msg": "epoch seconds"}
            {"ts": "2026-01-01T00:00:01Z", "msg": "text"}
            {"ts": 1767225602000, "msg": "epoch millis"}
            {"msg": "no ts"}
            """);
    assertThat(result.events())
        .extracting(Event::timeMicros)
        .containsExactly(
            1_767_225_600_250_000L, 1_767_225_601_000_000L, 1_767_225_602_000_000L, NOW_MICROS);
    assertThat(result.timestampMissing()).isEqualTo(1);

    Sourcetype indexed =
        Sourcetype.from(
            "j",
            settings()
                .indexExtractions(List.of(new IndexExtractionSettings("json", null)))
                .build());
    assertThat(
            breakWith(indexed, "{\"a\": {\"b\": 1}, \"tags\": [\"x\", \"y\"], \"n\": null}")
                .events()
                .get(0)
                .indexedFields())
        .containsEntry("a.b", List.of("1"))
        .containsEntry("tags{}", List.of("x", "y"))
        .doesNotContainKey("n");
  }
}
