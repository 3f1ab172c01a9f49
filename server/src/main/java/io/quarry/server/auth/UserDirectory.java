package io.quarry.server.auth;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.config.Auth;
import io.quarry.server.config.DurableFile;
import io.quarry.server.config.Role;
import io.quarry.server.config.User;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * The users: the configuration's ({@code auth.users}, read-only here), {@code admin}, and those
 * defined at run time over Splunk's {@code authentication/users}, kept in {@code users.json} with
 * their passwords as PBKDF2 hashes ({@link PasswordHash}; the password itself is never written) and
 * read back on start. Roles come from the configuration and from the {@link RoleDirectory} this
 * directory owns (roles defined over REST); users and roles change under one lock, so a role is
 * never deleted while a user is being given it. A change reaches the {@link Authenticator} at once:
 * a deleted user or a changed password ends that user's sessions; a changed role changes what its
 * holders may do from their next request (their sessions stay).
 */
public final class UserDirectory {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Users defined over REST, at most. */
  public static final int MAX_DEFINED = 10_000;

  /** A user as the file holds it and the REST API describes it. */
  public record Stored(
      @JsonProperty("passwordHash") String passwordHash,
      @JsonProperty("roles") List<String> roles) {
    public Stored {
      requireNonNull(passwordHash, "passwordHash is null");
      roles = List.copyOf(roles);
    }
  }

  /** One user as listed: its roles and where it is defined ({@code config}, {@code api}). */
  public record Listed(String name, List<String> roles, String from) {}

  private final Path file;
  private final Auth auth;
  private final RoleDirectory roles; // guarded by this
  private final Authenticator authenticator;
  private final Map<String, Stored> defined = new TreeMap<>(); // guarded by this

  private UserDirectory(Path file, Auth auth, RoleDirectory roles, Authenticator authenticator) {
    this.file = file;
    this.auth = auth;
    this.roles = roles;
    this.authenticator = authenticator;
  }

  /**
   * Reads {@code file} (if any) and hands its users to {@code authenticator}; a name the
   * configuration now defines keeps the configuration's settings (logged).
   */
  public static UserDirectory open(
      Path file, Auth auth, RoleDirectory roles, Authenticator authenticator) throws IOException {
    UserDirectory directory =
        new UserDirectory(
            requireNonNull(file, "file is null"),
            requireNonNull(auth, "auth is null"),
            requireNonNull(roles, "roles is null"),
            requireNonNull(authenticator, "authenticator is null"));
    if (Files.exists(file)) {
      Map<String, Stored> saved;
      try {
        saved = JSON.readValue(file.toFile(), new TypeReference<Map<String, Stored>>() {});
      } catch (IOException e) {
        throw new IOException(
            file + " (users defined over REST) cannot be read: " + e.getMessage(), e);
      }
      saved.forEach(
          (name, user) -> {
            if (directory.configured(name)) {
              Logger.getLogger(UserDirectory.class.getName())
                  .warning(
                      "user '"
                          + name
                          + "' in "
                          + file
                          + " is now defined in the configuration too; the configuration's wins");
            } else if (!user.roles().stream().allMatch(roles::exists)) {
              Logger.getLogger(UserDirectory.class.getName())
                  .warning(
                      "user '"
                          + name
                          + "' in "
                          + file
                          + " has a role that no longer exists ("
                          + user.roles()
                          + "); the user cannot log in until it is changed or deleted");
              directory.defined.put(name, user);
            } else {
              directory.defined.put(name, user);
              authenticator.define(name, user.passwordHash(), directory.access(name, user.roles()));
            }
          });
    }
    return directory;
  }

  /** Whether {@code name} is {@code admin} or a user of the configuration. */
  public boolean configured(String name) {
    return name.equals(Authenticator.ADMIN_USER)
        || auth.users().stream().anyMatch(user -> user.name().equals(name));
  }

  /** Every user, by name. */
  public synchronized List<Listed> list() {
    List<Listed> all = new ArrayList<>();
    all.add(new Listed(Authenticator.ADMIN_USER, List.of(Auth.ADMIN_ROLE), "config"));
    for (User user : auth.users()) {
      all.add(new Listed(user.name(), user.roles(), "config"));
    }
    defined.forEach((name, user) -> all.add(new Listed(name, user.roles(), "api")));
    all.sort(java.util.Comparator.comparing(Listed::name));
    return all;
  }

  /** Every role's own settings by name: built in, configured and defined over REST. */
  public synchronized Map<String, Role> roles() {
    return roles.all();
  }

  /** The roles a role defined over REST imports (none for the others). */
  public synchronized List<String> imports(String role) {
    return roles.imports(role);
  }

  /** Whether a role is built in or configured (not to be changed over REST). */
  public boolean configuredRole(String role) {
    return roles.configured(role);
  }

  /** The access a user with {@code roleNames} has, imported roles included. */
  public synchronized Access access(String user, List<String> roleNames) {
    return Access.of(user, roles.resolve(roleNames));
  }

