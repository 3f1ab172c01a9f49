package io.quarry.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.config.Auth;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code auth.adminPassword} as a PBKDF2 hash ({@code quarry passwd-hash}): admin logs in with the
 * password, not with the hash; a malformed or weak hash stops the server at start naming the
 * setting.
 */
class AdminPasswordHashTest {
  @TempDir Path directory;

  @Test
  void aHashedAdminPasswordChecksThePasswordNotTheHash() throws Exception {
    String hash = PasswordHash.hash("s3cret-admin");
    try (QuarryServer server =
        io.quarry.server.TestServers.start(directory.resolve("data"), hash)) {
      TestHttp http = new TestHttp(server.url());
      assertThat(
              http.send(
                      "GET", "/services/server/info", TestHttp.basic("admin", "s3cret-admin"), null)
                  .statusCode())
          .isEqualTo(200);
      assertThat(
              http.send("GET", "/services/server/info", TestHttp.basic("admin", hash), null)
                  .statusCode())
          .as("the hash is not the password")
          .isEqualTo(401);
    }
  }

  @Test
  void aMalformedOrWeakHashIsRefusedAtStart() {
    assertThatThrownBy(() -> new Auth("pbkdf2:sha256:1000:c2FsdA==:aGFzaA==", null, null))
        .hasMessageContaining("auth.adminPassword");
    assertThatThrownBy(() -> new Auth("pbkdf2:nonsense", null, null))
        .hasMessageContaining("auth.adminPassword");
  }
}
