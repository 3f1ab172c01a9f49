package io.quarry.benchmarks.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccessLogGeneratorTest {
  @TempDir Path directory;

  @Test
  void deterministicWhateverTheThreadCount() throws IOException {
    Path one = directory.resolve("one.log");
    Path two = directory.resolve("two.log");
    new AccessLogGenerator(250_000, 42).write(one, 1);
    new AccessLogGenerator(250_000, 42).write(two, 3);
    assertThat(Files.mismatch(one, two)).isEqualTo(-1);
    assertThat(Files.lines(one).count()).isEqualTo(250_000);
    Path other = directory.resolve("other.log");
    new AccessLogGenerator(250_000, 7).write(other, 2);
    assertThat(Files.mismatch(one, other)).isNotEqualTo(-1);
  }

  @Test
  void shapeOfTheReferenceDataset() throws IOException {
    Path file = directory.resolve("access.log");
    int lines = 200_000;
    new AccessLogGenerator(lines, 42).write(file, 2);
    var access = Sourcetypes.builtIn().forName("access_combined");
    Set<String> clients = new HashSet<>();
    Set<String> paths = new HashSet<>();
    int ok = 0;
    int notFound = 0;
    String previousTime = "";
    long bytes = 0;
    for (String line : Files.readAllLines(file)) {
      bytes += line.length() + 1;
      Map<String, List<Object>> fields = access.extract(line);
      assertThat(fields).as(line).containsKeys("clientip", "status", "uri_path", "useragent");
      clients.add(fields.get("clientip").getFirst().toString());
      paths.add(fields.get("uri_path").getFirst().toString());
      String status = fields.get("status").getFirst().toString();
      ok += status.equals("200") ? 1 : 0;
      notFound += status.equals("404") ? 1 : 0;
      String time = line.substring(line.indexOf('[') + 1, line.indexOf(']'));
      assertThat(time.substring(0, 11)).isEqualTo("07/Jan/2026");
      assertThat(time.compareTo(previousTime)).as("non-decreasing times").isGreaterThanOrEqualTo(0);
      previousTime = time;
    }
    assertThat(clients.size()).isBetween(4_000, 5_000); // Zipf tail: not every IP shows in 200k
    assertThat(paths).hasSize(19); // 21 templates; GET and POST share /cart.do and /account/login
    assertThat(ok / (double) lines).isBetween(0.78, 0.82);
    assertThat(notFound / (double) lines).isBetween(0.05, 0.07);
    assertThat(bytes / (double) lines).as("mean line length, Python: ~266").isBetween(240.0, 290.0);
  }

  @Test
  void exactlyOneRareTermPerMillionLinesBlock() {
    AccessLogGenerator generator = new AccessLogGenerator(2_500_000, 42);
    for (long block = 0; block < 2; block++) {
      long position = generator.rarePosition(block);
      assertThat(position).isBetween(block * 1_000_000, block * 1_000_000 + 999_999);
      String chunk = generator.chunk((int) (position / AccessLogGenerator.CHUNK));
      assertThat(chunk.split(AccessLogGenerator.RARE, -1)).hasSize(2);
      String line = chunk.lines().toList().get((int) (position % AccessLogGenerator.CHUNK));
      assertThat(line).contains("JSESSIONID=RARETERM ");
    }
    long last = generator.rarePosition(2); // the third block is only half there
    assertThat(last == -1 || (last >= 2_000_000 && last < 2_500_000)).as("" + last).isTrue();
  }
}
