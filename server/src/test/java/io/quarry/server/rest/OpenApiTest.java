package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.config.QuarryConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checked-in OpenAPI document names exactly the native routes a running server answers. */
class OpenApiTest {
  @TempDir Path dataDirectory;

  @Test
  void theDocumentMatchesTheServersRoutes() throws Exception {
    try (QuarryServer server =
        QuarryServer.start(
            QuarryConfig.builder()
                .put("server.port", 0)
                .put("dataDir", dataDirectory.toString())
                .put("auth.adminPassword", "pw")
                .build(),
            Clock.systemUTC())) {
      HttpResponse<String> served =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(server.url() + SystemRoutes.OPENAPI_PATH))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(served.statusCode()).isEqualTo(200);
      JsonNode document = new ObjectMapper().readTree(served.body());
      assertThat(document.get("openapi").asText()).startsWith("3.");

      Map<String, Set<String>> documented = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> paths = document.get("paths").fields();
          paths.hasNext(); ) {
        Map.Entry<String, JsonNode> path = paths.next();
        Set<String> methods = new TreeSet<>();
        path.getValue()
            .fieldNames()
            .forEachRemaining(
                name -> {
                  if (List.of("get", "post", "put", "delete", "patch").contains(name)) {
                    methods.add(name.toUpperCase(Locale.ROOT));
                  }
                });
        documented.put(path.getKey(), methods);
      }
      Map<String, Set<String>> served_ = new TreeMap<>();
      server
          .routes()
          .forEach(
              (path, methods) -> {
                if (path.startsWith("/api/v1/")) {
                  served_.put(path, methods);
                }
              });
      assertThat(documented).isEqualTo(served_);
    }
  }
}
