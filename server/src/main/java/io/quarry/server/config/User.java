package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A user who may search, besides {@code admin}: a name, a password (a PBKDF2 hash from {@code
 * quarry passwd-hash}, or plain text, which the server warns about at start) and roles (default
 * {@code user}).
 */
public record User(
    @JsonProperty("name") String name,
    @JsonProperty("password") String password,
    @JsonProperty("roles") List<String> roles) {
  public User {
    AuthSettings.checkUser(name, password);
    roles = roles == null || roles.isEmpty() ? List.of(Auth.USER_ROLE) : List.copyOf(roles);
  }

  /** Never the password (a settings record may reach a log line or an error message). */
  @Override
  public String toString() {
    return "User[name=" + name + ", roles=" + roles + "]";
  }
}
