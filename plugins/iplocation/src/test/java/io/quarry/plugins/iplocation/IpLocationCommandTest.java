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

  /** Splunk's names of {@link #KNOWN}'s countries (English, as GeoLite2 and the JDK spell them). */
  private static final Map<String, String> NAMES =
      Map.of(
          "US", "United States",
          "GB", "United Kingdom",
          "JP", "Japan",
          "BR", "Brazil",
          "ZA", "South Africa");

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
  void bundledTableGivesSplunksCountryNamesOrCodes() {
    var rows =
        KNOWN.keySet().stream().<Map<String, Object>>map(ip -> Map.of("clientip", ip)).toList();
    var named = tester.run("iplocation", rows);
    assertThat(named.columns()).containsExactly("clientip", "Country");
    for (Map<String, Object> row : named.rows()) {
      assertThat(row.get("Country"))
          .as(row.toString())
          .isEqualTo(NAMES.get(KNOWN.get(row.get("clientip"))));
    }
    var codes = tester.run("iplocation lang=code", rows);
    for (Map<String, Object> row : codes.rows()) {
      assertThat(row.get("Country")).as(row.toString()).isEqualTo(KNOWN.get(row.get("clientip")));
    }
    assertThat(tester.run("iplocation lang=de", List.of(Map.of("clientip", "8.8.8.8"))).rows())
        .containsExactly(Map.of("clientip", "8.8.8.8", "Country", "Vereinigte Staaten"));
    var odd =
        tester.run(
            "iplocation prefix=src_ src",
            List.of(Map.of("src", "10.1.2.3"), Map.of("src", "not an ip"), Map.of("other", "x")));
    assertThat(odd.rows()).allSatisfy(r -> assertThat(r).doesNotContainKey("src_Country"));
  }

  @Test
  void takesTheFieldAsSplunkDoesOrAsFieldEquals() {
    List<Map<String, Object>> rows =
        List.of(Map.of("src", "8.8.8.8", "clientip", "81.2.69.142"), Map.of("src", "41.0.0.1"));
    List<Object> expected = java.util.Arrays.asList("United States", "South Africa");
    assertThat(tester.run("iplocation src", rows).column("Country")).isEqualTo(expected);
    assertThat(tester.run("iplocation field=src", rows).column("Country")).isEqualTo(expected);
    assertThat(tester.run("iplocation lang=code src prefix=s_", rows).column("s_Country"))
        .containsExactly("US", "ZA");
    assertThat(tester.run("iplocation \"src\"", rows).column("Country")).isEqualTo(expected);
    // without a field: clientip, as before
    assertThat(tester.run("iplocation", rows).column("Country"))
        .containsExactly("United Kingdom", null);
    assertThat(tester.parse("iplocation src").bound().requiredFields()).containsExactly("src");
    assertThatThrownBy(() -> tester.parse("iplocation field=src clientip"))
        .hasMessageContaining("iplocation: field is already given at column 16");
    assertThatThrownBy(() -> tester.parse("iplocation src dest"))
        .hasMessageContaining("field is already given");
    assertThatThrownBy(() -> tester.parse("iplocation lang=\" \" src"))
        .hasMessageContaining("lang= needs a language");
    assertThatThrownBy(() -> tester.parse("iplocation colour=red src"))
        .hasMessageContaining("Unknown option 'colour' for iplocation");
  }

  @Test
  void producesSplunksFieldNamesWithThePrefix(@TempDir Path dir) throws Exception {
    Path city = cityMmdb(dir);
    assertThat(tester.parse("iplocation src").bound().producedFields()).containsExactly("Country");
    assertThat(tester.parse("iplocation prefix=geo_ src").bound().producedFields())
        .containsExactly("geo_Country");
    assertThat(tester.parse("iplocation database=" + city + " src").bound().producedFields())
        .containsExactly("City", "Country", "Region", "lat", "lon");
    assertThat(
            tester
                .parse("iplocation prefix=geo_ allfields=true database=" + city + " src")
                .bound()
                .producedFields())
        .containsExactly(
            "geo_City",
            "geo_Continent",
            "geo_Country",
            "geo_MetroCode",
            "geo_Region",
            "geo_Timezone",
            "geo_lat",
            "geo_lon");
  }

  @Test
  void readsACityDatabaseAsSplunkDoes(@TempDir Path dir) throws Exception {
    Path city = cityMmdb(dir);
    List<Map<String, Object>> rows =
        List.of(
            Map.of("ip", "81.2.69.142"),
            Map.of("ip", "8.8.8.8"),
            Map.of("ip", "10.0.0.1"),
            Map.of("ip", "nonsense"),
            Map.of("ip", "2001:db8::1"));
    var splunk = tester.run("iplocation database=" + city + " ip", rows);
    assertThat(splunk.columns()).containsExactly("ip", "City", "Country", "Region", "lat", "lon");
    assertThat(splunk.rows())
        .containsExactly(
            Map.of(
                "ip",
                "81.2.69.142",
                "City",
                "London",
                "Country",
                "United Kingdom",
                "Region",
                "England",
                "lat",
                51.5142,
                "lon",
                -0.0931),
            Map.of(
                "ip",
                "8.8.8.8",
                "City",
                "Mountain View",
                "Country",
                "United States",
                "Region",
                "California",
                "lat",
                37.386,
                "lon",
                -122.0838),
            Map.of("ip", "10.0.0.1"),
            Map.of("ip", "nonsense"),
            Map.of("ip", "2001:db8::1"));
    var all =
        tester.run(
            "iplocation allfields=true lang=de prefix=g_ database=" + city + " field=ip",
            rows.subList(0, 2));
    assertThat(all.rows().get(0))
        .containsEntry("g_City", "London") // no German name: English
        .containsEntry("g_Continent", "Europa")
        .containsEntry("g_Country", "Vereinigtes Königreich")
        .containsEntry("g_Timezone", "Europe/London")
        .doesNotContainKey("g_MetroCode");
    assertThat(all.rows().get(1))
        .containsEntry("g_Continent", "Nordamerika")
        .containsEntry("g_MetroCode", 807L)
        .containsEntry("g_Timezone", "America/Los_Angeles");
    var codes =
        tester.run("iplocation allfields=t lang=code database=" + city + " ip", rows.subList(0, 1));
    assertThat(codes.rows().get(0))
        .containsEntry("City", "London")
        .containsEntry("Continent", "EU")
        .containsEntry("Country", "GB")
        .containsEntry("Region", "ENG");
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
            "iplocation lang=code field=ip database=" + mmdb,
            List.of(
                Map.of("ip", "8.8.8.8"),
                Map.of("ip", "2001:4860:4860::8888"),
                Map.of("ip", "213.180.204.3"),
                Map.of("ip", "nonsense")));
    assertThat(result.column("Country")).containsExactly("US", "US", "RU", null);
    // a country-only database has codes: named as the bundled table's are
    assertThat(
            tester
                .run("iplocation ip database=" + mmdb, List.of(Map.of("ip", "213.180.204.3")))
                .column("Country"))
        .containsExactly("Russia");
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
      assertThat(server.search("* | iplocation clientip | stats count by Country").rows())
          .containsExactly(
              Map.of("Country", "United Kingdom", "count", "1"),
              Map.of("Country", "United States", "count", "2"));
      assertThat(
              server
                  .search(
                      "* | iplocation prefix=client_ lang=code field=clientip"
                          + " | stats count by client_Country")
                  .rows())
          .containsExactly(
              Map.of("client_Country", "GB", "count", "1"),
              Map.of("client_Country", "US", "count", "2"));
      assertThat(server.search("| help iplocation").rows())
          .anySatisfy(
              row ->
                  assertThat(row)
                      .containsEntry("argument", "field")
                      .containsEntry("positional", "true")
                      .containsEntry(
                          "syntax",
                          "iplocation [prefix=<string>] [allfields=<boolean>] [lang=<string>]"
                              + " [database=<string>] [[field=]<field>]"));
    }
  }

  /** A GeoLite2-City-shaped database: London and Mountain View, English and some German names. */
  static Path cityMmdb(Path dir) throws IOException {
    Path file = dir.resolve("City.mmdb");
    new MmdbWriter()
        .add(
            "81.2.69.0/24",
            Map.of(
                "city",
                Map.of("names", Map.of("en", "London")),
                "continent",
                Map.of("code", "EU", "names", Map.of("en", "Europe", "de", "Europa")),
                "country",
                Map.of(
                    "iso_code",
                    "GB",
                    "names",
                    Map.of("en", "United Kingdom", "de", "Vereinigtes Königreich")),
                "location",
                Map.of("latitude", 51.5142, "longitude", -0.0931, "time_zone", "Europe/London"),
                "subdivisions",
                List.of(Map.of("iso_code", "ENG", "names", Map.of("en", "England")))))
        .add(
            "8.8.8.0/24",
            Map.of(
                "city",
                Map.of("names", Map.of("en", "Mountain View")),
                "continent",
                Map.of("code", "NA", "names", Map.of("en", "North America", "de", "Nordamerika")),
                "country",
                Map.of("iso_code", "US", "names", Map.of("en", "United States", "de", "USA")),
                "location",
                Map.of(
                    "latitude",
                    37.386,
                    "longitude",
                    -122.0838,
                    "metro_code",
                    807,
                    "time_zone",
                    "America/Los_Angeles"),
                "subdivisions",
                List.of(Map.of("iso_code", "CA", "names", Map.of("en", "California")))))
        .write(file);
    return file;
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
