package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.StringReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The client's own logic: reading the export stream, turning each server error shape into a
 * message, and failing clearly when no server answers. Its requests against a real server are
 * exercised in the server module's tests.
 */
class QuarryClientTest {

  @Test
  void readsExportLinesKeepingFieldOrderAndMessages() throws Exception {
    String stream =
        """
        {"preview":false,"offset":0,"result":{"host":"a","count":"2"}}

        {"preview":false,"offset":1,"lastrow":true,"result":{"host":"b","count":"1","extra":"x"}}
        {"preview":false,"messages":[{"type":"WARN","text":"index 'nope' does not exist"}]}
        """;
    SearchResults results = ServerAnswers.readResults(new BufferedReader(new StringReader(stream)));
    assertThat(results.fields()).containsExactly("host", "count", "extra");
    assertThat(results.rows())
        .containsExactly(
            Map.of("host", "a", "count", "2"), Map.of("host", "b", "count", "1", "extra", "x"));
    assertThat(results.messages()).containsExactly("WARN: index 'nope' does not exist");
  }

  /**
   * The streaming read of the export answer (one parser over the whole body, from its bytes or its
   * text) gives what reading it line by line as trees gives — the reference here, the reading
   * before session 45: numbers, booleans and null as their text, lists joined by newlines, nested
   * objects, escapes and non-ASCII text, repeated fields, blank lines, lines without a row; and the
   * number forms a tree writes otherwise than they were sent ({@code 1.50}, {@code 1e3}, {@code
   * -0}, past a long, past a double), read without a tree since session 46.
   */
  @Test
  void theStreamingReadAnswersAsLinesReadAsTrees() throws Exception {
    String stream =
        """
        {"preview":false,"offset":0,"result":{"s":"a\\\"b\\u00e9\\n","n":12,"f":1.5e10,"t":true}}


        {"preview":true,"offset":1,"result":{"x":null,"mv":["1","two",3],"o":{"k":"v"},"s":"é"}}
        [1,2]
        {"preview":false,"offset":2,"lastrow":true,"result":{"s":"z","s":"last","e":""}}
        {"preview":false,"result":"not an object","messages":[{"type":"WARN","text":"w"}]}
        {"preview":false,"messages":[{"type":"INFO","text":"i"},{"text":"no type"}]}
        {"result":{"a":1.50,"b":1e3,"c":-0,"d":-0.0,"e":12345678901234567890123,"g":0.1,"h":2147483648}}
        {"result":{"i":-9223372036854775809,"j":1E-7,"k":1.0,"l":1e400,"m":4,"n":-17,"o":false}}
        {"result":{"mv":[1.50,-0,[2],{"k":1},null,false,"x",12345678901234567890123],"e":[]}}
        """;
    com.fasterxml.jackson.databind.ObjectMapper mapper =
        new com.fasterxml.jackson.databind.ObjectMapper();
    java.util.Set<String> fields = new java.util.LinkedHashSet<>();
    List<Map<String, String>> rows = new java.util.ArrayList<>();
    List<String> messages = new java.util.ArrayList<>();
    for (String line : stream.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      com.fasterxml.jackson.databind.JsonNode node = mapper.readTree(line);
      if (node.get("result") instanceof com.fasterxml.jackson.databind.JsonNode result
          && result.isObject()) {
        Map<String, String> row = new java.util.LinkedHashMap<>();
        result
            .fields()
            .forEachRemaining(
                f -> {
                  com.fasterxml.jackson.databind.JsonNode v = f.getValue();
                  List<String> values = new java.util.ArrayList<>();
                  v.forEach(one -> values.add(one.asText()));
                  row.put(f.getKey(), v.isArray() ? String.join("\n", values) : v.asText());
                  fields.add(f.getKey());
                });
        rows.add(row);
      }
      if (node.get("messages") instanceof com.fasterxml.jackson.databind.JsonNode m) {
        m.forEach(
            one -> messages.add(one.path("type").asText() + ": " + one.path("text").asText()));
      }
    }
    assertThat(rows).hasSize(6);
    assertThat(rows.get(1)).containsEntry("mv", "1\ntwo\n3").containsEntry("x", "null");
    // the number forms whose text a tree changes: the streaming read must change them alike
    assertThat(rows.get(3))
        .containsEntry("a", "1.5")
        .containsEntry("b", "1000.0")
        .containsEntry("c", "0")
        .containsEntry("e", "12345678901234567890123")
        .containsEntry("g", "0.1");
    assertThat(rows.get(5))
        .containsEntry("mv", "1.5\n0\n\n\nnull\nfalse\nx\n12345678901234567890123");
    for (SearchResults read :
        List.of(
            ServerAnswers.readResults(new BufferedReader(new StringReader(stream))),
            ServerAnswers.readResults(
                new java.io.ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8))))) {
      assertThat(read.fields()).containsExactlyElementsOf(fields);
      assertThat(read.rows()).containsExactlyElementsOf(rows);
      assertThat(read.rows().get(0).keySet()).containsExactly("s", "n", "f", "t");
      assertThat(read.messages()).containsExactlyElementsOf(messages);
    }
  }

  @Test
  void aSearchFailingAfterItsFirstRowsIsAnErrorNotAShortAnswer() throws Exception {
    String export =
        """
        {"preview":false,"offset":0,"result":{"n":"1"}}
        {"preview":false,"messages":[{"type":"FATAL","text":"boom"}],"error":{"code":"PLUGIN_FAILED","message":"boom"}}
        """;
    assertThatThrownBy(
            () -> ServerAnswers.readResults(new BufferedReader(new StringReader(export))))
        .isInstanceOf(QuarryClientException.class)
        .hasMessage("the search failed after 1 rows: PLUGIN_FAILED: boom");
    String pages =
        "{\"pages\":[{\"fields\":[{\"name\":\"n\",\"type\":\"long\"}],\"rows\":[[1],[2]]}],"
            + "\"messages\":[],\"error\":{\"code\":\"MEMORY_LIMIT\",\"message\":\"too big\"}}";
    ResultStream stream =
        new ResultStream(
            new ResultStream.JsonPages(
                new java.io.ByteArrayInputStream(pages.getBytes(StandardCharsets.UTF_8))));
    assertThat(stream.next().rows()).hasSize(2);
    assertThatThrownBy(stream::hasNext)
        .isInstanceOf(QuarryClientException.class)
        .hasMessage("the search failed after 2 rows: MEMORY_LIMIT: too big");
  }

  @Test
  void errorMessagesComeFromEveryBodyShape() {
    QuarryClientException query =
        ServerAnswers.failure(
            400,
            "{\"error\":{\"code\":\"QUERY_PARSE\",\"message\":\"Unknown search command 'x'\",\"context\":\"x\\n^\"}}");
    assertThat(query.status()).isEqualTo(400);
    assertThat(query.getMessage())
        .isEqualTo("HTTP 400: QUERY_PARSE: Unknown search command 'x'\nx\n^");
    QuarryClientException hec =
        ServerAnswers.failure(
            400,
            "{\"text\":\"Incorrect index\",\"code\":7,\"reason\":\"index 'x' does not exist\"}");
    assertThat(hec.getMessage())
        .isEqualTo("HTTP 400: Incorrect index (code 7): index 'x' does not exist");
    assertThat(ServerAnswers.failure(502, "<html>bad gateway</html>").getMessage())
        .isEqualTo("HTTP 502: <html>bad gateway</html>");
  }

  @Test
  void noServerIsAClearError() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    QuarryClient client =
        QuarryClient.builder(URI.create("http://127.0.0.1:" + port))
            .adminPassword("p")
            .hecToken("t")
            .build();
    assertThatThrownBy(() -> client.search("x"))
        .isInstanceOf(QuarryClientException.class)
        .hasMessageStartingWith("cannot reach Quarry at http://127.0.0.1:" + port);
    client.close(); // once closed, refused before the network (see QuarryClientCloseTest)
    assertThatThrownBy(() -> client.search("x"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the client is closed");
    assertThatThrownBy(
            () ->
                QuarryClient.builder(URI.create("http://127.0.0.1:1"))
                    .build()
                    .sendEvents(List.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no HEC token");
  }
}
