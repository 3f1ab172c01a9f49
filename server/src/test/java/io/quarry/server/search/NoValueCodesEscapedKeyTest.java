package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.RunningServer;
import io.quarry.server.sourcetype.SourcetypeSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Review (session 34, review-d) of the "no value" codes ({@code _bp.<f>}, {@code TextMentions}):
 * the block layout must answer as the event layout for events without the index-time field whose
 * text gives it at search time without spelling its name — a JSON key written with a {@code \\u}
 * escape — and for a sourcetype whose own extraction gives it (expected to pass).
 */
class NoValueCodesEscapedKeyTest {
  private static final String PASSWORD = "partial-review-password";
  private static final String TOKEN = "partial-review-token";
  private static final long START = LayoutEvents.START;
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension
  static final RunningServer SERVER =
      LayoutEvents.running(
          PASSWORD,
          TOKEN,
          Map.of(
              "sid",
              new SourcetypeSettings.Builder()
                  .searchExtractions(List.of("sid:(?<session>\\w+)"))
                  .build()),
          200,
          NoValueCodesEscapedKeyTest::envelope);

  /**
   * Event {@code i} of 200: index-time {@code session} in even ones; event 1 is JSON whose key is
   * {@code \u0073ession} (JSON for "session"), event 3 of sourcetype {@code sid} says {@code
   * sid:zzz}.
   */
  private static String envelope(String index, int i) throws Exception {
    boolean has = i % 2 == 0;
    String text =
        i == 1 ? "{\"\\u0073ession\":\"json1\",\"n\":1}" : i == 3 ? "user sid:viasid" : "ev " + i;
    return String.format(
        "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"%s\",\"index\":\"%s\","
            + "\"event\":%s,\"fields\":{\"level\":\"info\"%s}}%n",
        START + i,
        i == 3 ? "sid" : "opt",
        index,
        JSON.writeValueAsString(text),
        has ? ",\"session\":\"s" + (i % 5) + "\"" : "");
  }

  private static String search(String query) throws Exception {
    return SERVER.exportOk(query);
  }

  @Test
  void theEventLayoutFindsTheEscapedJsonKey() throws Exception {
    // the reference: search-time JSON extraction decodes the key's escape
    assertThat(search("search index=ev | stats count by session")).contains("json1");
  }

  @Test
  void aJsonKeyWithAnEscapeIsNotANoValue() throws Exception {
    LayoutEvents.assertSameOverBoth(
        SERVER,
        List.of(
            "| stats count by session",
            "| stats range(_time) AS d, count by session",
            "| where isnull(session) | stats count"));
  }

  @Test
  void aSourcetypeExtractionStillGivesTheField() throws Exception {
    for (String query :
        List.of("| stats count by session", "| stats range(_time) AS d, count by session")) {
      String blocks = search("search index=bl " + query);
      assertThat(blocks).as(query).contains("viasid");
    }
  }
}
