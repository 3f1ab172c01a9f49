package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * Search authentication: HTTP Basic (or a session key) as {@code admin} or one of {@code users},
 * and the roles that say what each may read and change. {@code admin} has the built-in {@code
 * admin} role (every index, internal ones included, every capability); a user without {@code roles}
 * has the built-in {@code user} role (every non-internal index, default {@code main}, no
 * capability), which {@code auth.roles.user} may redefine.
 */
public record Auth(
    @JsonProperty("adminPassword") String adminPassword,
    @JsonProperty("users") List<User> users,
    @JsonProperty("roles") Map<String, Role> roles) {
  /** The role every user has when they name none. */
  public static final String USER_ROLE = "user";

  /** The role of {@code admin}. */
  public static final String ADMIN_ROLE = "admin";

  public Auth {
    AuthSettings.checkAdminPassword(adminPassword);
    users = users == null ? List.of() : List.copyOf(users);
    roles = AuthSettings.withBuiltInRoles(roles);
    AuthSettings.checkUsers(users, roles);
  }

  /** Never the admin password; users print without theirs. */
  @Override
  public String toString() {
    return "Auth[adminPassword="
        + (adminPassword == null ? "unset" : "set")
        + ", users="
        + users
        + ", roles="
        + roles.keySet()
        + "]";
  }

  /** Whether {@code name} may name a role: 1 to 64 letters, digits or {@code _.-}. */
  public static boolean validName(String name) {
    return name != null && name.matches("[A-Za-z0-9_.-]{1,64}");
  }
}
