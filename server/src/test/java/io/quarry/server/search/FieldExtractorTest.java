package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.sourcetype.KvMode;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.SourcetypeSettings;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A sourcetype's {@code kvMode}: {@code auto} reads {@code key=value} pairs (plain) and JSON out of
 * an event's text, {@code auto_escaped} the same with {@code \"} and {@code \\} as escapes in
 * quoted values (the built-in {@code stash}), {@code json} JSON alone, {@code none} neither,
 * keeping its own extractions (the built-in {@code audittrail}, whose text quotes a user's query).
 */
class FieldExtractorTest {
  private static final String AUDIT =
      "Audit:[timestamp=2026-01-02T03:04:05.678Z, user=admin, action=search, info=completed,"
          + " search='| makeresults | search collected_count=777 user=bob']";

  @Test
  void theAuditTrailReadsNoPairFromItsText() {
    FieldExtractor audit = new FieldExtractor(AUDIT, Sourcetypes.builtIn().forName("audittrail"));
    assertThat(audit.values("collected_count")).isEmpty();
    assertThat(audit.values("user")).isEmpty(); // an index-time field, read from its column
    assertThat(audit.values("timestamp")).containsExactly("2026-01-02T03:04:05.678Z");
    assertThat(audit.names()).containsExactly("timestamp");
  }

  @Test
  void anyOtherSourcetypeReadsPairsAndJson() {
    FieldExtractor generic = new FieldExtractor(AUDIT, Sourcetypes.builtIn().forName("app"));
    assertThat(generic.values("collected_count")).containsExactly("777");
    assertThat(generic.names()).contains("timestamp", "user", "collected_count");
    FieldExtractor json = new FieldExtractor("{\"a\": 1}", Sourcetypes.builtIn().forName("app"));
    assertThat(json.values("a")).containsExactly(1L);
  }

  @Test
  void kvModeNoneReadsNoJsonEitherAndAConfigurationMayTurnItBack() {
    Sourcetypes configured =
        new Sourcetypes(
            Map.of(
                "quiet", new SourcetypeSettings.Builder().kvMode("none").build(),
                "audittrail", new SourcetypeSettings.Builder().kvMode("auto").build()));
    FieldExtractor quiet = new FieldExtractor("{\"a\": 1} b=2", configured.forName("quiet"));
    assertThat(quiet.values("a")).isEmpty();
    assertThat(quiet.values("b")).isEmpty();
    assertThat(quiet.names()).isEmpty();
    FieldExtractor audit = new FieldExtractor(AUDIT, configured.forName("audittrail"));
    assertThat(audit.values("collected_count")).isEqualTo(List.of("777"));
  }

  @Test
  void kvModeJsonReadsJsonObjectsAndNoPair() {
    Sourcetype json =
        Sourcetype.from("api", new SourcetypeSettings.Builder().kvMode("json").build());
    FieldExtractor object = new FieldExtractor("{\"a\": 1, \"b\": \"x=2\"}", json);
    assertThat(object.values("a")).containsExactly(1L);
    assertThat(object.values("x")).isEmpty(); // auto goes on to key=value: x=2 in b's text
    assertThat(object.names()).containsExactly("a", "b");
    FieldExtractor pairs = new FieldExtractor("level=INFO user=bob", json);
    assertThat(pairs.values("user")).isEmpty();
    assertThat(pairs.names()).isEmpty();
  }

  @Test
  void kvModeXmlReadsElementsAndAttributesByPathAndNoPair() {
    Sourcetype xml =
        Sourcetype.from("feed", new SourcetypeSettings.Builder().kvMode("xml").build());
    FieldExtractor event =
        new FieldExtractor(
            "<event><user>alice</user><status code=\"200\">ok</status><msg>a=b</msg>"
                + "<tag>x</tag><tag>y</tag></event>",
            xml);
    assertThat(event.values("event.user")).containsExactly("alice");
    assertThat(event.values("event.status{@code}")).containsExactly("200");
    assertThat(event.values("event.tag")).containsExactly("x", "y");
    assertThat(event.values("a")).isEmpty(); // no key=value pair
    assertThat(event.values("user")).isEmpty();
    assertThat(new FieldExtractor("user=bob {\"a\": 1}", xml).names()).isEmpty();
  }

  @Test
  void autoEndsAQuotedValueAtItsFirstQuoteAndAutoEscapedReadsEscapes() {
    String raw = "msg=\"say \\\"hi\\\" n=1\" n=2";
    FieldExtractor auto = new FieldExtractor(raw, Sourcetypes.builtIn().forName("app"));
    assertThat(auto.values("msg")).containsExactly("say \\");
    assertThat(auto.values("n")).containsExactly("1", "2");
    Sourcetype escaped =
        Sourcetype.from("esc", new SourcetypeSettings.Builder().kvMode("auto_escaped").build());
    FieldExtractor read = new FieldExtractor(raw, escaped);
    assertThat(read.values("msg")).containsExactly("say \"hi\" n=1");
    assertThat(read.values("n")).containsExactly("2");
    assertThat(read.names()).containsExactly("msg", "n");
    // collect's summary events: the built-in stash sourcetype reads escapes, as Splunk's does
    assertThat(Sourcetypes.builtIn().forName("stash").kvMode()).isEqualTo(KvMode.AUTO_ESCAPED);
    assertThat(new FieldExtractor(raw, Sourcetypes.builtIn().forName("stash")).values("n"))
        .containsExactly("2");
  }

  @Test
  void anUnsupportedKvModeNamesItselfAndTheSupportedOnes() {
    for (String value : List.of("multi", "multi:ps", "AUTO", "kv")) {
      assertThatThrownBy(
              () -> Sourcetype.from("odd", new SourcetypeSettings.Builder().kvMode(value).build()))
          .as(value)
          .hasMessageContaining("sourcetype 'odd'")
          .hasMessageContaining("kvMode '" + value + "' is not supported")
          .hasMessageContaining("none, auto, auto_escaped, json, xml");
    }
    assertThatThrownBy(
            () -> Sourcetype.from("odd", new SourcetypeSettings.Builder().kvMode("multi").build()))
        .hasMessageContaining("Splunk's multi is not implemented");
  }
}
