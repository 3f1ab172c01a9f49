package io.quarry.plugins.urlparse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.client.SearchResults;
import io.quarry.plugin.testing.CommandTester;
import io.quarry.plugin.testing.PluginTestServer;
import io.quarry.ql.parser.QueryParseException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UrlParseCommandTest {
  private final CommandTester tester = CommandTester.of(new UrlParsePlugin());

  @Test
  void splitsEveryPart() {
    var result =
        tester.run(
            "urlparse",
            List.of(
                Map.of("url", "HTTPS://user:pw@Example.COM:8443/a/b%20c?q=a+b&x=1&x=2&flag#frag"),
                Map.of("url", "/cart.do?action=view&itemId=EST-6"),
                Map.of("url", "http://[2001:db8::1]:80/"),
                Map.of("other", "no url here")));
    assertThat(result.rows().get(0))
        .containsEntry("url_scheme", "https")
        .containsEntry("url_host", "example.com")
        .containsEntry("url_port", 8443L)
        .containsEntry("url_path", "/a/b%20c")
        .containsEntry("url_query", "q=a+b&x=1&x=2&flag")
        .containsEntry("url_fragment", "frag")
        .containsEntry("url_qs_q", "a b")
        .containsEntry("url_qs_x", "1")
        .containsEntry("url_qs_flag", "");
    assertThat(result.rows().get(1))
        .containsEntry("url_path", "/cart.do")
        .containsEntry("url_qs_action", "view")
        .containsEntry("url_qs_itemId", "EST-6")
        .doesNotContainKeys("url_scheme", "url_host", "url_port");
    assertThat(result.rows().get(2))
        .containsEntry("url_host", "2001:db8::1")
        .containsEntry("url_port", 80L)
        .containsEntry("url_path", "/");
    assertThat(result.rows().get(3)).containsOnlyKeys("other");
  }

  @Test
  void optionsChangeTheFieldAndPrefix() {
    var result =
        tester.run(
            "urlparse field=uri prefix=u_ params=false",
            List.of(Map.of("uri", "/x?y=1"), Map.of("uri", "http://h/")));
    assertThat(result.rows().get(0)).containsEntry("u_path", "/x").doesNotContainKey("u_qs_y");
    assertThat(result.column("u_host")).containsExactly(null, "h");
  }

  @Test
  void argumentsAreCheckedLikeABuiltIn() {
    assertThatThrownBy(() -> tester.parse("urlparse feild=uri"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("Unknown option 'feild' for urlparse");
    assertThatThrownBy(() -> tester.parse("urlparse maxparams=lots"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("maxparams must be a long");
    assertThatThrownBy(() -> tester.parse("urlparse maxparams=5000"))
        .hasMessageContaining("maxparams must be between 0 and 1024");
  }

  @Test
  void manyPagesOfRandomUrls() {
    List<Map<String, Object>> rows = new ArrayList<>();
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 3000; i++) {
      rows.add(
          Map.of(
              "url",
              (random.nextBoolean()
                      ? "http://host" + random.nextInt(9) + ":" + random.nextInt(99999)
                      : "")
                  + "/p/"
                  + i
                  + "?k"
                  + random.nextInt(40)
                  + "="
                  + i,
              "n",
              (long) i));
    }
    var result = tester.run("urlparse maxparams=8", rows);
    assertThat(result.rows()).hasSize(3000);
    assertThat(result.column("url_path").get(2999)).isEqualTo("/p/2999");
    assertThat(result.column("n").get(1234)).isEqualTo(1234L);
    assertThat(tester.warnings()).anyMatch(w -> w.contains("maxparams"));
  }

  @Test
  void runsInSearchesOverARealIndex(@TempDir Path data) throws Exception {
    try (PluginTestServer server = PluginTestServer.start(data, new UrlParsePlugin())) {
      server.load(
          "access_combined",
          List.of(
              "10.0.0.1 - - [07/Jan/2026:10:00:00 +0000] \"GET /cart.do?action=view&itemId=EST-6 HTTP/1.1\" 200 512 \"-\" \"curl\"",
              "10.0.0.2 - - [07/Jan/2026:10:00:01 +0000] \"GET /cart.do?action=add&itemId=EST-7 HTTP/1.1\" 200 512 \"-\" \"curl\"",
              "10.0.0.2 - - [07/Jan/2026:10:00:02 +0000] \"GET /product.screen?productId=FL-DSH-01 HTTP/1.1\" 404 0 \"-\" \"curl\""));
      SearchResults byAction =
          server.search(
              "sourcetype=access_combined | urlparse field=uri | stats count by uri_qs_action | sort uri_qs_action");
      assertThat(byAction.rows())
          .containsExactly(
              Map.of("uri_qs_action", "add", "count", "1"),
              Map.of("uri_qs_action", "view", "count", "1"));
      // streaming: before a reporting command it runs in the parallel map side
      SearchResults paths =
          server.search("* | urlparse field=uri | where status=404 | table clientip uri_path");
      assertThat(paths.rows())
          .containsExactly(Map.of("clientip", "10.0.0.2", "uri_path", "/product.screen"));
      SearchResults help = server.search("| help urlparse");
      assertThat(help.rows()).extracting(r -> r.get("argument")).contains("field", "prefix");
      assertThat(help.rows().get(0)).containsEntry("plugin", "UrlParsePlugin");
    }
  }
}
