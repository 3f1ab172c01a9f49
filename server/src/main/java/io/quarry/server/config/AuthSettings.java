package io.quarry.server.config;

import static io.quarry.server.config.Auth.ADMIN_ROLE;
import static io.quarry.server.config.Auth.USER_ROLE;

import io.quarry.server.auth.PasswordHash;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The checks of the {@code auth} section ({@link Auth}, {@link User}): passwords, the configured
 * roles beside the built-in ones, and users naming only roles that exist.
 */
final class AuthSettings {
  private AuthSettings() {}

  /** Checks {@code auth.adminPassword} when it is set. */
  static void checkAdminPassword(String adminPassword) {
    if (adminPassword != null) {
      String problem = PasswordHash.problem(adminPassword);
      if (problem != null) {
        throw new IllegalArgumentException("auth.adminPassword " + problem);
      }
    }
  }

  /**
   * The built-in roles ({@code admin}, {@code user}) with the configured ones after them, each
   * checked; {@code user} may be redefined, {@code admin} not.
   */
  static Map<String, Role> withBuiltInRoles(Map<String, Role> roles) {
    Map<String, Role> all = new java.util.LinkedHashMap<>();
    all.put(ADMIN_ROLE, Role.ADMIN);
    all.put(USER_ROLE, Role.USER);
    if (roles != null) {
      roles.forEach(
          (name, role) -> {
            if (name.equals(ADMIN_ROLE)) {
              throw new IllegalArgumentException(
                  "auth.roles.admin: the admin role is built in (every index and capability)"
                      + " and cannot be redefined");
            }
            if (!Auth.validName(name)) {
              throw new IllegalArgumentException(
                  "auth.roles: a role name is 1 to 64 letters, digits or _.-, not '" + name + "'");
            }
            if (role == null) {
              throw new IllegalArgumentException("auth.roles." + name + " has no settings");
            }
            role.check(name);
            all.put(name, role);
          });
    }
    return java.util.Collections.unmodifiableMap(all);
  }

  /** Checks that no user is named twice and every user's roles are in {@code roles}. */
  static void checkUsers(List<User> users, Map<String, Role> roles) {
    Set<String> names = new HashSet<>();
    for (User user : users) {
      if (!names.add(user.name())) {
        throw new IllegalArgumentException("auth.users names '" + user.name() + "' twice");
      }
      for (String role : user.roles()) {
        if (!roles.containsKey(role)) {
          throw new IllegalArgumentException(
              "auth.users: user '"
                  + user.name()
                  + "' has role '"
                  + role
                  + "', which is neither built in (admin, user) nor in auth.roles");
        }
      }
    }
  }

  /** Checks one user's name and password. */
  static void checkUser(String name, String password) {
    if (name == null || !name.matches("[A-Za-z0-9_.@-]{1,64}")) {
      throw new IllegalArgumentException(
          "auth.users: a user name is 1 to 64 letters, digits or _.@-, not '" + name + "'");
    }
    if (name.equals("admin")) {
      throw new IllegalArgumentException(
          "auth.users: 'admin' is always a user; set its password with auth.adminPassword");
    }
    if (password == null || password.isEmpty()) {
      throw new IllegalArgumentException("auth.users: user '" + name + "' has no password");
    }
    String problem = PasswordHash.problem(password);
    if (problem != null) {
      throw new IllegalArgumentException(
          "auth.users: the password of user '" + name + "' " + problem);
    }
  }
}
