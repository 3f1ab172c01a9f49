package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.SourcetypeSettings;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A sourcetype's {@code kvMode}: {@code auto} reads {@code key=value} pairs and JSON out of an
 * event's text, {@code none} reads neither and keeps its own extractions — the built-in {@code
 * audittrail}, whose text quotes a user's query.
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
  void kvModeIsAutoOrNone() {
    assertThatThrownBy(
            () -> Sourcetype.from("odd", new SourcetypeSettings.Builder().kvMode("json").build()))
        .hasMessageContaining("sourcetype 'odd'")
        .hasMessageContaining("kvMode must be auto or none");
  }
}
