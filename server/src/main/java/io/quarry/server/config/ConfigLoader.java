package io.quarry.server.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loads {@link QuarryConfig}: defaults, then the YAML file, then {@code QUARRY_*} environment
 * variables, then command-line flags, each overriding the one before.
 *
 * <table>
 *   <caption>Environment variables</caption>
 *   <tr><td>{@code QUARRY_BIND}</td><td>server.bind</td></tr>
 *   <tr><td>{@code QUARRY_PORT}</td><td>server.port</td></tr>
 *   <tr><td>{@code QUARRY_MAX_REQUEST_BYTES}</td><td>server.maxRequestBytes</td></tr>
 *   <tr><td>{@code QUARRY_WORKER_THREADS}</td><td>server.workerThreads</td></tr>
 *   <tr><td>{@code QUARRY_INGEST_WORKER_THREADS}</td><td>server.ingestWorkerThreads</td></tr>
 *   <tr><td>{@code QUARRY_TLS_ENABLED}</td><td>server.tls.enabled</td></tr>
 *   <tr><td>{@code QUARRY_TLS_CERTIFICATE}</td><td>server.tls.certificate</td></tr>
 *   <tr><td>{@code QUARRY_TLS_KEY}</td><td>server.tls.key</td></tr>
 *   <tr><td>{@code QUARRY_TLS_KEY_PASSWORD}</td><td>server.tls.keyPassword</td></tr>
 *   <tr><td>{@code QUARRY_TLS_CLIENT_AUTH}</td><td>server.tls.clientAuth</td></tr>
 *   <tr><td>{@code QUARRY_TLS_CLIENT_CA}</td><td>server.tls.clientCa</td></tr>
 *   <tr><td>{@code QUARRY_ALLOW_PLAINTEXT}</td><td>server.allowPlaintext</td></tr>
 *   <tr><td>{@code QUARRY_DATA_DIR}</td><td>dataDir</td></tr>
 *   <tr><td>{@code QUARRY_INDEXES}</td><td>indexes (comma-separated)</td></tr>
 *   <tr><td>{@code QUARRY_ADMIN_PASSWORD}</td><td>auth.adminPassword</td></tr>
 *   <tr><td>{@code QUARRY_PLUGINS_DIR}</td><td>plugins.dir</td></tr>
 *   <tr><td>{@code QUARRY_HEC_TOKEN}</td><td>adds a HEC token that may write every index</td></tr>
 * </table>
 */
public final class ConfigLoader {
  /** Environment variable → configuration path. */
  public static final Map<String, String> ENVIRONMENT =
      orderedMap(
          "QUARRY_BIND", "server.bind",
          "QUARRY_PORT", "server.port",
          "QUARRY_MAX_REQUEST_BYTES", "server.maxRequestBytes",
          "QUARRY_WORKER_THREADS", "server.workerThreads",
          "QUARRY_INGEST_WORKER_THREADS", "server.ingestWorkerThreads",
          "QUARRY_TLS_ENABLED", "server.tls.enabled",
          "QUARRY_TLS_CERTIFICATE", "server.tls.certificate",
          "QUARRY_TLS_KEY", "server.tls.key",
          "QUARRY_TLS_KEY_PASSWORD", "server.tls.keyPassword",
          "QUARRY_TLS_CLIENT_AUTH", "server.tls.clientAuth",
          "QUARRY_TLS_CLIENT_CA", "server.tls.clientCa",
          "QUARRY_ALLOW_PLAINTEXT", "server.allowPlaintext",
          "QUARRY_DATA_DIR", "dataDir",
          "QUARRY_INDEXES", "indexes",
          "QUARRY_ADMIN_PASSWORD", "auth.adminPassword",
          "QUARRY_PLUGINS_DIR", "plugins.dir");

  public static final String HEC_TOKEN_VARIABLE = "QUARRY_HEC_TOKEN";

  private ConfigLoader() {}

  /**
   * @param file the YAML file, or null for none
   * @param environment the process environment (passed in so tests can set it)
   * @param flags overrides from the command line, by configuration path ({@code server.port})
   */
  public static QuarryConfig load(
      Path file, Map<String, String> environment, Map<String, String> flags) throws IOException {
    ObjectNode tree = JsonNodeFactory.instance.objectNode();
    if (file != null) {
      if (!Files.isRegularFile(file)) {
        throw new ConfigException("configuration file not found: " + file);
      }
      try {
        JsonNode parsed = ConfigBuilder.readYaml(file.toFile());
        if (parsed != null && !parsed.isMissingNode() && !parsed.isNull()) {
          if (!parsed.isObject()) {
            throw new ConfigException(file + ": the top level must be a mapping of settings");
          }
          tree = (ObjectNode) parsed;
        }
      } catch (JsonProcessingException e) {
        throw new ConfigException(file + ": " + e.getOriginalMessage(), e);
      }
    }
    ConfigBuilder settings = new ConfigBuilder(tree);
    String where = file == null ? "configuration" : file.toString();
    try {
      for (Map.Entry<String, String> variable : ENVIRONMENT.entrySet()) {
        String value = environment.get(variable.getKey());
        if (value != null && !value.isEmpty()) {
          settings.putText(variable.getValue(), value);
        }
      }
      for (Map.Entry<String, String> flag : flags.entrySet()) {
        settings.putText(flag.getKey(), flag.getValue());
      }
      String hecToken = environment.get(HEC_TOKEN_VARIABLE);
      if (hecToken != null && !hecToken.isBlank()) {
        settings.add(
            "hec.tokens",
            Map.of(
                "token", hecToken, "name", HEC_TOKEN_VARIABLE, "indexes", java.util.List.of("*")));
      }
    } catch (ConfigException e) { // a setting of the file where the environment puts another
      throw new ConfigException(where + ": " + e.getMessage(), e);
    }
    return settings.build(where);
  }

  private static Map<String, String> orderedMap(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(map);
  }
}