  /**
   * What holders of the role {@code name} would get were it {@code role} (imports included): for
   * checking a change before it is made.
   */
  public synchronized Access accessOfRole(String name, RoleDirectory.Stored role) {
    return Access.of(name, roles.resolve(List.of(name), Map.of(name, role)));
  }

  /** The roles of a user, or null when there is no such user. */
  public synchronized List<String> rolesOf(String user) {
    return list().stream()
        .filter(listed -> listed.name().equals(user))
        .findFirst()
        .map(Listed::roles)
        .orElse(null);
  }

  /**
   * Defines a role ({@code create}) or changes one defined over REST; its holders' access changes
   * at once.
   *
   * @throws IllegalArgumentException naming what is wrong (see {@link RoleDirectory#check})
   * @throws IllegalStateException when a role to create exists, or one to change no longer does
   *     (another request came first)
   */
  public synchronized void putRole(String name, RoleDirectory.Stored role, boolean create)
      throws IOException {
    roles.check(name, role);
    if (create == roles.exists(name)) {
      throw new IllegalStateException(
          create ? "A role named '" + name + "' already exists" : "No role '" + name + "'");
    }
    roles.put(name, role);
    refreshAccess();
  }

  /**
   * Deletes a role defined over REST; false when there is none of that name.
   *
   * @throws IllegalArgumentException for a built-in or configured role
   * @throws IllegalStateException naming the users that hold it or the roles that import it
   */
  public synchronized boolean deleteRole(String name) throws IOException {
    if (roles.configured(name)) {
      throw new IllegalArgumentException(
          "role '"
              + name
              + "' is built in or defined in the configuration (auth.roles); remove it there");
    }
    if (roles.defined(name) == null) {
      return false;
    }
    List<String> holders = new ArrayList<>();
    defined.forEach(
        (user, stored) -> {
          if (stored.roles().contains(name)) {
            holders.add(user);
          }
        });
    List<String> importers = roles.importers(name);
    if (!holders.isEmpty() || !importers.isEmpty()) {
      List<String> uses = new ArrayList<>();
      if (!holders.isEmpty()) {
        uses.add("users " + holders + " hold it");
      }
      if (!importers.isEmpty()) {
        uses.add("roles " + importers + " import it");
      }
      throw new IllegalStateException(
          "role '" + name + "' is in use: " + String.join("; ", uses) + "; take it away first");
    }
    roles.delete(name);
    return true;
  }

  /** Gives every user defined here the access their roles now give (sessions stay). */
  private void refreshAccess() {
    defined.forEach(
        (name, user) -> {
          if (user.roles().stream().allMatch(roles::exists)) {
            authenticator.reaccess(name, access(name, user.roles()));
          }
        });
  }

  /**
   * Defines a user, or changes one defined here: {@code password} null keeps the old one, {@code
   * roles} null keeps the old ones (a new user gets {@code user}).
   *
   * @return whether the user is new
   * @throws IllegalArgumentException naming what is wrong: the name, the password's strength, an
   *     unknown role, a user of the configuration
   */
  public synchronized boolean put(String name, String password, List<String> roles)
      throws IOException {
    if (configured(name)) {
      throw new IllegalArgumentException(
          "user '" + name + "' is defined in the configuration (auth.users); change it there");
    }
    Stored old = defined.get(name);
    if (old == null && password == null) {
      throw new IllegalArgumentException("a new user needs a password");
    }
    if (old == null && defined.size() >= MAX_DEFINED) {
      throw new IllegalArgumentException(
          "there are " + MAX_DEFINED + " users defined over REST already, the most kept");
    }
    List<String> newRoles =
        roles != null && !roles.isEmpty()
            ? List.copyOf(roles)
            : old != null ? old.roles() : List.of(Auth.USER_ROLE);
    for (String role : newRoles) {
      if (!this.roles.exists(role)) {
        throw new IllegalArgumentException(
            "role '" + role + "' is neither built in (admin, user), in auth.roles nor defined");
      }
    }
    // the configuration's checks on names and passwords, applied to the new user
    new User(name, password != null ? password : old.passwordHash(), newRoles);
    String hash = password != null ? PasswordHash.hash(password) : old.passwordHash();
    Map<String, Stored> next = new TreeMap<>(defined);
    next.put(name, new Stored(hash, newRoles));
    save(next);
    defined.put(name, next.get(name));
    authenticator.define(name, hash, access(name, newRoles));
    return old == null;
  }

  /**
   * Deletes a user defined here; false when there is none of that name.
   *
   * @throws IllegalArgumentException for {@code admin} or a user of the configuration
   */
  public synchronized boolean delete(String name) throws IOException {
    if (configured(name)) {
      throw new IllegalArgumentException(
          "user '" + name + "' is defined in the configuration (auth.users); remove it there");
    }
    if (!defined.containsKey(name)) {
      return false;
    }
    Map<String, Stored> next = new TreeMap<>(defined);
    next.remove(name);
    save(next);
    defined.remove(name);
    authenticator.forget(name);
    return true;
  }

  private void save(Map<String, Stored> users) throws IOException {
    DurableFile.replace(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(users));
  }
}
