package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.RunningServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Review c38 of lane jsonkv: {@code _json} is read {@code kvMode: json}, so a {@code _json} event
 * whose {@code ua} text holds {@code report=daily count=999999} reads no {@code report} and no
 * {@code count}. {@code collect} with its default sourcetype ({@code stash}, {@code auto_escaped})
 * wrote the kept {@code _raw} without a kvMode check ({@link CollectSourcetype#refuse} returned at
 * once for a sourcetype that holds summaries), and {@code auto_escaped} read the pairs inside the
 * JSON string. Now the copy is refused (mendj, issue 21), naming the events' sourcetype and mode;
 * the two fixes its message names write copies that read no forged field.
 */
class CollectJsonUnderStashTest {
  private static final String ADMIN = CollectServers.ADMIN;

  @RegisterExtension
  static final RunningServer SERVER =
      CollectServers.running(
          TestConfig.yaml("indexes: [main, web, copies, own, summaries]").hecIndexes("main", "web"),
          CollectServers::postForgingEvent);

  private final TestHttp http = SERVER.http();

  /**
   * The reviewer's test asserted "refused, or a copy that forges nothing"; it now asserts the
   * refusal the fix chose: 400 {@code COLLECT_SOURCETYPE} naming {@code _json} and {@code json},
   * the message naming both fixes, and nothing written.
   */
  @Test
  void jsonEventsCollectedUnderTheDefaultStashAreRefused() throws Exception {
    ArrayNode original = http.export(ADMIN, "index=web | table ua, count, report");
    assertThat(original).hasSize(1);
    assertThat(original.get(0).has("report")).as("the event, read as JSON").isFalse();
    HttpResponse<String> copied = CollectServers.export(SERVER, "index=web | collect index=copies");
    assertThat(copied.statusCode()).as(copied.body()).isEqualTo(400);
    JsonNode error = TestHttp.json(copied.body()).path("error");
    assertThat(error.path("code").asText()).isEqualTo("COLLECT_SOURCETYPE");
    assertThat(error.path("sourcetype").asText()).isEqualTo("stash");
    assertThat(error.path("kvMode").asText()).isEqualTo("auto_escaped");
    assertThat(error.path("eventSourcetype").asText()).isEqualTo("_json");
    assertThat(error.path("eventKvMode").asText()).isEqualTo("json");
    assertThat(error.path("message").asText()).contains("sourcetype=_json").contains("_raw");
    assertThat(http.export(ADMIN, "index=copies | table _raw")).isEmpty();
  }

  /** The first fix the message names: the events' own sourcetype reads the copy as they read. */
  @Test
  void jsonEventsCollectedUnderTheirOwnSourcetypeForgeNoField() throws Exception {
    HttpResponse<String> copied =
        CollectServers.export(SERVER, "index=web | collect index=own sourcetype=_json");
    assertThat(copied.statusCode()).as(copied.body()).isEqualTo(200);
    ArrayNode back = http.export(ADMIN, "index=own | table ua, count, report");
    assertThat(back).hasSize(1);
    assertThat(back.get(0).path("ua").asText()).isEqualTo(CollectServers.FORGING_UA);
    assertThat(back.get(0).has("report")).as(back.toString()).isFalse();
    assertThat(back.get(0).has("count")).as(back.toString()).isFalse();
  }

  /**
   * The second: without {@code _raw} the result is a summary event, its {@code ua} written escaped,
   * which {@code stash} reads back whole.
   */
  @Test
  void jsonEventsCollectedWithoutTheirTextAreSummariesThatForgeNoField() throws Exception {
    HttpResponse<String> copied =
        CollectServers.export(
            SERVER, "index=web | fields ua | fields - _raw | collect index=summaries");
    assertThat(copied.statusCode()).as(copied.body()).isEqualTo(200);
    ArrayNode back = http.export(ADMIN, "index=summaries | table ua, count, report");
    assertThat(back).hasSize(1);
    assertThat(back.get(0).path("ua").asText()).isEqualTo(CollectServers.FORGING_UA);
    assertThat(back.get(0).has("report")).as(back.toString()).isFalse();
    assertThat(back.get(0).has("count")).as(back.toString()).isFalse();
  }
}
