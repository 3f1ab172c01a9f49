package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's own Python SDK ({@code splunk-sdk} 2.1.0, in the venv of {@link PythonVenv}) reads
 * multivalues ({@code values}, {@code list}, {@code split}, {@code mvappend}) from Quarry as it
 * reads them from Splunk: a Python list of strings, from the export endpoint, a oneshot search, and
 * a job's results in JSON and in results XML. Expected values worked out by hand from the events
 * loaded (newest first: n=4, 3, 2, 1).
 */
class SplunkSdkMultivalueTest {

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, "sdk-pw");
    TestServers.loadRaw(
        server,
        """
        2026-01-01 00:00:01 n=1 method=GET tags=red:green x=1 y=10
        2026-01-01 00:00:02 n=2 method=POST tags=blue x=2 y=20
        2026-01-01 00:00:03 n=3 method=GET tags=red:blue:green x=3 y=30
        2026-01-01 00:00:04 n=4 method=PUT x=4 y=40
        """);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void splunksPythonSdkReadsMultivaluesAsLists() throws Exception {
    JsonNode seen = PythonVenv.splunkSdk("/splunk-sdk/multivalue.py", server.port(), "sdk-pw");

    assertThat(seen.get("exportStats").toString())
        .isEqualTo(
            "[{\"all\":[\"PUT\",\"GET\",\"POST\",\"GET\"],\"count\":\"4\","
                + "\"methods\":[\"GET\",\"POST\",\"PUT\"]}]");
    String split =
        "[{\"n\":\"4\"},{\"n\":\"3\",\"parts\":[\"red\",\"blue\",\"green\"]},"
            + "{\"n\":\"2\",\"parts\":\"blue\"},{\"n\":\"1\",\"parts\":[\"red\",\"green\"]}]";
    assertThat(seen.get("exportSplit").toString()).isEqualTo(split);
    assertThat(seen.get("jobJson").toString()).isEqualTo(split);
    assertThat(seen.get("jobXml").toString()).isEqualTo(split);
    assertThat(seen.get("oneshotMvappend").toString())
        .isEqualTo(
            "[{\"m\":[\"4\",\"40\"],\"n\":\"4\"},{\"m\":[\"3\",\"30\"],\"n\":\"3\"},"
                + "{\"m\":[\"2\",\"20\"],\"n\":\"2\"},{\"m\":[\"1\",\"10\"],\"n\":\"1\"}]");
  }
}
