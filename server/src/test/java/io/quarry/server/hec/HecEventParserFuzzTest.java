package io.quarry.server.hec;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.config.HecToken;
import io.quarry.server.ingest.IngestGate;
import io.quarry.server.ingest.IngestService;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * Any request body makes the HEC event parser answer with events and at most one typed {@link
 * HecException} (Splunk's numbered errors: the client gets a 400 naming the bad event), never
 * another exception (a 500) and never a hang. Runs the saved inputs in {@code
 * HecEventParserFuzzTestInputs} in every build; {@code JAZZER_FUZZ=1 ./mvnw -pl server -am test
 * -Dtest=HecEventParserFuzzTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes.
 */
class HecEventParserFuzzTest {
  private static final EventStore STORE;
  private static final IngestService INGEST;
  private static final HecToken TOKEN =
      new HecToken("fuzz-token", "fuzz", "main", List.of("main", "web"), null);

  static {
    try {
      STORE =
          EventStore.open(Files.createTempDirectory("hec-fuzz"), List.of("main", "web", "other"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    INGEST =
        new IngestService(
            STORE, new ServerMetrics(), Sourcetypes.builtIn(), new IngestGate(1, 1 << 20));
  }

  @AfterAll
  static void close() throws IOException {
    STORE.close();
  }

  @FuzzTest(maxDuration = "60s")
  void answersWithEventsOrATypedError(FuzzedDataProvider data) throws IOException {
    boolean autoTimestamp = data.consumeBoolean();
    byte[] body = data.consumeRemainingAsBytes();
    HecEventParser.Result result =
        new HecEventParser(TOKEN, INGEST, "fuzz-host", Instant.EPOCH)
            .autoExtractTimestamp(autoTimestamp)
            .parse(body);
    if (result.events().isEmpty() && result.error().isEmpty()) {
      throw new AssertionError("neither events nor an error for " + body.length + " bytes");
    }
  }
}
