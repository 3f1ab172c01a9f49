package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.RunningServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The scan's block runs (issue 21, session 32) answer as the event layout and as the per-event path
 * (a {@code head} makes the scan time-ordered, event by event) over blocks that mix what a run
 * cannot answer alone: an index-time field in some blocks and not others, JSON texts, a key given
 * twice, a {@code rex} that does not match (the event's own value applies). One real server, an
 * index of each layout (written by review-c).
 */
class BlockRunMixTest {
  private static final String PASSWORD = "block-run-password";
  private static final String TOKEN = "block-run-token";
  private static final long START = LayoutEvents.START;

  @RegisterExtension
  static final RunningServer SERVER =
      LayoutEvents.running(PASSWORD, TOKEN, BlockRunMixTest::envelope);

  /** Event {@code i}: its text and index-time fields vary by request, so blocks mix them. */
  private static String envelope(String index, int i) {
    int batch = i / 1000;
    int req = i % 1000 / 250;
    String text;
    String fields = "";
    switch ((req + batch) % 4) {
      case 0 -> {
        text = "event " + i + " v=r" + (i % 3);
        fields = ",\"fields\":{\"f\":\"ix" + (i % 4) + "\"}";
      }
      case 1 -> text = "event " + i + " f=t" + (i % 5) + (i % 2 == 0 ? " v=q" + (i % 2) : "");
      case 2 ->
          text =
              switch (i % 4) {
                case 0 -> "{\\\"f\\\":\\\"j" + (i % 3) + "\\\"}";
                case 1 -> "event f=x" + (i % 3) + " f=y" + (i % 2);
                case 2 -> "event " + i + " nothing";
                default -> "event f=z v=w" + (i % 2);
              };
      default -> {
        if (i % 2 == 0) {
          text = "event " + i + " f=k" + (i % 3);
        } else {
          text = "event " + i;
          fields = ",\"fields\":{\"f\":\"iy" + (i % 3) + "\"}";
        }
      }
    }
    return String.format(
        "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"mix\",\"index\":\"%s\",\"event\":\"%s\"%s}%n",
        START + i * 7L, index, text, fields);
  }

  private static String search(String query) throws Exception {
    return SERVER.exportOk(query);
  }

  /** Runs (bl, no head) answer as events (ev) and as the per-event path (head) do. */
  @Test
  void runsAnswerAsEvents() throws Exception {
    for (String q :
        List.of(
            "| stats count by f",
            "| rex \"v=(?<f>\\w+)\" | stats count by f",
            "| stats count, min(_time) AS lo by f")) {
      String ev = search("search index=ev " + q);
      String runs = search("search index=bl " + q);
      String head = search("search index=bl | head 100000 " + q);
      assertThat(runs).as(q).isEqualTo(head);
      assertThat(runs).as(q).isEqualTo(ev);
    }
  }
}
