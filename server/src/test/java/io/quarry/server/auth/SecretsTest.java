package io.quarry.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generated secrets are readable by their owner only, and generated once. */
class SecretsTest {
  @TempDir Path directory;

  @Test
  void aGeneratedTokenIsOwnerOnlyAndKept() throws Exception {
    Path file = directory.resolve("nested/.hec-token");
    Secrets.Secret created = Secrets.hecToken(file);
    assertThat(created.generated()).isTrue();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(file)).isEqualTo(created.value() + "\n");

    Secrets.Secret again = Secrets.hecToken(file);
    assertThat(again.generated()).isFalse();
    assertThat(again.value()).isEqualTo(created.value());
  }

  @Test
  void aNewDataDirectoryIsOwnerOnly() throws Exception {
    Path data = directory.resolve("a/data");
    Secrets.privateDirectory(data);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data)))
        .isEqualTo("rwx------");
    Secrets.privateDirectory(data); // an existing one is left as it is
    assertThat(Files.isDirectory(data)).isTrue();
  }
}
