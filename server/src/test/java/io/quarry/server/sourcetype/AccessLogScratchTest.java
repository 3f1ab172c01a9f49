package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The access log's index-time fields read with a scratch held across lines ({@link ParseScratch},
 * the breaker's way) against the {@code String} path, line by line, over the demo log and lines
 * damaged at random.
 */
class AccessLogScratchTest {
  private static final Sourcetype ACCESS = Sourcetypes.builtIn().forName("access_combined");

  @Test
  void aHeldScratchGivesTheStringPathsFieldsOnEveryLine() throws IOException {
    List<String> lines = new ArrayList<>(demoLines());
    Random random = new Random(48);
    String alphabet = " \t\"[]?-0123456789AZaz/.GETPOS";
    for (int n = 0; n < 20_000; n++) {
      StringBuilder line = new StringBuilder(lines.get(random.nextInt(1000)));
      for (int k = random.nextInt(3); k >= 0; k--) {
        line.setCharAt(
            random.nextInt(line.length()), alphabet.charAt(random.nextInt(alphabet.length())));
      }
      lines.add(line.toString());
    }
    for (String method :
        List.of("GE", "GETS", "OPTIONS", "OPTIONSX", "PROPFIND", "DELETE", "A", "TRACE", "PATCH")) {
      lines.add("10.0.0.1 - - [x] \"" + method + " /m HTTP/1.1\" 200 1");
    }
    ParseScratch scratch = new ParseScratch();
    int answered = 0;
    for (String line : lines) {
      byte[] body = ("..\n" + line + "\n").getBytes(StandardCharsets.US_ASCII);
      Map<String, List<String>> held = ACCESS.asciiIndexFields(body, 3, line.length(), scratch);
      Map<String, List<String>> fromString = AccessLogParser.indexFields(line);
      assertThat(held == null).as(line).isEqualTo(fromString == null);
      if (held != null) {
        answered++;
        assertThat(new ArrayList<>(held.entrySet()))
            .as(line)
            .isEqualTo(new ArrayList<>(fromString.entrySet()));
      }
    }
    assertThat(answered).isGreaterThan(15_000);
  }

  private static List<String> demoLines() throws IOException {
    try (InputStream in =
        AccessLogScratchTest.class.getResourceAsStream("/io/quarry/server/demo/access.log")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().limit(1000).toList();
    }
  }
}
