package io.quarry.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.config.QuarryConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The credentials a node starts with print no secret (a log line, a debugger, an exception). */
class StartCredentialsTest {
  @TempDir Path dataDirectory;

  @Test
  void itsTextHoldsNoSecret() throws Exception {
    QuarryConfig configured =
        QuarryConfig.builder()
            .put("auth.adminPassword", "admin-secret-1")
            .add("hec.tokens", Map.of("token", "hec-secret-2", "name", "shop"))
            .build();
    StartCredentials credentials = StartCredentials.resolve(configured, dataDirectory);
    assertThat(credentials.toString())
        .contains("shop")
        .doesNotContain("admin-secret-1")
        .doesNotContain("hec-secret-2");

    StartCredentials generated =
        StartCredentials.resolve(QuarryConfig.builder().build(), dataDirectory);
    assertThat(generated.toString())
        .contains("hecToken generated=true")
        .doesNotContain(generated.adminPassword().value())
        .doesNotContain(generated.generatedHecToken().value());
    assertThat(generated.adminPassword().toString())
        .doesNotContain(generated.adminPassword().value());
  }

  @Test
  void theSettingsPrintNoSecret() {
    QuarryConfig configured =
        QuarryConfig.builder()
            .put("auth.adminPassword", "admin-secret-1")
            .add("auth.users", Map.of("name", "ana", "password", "user-secret-3"))
            .add("hec.tokens", Map.of("token", "hec-secret-2", "name", "shop"))
            .build();
    assertThat(configured.toString())
        .contains("shop")
        .contains("ana")
        .doesNotContain("admin-secret-1")
        .doesNotContain("user-secret-3")
        .doesNotContain("hec-secret-2");
  }
}
