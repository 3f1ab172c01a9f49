package io.quarry.server;

import io.quarry.server.auth.Secrets;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.HecToken;
import io.quarry.server.config.QuarryConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The secrets a node starts with: the admin password (configured, else generated once into the data
 * directory) and the HEC tokens (configured, else one generated once that may write every index),
 * each configured token's indexes checked against the configured indexes.
 *
 * @param generatedHecToken the generated token, or null when tokens are configured
 */
record StartCredentials(
    Secrets.Secret adminPassword, List<HecToken> hecTokens, Secrets.Secret generatedHecToken) {

  static StartCredentials resolve(QuarryConfig config, Path dataDirectory) throws IOException {
    Secrets.Secret adminPassword =
        config.auth().adminPassword() != null && !config.auth().adminPassword().isBlank()
            ? new Secrets.Secret(config.auth().adminPassword(), false)
            : Secrets.adminPassword(dataDirectory.resolve(QuarryServer.ADMIN_PASSWORD_FILE));
    List<HecToken> hecTokens = new ArrayList<>(config.hec().tokens());
    Secrets.Secret generatedHecToken = null;
    if (hecTokens.isEmpty()) {
      generatedHecToken = Secrets.hecToken(dataDirectory.resolve(QuarryServer.HEC_TOKEN_FILE));
      hecTokens.add(
          new HecToken(
              generatedHecToken.value(),
              "default",
              QuarryConfig.DEFAULT_INDEX,
              List.of("*"),
              null));
    }
    for (HecToken token : hecTokens) {
      for (String index : token.indexes()) {
        if (!index.equals("*") && !config.indexes().contains(index)) {
          throw new ConfigException(
              "HEC token '"
                  + token.name()
                  + "' lists index '"
                  + index
                  + "', which is not in indexes");
        }
      }
    }
    return new StartCredentials(adminPassword, hecTokens, generatedHecToken);
  }

  /** The token names and whether the secrets were generated; never a secret. */
  @Override
  public String toString() {
    return "StartCredentials[adminPassword generated="
        + adminPassword.generated()
        + ", hecTokens="
        + hecTokens.stream().map(HecToken::name).toList()
        + ", hecToken generated="
        + (generatedHecToken != null)
        + "]";
  }
}
