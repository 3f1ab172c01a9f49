package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --reuse-index} on a real server: the record names the settings the server resolved and the
 * layout the store's buckets hold; a second run reuses the store; a store of another layout (as a
 * jar of other defaults left it) is ingested afresh, unless {@code --reuse-index-as-is} asks to
 * search it anyway, which the report records.
 */
class ReuseIndexTest {
  @TempDir Path workDir;

  private JsonNode run(String... extra) throws Exception {
    String[] base = {
      "--events=3000",
      "--runs=1",
      "--warmup=0",
      "--warmup-seconds=0",
      "--heap=512m",
      "--hec-events=300",
      "--concurrency=0",
      "--skip-duckdb",
      "--query=head_100",
      "--work-dir=" + workDir
    };
    String[] arguments = new String[base.length + extra.length];
    System.arraycopy(base, 0, arguments, 0, base.length);
    System.arraycopy(extra, 0, arguments, base.length, extra.length);
    assertThat(new CommandLine(new EndToEnd()).execute(arguments)).isZero();
    return new ObjectMapper().readTree(workDir.resolve("latest.json").toFile());
  }

  @Test
  void aStoreOfAnotherLayoutIsNotReusedUnlessAsked() throws Exception {
    JsonNode first = run();
    assertThat(first.path("ingest").path("reusedIndex").asBoolean()).isFalse();
    Path recordFile = workDir.resolve(IngestRecord.FILE_NAME);
    String record = Files.readString(recordFile);
    String layout = first.path("quarrySettings").path("layout").asText();
    assertThat(layout).matches("blocks [23]");
    assertThat(record)
        .contains("layout=" + layout + "\n")
        .contains("blockEvents=" + first.path("quarrySettings").path("blockEvents").asInt())
        .doesNotContain("=default");
    assertThat(first.path("quarryStore").get(0).path("layout").asText()).isEqualTo(layout);
    assertThat(first.path("quarryStore").get(0).path("segments").asInt()).isPositive();

    JsonNode second = run("--reuse-index");
    assertThat(second.path("ingest").path("reusedIndex").asBoolean()).isTrue();

    // as if a jar whose new buckets are of the other layout had made this store
    String other = layout.equals("blocks 3") ? "blocks 2" : "blocks 3";
    Files.writeString(recordFile, record.replace("layout=" + layout, "layout=" + other));
    JsonNode asIs = run("--reuse-index", "--reuse-index-as-is");
    assertThat(asIs.path("ingest").path("reusedIndex").asBoolean()).isTrue();
    assertThat(asIs.path("reusedIndexDiffers").toString())
        .contains("the index has layout=" + other)
        .contains("this run asks layout=" + layout);

    PrintStream console = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    JsonNode third;
    try {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      third = run("--reuse-index");
    } finally {
      System.setOut(console);
    }
    assertThat(third.path("ingest").path("reusedIndex").asBoolean()).isFalse();
    assertThat(third.path("ingest").path("quarryIngest").path("events").asLong()).isEqualTo(3000);
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("ingesting afresh")
        .contains("the index has layout=" + other);
    assertThat(Files.readString(recordFile)).contains("layout=" + layout + "\n");
  }
}
