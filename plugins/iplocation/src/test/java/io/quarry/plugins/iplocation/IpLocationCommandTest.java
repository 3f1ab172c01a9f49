package io.quarry.plugins.iplocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.testing.CommandTester;
import io.quarry.plugin.testing.PluginTestServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IpLocationCommandTest {
  private final CommandTester tester = CommandTester.of(new IpLocationPlugin());

  /**
   * Addresses whose /16 is mostly one country in the source data (checked against its CSV). Not
   * every /16 is: 193.0.6.139 is NL and 213.180.204.3 RU in the source, but their /16s are mostly
   * PL and CH — the table's documented coarseness (a MaxMind-format database answers exactly).
   */
  private static final Map<String, String> KNOWN =
      Map.of(
          "8.8.8.8", "US",
          "81.2.69.142", "GB",
          "133.1.2.3", "JP",
          "200.160.2.3", "BR",
          "41.0.0.1", "ZA",
          "196.25.1.1", "ZA");

  @Test
  void parsesOnlyDottedQuads() {
    assertThat(IpLocationCommand.ipv4("10.1.2.3")).isEqualTo(0x0A010203L);
    assertThat(IpLocationCommand.ipv4("255.255.255.255")).isEqualTo(0xFFFFFFFFL);
    for (String bad :
        List.of(
            "",
            "1.2.3",
            "1.2.3.4.5",
            "256.1.1.1",
            "1..2.3",
            "a.b.c.d",
            "1.2.3.4 ",
            "01234.1.1.1")) {
      assertThat(IpLocationCommand.ipv4(bad)).as(bad).isEqualTo(-1);
    }
  }

  @Test
  void bundledTableGivesCountries() {
    var rows =
        KNOWN.keySet().stream().<Map<String, Object>>map(ip -> Map.of("clientip", ip)).toList();
    var result = tester.run("iplocation", rows);
    for (Map<String, Object> row : result.rows()) {
      assertThat(row.get("country")).as(row.toString()).isEqualTo(KNOWN.get(row.get("clientip")));
    }
    var odd =
        tester.run(
            "iplocation field=src prefix=src_",
            List.of(Map.of("src", "10.1.2.3"), Map.of("src", "not an ip"), Map.of("other", "x")));
    assertThat(odd.rows()).allSatisfy(r -> assertThat(r).doesNotContainKey("src_country"));
  }

  @Test
  void aMissingDatabaseIsAParseError() {
    assertThatThrownBy(() -> tester.parse("iplocation database=/nonexistent/City.mmdb"))
        .hasMessageContaining("database /nonexistent/City.mmdb does not exist");
  }

  @Test
  void readsAMaxMindDatabase(@TempDir Path dir) throws Exception {
    Path mmdb = countryMmdb();
    var result =
        tester.run(
            "iplocation field=ip database=" + mmdb,
            List.of(
                Map.of("ip", "8.8.8.8"),
                Map.of("ip", "2001:4860:4860::8888"),
                Map.of("ip", "213.180.204.3"),
                Map.of("ip", "nonsense")));
    assertThat(result.column("country")).containsExactly("US", "US", "RU", null);
    Files.writeString(dir.resolve("bad.mmdb"), "not a database");
    assertThatThrownBy(() -> tester.parse("iplocation database=" + dir.resolve("bad.mmdb")))
        .hasMessageContaining("is not a readable MaxMind DB file");
  }

  @Test
  void countriesOfAnAccessLog(@TempDir Path data) throws Exception {
    try (PluginTestServer server = PluginTestServer.start(data, new IpLocationPlugin())) {
      server.load(
          "access_combined",
          List.of(
              "8.8.8.8 - - [07/Jan/2026:10:00:00 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"",
              "8.8.4.4 - - [07/Jan/2026:10:00:01 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\"",
              "81.2.69.142 - - [07/Jan/2026:10:00:02 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"x\""));
      var rows = server.search("* | iplocation | stats count by country | sort country").rows();
      assertThat(rows)
          .containsExactly(
              Map.of("country", "GB", "count", "1"), Map.of("country", "US", "count", "2"));
    }
  }

  /**
   * A real MaxMind-format database: ip-location-db's country database from the npm registry (CC BY
   * 4.0, NRO), downloaded once into target/.
   */
  static Path countryMmdb() throws IOException, InterruptedException {
    Path cached = Path.of("target", "test-data", "geo-whois-asn-country.mmdb");
    if (Files.isRegularFile(cached)) {
      return cached.toAbsolutePath();
    }
    String tarball =
        "https://registry.npmjs.org/@ip-location-db/geo-whois-asn-country-mmdb/-/"
            + "geo-whois-asn-country-mmdb-2.3.2026061719.tgz";
    HttpResponse<byte[]> response =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build()
            .send(
                HttpRequest.newBuilder(URI.create(tarball)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() != 200) {
      throw new IOException("downloading " + tarball + ": HTTP " + response.statusCode());
    }
    byte[] file = untar(response.body(), "package/geo-whois-asn-country.mmdb");
    Files.createDirectories(cached.getParent());
    Path partial = cached.resolveSibling("partial.mmdb");
    Files.write(partial, file);
    Files.move(partial, cached, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return cached.toAbsolutePath();
  }

  /** One file of a gzipped tar (ustar: 512-byte headers, size in octal at 124). */
  private static byte[] untar(byte[] tgz, String name) throws IOException {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(tgz))) {
      byte[] header = new byte[512];
      while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
        String entry = new String(header, 0, 100, StandardCharsets.US_ASCII).split("\0", 2)[0];
        long size =
            Long.parseLong(
                new String(header, 124, 12, StandardCharsets.US_ASCII).trim().split("\0")[0].trim(),
                8);
        byte[] content = in.readNBytes((int) size);
        in.skipNBytes((512 - size % 512) % 512);
        if (entry.equals(name)) {
          return content;
        }
      }
    }
    throw new IOException(name + " is not in the package");
  }
}
