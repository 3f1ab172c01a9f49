package io.quarry.server.saved;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.ql.parser.SavedSearches;
import io.quarry.server.config.DurableFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;

/**
 * The saved searches: the configuration's (read-only here) and the ones defined over REST, written
 * to {@code savedsearches.json} atomically on every change and read back on start. A name the
 * configuration defines cannot be defined, changed or deleted over REST. {@link #get} is what the
 * parser expands {@code | savedsearch} with: a snapshot, replaced whole on change. The jobs a saved
 * search was dispatched as are remembered (the last {@link #HISTORY} per search, until a restart)
 * for Splunk's {@code history}.
 */
public final class SavedSearchStore implements Supplier<SavedSearches> {
  /** Dispatched jobs remembered per saved search. */
  public static final int HISTORY = 25;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_NAME_LENGTH = 1024;

  private final Path file;
  private final Map<String, SavedSearch> configured;
  private final Map<String, SavedSearch> defined = new TreeMap<>(); // guarded by this
  private final Map<String, Deque<String>> history = new HashMap<>(); // guarded by this
  private volatile SavedSearches current;

  /**
   * @param file where REST-defined saved searches live ({@code <dataDir>/savedsearches.json})
   * @param configured the configuration's saved searches by name
   */
  public SavedSearchStore(Path file, Map<String, SavedSearch> configured) throws IOException {
    this.file = requireNonNull(file, "file is null");
    this.configured = Map.copyOf(configured);
    if (Files.exists(file)) {
      Map<String, SavedSearch> saved;
      try {
        saved = JSON.readValue(file.toFile(), new TypeReference<Map<String, SavedSearch>>() {});
      } catch (IOException e) {
        throw new IOException(
            file
                + " (saved searches defined through saved/searches) cannot be read: "
                + e.getMessage()
                + "; fix or remove it",
            e);
      }
      saved.forEach(
          (name, search) -> {
            if (this.configured.containsKey(name)) {
              Logger.getLogger(SavedSearchStore.class.getName())
                  .warning(
                      "saved search '"
                          + name
                          + "' in "
                          + file
                          + " is now defined in the configuration too; the configuration's wins");
            } else {
              defined.put(name, search);
            }
          });
    }
    this.current = snapshot();
  }

  @Override
  public SavedSearches get() {
    return current;
  }

  /** Every saved search by name, in name order. */
  public synchronized Map<String, SavedSearch> list() {
    Map<String, SavedSearch> all = new TreeMap<>(configured);
    all.putAll(defined);
    return all;
  }

  public synchronized Optional<SavedSearch> find(String name) {
    SavedSearch search = configured.get(name);
    return Optional.ofNullable(search != null ? search : defined.get(name));
  }

  /** Whether {@code name} comes from the configuration (and so cannot change over REST). */
  public boolean configured(String name) {
    return configured.containsKey(name);
  }

  /**
   * Defines a new saved search.
   *
   * @throws IllegalArgumentException for a bad name or a name already taken
   */
  public synchronized void create(String name, SavedSearch search) throws IOException {
    checkName(name);
    if (configured.containsKey(name) || defined.containsKey(name)) {
      throw new IllegalArgumentException("A saved search named '" + name + "' already exists");
    }
    Map<String, SavedSearch> next = new TreeMap<>(defined);
    next.put(name, search);
    commit(next);
  }

  /**
   * Changes a REST-defined saved search.
   *
   * @return the changed search, or empty when there is none of that name
   * @throws IllegalArgumentException for one the configuration defines
   */
  public synchronized Optional<SavedSearch> update(String name, UnaryOperator<SavedSearch> change)
      throws IOException {
    refuseConfigured(name, "changed");
    SavedSearch old = defined.get(name);
    if (old == null) {
      return Optional.empty();
    }
    SavedSearch changed = change.apply(old);
    Map<String, SavedSearch> next = new TreeMap<>(defined);
    next.put(name, changed);
    commit(next);
    return Optional.of(changed);
  }

  /**
   * Deletes a REST-defined saved search; false when there is none of that name.
   *
   * @throws IllegalArgumentException for one the configuration defines
   */
  public synchronized boolean delete(String name) throws IOException {
    refuseConfigured(name, "deleted");
    if (!defined.containsKey(name)) {
      return false;
    }
    Map<String, SavedSearch> next = new TreeMap<>(defined);
    next.remove(name);
    commit(next);
    history.remove(name);
    return true;
  }

  /** Records that {@code name} was dispatched as job {@code sid}. */
  public synchronized void dispatched(String name, String sid) {
    Deque<String> jobs = history.computeIfAbsent(name, n -> new ArrayDeque<>());
    jobs.addFirst(sid);
    while (jobs.size() > HISTORY) {
      jobs.removeLast();
    }
  }

  /** The jobs {@code name} was dispatched as, newest first. */
  public synchronized List<String> history(String name) {
    return List.copyOf(history.getOrDefault(name, new ArrayDeque<>()));
  }

  private void refuseConfigured(String name, String what) {
    if (configured.containsKey(name)) {
      throw new IllegalArgumentException(
          "Saved search '"
              + name
              + "' is defined in the configuration (search.savedSearches) and cannot be "
              + what
              + " here; change it there");
    }
  }

  private static void checkName(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("A saved search needs a name");
    }
    if (name.length() > MAX_NAME_LENGTH || !name.equals(name.strip())) {
      throw new IllegalArgumentException(
          "A saved search's name must be at most "
              + MAX_NAME_LENGTH
              + " characters without leading or trailing blanks");
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isISOControl(name.charAt(i))) {
        throw new IllegalArgumentException("A saved search's name cannot hold control characters");
      }
    }
  }

  private void commit(Map<String, SavedSearch> next) throws IOException {
    DurableFile.replace(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(next));
    defined.clear();
    defined.putAll(next);
    current = snapshot();
  }

  private SavedSearches snapshot() {
    Map<String, String> texts = new LinkedHashMap<>();
    defined.forEach((name, search) -> texts.put(name, search.search()));
    configured.forEach((name, search) -> texts.put(name, search.search()));
    return new SavedSearches(texts);
  }
}
