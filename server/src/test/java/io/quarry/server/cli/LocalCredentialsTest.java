package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local server's generated secrets are read for a server on this machine only. */
class LocalCredentialsTest {
  @TempDir Path data;

  @Test
  void theDataDirectorysSecretsGoToALocalServerOnly() throws Exception {
    Files.writeString(data.resolve(".admin-password"), "pw\n");
    Files.writeString(data.resolve(".hec-token"), "tok\n");
    assertThat(LocalCredentials.adminPassword(null, data.toString(), true)).isEqualTo("pw");
    assertThat(LocalCredentials.hecToken(null, data.toString(), true)).isEqualTo("tok");
    assertThat(LocalCredentials.adminPassword("flag", data.toString(), false)).isEqualTo("flag");
    assertThatThrownBy(() -> LocalCredentials.adminPassword(null, data.toString(), false))
        .hasMessageContaining("only sent to a server on this machine");
  }
}
