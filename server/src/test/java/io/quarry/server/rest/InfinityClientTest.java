package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.QuarryClient;
import io.quarry.client.ResultStream;
import io.quarry.client.TypedResults;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An infinity from arithmetic in a double column reaches a Java client as the same value through
 * both wire formats (review-a, session 34). The JSON pages send it as the text "inf" (JSON has no
 * infinity); {@code TypedResults} promises a {@code Double} for a double column, and the Arrow
 * stream gives one. On 885fc7d6 the row read through JSON held the String "inf".
 */
class InfinityClientTest {
  @TempDir Path dataDirectory;

  private static List<Object> column(QuarryClient client, QuarryClient.StreamFormat format) {
    List<Object> values = new ArrayList<>();
    try (ResultStream stream =
        client.stream(
            "| makeresults count=2 | streamstats count AS i | eval x=if(i=1, 1e308*10, 2.5)"
                + " | table x",
            "0",
            null,
            format)) {
      while (stream.hasNext()) {
        TypedResults page = stream.next();
        int x = page.column("x");
        page.rows().forEach(row -> values.add(row.get(x)));
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return values;
  }

  @Test
  void anInfinityIsADoubleThroughJsonAsThroughArrow() throws Exception {
    try (QuarryServer server = TestServers.start(dataDirectory, "pw")) {
      QuarryClient client =
          QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
      List<Object> arrow = column(client, QuarryClient.StreamFormat.ARROW);
      List<Object> json = column(client, QuarryClient.StreamFormat.JSON);
      assertThat(arrow).containsExactly(Double.POSITIVE_INFINITY, 2.5);
      assertThat(json).as("the JSON pages as the client reads them").isEqualTo(arrow);
    }
  }
}
