package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.config.Auth;
import io.quarry.server.config.DurableFile;
import io.quarry.server.config.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * The roles: built in ({@code admin}, {@code user}), the configuration's ({@code auth.roles},
 * read-only here) and those defined at run time over Splunk's {@code authorization/roles}, kept in
 * {@code roles.json} (owner-only, replaced atomically: {@link DurableFile}) and read back on start.
 * A role defined here may import others ({@code imported_roles}, as in Splunk): its users get the
 * union of its own and every imported role's indexes and capabilities ({@link #resolve}).
 *
 * <p>Not thread-safe: the {@link UserDirectory} that owns it changes it under its own lock, so a
 * role cannot be deleted while a user is being given it.
 */
public final class RoleDirectory {
  private static final Logger LOG = Logger.getLogger(RoleDirectory.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Roles defined over REST, at most. */
  public static final int MAX_DEFINED = 1_000;

  /** A role as the file holds it: Splunk's settings and the roles it imports. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Stored(
      @JsonProperty("srchIndexesAllowed") List<String> srchIndexesAllowed,
      @JsonProperty("srchIndexesDefault") List<String> srchIndexesDefault,
      @JsonProperty("capabilities") List<String> capabilities,
      @JsonProperty("srchFilter") String srchFilter,
      @JsonProperty("srchJobsQuota") Integer srchJobsQuota,
      @JsonProperty("srchMaxTime") String srchMaxTime,
      @JsonProperty("imported_roles") List<String> importedRoles) {
    public Stored {
      importedRoles = importedRoles == null ? List.of() : List.copyOf(importedRoles);
    }

    /** Its own settings (imports not included), with the defaults of a configured role. */
    public Role role() {
      return new Role(
          srchIndexesAllowed,
          srchIndexesDefault,
          capabilities,
          srchFilter,
          srchJobsQuota,
          srchMaxTime);
    }
  }

  private final Path file;
  private final Map<String, Role> configured;
  private final Map<String, Stored> defined = new TreeMap<>();

  private RoleDirectory(Path file, Map<String, Role> configured) {
    this.file = file;
    this.configured = configured;
  }

  /**
   * Reads {@code file} (if any). A name the configuration now defines keeps the configuration's
   * settings, and an import of a role that no longer exists is left out (both logged).
   */
  public static RoleDirectory open(Path file, Auth auth) throws IOException {
    RoleDirectory roles =
        new RoleDirectory(requireNonNull(file, "file is null"), requireNonNull(auth).roles());
    if (!Files.exists(file)) {
      return roles;
    }
    Map<String, Stored> saved;
    try {
      saved = JSON.readValue(file.toFile(), new TypeReference<Map<String, Stored>>() {});
    } catch (IOException e) {
      throw new IOException(
          file + " (roles defined over REST) cannot be read: " + e.getMessage(), e);
    }
    saved.forEach(
        (name, role) -> {
          if (roles.configured.containsKey(name)) {
            LOG.warning(
                "role '"
                    + name
                    + "' in "
                    + file
                    + " is now defined in the configuration too; the configuration's wins");
          } else {
            try {
              role.role().check(name);
              roles.defined.put(name, role);
            } catch (IllegalArgumentException e) {
              LOG.warning("role '" + name + "' in " + file + " is left out: " + e.getMessage());
            }
          }
        });
    roles.defined.forEach(
        (name, role) -> {
          for (String imported : role.importedRoles()) {
            if (!roles.exists(imported)) {
              LOG.warning(
                  "role '"
                      + name
                      + "' in "
                      + file
                      + " imports role '"
                      + imported
                      + "', which no longer exists; the import is left out");
            }
          }
        });
    return roles;
  }

  /** Whether a role of that name exists: built in, configured or defined here. */
  public boolean exists(String name) {
    return configured.containsKey(name) || defined.containsKey(name);
  }

  /** Whether {@code name} is built in or in the configuration (not to be changed here). */
  public boolean configured(String name) {
    return configured.containsKey(name);
  }

  /** Every role's own settings by name: built in and configured first, then those defined here. */
  public Map<String, Role> all() {
    Map<String, Role> all = new LinkedHashMap<>(configured);
    defined.forEach((name, role) -> all.put(name, role.role()));
    return all;
  }

  /** The roles a role imports (none for a built-in or configured one). */
  public List<String> imports(String name) {
    Stored role = defined.get(name);
    return role == null ? List.of() : role.importedRoles();
  }

  /**
   * The roles a holder of {@code names} has: those and, transitively, every role they import
   * (unknown names left out; an import cycle ends where it started).
   */
  public List<Role> resolve(List<String> names) {
    return resolve(names, Map.of());
  }

  /** As {@link #resolve(List)}, with {@code changed} taking the place of the roles it names. */
  List<Role> resolve(List<String> names, Map<String, Stored> changed) {
    Set<String> seen = new LinkedHashSet<>();
    Deque<String> pending = new ArrayDeque<>(names);
    List<Role> roles = new ArrayList<>();
    while (!pending.isEmpty()) {
      String name = pending.poll();
      if (!seen.add(name)) {
        continue;
      }
      Stored stored = changed.containsKey(name) ? changed.get(name) : defined.get(name);
      if (stored != null) {
        roles.add(stored.role());
        pending.addAll(stored.importedRoles());
      } else if (configured.containsKey(name)) {
        roles.add(configured.get(name));
      }
    }
    return roles;
  }

  /** The role as defined here, or null (built in, configured, or none). */
  public Stored defined(String name) {
    return defined.get(name);
  }

  /**
   * Checks a role to be defined under {@code name}: its name, its settings (the configuration's
   * checks) and that every role it imports exists.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  void check(String name, Stored role) {
    if (!Auth.validName(name)) {
      throw new IllegalArgumentException(
          "a role name is 1 to 64 letters, digits or _.-, not '" + name + "'");
    }
    if (configured(name)) {
      throw new IllegalArgumentException(
          "role '"
              + name
              + "' is built in or defined in the configuration (auth.roles); change it there");
    }
    if (!defined.containsKey(name) && defined.size() >= MAX_DEFINED) {
      throw new IllegalArgumentException(
          "there are " + MAX_DEFINED + " roles defined over REST already, the most kept");
    }
    try {
      role.role().check(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage().replace("auth.roles." + name + ".", ""), e);
    }
    for (String imported : role.importedRoles()) {
      if (imported.equals(name)) {
        throw new IllegalArgumentException("role '" + name + "' cannot import itself");
      }
      if (!exists(imported)) {
        throw new IllegalArgumentException(
            "imported_roles: no role '" + imported + "' (built in, configured or defined)");
      }
    }
  }

  /** Defines or replaces a role (checked with {@link #check} before) and saves the file. */
  void put(String name, Stored role) throws IOException {
    Map<String, Stored> next = new TreeMap<>(defined);
    next.put(name, role);
    save(next);
    defined.put(name, role);
  }

  /** Deletes a role defined here and saves the file; false when there is none of that name. */
  boolean delete(String name) throws IOException {
    if (!defined.containsKey(name)) {
      return false;
    }
    Map<String, Stored> next = new TreeMap<>(defined);
    next.remove(name);
    save(next);
    defined.remove(name);
    return true;
  }

  /** The roles defined here that import {@code name} directly. */
  List<String> importers(String name) {
    List<String> importers = new ArrayList<>();
    defined.forEach(
        (other, role) -> {
          if (role.importedRoles().contains(name)) {
            importers.add(other);
          }
        });
    return importers;
  }

  private void save(Map<String, Stored> roles) throws IOException {
    DurableFile.replace(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(roles));
  }
}
