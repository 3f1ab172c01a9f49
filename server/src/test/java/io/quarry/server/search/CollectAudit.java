package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.TestHttp;

/**
 * What the audit trail says a search wrote: the tests of {@code collect} and of the searches that
 * write through subsearches or {@code map} read it the same way.
 */
final class CollectAudit {
  private CollectAudit() {}

  /**
   * Asserts that one completed search whose text holds {@code run=<marker>} is audited as having
   * collected {@code count} events into {@code indexes}; waits for it, the audit trail writing its
   * events from a queue ({@link TestHttp#exportEventually}).
   */
  static void assertCollected(
      TestHttp http, String authorization, String marker, String count, String indexes)
      throws Exception {
    ArrayNode audited =
        http.exportEventually(
            authorization,
            "index=_audit action=search info=completed \"run="
                + marker
                + "\" | where collected_count > 0 | table collected_count, collect_indexes");
    assertThat(audited).as(audited.toString()).hasSize(1);
    assertThat(audited.get(0).path("collected_count").asText()).isEqualTo(count);
    assertThat(audited.get(0).path("collect_indexes").asText()).isEqualTo(indexes);
  }
}
