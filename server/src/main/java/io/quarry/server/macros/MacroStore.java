package io.quarry.server.macros;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.ql.parser.Macros;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The search macros: the configuration's (read-only here) and the ones defined over REST, which are
 * written to {@code macros.json} atomically on every change and read back on start. A REST
 * definition of a name the configuration defines is refused (the configuration is the place to
 * change it). {@link #get} is what the parser expands with: a snapshot, replaced whole on change.
 */
public final class MacroStore implements Supplier<Macros> {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One macro as the REST API and the file hold it. */
  public record Definition(String definition, List<String> args) {
    public Definition {
      requireNonNull(definition, "definition is null");
      args = args == null ? List.of() : List.copyOf(args);
    }
  }

  private final Path file;
  private final Map<String, Macros.Macro> configured;
  private final Map<String, Macros.Macro> defined = new TreeMap<>(); // guarded by this
  private volatile Macros current;

  /**
   * @param file where REST-defined macros live ({@code <dataDir>/macros.json})
   * @param configured the configuration's macros, keyed {@code name} or {@code name(n)}
   */
  public MacroStore(Path file, Macros configured) throws IOException {
    this.file = requireNonNull(file, "file is null");
    this.configured = configured.definitions();
    if (Files.exists(file)) {
      Map<String, Definition> saved;
      try {
        saved = JSON.readValue(file.toFile(), new TypeReference<Map<String, Definition>>() {});
      } catch (IOException e) {
        throw new IOException(
            file
                + " (search macros defined through /api/v1/macros) cannot be read: "
                + e.getMessage()
                + "; fix or remove it",
            e);
      }
      saved.forEach(
          (key, d) -> {
            String normal = Macros.normalizeKey(key);
            if (this.configured.containsKey(normal)) {
              java.util.logging.Logger.getLogger(MacroStore.class.getName())
                  .warning(
                      "macro '"
                          + normal
                          + "' in "
                          + file
                          + " is now defined in the configuration too; the configuration's wins");
            } else {
              defined.put(normal, new Macros.Macro(d.args(), d.definition()));
            }
          });
    }
    this.current = merged();
  }

  @Override
  public Macros get() {
    return current;
  }

  /** Every macro, keyed {@code name} or {@code name(n)}, with where it comes from. */
  public synchronized Map<String, Map<String, Object>> list() {
    Map<String, Map<String, Object>> all = new TreeMap<>();
    configured.forEach((key, macro) -> all.put(key, describe(macro, "config")));
    defined.forEach((key, macro) -> all.put(key, describe(macro, "api")));
    return all;
  }

  /**
   * Defines (or replaces) a macro.
   *
   * @throws IllegalArgumentException naming what is wrong: the key, its arity against the
   *     arguments, a name the configuration defines
   */
  public synchronized void put(String rawKey, Definition definition) throws IOException {
    String key = Macros.normalizeKey(rawKey);
    if (configured.containsKey(key)) {
      throw new IllegalArgumentException(
          "macro '" + key + "' is defined in the configuration (search.macros); change it there");
    }
    Map<String, Macros.Macro> next = new TreeMap<>(defined);
    next.put(key, new Macros.Macro(definition.args(), definition.definition()));
    Macros checked = merge(next); // throws on a bad key or arity
    save(next);
    defined.clear();
    defined.putAll(next);
    current = checked;
  }

  /** Deletes a REST-defined macro; false when there is none of that key. */
  public synchronized boolean delete(String rawKey) throws IOException {
    String key;
    try {
      key = Macros.normalizeKey(rawKey);
    } catch (IllegalArgumentException notAKey) {
      return false;
    }
    if (!defined.containsKey(key)) {
      return false;
    }
    Map<String, Macros.Macro> next = new TreeMap<>(defined);
    next.remove(key);
    save(next);
    defined.remove(key);
    current = merged();
    return true;
  }

  private Macros merged() {
    return merge(defined);
  }

  private Macros merge(Map<String, Macros.Macro> fromApi) {
    Map<String, Macros.Macro> all = new LinkedHashMap<>(configured);
    all.putAll(fromApi);
    return new Macros(all);
  }

  private void save(Map<String, Macros.Macro> macros) throws IOException {
    Map<String, Definition> out = new TreeMap<>();
    macros.forEach(
        (key, macro) -> out.put(key, new Definition(macro.definition(), macro.arguments())));
    io.quarry.server.config.DurableFile.replace(
        file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(out));
  }

  private static Map<String, Object> describe(Macros.Macro macro, String from) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("definition", macro.definition());
    entry.put("args", macro.arguments());
    entry.put("from", from);
    return entry;
  }
}
